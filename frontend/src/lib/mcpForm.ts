// The MCP server form of the settings page: what an admin types, turned into what the
// admin API takes, and how a server is doing. Header and environment values never come
// back from the API: a stored one shows as "set" and is sent as `null` (keep it) unless
// the admin types a new value.
import type { McpServer, McpServerConfig, McpServerInput } from '../api/types'

/** One header or environment variable. `stored`: the server has a value for this key,
 * kept while `value` is empty. */
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
  env: SecretRow[]
}

export function newForm(): McpForm {
  return { name: '', transport: 'http', url: '', headers: [], command: '', args: '', env: [] }
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
    env: storedRows(server.env_names),
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
          env: secrets(form.env),
        }
  return editing ? fields : { name: form.name.trim(), transport: form.transport, ...fields }
}

export type Health =
  | { kind: 'disabled' }
  | { kind: 'checking' }
  | { kind: 'not-started' }
  | { kind: 'ok'; tools: McpServer['tools'] }
  | { kind: 'error'; message: string }

/** How `server` is doing, from what `/api/v1/mcp/servers` said (`null`: not yet asked). */
export function healthOf(server: McpServerConfig, statuses: McpServer[] | null): Health {
  if (!server.enabled) return { kind: 'disabled' }
  const status = statuses?.find((s) => s.name === server.name)
  if (!status) return { kind: 'checking' }
  if (status.not_started) return { kind: 'not-started' }
  return status.error ? { kind: 'error', message: status.error } : { kind: 'ok', tools: status.tools }
}
