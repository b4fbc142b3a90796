// The backend's wire types (see the API's /openapi.json), as the app reads them.

export type SessionStatus = 'pending' | 'running' | 'waiting' | 'completed' | 'failed'
export type StepStatus = 'pending' | 'running' | 'completed' | 'failed'

export interface User {
  id: string
  email: string
  role: 'admin' | 'user'
}

export interface TokenPair {
  access_token: string
  refresh_token: string
  expires_in: number
}

export interface SignedIn {
  user: User
  tokens: TokenPair
}

export interface Session {
  id: string
  title: string
  status: SessionStatus
  created_at: string
  updated_at: string
  last_message_preview?: string | null
  unread_count: number
  last_seq: number
  share_token?: string | null
}

export interface SessionPage {
  sessions: Session[]
  next_before?: string | null
}

export interface PlanStep {
  id: string
  description: string
  status: StepStatus
}

export interface ToolView {
  kind: 'shell' | 'file' | 'browser' | 'search' | 'mcp' | 'result' | 'error'
  [field: string]: unknown
}

export type AgentEvent =
  | { type: 'message'; role: 'user' | 'assistant'; content: string; attachments?: string[] }
  | { type: 'plan'; steps: PlanStep[] }
  | { type: 'step'; step_id: string; status: StepStatus; description: string }
  | {
      type: 'tool'
      call_id: string
      name: string
      status: 'calling' | 'called'
      args: Record<string, unknown>
      view?: ToolView
    }
  | { type: 'title'; title: string }
  | { type: 'wait'; prompt?: string; take_over: boolean }
  | { type: 'done' }
  | { type: 'error'; message: string }
  | { type: 'status'; status: SessionStatus }
  | { type: 'usage'; prompt_tokens: number; completion_tokens: number }
  /** The agent's working memory of one model request; not shown. */
  | { type: 'memory'; after: number; messages: unknown[] }

/** An MCP server of the deployment as `/api/v1/mcp/servers` gives it (no secrets). */
export interface McpServer {
  name: string
  transport: 'http' | 'stdio'
  url?: string
  tools: { name: string; description: string }[]
  error?: string
}

export interface StoredEvent {
  session_id: string
  seq: number
  at: string
  event: AgentEvent
}

export interface FileEntry {
  name: string
  path: string
  kind: 'file' | 'dir' | 'symlink' | 'other'
  size: number
  mtime_ms: number
}

export interface Listing {
  path: string
  entries: FileEntry[]
}

export interface TerminalTicket {
  ticket: string
  expires_in_secs: number
  url: string
}

export interface VncTicket {
  ticket: string
  mode: 'view' | 'control'
  expires_in_secs: number
  url: string
}

export interface FileChange {
  kind: 'created' | 'modified' | 'removed'
  path: string
}

/** An MCP server's configuration as `/api/v1/admin/mcp/servers` gives it to admins:
 * the names of its headers and environment variables, never their values. */
export interface McpServerConfig {
  name: string
  transport: 'http' | 'stdio'
  enabled: boolean
  url?: string
  header_names?: string[]
  command?: string
  args?: string[]
  env_names?: string[]
  created_at: string
  updated_at: string
}

/** What an admin sends to add a server (every field it needs) or change one (only what
 * changes). In `headers` and `env` the keys given are the new set; `null` keeps a
 * stored value. */
export interface McpServerInput {
  name?: string
  transport?: 'http' | 'stdio'
  enabled?: boolean
  url?: string
  headers?: Record<string, string | null>
  command?: string
  args?: string[]
  env?: Record<string, string | null>
}
