// The settings page's MCP servers: the admin's list (configurations without secret
// values) and how each enabled one is doing. Asking the servers can take a while (an
// unreachable one up to the backend's connect time-out), so the list shows first and
// the health fills in when the answer comes; every change asks again.
import { reactive } from 'vue'
import { api } from '../api/http'
import { mcp } from '../api/routes'
import type { McpServer, McpServerConfig, McpServerInput } from '../api/types'

const ADMIN = mcp.admin

export const mcpAdmin = reactive({
  servers: [] as McpServerConfig[],
  /** What the MCP servers' state said last; `null` while it is being asked. */
  statuses: null as McpServer[] | null,
  loaded: false,
  /** Why the health could not be asked. */
  statusError: '',
})

/** Only the latest question's answer is shown. */
let asked = 0

async function askStatuses(): Promise<void> {
  const mine = ++asked
  mcpAdmin.statuses = null
  mcpAdmin.statusError = ''
  try {
    const statuses = await api<McpServer[]>('GET', mcp.servers)
    if (mine === asked) mcpAdmin.statuses = statuses
  } catch (err) {
    if (mine === asked) mcpAdmin.statusError = (err as Error).message
  }
}

const byName = (a: McpServerConfig, b: McpServerConfig) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)

function keep(server: McpServerConfig): void {
  mcpAdmin.servers = [...mcpAdmin.servers.filter((s) => s.name !== server.name), server].sort(byName)
  void askStatuses()
}

export async function loadMcpServers(): Promise<void> {
  mcpAdmin.servers = await api<McpServerConfig[]>('GET', ADMIN)
  mcpAdmin.loaded = true
  void askStatuses()
}

export async function addMcpServer(input: McpServerInput): Promise<void> {
  keep(await api<McpServerConfig>('POST', ADMIN, input))
}

export async function editMcpServer(name: string, input: McpServerInput): Promise<void> {
  keep(await api<McpServerConfig>('PATCH', `${ADMIN}/${encodeURIComponent(name)}`, input))
}

export async function deleteMcpServer(name: string): Promise<void> {
  await api('DELETE', `${ADMIN}/${encodeURIComponent(name)}`)
  mcpAdmin.servers = mcpAdmin.servers.filter((s) => s.name !== name)
}
