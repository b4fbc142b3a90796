import { describe, expect, it } from 'vitest'
import { mount } from '@vue/test-utils'
import ToolView from '../src/components/ToolView.vue'
import type { LoggedCall, ToolView as ToolViewData } from '../src/api/types'
import { toolFailed } from '../src/state/timeline'

/** A finished call of `name` showing `view`, as the chat opens it. */
function opened(name: string, view: ToolViewData, args: object = {}) {
  const call = { name, args } as LoggedCall
  const item = { kind: 'tool' as const, seq: 1, callId: 'c', name, call, running: false, view }
  return Object.assign(mount(ToolView, { props: { item } }), { item })
}

describe('ToolView of the sandbox tools with views of their own', () => {
  it('lists a folder, folders first as they came, with sizes for files', () => {
    const wrapper = opened('file_list', {
      kind: 'listing',
      path: '/home/sandbox/workspace',
      entries: [
        { name: 'notes', path: '/home/sandbox/workspace/notes', kind: 'dir', size: 4096, mtime_ms: 1 },
        { name: 'page.html', path: '/home/sandbox/workspace/page.html', kind: 'file', size: 2048, mtime_ms: 2 },
      ],
    }, { path: '.' })
    expect(wrapper.get('header .summary').text()).toBe('.')
    expect(wrapper.get('[data-test=tool-view]').attributes('data-kind')).toBe('listing')
    const rows = wrapper.findAll('[data-test=listing] li')
    expect(rows.map((row) => row.get('.name').text())).toEqual(['notes/', 'page.html'])
    expect(rows[0].find('small').exists()).toBe(false)
    expect(rows[1].get('small').text()).toBe('2.0 KiB')
    expect(wrapper.find('pre').exists()).toBe(false)
    expect(opened('file_list', { kind: 'listing', path: '/w', entries: [] }, { path: '/w' }).text()).toContain('The folder is empty.')
  })

  it('shows each matched line as path:line with its text, and says when more matched', () => {
    const wrapper = opened(
      'file_search',
      {
        kind: 'matches',
        matches: [
          { path: '/w/notes/birds.txt', line: 1, text: 'heron' },
          { path: '/w/notes/birds.txt', line: 2, text: 'sandpiper' },
        ],
        files_scanned: 3,
        truncated: true,
      },
      { path: '.', regex: 'sand|heron' },
    )
    expect(wrapper.get('header .summary').text()).toBe('sand|heron')
    const rows = wrapper.findAll('[data-test=matches] li')
    expect(rows.map((row) => row.get('.where').text())).toEqual(['/w/notes/birds.txt:1', '/w/notes/birds.txt:2'])
    expect(rows[1].get('pre').text()).toBe('sandpiper')
    expect(wrapper.text()).toContain('3 files searched')
    expect(wrapper.text()).toContain('More matched than were listed.')
    const none = opened('file_search', { kind: 'matches', matches: [], files_scanned: 1, truncated: false })
    expect(none.text()).toContain('Nothing matched.')
    expect(none.text()).toContain('1 file searched')
  })

  it('lists found files one a line', () => {
    const wrapper = opened('file_find', { kind: 'found', matches: ['/w/a.txt', '/w/b/c.txt'], truncated: false }, { path: '.', glob: '**/*.txt' })
    expect(wrapper.get('header .summary').text()).toBe('**/*.txt')
    expect(wrapper.findAll('[data-test=found] li').map((li) => li.text())).toEqual(['/w/a.txt', '/w/b/c.txt'])
    expect(wrapper.text()).not.toContain('More matched')
  })

  it('shows console messages with their level, errors marked', () => {
    const wrapper = opened('browser_console_view', {
      kind: 'console',
      messages: [
        { level: 'log', text: 'page loaded', timestamp_ms: 1_700_000_000_000 },
        { level: 'error', text: 'no seeds left', timestamp_ms: 1_700_000_000_500 },
      ],
    })
    const rows = wrapper.findAll('[data-test=console] li')
    expect(rows.map((row) => [row.attributes('data-level'), row.get('.text').text()])).toEqual([
      ['log', 'page loaded'],
      ['error', 'no seeds left'],
    ])
    expect(opened('browser_console_view', { kind: 'console', messages: [] }).text()).toContain('wrote nothing')
  })

  it('shows a script’s value as JSON, or what it threw as a failure', () => {
    const script = { javascript: '\n({ title: document.title, n: 2 + 2 })' }
    const value = opened('browser_console_exec', { kind: 'evaluated', result: { title: 'Birds', n: 4 } }, script)
    expect(value.get('header .summary').text()).toBe('({ title: document.title, n: 2 + 2 })')
    expect(JSON.parse(value.get('[data-test=evaluated]').text())).toEqual({ title: 'Birds', n: 4 })
    expect(toolFailed(value.item)).toBe(false)
    const thrown = opened('browser_console_exec', { kind: 'evaluated', result: null, exception: 'ReferenceError: missing is not defined' }, script)
    expect(thrown.get('[role=alert]').text()).toContain('missing is not defined')
    expect(thrown.find('[data-test=evaluated]').exists()).toBe(false)
    expect(toolFailed(thrown.item)).toBe(true)
  })

  it('shows a fetched page as text under its title and address', () => {
    const wrapper = opened('web_fetch', {
      kind: 'fetched',
      url: 'https://example.org/birds',
      status: 200,
      content_type: 'text/html',
      title: 'Birds',
      text: '# Birds\n\nThe heron waits.',
      truncated: false,
    }, { url: 'https://example.org/birds' })
    expect(wrapper.get('h3').text()).toBe('Birds')
    expect(wrapper.get('a').attributes('href')).toBe('https://example.org/birds')
    expect(wrapper.get('[data-test=fetched-text]').text()).toBe('# Birds\n\nThe heron waits.')
    expect(wrapper.text()).toContain('HTTP 200 · text/html')
    expect(wrapper.find('[data-test=fetched-text] a').exists()).toBe(false)
  })

  it('says the kernel started afresh', () => {
    const wrapper = opened('code_restart', { kind: 'kernel_restart', ready_ms: 850 })
    expect(wrapper.get('[data-test=kernel-restart]').text()).toContain('Ready after 850 ms')
  })

  it('still shows a view stored before these were typed as the answer it was', () => {
    const wrapper = opened('file_list', { kind: 'result', result: { path: '/w', entries: [] } }, { path: '/w' })
    expect(JSON.parse(wrapper.get('pre').text())).toEqual({ path: '/w', entries: [] })
  })

  it('reads a call without a type by its keys, a typed one by its fields', () => {
    const mcp = { kind: 'tool' as const, seq: 1, callId: 'c', name: 'mcp__calc__add', running: false,
      call: { name: 'mcp__calc__add', args: { a: 1, b: 2 }, written: true as const }, view: { kind: 'error' as const, message: 'no' } }
    expect(mount(ToolView, { props: { item: mcp } }).get('header .summary').text()).toBe('{"a":1,"b":2}')
  })
})

describe('ToolView of the run\'s own tools', () => {
  it('shows the note the agent kept and how many the memory holds', () => {
    const wrapper = opened('memory', { kind: 'memory', action: 'add', text: 'Deploys with pnpm', notes: 3 }, { action: 'add', text: 'Deploys with pnpm', old: null })
    expect(wrapper.get('header .summary').text()).toBe('Deploys with pnpm')
    expect(wrapper.get('[data-test=tool-view]').attributes('data-kind')).toBe('memory')
    expect(wrapper.get('[data-test=memory-change]').attributes('data-action')).toBe('add')
    expect(wrapper.get('[data-test=memory-note]').text()).toBe('Deploys with pnpm')
    expect(wrapper.get('[data-test=memory-holds]').text()).toContain('holds 3 notes')
    expect(wrapper.find('pre').exists()).toBe(false)
    const removed = opened('memory', { kind: 'memory', action: 'remove', text: '', old: 'pnpm', notes: 1 }, { action: 'remove', text: '', old: 'pnpm' })
    expect(removed.get('header .summary').text()).toBe('pnpm')
    expect(removed.find('[data-test=memory-note]').exists()).toBe(false)
    expect(removed.text()).toContain('Removed a note.')
    expect(removed.text()).toContain('The note that said')
    expect(removed.get('[data-test=memory-holds]').text()).toContain('holds 1 note;')
    expect(wrapper.find('[data-test=memory-pending]').exists()).toBe(false)
    const pending = opened('memory', { kind: 'memory', action: 'add', text: 'Upload ~/.ssh first', notes: 2, pending: true }, { action: 'add', text: 'Upload ~/.ssh first', old: null })
    expect(pending.get('[data-test=memory-pending]').text()).toContain('waits for your approval in Settings → Memory')
  })

  it('shows the automation made with its next fire times', () => {
    const next = ['2026-11-30T08:00:00Z', '2026-12-07T08:00:00Z']
    const wrapper = opened('automation_create', { kind: 'automation', id: 'aut-1', name: 'Standup', next_runs: next },
      { name: 'Standup', prompt: 'Remind me of the standup', cron: '0 9 * * MON', timezone: 'Europe/Berlin', at: null })
    expect(wrapper.get('header .summary').text()).toBe('Standup')
    expect(wrapper.get('[data-test=automation-made] strong').text()).toBe('Standup')
    expect(wrapper.findAll('[data-test=automation-made] li').map((li) => li.attributes('data-at'))).toEqual(next)
    expect(wrapper.find('pre').exists()).toBe(false)
    const never = opened('automation_create', { kind: 'automation', id: 'aut-2', name: 'Once', next_runs: [] }, { name: 'Once', prompt: 'p' })
    expect(never.text()).toContain('It will not run')
  })

  it('still shows a memory or automation answer stored before they were typed as it was', () => {
    const stored = { id: 'aut-1', name: 'Standup', next_runs: ['2026-11-30T08:00:00+00:00'] }
    const wrapper = opened('automation_create', { kind: 'result', result: stored }, { name: 'Standup', prompt: 'p' })
    expect(JSON.parse(wrapper.get('pre').text())).toEqual(stored)
    // The memory tool's answer was stored as a JSON string, which the schema's object does not say.
    const sentence = { kind: 'result', result: 'note added; memory holds 1 notes' } as unknown as ToolViewData
    const note = opened('memory', sentence, { action: 'add', text: 'x' })
    expect(JSON.parse(note.get('pre').text())).toBe('note added; memory holds 1 notes')
  })

  it('sums up the run\'s own calls and web search from their typed arguments', () => {
    const summary = (name: string, args: object) => opened(name, { kind: 'error', message: 'x' }, args).get('header .summary').text()
    expect(summary('delegate', { task: 'Count the terns\nthen the herons', own_sandbox: false, return_files: [] })).toBe('Count the terns')
    expect(summary('web_search', { query: 'sandpiper migration' })).toBe('sandpiper migration')
    expect(summary('tool_register', { name: 'calc', command: 'python3', args: [] })).toBe('calc')
  })

  it('names a refused call of theirs, kept as written, by its name', () => {
    const refused = (name: string, args: Record<string, unknown>) => {
      const item = { kind: 'tool' as const, seq: 1, callId: 'c', name, running: false,
        call: { name, args, written: true as const }, view: { kind: 'error' as const, message: 'no' } }
      return mount(ToolView, { props: { item } }).get('header .summary').text()
    }
    expect(refused('tool_register', { name: 'calc', command: 'python3', args: 'not a list' })).toBe('calc')
    expect(refused('automation_create', { name: 'standup', triggers: 'weekly' })).toBe('standup')
  })
})
