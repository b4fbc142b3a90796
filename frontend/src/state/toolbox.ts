// The tool box from a chat: keeping a tool the agent registered there (from its
// "Registered a tool" line or the Tools tab), and a source file the Tools tab asks the
// Files panel to show.
import { ref, type InjectionKey, type Ref } from 'vue'
import { api } from '../api/http'
import { toolbox } from '../api/routes'
import type { KeptTool } from '../api/types'

/** Keeps the server registered as `name` in the chat `sessionId`. */
export function keepTool(sessionId: string, name: string): Promise<KeptTool> {
  return api<KeptTool>('POST', toolbox.keep, { session_id: sessionId, name })
}

/** A file of the chat's sandbox to show in its Files panel (relative paths start at the
 *  workspace); the panel takes it and sets it back to `null`. */
export const fileToReveal = ref<string | null>(null)

/** The person's own chat a tool view shows in (provided by the workspace; a shared
 *  replay has none), where a registered tool can be kept. */
export const KEEP_IN: InjectionKey<Ref<string | null>> = Symbol('keep-in')
