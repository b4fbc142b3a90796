import { afterEach, describe, expect, it, vi } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import McpServerForm from '../src/components/McpServerForm.vue'
import McpServersAdmin from '../src/components/McpServersAdmin.vue'
import type { McpServerConfig } from '../src/api/types'
import { formOf, healthOf, inputOf, newForm } from '../src/lib/mcpForm'

const remote: McpServerConfig = {
  name: 'remote',
  transport: 'http',
  enabled: true,
  url: 'https://mcp.example.org/mcp',
  header_names: ['Authorization', 'X-Team'],
  created_at: '2025-01-01T00:00:00Z',
  updated_at: '2025-01-01T00:00:00Z',
}

const local: McpServerConfig = {
  name: 'local',
  transport: 'stdio',
  enabled: false,
  command: 'npx',
  args: ['-y', 'server'],
  env_names: [],
  created_at: '2025-01-01T00:00:00Z',
  updated_at: '2025-01-01T00:00:00Z',
}

/** A stdio server stored with variables before stdio servers took none: not started. */
const legacy: McpServerConfig = { ...local, name: 'legacy', enabled: true, env_names: ['API_KEY', 'TEAM'] }

describe('the MCP server form', () => {
  it('sends a whole new server, arguments one per line and rows without a name left out', () => {
    const form = { ...newForm(), name: ' docs ', url: ' https://h/mcp ' }
    form.headers.push({ key: 'Authorization', value: 'Bearer k', stored: false }, { key: ' ', value: 'x', stored: false })
    expect(inputOf(form, false)).toEqual({
      name: 'docs',
      transport: 'http',
      url: 'https://h/mcp',
      headers: { Authorization: 'Bearer k' },
    })
    const stdio = { ...newForm(), name: 'fetch', transport: 'stdio' as const, command: 'uvx', args: 'mcp-server-fetch\n\n --verbose \n' }
    expect(inputOf(stdio, false)).toEqual({
      name: 'fetch',
      transport: 'stdio',
      command: 'uvx',
      args: ['mcp-server-fetch', '--verbose'],
      env: {},
    })
  })

  it('edits keep stored secrets as null, send replaced ones and drop removed ones', () => {
    const form = formOf(remote)
    expect(form.headers).toEqual([
      { key: 'Authorization', value: '', stored: true },
      { key: 'X-Team', value: '', stored: true },
    ])
    form.headers[1].value = 'new team'
    form.headers.push({ key: 'X-Extra', value: 'e', stored: false })
    expect(inputOf(form, true)).toEqual({
      url: 'https://mcp.example.org/mcp',
      headers: { Authorization: null, 'X-Team': 'new team', 'X-Extra': 'e' },
    })
    form.headers.splice(0, 1)
    expect(inputOf(form, true).headers).not.toHaveProperty('Authorization')
    // A stdio edit always sends no variables, which removes those stored before.
    expect(inputOf(formOf(legacy), true)).toEqual({ command: 'npx', args: ['-y', 'server'], env: {} })
  })

  it('tells how each server is doing', () => {
    const statuses = [
      { name: 'remote', transport: 'http' as const, tools: [{ name: 'get-sum', description: 'Adds' }], not_started: false },
      { name: 'broken', transport: 'http' as const, tools: [], error: 'could not connect', not_started: false },
      { name: 'local', transport: 'stdio' as const, tools: [], not_started: true },
    ]
    expect(healthOf(remote, null)).toEqual({ kind: 'checking' })
    expect(healthOf(remote, statuses)).toEqual({ kind: 'ok', tools: statuses[0].tools })
    expect(healthOf({ ...remote, name: 'broken' }, statuses)).toEqual({ kind: 'error', message: 'could not connect' })
    expect(healthOf(local, statuses)).toEqual({ kind: 'disabled' })
    expect(healthOf({ ...local, enabled: true }, statuses)).toEqual({ kind: 'per-chat' })
    // Stored variables keep a stdio server from starting, enabled or not, asked or not.
    expect(healthOf(legacy, null)).toEqual({ kind: 'has-env', names: ['API_KEY', 'TEAM'] })
    expect(healthOf({ ...legacy, enabled: false }, statuses)).toEqual({ kind: 'has-env', names: ['API_KEY', 'TEAM'] })
    expect(healthOf({ ...remote, env_names: ['X'] }, statuses)).toEqual({ kind: 'ok', tools: statuses[0].tools })
  })
})

/** Answers each API call from `routes` (method and path → status and body); records the calls. */
function backend(routes: Record<string, [number, unknown]>) {
  const calls: { method: string; path: string; body: unknown }[] = []
  vi.stubGlobal('fetch', async (path: string, init: RequestInit = {}) => {
    const method = init.method ?? 'GET'
    calls.push({ method, path, body: init.body ? JSON.parse(init.body as string) : undefined })
    const [status, body] = routes[`${method} ${path}`] ?? [404, { error: { code: 'not_found', message: 'no route' } }]
    return new Response(status === 204 ? null : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })
  })
  return calls
}

describe('McpServerForm', () => {
  afterEach(() => vi.unstubAllGlobals())

  it('shows stored secrets as set, never a value, and keeps them unless replaced', async () => {
    const calls = backend({
      'PATCH /api/v1/admin/mcp/servers/remote': [200, remote],
      'GET /api/v1/mcp/servers': [200, []],
    })
    const wrapper = mount(McpServerForm, { props: { editing: remote } })
    const rows = wrapper.findAll('[data-test=secret-row]')
    const state = (r: (typeof rows)[number]) => [r.find('.badge').text(), r.find('input[type=password]').exists()]
    expect(rows.map(state)).toEqual([
      ['set', false],
      ['set', false],
    ])
    expect(wrapper.find('input[name=name]').attributes('disabled')).toBeDefined()
    await rows[1].get('button.btn').trigger('click')
    await wrapper.findAll('[data-test=secret-row]')[1].get('input[type=password]').setValue('new team')
    await wrapper.get('form').trigger('submit')
    await flushPromises()
    expect(calls[0]).toEqual({
      method: 'PATCH',
      path: '/api/v1/admin/mcp/servers/remote',
      body: { url: 'https://mcp.example.org/mcp', headers: { Authorization: null, 'X-Team': 'new team' } },
    })
    expect(wrapper.emitted('done')).toHaveLength(1)
  })

  it('offers a stdio server no variables and says where keys and programs come from', async () => {
    const calls = backend({
      'POST /api/v1/admin/mcp/servers': [422, { error: { code: 'invalid', message: 'command: a program name or an absolute path, not a relative one', field: 'command' } }],
    })
    const wrapper = mount(McpServerForm, { props: { editing: null } })
    expect(wrapper.findAll('[data-test=secret-row]')).toHaveLength(0)
    expect(wrapper.text()).toContain('Add header')
    await wrapper.get('input[value=stdio]').setValue(true)
    expect(wrapper.find('fieldset.secrets').exists()).toBe(false)
    expect(wrapper.text()).not.toContain('Add variable')
    expect(wrapper.text()).toContain('A program of the sandbox image: a name, looked up in its system directories')
    expect(wrapper.get('[data-test=mcp-stdio-note]').text()).toContain('takes no environment variables')
    expect(wrapper.get('[data-test=mcp-stdio-note]').text()).toContain('with the key in a header')
    expect(wrapper.find('[data-test=mcp-env-removed]').exists()).toBe(false)
    await wrapper.get('input[name=name]').setValue('fetch')
    await wrapper.get('input[name=command]').setValue('bin/fetch')
    await wrapper.get('form').trigger('submit')
    await flushPromises()
    expect(calls[0].body).toEqual({ name: 'fetch', transport: 'stdio', command: 'bin/fetch', args: [], env: {} })
    expect(wrapper.get('input[name=command]').attributes('aria-invalid')).toBe('true')
    expect(wrapper.get('[role=alert]').text()).toContain('absolute path')
  })

  it('says saving a stdio server stored with variables removes them, and does', async () => {
    const calls = backend({
      'PATCH /api/v1/admin/mcp/servers/legacy': [200, { ...legacy, env_names: [] }],
      'GET /api/v1/mcp/servers': [200, []],
    })
    const wrapper = mount(McpServerForm, { props: { editing: legacy } })
    expect(wrapper.get('[data-test=mcp-env-removed]').text()).toContain('Saving removes the environment variables it was stored with (API_KEY, TEAM)')
    expect(wrapper.findAll('[data-test=secret-row]')).toHaveLength(0)
    await wrapper.get('form').trigger('submit')
    await flushPromises()
    expect(calls[0]).toEqual({ method: 'PATCH', path: '/api/v1/admin/mcp/servers/legacy', body: { command: 'npx', args: ['-y', 'server'], env: {} } })
    expect(wrapper.emitted('done')).toHaveLength(1)
  })

  it('marks the field the backend names and stays open', async () => {
    backend({
      'POST /api/v1/admin/mcp/servers': [422, { error: { code: 'invalid', message: 'url: not an http:// or https:// address with a host', field: 'url' } }],
    })
    const wrapper = mount(McpServerForm, { props: { editing: null } })
    await wrapper.get('input[name=name]').setValue('docs')
    await wrapper.get('input[name=url]').setValue('ftp://h')
    await wrapper.get('form').trigger('submit')
    await flushPromises()
    expect(wrapper.get('[role=alert]').text()).toContain('url: not an http')
    expect(wrapper.get('input[name=url]').attributes('aria-invalid')).toBe('true')
    expect(wrapper.get('input[name=name]').attributes('aria-invalid')).toBeUndefined()
    expect(wrapper.emitted('done')).toBeUndefined()
  })
})

describe('McpServersAdmin', () => {
  afterEach(() => vi.unstubAllGlobals())

  it('lists the servers with their health and enables one with a PATCH', async () => {
    const calls = backend({
      'GET /api/v1/admin/mcp/servers': [200, [local, remote]],
      'GET /api/v1/mcp/servers': [200, [{ name: 'remote', transport: 'http', tools: [{ name: 'get-sum', description: 'Adds' }] }]],
      'PATCH /api/v1/admin/mcp/servers/local': [200, { ...local, enabled: true }],
    })
    const wrapper = mount(McpServersAdmin)
    await flushPromises()
    const shown = wrapper.findAll('[data-test=mcp-admin-server]')
    expect(shown.map((s) => [s.attributes('data-name'), s.attributes('data-health')])).toEqual([
      ['local', 'disabled'],
      ['remote', 'ok'],
    ])
    expect(shown[1].text()).toContain('1 tool')
    expect(shown[1].text()).toContain('Authorization set')
    expect(shown[0].text()).toContain('npx -y server')
    expect(shown[0].find('[data-test=mcp-per-chat]').exists()).toBe(false)
    await shown[0].get('[data-test=mcp-enabled]').setValue(true)
    await flushPromises()
    expect(calls.find((c) => c.method === 'PATCH')).toEqual({
      method: 'PATCH',
      path: '/api/v1/admin/mcp/servers/local',
      body: { enabled: true },
    })
    expect(wrapper.find('[data-name=local]').attributes('data-health')).not.toBe('disabled')
  })

  it('says a stdio server lists its tools in each chat, not here', async () => {
    backend({
      'GET /api/v1/admin/mcp/servers': [200, [{ ...local, enabled: true }]],
      'GET /api/v1/mcp/servers': [200, [{ name: 'local', transport: 'stdio', tools: [], not_started: true }]],
    })
    const wrapper = mount(McpServersAdmin)
    await flushPromises()
    const shown = wrapper.get('[data-name=local]')
    expect(shown.attributes('data-health')).toBe('per-chat')
    expect(shown.get('.head').text()).toContain('Tools listed per chat')
    expect(shown.text()).not.toContain('Not started')
    expect(shown.get('[data-test=mcp-per-chat]').text()).toContain('the tools it lists there are that chat’s alone')
  })

  it('says why a stdio server stored with variables is not started, and removes them', async () => {
    const calls = backend({
      'GET /api/v1/admin/mcp/servers': [200, [legacy]],
      'GET /api/v1/mcp/servers': [200, [{ name: 'legacy', transport: 'stdio', tools: [], error: 'not started: …', not_started: false }]],
      'PATCH /api/v1/admin/mcp/servers/legacy': [200, { ...legacy, env_names: [] }],
    })
    const wrapper = mount(McpServersAdmin)
    await flushPromises()
    const shown = () => wrapper.get('[data-name=legacy]')
    expect(shown().attributes('data-health')).toBe('has-env')
    expect(shown().get('.head .badge.failed').text()).toBe('Not started')
    const note = shown().get('[data-test=mcp-stored-env]').text()
    expect(note).toContain('stored with environment variables (API_KEY, TEAM)')
    expect(note).toContain('with the key in a header')
    expect(shown().text()).not.toContain('not started: …')
    // Any other change would be refused until the variables go.
    expect(shown().get('[data-test=mcp-enabled]').attributes('disabled')).toBeDefined()
    await shown().get('[data-test=mcp-remove-env]').trigger('click')
    await flushPromises()
    expect(calls.find((c) => c.method === 'PATCH')).toEqual({ method: 'PATCH', path: '/api/v1/admin/mcp/servers/legacy', body: { env: {} } })
    expect(shown().attributes('data-health')).not.toBe('has-env')
    expect(shown().find('[data-test=mcp-stored-env]').exists()).toBe(false)
    expect(shown().get('[data-test=mcp-enabled]').attributes('disabled')).toBeUndefined()
  })

  it('shows the stored state again when a change fails', async () => {
    backend({
      'GET /api/v1/admin/mcp/servers': [200, [remote]],
      'GET /api/v1/mcp/servers': [200, []],
      'PATCH /api/v1/admin/mcp/servers/remote': [503, { error: { code: 'unavailable', message: 'the database is unavailable' } }],
    })
    const wrapper = mount(McpServersAdmin)
    await flushPromises()
    const box = wrapper.get('[data-test=mcp-enabled]')
    await box.setValue(false)
    await flushPromises()
    expect((box.element as HTMLInputElement).checked).toBe(true)
    expect(wrapper.get('[role=alert]').text()).toBe('the database is unavailable')
  })
})
