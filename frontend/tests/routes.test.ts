import { describe, expect, it } from 'vitest'
import * as routes from '../src/api/routes'

describe('routes', () => {
  it('builds each path with what a person or another server named encoded', () => {
    expect(routes.sessions.attachments('s1', 'a b&c.txt')).toBe('/api/v1/sessions/s1/attachments?name=a%20b%26c.txt')
    expect(routes.files.list('s1')).toBe('/api/v1/sessions/s1/files')
    expect(routes.files.list('s1', '')).toBe('/api/v1/sessions/s1/files')
    expect(routes.files.list('s1', '/w/a b')).toBe('/api/v1/sessions/s1/files?path=%2Fw%2Fa%20b')
    expect(routes.files.upload('s1', 'x.txt', false)).toBe('/api/v1/sessions/s1/files/upload?path=x.txt&overwrite=false')
    expect(routes.sessions.page(100, null)).toBe('/api/v1/sessions?limit=100')
    expect(routes.sessions.page(100, '2026-01-01T00:00:00Z')).toBe('/api/v1/sessions?limit=100&before=2026-01-01T00%3A00%3A00Z')
    expect(routes.shared.events('t/k', 5, 500)).toBe('/api/v1/shared/t%2Fk/events?after=5&limit=500')
    expect(routes.apiKeys.one(true, 'k 1')).toBe('/api/v1/admin/api-keys/k%201')
    expect(routes.apiKeys.list(false)).toBe('/api/v1/api-keys')
    expect(routes.toolbox.list(true)).toBe('/api/v1/toolbox?everyone=true')
    expect(routes.toolbox.list(false)).toBe('/api/v1/toolbox')
    expect(routes.toolbox.publish('k/1')).toBe('/api/v1/toolbox/k%2F1/publish')
    expect(routes.automations.rotate('a', 'hook/1')).toBe('/api/v1/automations/a/triggers/hook%2F1/rotate')
  })

  it('keeps an id from the address within its route', () => {
    // What the router decodes from `/s/..%2F..%2Fadmin%2Finvites`.
    const crafted = '../../admin/invites'
    const paths = [
      routes.sessions.messages(crafted),
      routes.files.list(crafted, 'a'),
      routes.toolbox.registered(crafted),
      routes.shared.screenshot('t', '../x'),
    ]
    for (const path of paths) {
      expect(new URL(path, 'http://app.test').pathname).not.toMatch(/\/admin\/|\/x$/)
      expect(path).not.toContain('../')
    }
  })
})
