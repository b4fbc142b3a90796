import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import ApiKeys from '../src/components/ApiKeys.vue'
import Composer from '../src/components/Composer.vue'
import PlanCard from '../src/components/PlanCard.vue'
import ToolLine from '../src/components/ToolLine.vue'
import FileView from '../src/components/tools/FileView.vue'
import ToolView from '../src/components/ToolView.vue'
import ToolsPanel from '../src/components/ToolsPanel.vue'
import type { Model, ToolView as ToolViewData } from '../src/api/types'
import TimelineList from '../src/components/TimelineList.vue'
import { toolFailed } from '../src/state/timeline'

/** A composer whose sends are recorded and answered with `accepted`. */
function composer(running = false, accepted = true) {
  const sent: [string, string[]][] = []
  const submit = async (content: string, attachments: string[]) => {
    sent.push([content, attachments])
    return accepted
  }
  const wrapper = mount(Composer, { props: { draftKey: 'test', running, ensureSession: async () => 's1', submit } })
  return Object.assign(wrapper, { sent })
}

describe('Composer', () => {
  beforeEach(() => localStorage.clear())

  it('sends with Enter and keeps Shift+Enter for a new line', async () => {
    const wrapper = composer()
    const box = wrapper.get('[data-test=composer]')
    await box.setValue('first line')
    await box.trigger('keydown', { key: 'Enter', shiftKey: true })
    expect(wrapper.sent).toEqual([])
    await box.trigger('keydown', { key: 'Enter' })
    await flushPromises()
    expect(wrapper.sent).toEqual([['first line', []]])
    expect((box.element as HTMLTextAreaElement).value).toBe('')
  })

  it('keeps the draft when the send fails', async () => {
    const wrapper = composer(false, false)
    const box = wrapper.get('[data-test=composer]')
    await box.setValue('do not lose me')
    await box.trigger('keydown', { key: 'Enter' })
    await flushPromises()
    expect(wrapper.sent).toEqual([['do not lose me', []]])
    expect((box.element as HTMLTextAreaElement).value).toBe('do not lose me')
    expect(localStorage.getItem('sandpiper.draft.test')).toBe('do not lose me')
  })

  it('does not send an empty message', async () => {
    const wrapper = composer()
    await wrapper.get('[data-test=composer]').setValue('   ')
    await wrapper.get('[data-test=composer]').trigger('keydown', { key: 'Enter' })
    await flushPromises()
    expect(wrapper.sent).toEqual([])
    expect(wrapper.get('[data-test=send]').attributes('disabled')).toBeDefined()
  })

  it('keeps the draft across a remount (a reload, an expired sign-in)', async () => {
    const first = composer()
    await first.get('[data-test=composer]').setValue('half-written thought')
    first.unmount()
    const second = composer()
    expect((second.get('[data-test=composer]').element as HTMLTextAreaElement).value).toBe('half-written thought')
  })

  it('offers Stop only while the agent works', async () => {
    expect(composer(false).find('[data-test=stop]').exists()).toBe(false)
    const running = composer(true)
    await running.get('[data-test=stop]').trigger('click')
    expect(running.emitted('stop')).toHaveLength(1)
  })

  it('shows the chat\'s model when there is a choice, and asks for another between turns', async () => {
    const model = (name: string, isDefault = false): Model => ({
      name,
      context_tokens: 128000,
      supports_tools: true,
      supports_images: false,
      default: isDefault,
    })
    const props = { draftKey: 'test', running: false, ensureSession: async () => 's1', submit: async () => true }
    const one = mount(Composer, { props: { ...props, models: [model('planner', true)], model: 'planner' } })
    expect(one.find('[data-test=model]').exists()).toBe(false)

    const chatty = { ...model('chatty'), supports_tools: false }
    const two = mount(Composer, { props: { ...props, models: [model('planner', true), model('coder'), chatty], model: 'coder' } })
    const select = two.get<HTMLSelectElement>('[data-test=model]')
    const options = select.findAll('option')
    expect(options.map((o) => o.text())).toEqual(['planner', 'coder', 'chatty'])
    expect(options.map((o) => o.attributes('disabled') !== undefined)).toEqual([false, false, true])
    expect(select.element.value).toBe('coder')
    await select.setValue('planner')
    expect(two.emitted('pickModel')).toEqual([['planner']])
    await two.setProps({ running: true })
    expect(select.attributes('disabled')).toBeDefined()
  })
})

describe('PlanCard', () => {
  it('ticks completed steps and counts them', () => {
    const wrapper = mount(PlanCard, {
      props: {
        steps: [
          { id: '1', description: 'Collect', status: 'completed' },
          { id: '2', description: 'Write', status: 'running' },
          { id: '3', description: 'Check', status: 'pending' },
        ],
      },
    })
    expect(wrapper.text()).toContain('1/3')
    const steps = wrapper.findAll('[data-test=plan-step]')
    expect(steps.map((s) => s.attributes('data-status'))).toEqual(['completed', 'running', 'pending'])
    expect(steps[0].find('svg').exists()).toBe(true)
    expect(steps[1].find('.spinner').exists()).toBe(true)
  })
})

describe('ToolLine', () => {
  it('says what the call did and how it ended', async () => {
    const item = { kind: 'tool' as const, seq: 1, callId: 'c', name: 'shell_exec', call: { name: 'shell_exec' as const, args: { command: 'make test' } }, running: true }
    const wrapper = mount(ToolLine, { props: { item } })
    expect(wrapper.text()).toContain('make test')
    expect(wrapper.attributes('data-state')).toBe('running')
    await wrapper.setProps({ item: { ...item, running: false, view: { kind: 'error', message: 'boom' } } })
    expect(wrapper.attributes('data-state')).toBe('failed')
    await wrapper.trigger('click')
    expect(wrapper.emitted('open')).toHaveLength(1)
  })

  it('names the automation the agent made, not its prompt', () => {
    const args = { name: 'Standup reminder', prompt: 'Remind me of the standup', cron: '0 9 * * MON' }
    const item = { kind: 'tool' as const, seq: 1, callId: 'c', name: 'automation_create', call: { name: 'automation_create' as const, args }, running: false }
    const wrapper = mount(ToolLine, { props: { item } })
    expect(wrapper.text()).toContain('Made an automation')
    expect(wrapper.text()).toContain('Standup reminder')
  })
})

describe('FileView', () => {
  it('shows an edit as removed and added lines', () => {
    const wrapper = mount(FileView, { props: { view: { kind: 'file', path: 'a.py', old: 'x = 1\ny = 2\n', new: 'x = 1\ny = 3\n' } } })
    expect(wrapper.findAll('.del').map((d) => d.text())).toEqual(['-y = 2'])
    expect(wrapper.findAll('.add').map((d) => d.text())).toEqual(['+y = 3'])
    expect(wrapper.findAll('.same').map((d) => d.text())).toEqual(['x = 1'])
  })

  it('highlights content for its language', () => {
    const wrapper = mount(FileView, { props: { view: { kind: 'file', path: 'main.rs', content: 'fn main() {}' } } })
    expect(wrapper.find('[data-test=file-content] .hljs-keyword').text()).toBe('fn')
  })
})

describe('ToolView of an MCP tool', () => {
  it('names the server and shows texts, images and resources in order', () => {
    const png = 'data:image/png;base64,iVBORw0KGgo='
    const view = {
      kind: 'mcp' as const,
      server: 'everything',
      tool: 'get-tiny-image',
      is_error: false,
      content: [
        { type: 'text', text: 'Here it is:' },
        { type: 'image', mime_type: 'image/png', src: png },
        { type: 'resource', uri: 'test://static/1', text: null },
      ],
    }
    const item = { kind: 'tool' as const, seq: 1, callId: 'c', name: 'mcp__everything__get-tiny-image', call: { name: 'mcp__everything__get-tiny-image', args: {}, written: true as const }, running: false, view: view as ToolViewData }
    const wrapper = mount(ToolView, { props: { item } })
    expect(wrapper.get('header strong').text()).toBe('get-tiny-image (everything)')
    expect(wrapper.get('pre').text()).toBe('Here it is:')
    expect(wrapper.get('img').attributes('src')).toBe(png)
    expect(wrapper.get('.resource code').text()).toBe('test://static/1')
    expect(wrapper.find('[role=alert]').exists()).toBe(false)
  })
})

describe('ToolView of tool_register', () => {
  const item = (view: ToolViewData) =>
    ({ kind: 'tool' as const, seq: 1, callId: 'c', name: 'tool_register', call: { name: 'tool_register' as const, args: { name: 'calc', command: 'node', args: ['mcp/calc.mjs'] } }, running: false, view })
  const base = { kind: 'tool_register' as const, server: 'calc', command: 'node', args: ['mcp/calc.mjs'] }

  it('shows the command, the tools offered and the test call, or why it was refused', () => {
    const kept = mount(ToolView, {
      props: { item: item({ ...base, tools: [{ name: 'mcp__calc__add', description: 'Adds' }], test: 'sum=5' }) },
    })
    expect(kept.get('header strong').text()).toBe('Registered a tool')
    expect(kept.get('header .summary').text()).toBe('calc')
    expect(kept.get('[data-test=register-command]').text()).toBe('node mcp/calc.mjs')
    expect(kept.get('[data-test=register-tools]').text()).toContain('mcp__calc__add')
    expect(kept.text()).toContain('sum=5')
    expect(kept.find('[role=alert]').exists()).toBe(false)
    const refused = item({ ...base, tools: [], error: 'it did not start: it exited with status 1' })
    const shown = mount(ToolView, { props: { item: refused } })
    expect(shown.get('[data-test=register-error]').text()).toContain('exited with status 1')
    expect(shown.find('[data-test=register-tools]').exists()).toBe(false)
    expect(toolFailed(refused)).toBe(true)
    expect(toolFailed(item({ ...base, tools: [] }))).toBe(false)
  })
})

describe('ToolsPanel', () => {
  afterEach(() => vi.unstubAllGlobals())

  it('lists each server with its tools or the reason it has none', async () => {
    const servers = [
      { name: 'everything', transport: 'http', url: 'http://127.0.0.1:3001/mcp', tools: [{ name: 'get-sum', description: 'Adds' }] },
      { name: 'broken', transport: 'http', url: 'http://127.0.0.1:1/mcp', tools: [], error: 'could not connect' },
      { name: 'local', transport: 'stdio', tools: [], not_started: true },
    ]
    const asked: string[] = []
    vi.stubGlobal('fetch', async (path: string) => {
      asked.push(path)
      return new Response(JSON.stringify(servers), { status: 200, headers: { 'Content-Type': 'application/json' } })
    })
    const wrapper = mount(ToolsPanel)
    await flushPromises()
    expect(asked).toEqual(['/api/v1/mcp/servers'])
    const shown = wrapper.findAll('[data-test=mcp-server]')
    expect(shown.map((s) => s.attributes('data-name'))).toEqual(['everything', 'broken', 'local'])
    expect(shown[0].text()).toContain('get-sum')
    expect(shown[1].get('.error-text').text()).toBe('could not connect')
    expect(shown[2].find('.error-text').exists()).toBe(false)
    expect(shown[2].get('[data-test=not-started]').text()).toContain('Runs in this chat’s own sandbox')
    expect(shown[2].get('[data-test=not-started]').text()).toContain('go to this chat’s agent only, so they are not shown here')
  })
})

describe('ApiKeys', () => {
  afterEach(() => vi.unstubAllGlobals())

  const key = (id: string, name: string, extra = {}) => ({
    id, name, prefix: 'AbCd1234', scope: 'full', created_at: '2026-01-02T10:00:00Z', expires_at: null, last_used_at: null, requests: 0,
    tokens: { prompt_tokens: 0, completion_tokens: 0 }, ...extra,
  })

  /** Answers the key routes from `stored`, recording each call. */
  function backend(stored: ReturnType<typeof key>[]) {
    const calls: string[] = []
    vi.stubGlobal('fetch', async (path: string, init: RequestInit = {}) => {
      const method = init.method ?? 'GET'
      calls.push(`${method} ${path}${init.body ? ` ${init.body}` : ''}`)
      const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })
      if (method === 'POST') {
        const scope = JSON.parse(String(init.body)).scope
        const secret = scope === 'sandboxes' ? 'e2b_0123abcd' : 'sp_secret'
        const made = { ...key('k2', 'nightly', { scope, expires_at: '2027-01-01T00:00:00Z' }), key: secret }
        stored.push(made)
        return json(made, 201)
      }
      if (method === 'DELETE') {
        stored.splice(stored.findIndex((k) => path.endsWith(k.id)), 1)
        return new Response(null, { status: 204 })
      }
      return json(stored)
    })
    return calls
  }

  it('makes a key, shows it once to copy, lists its use and revokes it when confirmed', async () => {
    const calls = backend([key('k1', 'old script', { last_used_at: '2026-01-03T10:00:00Z', requests: 7, expires_at: '2026-01-04T00:00:00Z',
      tokens: { prompt_tokens: 1200, completion_tokens: 340 } })])
    const confirm = vi.fn(() => true)
    vi.stubGlobal('confirm', confirm)
    const wrapper = mount(ApiKeys)
    await flushPromises()
    const first = wrapper.get('[data-test=api-key]')
    expect(first.text()).toContain('sp_AbCd1234…')
    expect(first.get('[data-test=api-key-use]').text()).toMatch(/^7 requests, last /)
    expect(first.get('[data-test=api-key-tokens]').text()).toBe("· jobs' model tokens: 1200 prompt + 340 completion")
    expect(first.text()).toContain('expired')

    await wrapper.get('input[name=api-key-name]').setValue('nightly')
    await wrapper.get('select[name=api-key-scope]').setValue('jobs')
    await wrapper.get('form').trigger('submit')
    await flushPromises()
    expect(calls[1]).toBe('POST /api/v1/api-keys {"name":"nightly","scope":"jobs","expires_in_days":90}')
    expect(wrapper.get('[data-test=api-key-made]').text()).toContain('will not be shown again')
    expect(wrapper.get('[data-test=api-key-secret]').text()).toBe('sp_secret')
    expect(wrapper.findAll('[data-test=api-key]').map((k) => k.attributes('data-name'))).toEqual(['old script', 'nightly'])
    // A key no job has charged shows no tokens.
    expect(wrapper.findAll('[data-test=api-key]')[1].find('[data-test=api-key-tokens]').exists()).toBe(false)

    // The secret goes once it is revoked, like the key.
    await wrapper.findAll('[data-test=api-key-revoke]')[1].trigger('click')
    await flushPromises()
    expect(confirm).toHaveBeenCalledWith(expect.stringContaining('nightly'))
    expect(calls).toContain('DELETE /api/v1/api-keys/k2')
    expect(wrapper.find('[data-test=api-key-made]').exists()).toBe(false)
    expect(wrapper.findAll('[data-test=api-key]')).toHaveLength(1)
  })

  it('makes a key for E2B’s SDKs and shows the variables they read', async () => {
    backend([])
    const wrapper = mount(ApiKeys)
    await flushPromises()
    await wrapper.get('input[name=api-key-name]').setValue('e2b')
    await wrapper.get('select[name=api-key-scope]').setValue('sandboxes')
    await wrapper.get('form').trigger('submit')
    await flushPromises()
    expect(wrapper.get('[data-test=api-key-secret]').text()).toBe('e2b_0123abcd')
    expect(wrapper.get('[data-test=api-key-e2b-env]').text()).toBe(
      `E2B_API_KEY=e2b_0123abcd\nE2B_API_URL=${location.origin}/e2b\nE2B_SANDBOX_URL=${location.origin}/e2b/sandbox`,
    )
    const listed = wrapper.get('[data-test=api-key]')
    expect(listed.text()).toContain('e2b_AbCd1234…')
    expect(listed.text()).toContain('E2B SDKs (sandboxes)')
  })

  it('revokes nothing unless confirmed, and shows everyone’s keys with their owners to admins', async () => {
    const calls = backend([key('k1', 'ada’s', { owner_email: 'ada@example.org', owner_id: 'u1' })])
    vi.stubGlobal('confirm', () => false)
    const wrapper = mount(ApiKeys, { props: { everyone: true } })
    await flushPromises()
    expect(wrapper.find('form').exists()).toBe(false)
    expect(wrapper.get('[data-test=api-key-owner]').text()).toContain('ada@example.org')
    await wrapper.get('[data-test=api-key-revoke]').trigger('click')
    await flushPromises()
    expect(calls).toEqual(['GET /api/v1/admin/api-keys'])
  })
})

describe('TimelineList', () => {
  it('offers a reply box for the open question only', async () => {
    const items = [
      { kind: 'wait' as const, seq: 1, prompt: 'Old question?', takeOver: false },
      { kind: 'wait' as const, seq: 2, prompt: 'Which format?', takeOver: true },
    ]
    const wrapper = mount(TimelineList, { props: { items, openQuestion: 2 } })
    const boxes = wrapper.findAll('[data-test=wait-reply]')
    expect(boxes).toHaveLength(1)
    await boxes[0].setValue('CSV')
    await wrapper.find('form.reply').trigger('submit')
    expect(wrapper.emitted('reply')).toEqual([['CSV']])
    expect(wrapper.text()).toContain('Take over the desktop')
  })
})
