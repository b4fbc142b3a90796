// What a session's event log looks like on screen: messages, tool calls (a `calling`
// and its `called` merged into one line), questions, errors; the plan with its steps'
// states; title, status and usage. A sub-agent's steps (`delegated` events) go under
// the `delegate` call that started it, as items of their own. Applying the same event twice (a replay after a
// reconnect) changes nothing, because events are taken strictly in sequence order.
import type { AgentEvent, LoggedCall, PlanStep, SessionStatus, StoredEvent, ToolView } from '../api/types'

export type Item =
  | { kind: 'message'; seq: number; role: 'user' | 'assistant'; content: string; attachments: string[] }
  | {
      kind: 'tool'
      seq: number
      callId: string
      name: string
      /** The tool and its arguments: typed for a built-in tool, else as written. */
      call: LoggedCall
      running: boolean
      view?: ToolView
      /** A `delegate` call's sub-agent steps: messages, tool calls, errors. */
      steps?: Item[]
    }
  | { kind: 'wait'; seq: number; prompt: string; takeOver: boolean }
  | { kind: 'error'; seq: number; message: string }
  | { kind: 'done'; seq: number }

export interface Timeline {
  lastSeq: number
  items: Item[]
  plan: PlanStep[]
  title: string | null
  status: SessionStatus | null
  tokens: number
}

export function emptyTimeline(): Timeline {
  return { lastSeq: 0, items: [], plan: [], title: null, status: null, tokens: 0 }
}

/** Applies one stored event (or a replay's, which has its number and event only); false
 * when it was already applied. */
export function applyEvent(timeline: Timeline, stored: Pick<StoredEvent, 'seq' | 'event'>): boolean {
  if (stored.seq <= timeline.lastSeq) return false
  timeline.lastSeq = stored.seq
  const { seq, event } = stored
  switch (event.type) {
    case 'plan':
      timeline.plan = event.steps.map((step) => ({ ...step }))
      break
    case 'step': {
      const step = timeline.plan.find((s) => s.id === event.step_id)
      if (step) {
        step.status = event.status
        if (event.description) step.description = event.description
      }
      break
    }
    case 'title':
      timeline.title = event.title
      break
    case 'status':
      timeline.status = event.status
      break
    case 'usage':
      timeline.tokens += event.prompt_tokens + event.completion_tokens
      break
    case 'delegated': {
      // The latest call with this id (models reuse ids from one answer to the next),
      // looked for from the end, where a running delegation is.
      for (let i = timeline.items.length - 1; i >= 0; i--) {
        const call = timeline.items[i]
        if (call.kind === 'tool' && call.callId === event.call_id) {
          addItem((call.steps ??= []), seq, event.event)
          break
        }
      }
      break
    }
    default:
      addItem(timeline.items, seq, event)
  }
  return true
}

/** Adds what an event shows to a list of items (the chat's, or a sub-agent's). */
function addItem(items: Item[], seq: number, event: AgentEvent) {
  switch (event.type) {
    case 'message':
      items.push({
        kind: 'message',
        seq,
        role: event.role,
        content: event.content,
        attachments: event.attachments ?? [],
      })
      break
    case 'tool': {
      const open = items.find(
        (item) => item.kind === 'tool' && item.callId === event.call_id && item.running,
      )
      if (open && open.kind === 'tool') {
        open.running = event.status === 'calling'
        open.view = event.view ?? open.view
      } else {
        items.push({
          kind: 'tool',
          seq,
          callId: event.call_id,
          name: event.name,
          call: event,
          running: event.status === 'calling',
          view: event.view ?? undefined,
        })
      }
      break
    }
    case 'wait':
      items.push({ kind: 'wait', seq, prompt: event.prompt ?? '', takeOver: event.take_over ?? false })
      break
    case 'error':
      items.push({ kind: 'error', seq, message: event.message })
      break
    case 'done':
      items.push({ kind: 'done', seq })
      break
  }
}

/** Whether a tool call ended in failure (its view says so; a code cell by its error,
 * its timeout or a lost kernel). */
export function toolFailed(item: Extract<Item, { kind: 'tool' }>): boolean {
  const view = item.view
  if (item.running || !view) return false
  if (view.kind === 'code') return Boolean(view.error || view.timed_out || view.kernel_restarted)
  if (view.kind === 'tool_register') return Boolean(view.error)
  if (view.kind === 'evaluated') return Boolean(view.exception)
  return view.kind === 'error'
}

/** The question still waiting for the person: the last item, if it is one. */
export function openQuestion(timeline: Timeline): Extract<Item, { kind: 'wait' }> | null {
  const last = timeline.items[timeline.items.length - 1]
  return last?.kind === 'wait' && timeline.status === 'waiting' ? last : null
}

type ToolItem = Extract<Item, { kind: 'tool' }>

/** Changes with every browser call the agent starts or ends: a call may have started the
 * desktop, so the desktop panel asks again whether it runs. */
export function desktopActivity(timeline: Timeline): number {
  let activity = 0
  for (const item of timeline.items) {
    if (item.kind === 'tool' && item.name.startsWith('browser_')) activity += item.running ? 1 : 2
  }
  return activity
}

/** The agent's last tool call with something to show. */
export function lastToolView(timeline: Timeline): ToolItem | null {
  for (let i = timeline.items.length - 1; i >= 0; i--) {
    const item = timeline.items[i]
    if (item.kind === 'tool' && item.view) return item
  }
  return null
}
