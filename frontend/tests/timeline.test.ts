import { describe, expect, it } from 'vitest'
import { applyEvent, desktopActivity, emptyTimeline, lastToolView, openQuestion, toolFailed } from '../src/state/timeline'
import type { AgentEvent, StoredEvent } from '../src/api/types'

let seq = 0
const at = (event: AgentEvent, n = ++seq): StoredEvent => ({ session_id: 's', seq: n, at: '', event })

describe('timeline', () => {
  it('merges a tool call’s calling and called into one line', () => {
    seq = 0
    const t = emptyTimeline()
    applyEvent(t, at({ type: 'tool', call_id: 'c1', name: 'shell_exec', status: 'calling', args: { command: 'ls' } }))
    expect(t.items).toHaveLength(1)
    expect(t.items[0]).toMatchObject({ kind: 'tool', running: true })
    applyEvent(t, at({ type: 'tool', call_id: 'c1', name: 'shell_exec', status: 'called', args: { command: 'ls' }, view: { kind: 'shell', command: 'ls', state: 'exited', exit_code: 0, output: 'a\n' } }))
    expect(t.items).toHaveLength(1)
    const line = t.items[0]
    expect(line).toMatchObject({ kind: 'tool', running: false, call: { args: { command: 'ls' } }, view: { output: 'a\n' } })
    expect(line.kind === 'tool' && toolFailed(line)).toBe(false)
  })

  it('folds a sub-agent’s steps under the delegate call that started it', () => {
    seq = 0
    const t = emptyTimeline()
    const delegate = { type: 'tool', call_id: 'd1', name: 'delegate', args: { task: 'Count' }, written: true } as const
    applyEvent(t, at({ ...delegate, status: 'calling' }))
    const shell = { type: 'tool', call_id: 'c1', name: 'shell_exec', args: { command: 'wc -l a' } } as const
    applyEvent(t, at({ type: 'delegated', call_id: 'd1', event: { ...shell, status: 'calling' } }))
    applyEvent(t, at({ type: 'delegated', call_id: 'd1', event: { ...shell, status: 'called', view: { kind: 'shell', command: 'wc -l a', state: 'exited', exit_code: 0, output: '3 a' } } }))
    applyEvent(t, at({ type: 'delegated', call_id: 'd1', event: { type: 'message', role: 'assistant', content: 'Three.' } }))
    // The sub-agent's tokens are the session's.
    applyEvent(t, at({ type: 'usage', prompt_tokens: 10, completion_tokens: 2, model: 'coder' }))
    applyEvent(t, at({ ...delegate, status: 'called', view: { kind: 'delegation', model: 'coder', own_sandbox: false, answer: 'Three.', files: [] } }))
    expect(t.items).toHaveLength(1)
    const call = t.items[0]
    expect(call).toMatchObject({ kind: 'tool', name: 'delegate', running: false, view: { kind: 'delegation' } })
    const steps = call.kind === 'tool' ? call.steps : undefined
    expect(steps?.map((s) => s.kind)).toEqual(['tool', 'message'])
    expect(steps?.[0]).toMatchObject({ running: false, view: { output: '3 a' } })
    expect(t.tokens).toBe(12)
  })

  it('ignores events it has already applied (a replay after reconnecting)', () => {
    seq = 0
    const t = emptyTimeline()
    const first = at({ type: 'message', role: 'user', content: 'hi' })
    const second = at({ type: 'message', role: 'assistant', content: 'hello' })
    expect(applyEvent(t, first)).toBe(true)
    expect(applyEvent(t, second)).toBe(true)
    expect(applyEvent(t, first)).toBe(false)
    expect(applyEvent(t, second)).toBe(false)
    expect(t.items.map((i) => i.kind === 'message' && i.content)).toEqual(['hi', 'hello'])
    expect(t.lastSeq).toBe(2)
  })

  it('keeps the plan’s steps current and sums usage', () => {
    seq = 0
    const t = emptyTimeline()
    applyEvent(t, at({ type: 'plan', steps: [{ id: '1', description: 'a', status: 'pending' }, { id: '2', description: 'b', status: 'pending' }] }))
    applyEvent(t, at({ type: 'step', step_id: '1', status: 'completed', description: '' }))
    applyEvent(t, at({ type: 'step', step_id: '2', status: 'failed', description: 'b, differently' }))
    expect(t.plan).toEqual([
      { id: '1', description: 'a', status: 'completed' },
      { id: '2', description: 'b, differently', status: 'failed' },
    ])
    applyEvent(t, at({ type: 'usage', prompt_tokens: 100, completion_tokens: 20 }))
    applyEvent(t, at({ type: 'usage', prompt_tokens: 10, completion_tokens: 2 }))
    expect(t.tokens).toBe(132)
  })

  it('marks failed tools and the question still waiting for an answer', () => {
    seq = 0
    const t = emptyTimeline()
    applyEvent(t, at({ type: 'tool', call_id: 'c', name: 'file_read', status: 'calling', args: { path: 'a.txt' } }))
    applyEvent(t, at({ type: 'tool', call_id: 'c', name: 'file_read', status: 'called', args: { path: 'a.txt' }, view: { kind: 'error', message: 'no such file' } }))
    const line = t.items[0]
    expect(line.kind === 'tool' && toolFailed(line)).toBe(true)
    const cell = { code: 'x', language: 'python' as const, stdout: '', stderr: '', outputs: [] }
    applyEvent(t, at({ type: 'tool', call_id: 'd', name: 'code_run', status: 'called', args: { code: 'x' }, view: { kind: 'code', ...cell } }))
    applyEvent(t, at({ type: 'tool', call_id: 'e', name: 'code_run', status: 'called', args: { code: 'x' }, view: { kind: 'code', ...cell, timed_out: true } }))
    const [ran, timedOut] = t.items.slice(1)
    expect(ran.kind === 'tool' && toolFailed(ran)).toBe(false)
    expect(timedOut.kind === 'tool' && toolFailed(timedOut)).toBe(true)
    applyEvent(t, at({ type: 'wait', prompt: 'CSV or JSON?', take_over: false }))
    expect(openQuestion(t)).toBeNull()
    applyEvent(t, at({ type: 'status', status: 'waiting' }))
    expect(openQuestion(t)).toMatchObject({ prompt: 'CSV or JSON?' })
    applyEvent(t, at({ type: 'message', role: 'user', content: 'CSV' }))
    expect(openQuestion(t)).toBeNull()
  })

  it('tells the desktop panel of each browser call, and the workspace the last tool view', () => {
    seq = 0
    const t = emptyTimeline()
    const shell = { type: 'tool', call_id: 's', name: 'shell_exec', args: { command: 'ls' } } as const
    applyEvent(t, at({ ...shell, status: 'calling' }))
    expect(lastToolView(t)).toBeNull()
    applyEvent(t, at({ ...shell, status: 'called', view: { kind: 'shell', command: 'ls', state: 'exited', exit_code: 0, output: '' } }))
    expect(desktopActivity(t)).toBe(0)
    expect(lastToolView(t)).toMatchObject({ callId: 's' })
    const seen = new Set([desktopActivity(t)])
    const browse = { type: 'tool', call_id: 'b', name: 'browser_navigate', args: { url: 'about:blank' } } as const
    applyEvent(t, at({ ...browse, status: 'calling' }))
    seen.add(desktopActivity(t))
    applyEvent(t, at({ ...browse, status: 'called', view: { kind: 'error', message: 'no page' } }))
    seen.add(desktopActivity(t))
    expect(seen.size).toBe(3)
    expect(lastToolView(t)).toMatchObject({ callId: 'b' })
  })
})
