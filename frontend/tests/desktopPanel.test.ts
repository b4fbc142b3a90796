import { afterEach, describe, expect, it, vi } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import DesktopPanel from '../src/components/DesktopPanel.vue'

// noVNC's client, played by a stand-in the test ends connections of.
const clients: FakeRfb[] = []
class FakeRfb extends EventTarget {
  scaleViewport = false
  viewOnly = true
  background = ''
  constructor(readonly target: HTMLElement, readonly url: string) {
    super()
    clients.push(this)
  }
  disconnect() {}
}
vi.mock('@novnc/novnc', () => ({ default: FakeRfb }))

/** Answers the desktop's state with each of `states` in turn (the last one after that)
 * and tickets in the mode asked; records every request. */
function backend(states: string[]) {
  const asked: string[] = []
  vi.stubGlobal('fetch', async (path: string, init?: RequestInit) => {
    asked.push(`${init?.method ?? 'GET'} ${path}`)
    const body = path.endsWith('/desktop')
      ? { state: states.length > 1 ? states.shift() : states[0] }
      : { ticket: 't', mode: JSON.parse(String(init?.body)).mode, expires_in_secs: 30, url: '/api/v1/sessions/s1/vnc?ticket=t' }
    return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } })
  })
  return asked
}

const settled = async () => {
  await flushPromises()
  await vi.dynamicImportSettled()
  await flushPromises()
}

describe('DesktopPanel', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
    clients.length = 0
  })

  it('says what it is and connects to nothing while the desktop is not running', async () => {
    const asked = backend(['no_sandbox'])
    const wrapper = mount(DesktopPanel, { props: { sessionId: 's1', activity: 0 } })
    await settled()
    expect(wrapper.get('[data-test=desktop]').attributes('data-state')).toBe('off')
    expect(wrapper.get('[data-test=desktop-note]').text()).toMatch(/until then it uses nothing/)
    expect(asked).toEqual(['GET /api/v1/sessions/s1/desktop'])
    expect(clients).toHaveLength(0)
    expect(wrapper.emitted('running')).toEqual([[false]])
  })

  it('connects once a browser call started the desktop, and says so when it stops', async () => {
    const asked = backend(['stopped', 'running', 'stopped'])
    const wrapper = mount(DesktopPanel, { props: { sessionId: 's1', activity: 0 } })
    await settled()
    await wrapper.setProps({ activity: 1 })
    await settled()
    expect(asked.slice(-1)).toEqual(['POST /api/v1/sessions/s1/vnc/tickets'])
    clients[0].dispatchEvent(new Event('connect'))
    await flushPromises()
    expect(wrapper.get('[data-test=desktop]').attributes('data-state')).toBe('connected')
    expect(wrapper.emitted('running')).toEqual([[false], [true]])

    // Stopped under the watcher: no reconnect (that would start it again), a note instead.
    clients[0].dispatchEvent(new Event('disconnect'))
    await settled()
    expect(wrapper.get('[data-test=desktop]').attributes('data-state')).toBe('ended')
    expect(clients).toHaveLength(1)
    expect(asked.filter((a) => a.startsWith('POST'))).toHaveLength(1)
  })

  it('starts the desktop when asked, and Take over starts it in control', async () => {
    const asked = backend(['stopped'])
    const wrapper = mount(DesktopPanel, { props: { sessionId: 's1', activity: 0 } })
    await settled()
    await wrapper.get('[data-test=desktop-start]').trigger('click')
    await settled()
    expect(asked.at(-1)).toBe('POST /api/v1/sessions/s1/vnc/tickets')
    expect(clients).toHaveLength(1)
    expect(clients[0].viewOnly).toBe(true)

    const other = mount(DesktopPanel, { props: { sessionId: 's1', activity: 0 } })
    await settled()
    await other.get('[data-test=take-over]').trigger('click')
    await settled()
    expect(clients).toHaveLength(2)
    expect(clients[1].viewOnly).toBe(false)
    clients[1].dispatchEvent(new Event('connect'))
    await flushPromises()
    expect(other.get('[data-test=desktop]').attributes('data-mode')).toBe('control')
    expect(other.emitted('control')).toEqual([[true]])
  })
})
