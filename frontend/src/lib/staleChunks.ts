// A screen's code or styles that fail to load (Vite's `vite:preloadError`): after a
// redeploy renamed the chunks under an open tab, or a load that broke off. The page
// reloads once, which fetches the current index and its chunks; a second failure within
// a minute is left to show as the error it is, so a chunk that is really missing cannot
// reload the page in a loop.

const KEY = 'sandpiper.reloadedForChunk'
/** How long after a reload for a chunk another failure is not reloaded for. */
export const RELOAD_QUIET_MS = 60_000

export interface Reloader {
  storage: Pick<Storage, 'getItem' | 'setItem'>
  reload: () => void
  now: () => number
}

/** Handles one failed preload: `true` when the page is reloaded for it. */
export function reloadOnce(event: Event, { storage, reload, now }: Reloader): boolean {
  const last = Number(storage.getItem(KEY) ?? 0)
  if (now() - last < RELOAD_QUIET_MS) return false
  storage.setItem(KEY, String(now()))
  // The error is not thrown: the reload replaces the page.
  event.preventDefault()
  reload()
  return true
}

export function reloadOnStaleChunks(target: Window = window): void {
  const reloader: Reloader = {
    storage: target.sessionStorage,
    reload: () => target.location.reload(),
    now: () => Date.now(),
  }
  target.addEventListener('vite:preloadError', (event) => reloadOnce(event, reloader))
}
