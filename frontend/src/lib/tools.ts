// How a tool call reads in the chat: an icon, a verb and the one argument that says
// what it did (the command, the file, the address, the query).
import type { LoggedCall } from '../api/types'
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

/** The one argument that says what a call did. A built-in tool's call is typed (a
 * sandbox tool's arguments are its contract's request, the run's own and the backend's
 * their argument types); any other is read by key, as written. */
export function toolSummary(call: LoggedCall): string {
  if ('written' in call) return writtenSummary(call.name, call.args as Record<string, unknown>)
  const firstLine = (text: string) => text.split('\n').find((line) => line.trim()) ?? ''
  const element = (index?: number | null) => (typeof index === 'number' ? `#${index}` : '')
  switch (call.name) {
    case 'shell_exec':
      return call.args.command
    case 'shell_write_input':
      return call.args.input
    case 'file_read':
    case 'file_write':
    case 'file_replace':
    case 'file_list':
      return call.args.path
    case 'file_find':
      return call.args.glob
    case 'file_search':
      return call.args.regex
    case 'browser_navigate':
    case 'web_fetch':
      return call.args.url
    case 'browser_click':
      return element(call.args.index)
    case 'browser_input':
      return element(call.args.index) || call.args.text
    case 'browser_select':
      return element(call.args.index)
    case 'browser_press_key':
      return call.args.key
    case 'browser_console_exec':
      return firstLine(call.args.javascript)
    case 'code_run':
      return firstLine(call.args.code)
    case 'memory':
      return call.args.text || call.args.old || ''
    case 'automation_create':
    case 'tool_register':
      return call.args.name
    case 'delegate':
      return firstLine(call.args.task)
    case 'web_search':
      return call.args.query
    case 'set_title':
      return call.args.title
    case 'message_notify_user':
      return call.args.text
    case 'message_ask_user':
      return call.args.question
    case 'step_update':
      return call.args.step_id
    case 'shell_view':
    case 'shell_wait':
    case 'shell_kill':
    case 'browser_view':
    case 'browser_move_mouse':
    case 'browser_scroll':
    case 'browser_console_view':
    case 'code_restart':
    case 'plan_update':
      return ''
  }
}

/** A call without a type here (MCP tools, arguments that did not fit), by the keys its
 * arguments usually have. */
function writtenSummary(name: string, args: Record<string, unknown>): string {
  const pick = (...keys: string[]) => {
    for (const key of keys) {
      const value = args[key]
      if (typeof value === 'string' && value) return value
      if (typeof value === 'number') return `#${value}`
    }
    return ''
  }
  if (mcpParts(name)) {
    const all = Object.keys(args).length ? JSON.stringify(args) : ''
    return all.length > 80 ? `${all.slice(0, 79)}…` : all
  }
  // A refused call of the run's own tools keeps its arguments as written: say its name.
  if (name === 'tool_register' || name === 'automation_create') return pick('name')
  return pick('command', 'path', 'url', 'query', 'pattern', 'text', 'key', 'task')
}

/** A stored image's (screenshot's, chart's) address as this page can load it (set by
 * the chat or the replay). */
export type ImageSource = (url: string) => Promise<string>
export const IMAGES = Symbol('images')

/** Saves the session's code cells as a notebook (set by the chat, not the replay). */
export type NotebookDownload = () => Promise<void>
export const NOTEBOOK = Symbol('notebook')
