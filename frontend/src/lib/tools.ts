// How a tool call reads in the chat: an icon, a verb and the one argument that says
// what it did (the command, the file, the address, the query).
import { strings } from '../strings'

/** The server and tool an MCP tool's name (`mcp__<server>__<tool>`) stands for. */
export function mcpParts(name: string): { server: string; tool: string } | null {
  const match = /^mcp__(.+?)__(.+)$/.exec(name)
  return match ? { server: match[1], tool: match[2] } : null
}

export function toolIcon(name: string): string {
  if (name.startsWith('shell_')) return 'terminal'
  if (name.startsWith('file_')) return name === 'file_replace' || name === 'file_write' ? 'edit' : 'file'
  if (name.startsWith('browser_')) return 'globe'
  if (name.startsWith('web_')) return 'search'
  if (name.startsWith('code_')) return 'code'
  if (name === 'delegate') return 'share'
  return 'tool'
}

export function toolLabel(name: string): string {
  const labels = strings.tools.labels
  if (labels[name]) return labels[name]
  if (name.startsWith('shell_')) return labels.shell
  if (name.startsWith('browser_')) return labels.browser
  const mcp = mcpParts(name)
  if (mcp) return `${mcp.tool} (${mcp.server})`
  return name.replace(/_/g, ' ')
}

export function toolSummary(name: string, args: Record<string, unknown>): string {
  const pick = (...keys: string[]) => {
    for (const key of keys) {
      const value = args[key]
      if (typeof value === 'string' && value) return value
      if (typeof value === 'number') return `#${value}`
    }
    return ''
  }
  if (name === 'browser_click' || name === 'browser_input') return pick('index', 'text')
  if (name === 'tool_register' || name === 'automation_create') return pick('name')
  if (name === 'code_run') return pick('code').split('\n').find((line) => line.trim()) ?? ''
  if (mcpParts(name)) {
    const all = Object.keys(args).length ? JSON.stringify(args) : ''
    return all.length > 80 ? `${all.slice(0, 79)}…` : all
  }
  return pick('command', 'path', 'url', 'query', 'pattern', 'text', 'key', 'task')
}

/** A stored image's (screenshot's, chart's) address as this page can load it (set by
 * the chat or the replay). */
export type ImageSource = (url: string) => Promise<string>
export const IMAGES = Symbol('images')

/** Saves the session's code cells as a notebook (set by the chat, not the replay). */
export type NotebookDownload = () => Promise<void>
export const NOTEBOOK = Symbol('notebook')
