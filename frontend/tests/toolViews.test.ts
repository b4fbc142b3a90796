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
