import { afterEach, describe, expect, it, vi } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import { ref } from 'vue'
import ToolboxSettings from '../src/components/ToolboxSettings.vue'
import ToolsPanel from '../src/components/ToolsPanel.vue'
import RegisterView from '../src/components/tools/RegisterView.vue'
import { KEEP_IN, fileToReveal } from '../src/state/toolbox'

type Asked = { method: string; path: string; body?: unknown }

/** Answers each request by its method and path from `answers`; records what was asked. */
function serve(answers: Record<string, unknown>): Asked[] {
  const asked: Asked[] = []
  vi.stubGlobal('fetch', async (path: string, init: RequestInit = {}) => {
    const method = init.method ?? 'GET'
    asked.push({ method, path, body: init.body ? JSON.parse(init.body as string) : undefined })
    const answer = answers[`${method} ${path}`]
    if (answer === undefined) return new Response(JSON.stringify({ error: { code: 'not_found', message: 'no' } }), { status: 404 })
    return new Response(JSON.stringify(answer), { status: 200, headers: { 'Content-Type': 'application/json' } })
  })
  return asked
}

const tool = {
  id: 't1', owner: 'u1', name: 'greet', command: 'node', args: ['tools/greet/server.js'],
  tools: [{ name: 'mcp__greet__greet', description: 'Greets' }],
  files: [{ path: '/home/sandbox/workspace/tools/greet/server.js', size: 2048 }],
  enabled: true, published: false, from_session: 's1', kept_at: '2026-11-27T10:00:00Z',
}
const RouterLink = { template: '<a><slot /></a>' }

describe('Tool box', () => {
  afterEach(() => vi.unstubAllGlobals())

  it('lists kept tools, turns one off, shows its code and deletes it', async () => {
    const withCode = { ...tool, files: [{ ...tool.files[0], content: 'console.log("greet")' }] }
    const asked = serve({
      'GET /api/v1/toolbox': [tool],
      'PATCH /api/v1/toolbox/t1': { ...tool, enabled: false },
      'GET /api/v1/toolbox/t1': withCode,
      'DELETE /api/v1/toolbox/t1': {},
    })
    vi.stubGlobal('confirm', () => true)
    const wrapper = mount(ToolboxSettings, { global: { stubs: { RouterLink } } })
    await flushPromises()
    const row = wrapper.get('[data-test=kept-tool]')
    expect(row.attributes('data-name')).toBe('greet')
    expect(row.text()).toContain('mcp__greet__greet')
    expect(row.text()).toContain('1 file, 2.0 KiB')
    await row.get('[data-test=kept-enabled]').setValue(false)
    await flushPromises()
    expect(asked.at(-1)).toEqual({ method: 'PATCH', path: '/api/v1/toolbox/t1', body: { enabled: false } })
    expect((row.get('[data-test=kept-enabled]').element as HTMLInputElement).checked).toBe(false)
    await row.get('[data-test=kept-code]').trigger('click')
    await flushPromises()
    expect(wrapper.get('[data-test=kept-files]').text()).toContain('console.log("greet")')
    await row.get('[data-test=kept-delete]').trigger('click')
    await flushPromises()
    expect(asked.filter((a) => a.method === 'DELETE').map((a) => a.path)).toEqual(['/api/v1/toolbox/t1'])
  })

  it('lets an admin publish everyone’s tools, confirmed, as read', async () => {
    const read = { ...tool, kept_at: '2026-11-27T11:00:00Z', files: [{ ...tool.files[0], content: 'code' }] }
    const asked = serve({
      'GET /api/v1/toolbox?everyone=true': [tool],
      'GET /api/v1/toolbox/t1': read,
      'POST /api/v1/toolbox/t1/publish': { ...read, published: true },
    })
    const confirm = vi.fn(() => true)
    vi.stubGlobal('confirm', confirm)
    const wrapper = mount(ToolboxSettings, { props: { everyone: true }, global: { stubs: { RouterLink } } })
    await flushPromises()
    expect(wrapper.find('[data-test=kept-enabled]').exists()).toBe(false)
    expect(wrapper.get('[data-test=kept-publish]').attributes('disabled')).toBeDefined()
    await wrapper.get('[data-test=kept-code]').trigger('click')
    await flushPromises()
    await wrapper.get('[data-test=kept-publish]').trigger('click')
    await flushPromises()
    expect(confirm).toHaveBeenCalledOnce()
    expect(asked.at(-1)).toEqual({ method: 'POST', path: '/api/v1/toolbox/t1/publish', body: { kept_at: read.kept_at } })
    expect(wrapper.get('[data-test=kept-published]').text()).toBe('Published for everyone')
  })

  it('keeps a registered tool from its line in the person’s own chat only', async () => {
    const view = { kind: 'tool_register' as const, server: 'greet', command: 'node', args: [], tools: [] }
    const asked = serve({ 'POST /api/v1/toolbox': tool })
    const replay = mount(RegisterView, { props: { view } })
    expect(replay.find('[data-test=keep-button]').exists()).toBe(false)
    const own = mount(RegisterView, { props: { view }, global: { provide: { [KEEP_IN as symbol]: ref('s1') }, stubs: { RouterLink } } })
    await own.get('[data-test=keep-button]').trigger('click')
    await flushPromises()
    expect(asked).toEqual([{ method: 'POST', path: '/api/v1/toolbox', body: { session_id: 's1', name: 'greet' } }])
    expect(own.get('[data-test=keep-done]').text()).toContain('In your tool box')
  })

  it('lists the chat’s registered servers with their sources one click from Files', async () => {
    serve({
      'GET /api/v1/mcp/servers': [],
      'GET /api/v1/sessions/s1/registered-tools': [
        { name: 'greet', command: 'node', args: ['tools/greet/server.js'], tools: tool.tools, sources: ['tools/greet/server.js'], kept_id: null, registered_at: '2026-11-27T10:00:00Z' },
      ],
    })
    const wrapper = mount(ToolsPanel, { props: { sessionId: 's1' }, global: { stubs: { RouterLink } } })
    await flushPromises()
    const server = wrapper.get('[data-test=registered-server]')
    expect(server.text()).toContain('mcp__greet__greet')
    expect(server.find('[data-test=keep-button]').exists()).toBe(true)
    await server.get('[data-test=open-source]').trigger('click')
    expect(fileToReveal.value).toBe('tools/greet/server.js')
  })
})
