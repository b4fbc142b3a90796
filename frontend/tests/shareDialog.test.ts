import { afterEach, describe, expect, it, vi } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import ShareDialog from '../src/components/ShareDialog.vue'
import type { Session } from '../src/api/types'
import { sessions } from '../src/state/sessions'

const HOUR = 3600 * 1000

function chat(extra: Partial<Session> = {}): Session {
  return {
    id: 's1', title: 'Sales report', status: 'completed', created_at: '2026-01-02T10:00:00Z', updated_at: '2026-01-02T10:00:00Z',
    last_message_preview: null, unread_count: 0, last_seq: 3, share_token: null, share_expires_at: null,
    usage: { prompt_tokens: 0, completion_tokens: 0 }, model: null, usage_by_model: [], ...extra,
  }
}

/** Answers the share route with `answer`, recording each call. */
function backend(answer: (method: string) => Response) {
  const calls: string[] = []
  vi.stubGlobal('fetch', async (path: string, init: RequestInit = {}) => {
    const method = init.method ?? 'GET'
    calls.push(`${method} ${path}${init.body ? ` ${init.body}` : ''}`)
    return answer(method)
  })
  return calls
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })

/** The dialog, re-rendered from the sessions list after each call (as the chat panel does). */
async function settle(wrapper: ReturnType<typeof mount>) {
  await flushPromises()
  await wrapper.setProps({ session: sessions.list.find((s) => s.id === 's1') })
}

describe('ShareDialog', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
    sessions.list.splice(0)
  })

  it('makes a link with the expiry picked, then shows the link and until when it works', async () => {
    const until = new Date(Date.now() + 24 * HOUR).toISOString()
    const calls = backend(() => json(chat({ share_token: 'T'.repeat(32), share_expires_at: until })))
    const wrapper = mount(ShareDialog, { props: { session: chat() } })
    const dialog = wrapper.get('[data-test=share-dialog]')
    expect(dialog.attributes('data-state')).toBe('unshared')
    expect(wrapper.find('[data-test=share-link]').exists()).toBe(false)
    expect(wrapper.find('[data-test=share-revoke]').exists()).toBe(false)
    expect(dialog.text()).toContain('memory and token use are never shared')

    await wrapper.get('select[name=share-expiry]').setValue('86400')
    await wrapper.get('[data-test=share-save]').trigger('click')
    await settle(wrapper)
    expect(calls).toEqual(['POST /api/v1/sessions/s1/share {"expires_in_secs":86400}'])
    expect(dialog.attributes('data-state')).toBe('shared')
    expect((wrapper.get('[data-test=share-link]').element as HTMLInputElement).value).toBe(`${location.origin}/share/${'T'.repeat(32)}`)
    expect(wrapper.get('[data-test=share-state]').text()).toContain(`works until ${new Date(until).toLocaleString()}`)
    expect(wrapper.get('[data-test=share-save]').text()).toBe('Save expiry')
  })

  it('revokes the link', async () => {
    const shared = chat({ share_token: 'T'.repeat(32) })
    const calls = backend(() => json(chat()))
    const wrapper = mount(ShareDialog, { props: { session: shared } })
    expect(wrapper.get('[data-test=share-state]').text()).toContain('until you revoke it')
    expect((wrapper.get('select[name=share-expiry]').element as HTMLSelectElement).value).toBe('0')
    await wrapper.get('[data-test=share-revoke]').trigger('click')
    await settle(wrapper)
    expect(calls).toEqual(['DELETE /api/v1/sessions/s1/share'])
    expect(wrapper.get('[data-test=share-dialog]').attributes('data-state')).toBe('unshared')
    expect(wrapper.find('[data-test=share-link]').exists()).toBe(false)
  })

  it('says an expired link stopped working, hides it and makes a new one until revoked', async () => {
    const gone = chat({ share_token: 'T'.repeat(32), share_expires_at: new Date(Date.now() - HOUR).toISOString() })
    const calls = backend(() => json(chat({ share_token: 'N'.repeat(32) })))
    const wrapper = mount(ShareDialog, { props: { session: gone } })
    expect(wrapper.get('[data-test=share-dialog]').attributes('data-state')).toBe('expired')
    expect(wrapper.get('[data-test=share-state]').text()).toContain('Expired')
    expect(wrapper.find('[data-test=share-link]').exists()).toBe(false)
    expect(wrapper.get('[data-test=share-save]').text()).toBe('Make a new link')
    await wrapper.get('select[name=share-expiry]').setValue('0')
    await wrapper.get('[data-test=share-save]').trigger('click')
    await settle(wrapper)
    expect(calls).toEqual(['POST /api/v1/sessions/s1/share {}'])
    expect((wrapper.get('[data-test=share-link]').element as HTMLInputElement).value).toContain('N'.repeat(32))
  })

  it('shows what the backend refused and closes on Escape', async () => {
    backend(() => json({ error: { code: 'invalid', message: 'expires_in_secs: give 60 to 31536000 seconds', field: 'expires_in_secs' } }, 422))
    const wrapper = mount(ShareDialog, { props: { session: chat() } })
    await wrapper.get('[data-test=share-save]').trigger('click')
    await flushPromises()
    expect(wrapper.get('[role=alert]').text()).toContain('give 60 to 31536000 seconds')
    await wrapper.get('.backdrop').trigger('keydown', { key: 'Escape' })
    expect(wrapper.emitted('close')).toHaveLength(1)
  })
})
