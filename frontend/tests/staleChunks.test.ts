import { describe, expect, it } from 'vitest'
import { RELOAD_QUIET_MS, reloadOnce, type Reloader } from '../src/lib/staleChunks'

function tab(start: number): Reloader & { reloads: number; clock: number } {
  const stored = new Map<string, string>()
  const tab = {
    reloads: 0,
    clock: start,
    storage: {
      getItem: (key: string) => stored.get(key) ?? null,
      setItem: (key: string, value: string) => void stored.set(key, value),
    },
    reload: () => void (tab.reloads += 1),
    now: () => tab.clock,
  }
  return tab
}

const failed = () => new Event('vite:preloadError', { cancelable: true })

describe('a chunk that fails to load', () => {
  it('reloads the page once, without throwing the error', () => {
    const page = tab(1_000_000)
    const event = failed()
    expect(reloadOnce(event, page)).toBe(true)
    expect(page.reloads).toBe(1)
    expect(event.defaultPrevented).toBe(true)
  })

  it('shows a second failure soon after as the error it is', () => {
    const page = tab(1_000_000)
    reloadOnce(failed(), page)
    page.clock += RELOAD_QUIET_MS - 1
    const again = failed()
    expect(reloadOnce(again, page)).toBe(false)
    expect(again.defaultPrevented).toBe(false)
    expect(page.reloads).toBe(1)
  })

  it('reloads again for a failure after the quiet minute', () => {
    const page = tab(1_000_000)
    reloadOnce(failed(), page)
    page.clock += RELOAD_QUIET_MS
    expect(reloadOnce(failed(), page)).toBe(true)
    expect(page.reloads).toBe(2)
  })
})
