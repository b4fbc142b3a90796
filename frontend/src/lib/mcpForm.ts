// The MCP server form of the settings page: what an admin types, turned into what the
// admin API takes, and how a server is doing. Header values never come back from the
// API: a stored one shows as "set" and is sent as `null` (keep it) unless the admin
// types a new value. A stdio server takes no environment variables (its sandbox could
// read them), so its form has none and always sends `env: {}`, which also removes
// those a server stored before that rule has.
import type { McpServer, McpServerConfig, McpServerInput } from '../api/types'

/** One header. `stored`: the server has a value for this key, kept while `value` is empty. */
export interface SecretRow {
  key: string
  value: string
  stored: boolean
}

export interface McpForm {
  name: string
  transport: 'http' | 'stdio'
  url: string
  headers: SecretRow[]
  command: string
  /** One argument per line. */
  args: string
}

export function newForm(): McpForm {
  return { name: '', transport: 'http', url: '', headers: [], command: '', args: '' }
}

const storedRows = (keys: string[] | null | undefined): SecretRow[] => (keys ?? []).map((key) => ({ key, value: '', stored: true }))

/** The form for editing `server`, its secrets shown as set. */
export function formOf(server: McpServerConfig): McpForm {
  return {
    name: server.name,
    transport: server.transport,
    url: server.url ?? '',
    headers: storedRows(server.header_names),
    command: server.command ?? '',
    args: (server.args ?? []).join('\n'),
  }
}

/** The rows as the API takes them: typed values, `null` to keep a stored one. Rows
 * without a key are left out; so are removed rows, which drops them on the server. */
function secrets(rows: SecretRow[]): Record<string, string | null> {
  const entries = rows
    .filter((row) => row.key.trim())
    .map((row) => [row.key.trim(), row.value === '' && row.stored ? null : row.value] as const)
  return Object.fromEntries(entries)
}

/** What to send: the whole server when adding, the transport's fields when editing (a
 * server keeps its name and transport). */
export function inputOf(form: McpForm, editing: boolean): McpServerInput {
  const fields: McpServerInput =
    form.transport === 'http'
      ? { url: form.url.trim(), headers: secrets(form.headers) }
      : {
          command: form.command.trim(),
          args: form.args.split('\n').map((arg) => arg.trim()).filter(Boolean),
          env: {},
        }
  return editing ? fields : { name: form.name.trim(), transport: form.transport, ...fields }
}

export type Health =
  | { kind: 'disabled' }
  | { kind: 'checking' }
  | { kind: 'per-chat' }
  | { kind: 'has-env'; names: string[] }
  | { kind: 'ok'; tools: McpServer['tools'] }
  | { kind: 'error'; message: string }

/** The variables a stdio server stored before stdio servers took none: while it has
 * any, it is not started. */
export const storedEnv = (server: McpServerConfig): string[] => (server.transport === 'stdio' ? (server.env_names ?? []) : [])

/** How `server` is doing, from what the MCP servers' state said (`null`: not yet asked).
 * A stdio server lists its tools in each chat's sandbox, for that chat only (`per-chat`). */
export function healthOf(server: McpServerConfig, statuses: McpServer[] | null): Health {
  const names = storedEnv(server)
  if (names.length) return { kind: 'has-env', names }
  if (!server.enabled) return { kind: 'disabled' }
  const status = statuses?.find((s) => s.name === server.name)
  if (!status) return { kind: 'checking' }
  if (status.not_started) return { kind: 'per-chat' }
  return status.error ? { kind: 'error', message: status.error } : { kind: 'ok', tools: status.tools }
}
