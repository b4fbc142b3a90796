// The person's chats for the sidebar: the first page, then kept current by the
// `/sessions/stream` SSE (titles, statuses, unread counts, deletions from any tab).
import { reactive } from 'vue'
import { api } from '../api/http'
import * as routes from '../api/routes'
import { openEventStream } from '../api/sse'
import type { Session, SessionPage } from '../api/types'

export const sessions = reactive({
  list: [] as Session[],
  loaded: false,
})

let closeStream: (() => void) | null = null

export function upsert(session: Session): void {
  touched.add(session.id)
  const index = sessions.list.findIndex((s) => s.id === session.id)
  if (index >= 0) sessions.list.splice(index, 1, session)
  else sessions.list.push(session)
  sessions.list.sort((a, b) => b.updated_at.localeCompare(a.updated_at))
}

function forget(id: string): void {
  touched.add(id)
  const index = sessions.list.findIndex((s) => s.id === id)
  if (index >= 0) sessions.list.splice(index, 1)
}

/** Pages fetched at most, newest first: 1000 chats. */
const MAX_PAGES = 10

/** Bumped by each fetch of the whole list; an older one that ends later is dropped. */
let generation = 0
/** Chats changed (by the stream or this tab) while a fetch of the list was under way. */
const touched = new Set<string>()

/** Every chat, page by page; the list becomes what the backend has, keeping what
 * changed meanwhile (the fetched pages may be older than that). */
async function fetchAll(): Promise<void> {
  const mine = ++generation
  touched.clear()
  const all: Session[] = []
  let before: string | null | undefined
  for (let pages = 0; pages < MAX_PAGES; pages++) {
    const page = await api<SessionPage>('GET', routes.sessions.page(100, before))
    all.push(...page.sessions)
    before = page.next_before
    if (!before) break
  }
  if (mine !== generation) return
  // What changed during the fetch is newer than the pages; the rest is as fetched (a chat
  // deleted elsewhere while the stream was down goes).
  const changed = sessions.list.filter((s) => touched.has(s.id))
  sessions.list.splice(0)
  all.filter((s) => !touched.has(s.id)).forEach(upsert)
  changed.forEach(upsert)
}

export async function loadSessions(): Promise<void> {
  closeStream?.()
  let opened = 0
  // Subscribe first so nothing changing in between is missed; upserts are idempotent.
  closeStream = openEventStream(routes.sessions.stream, {
    onEvent(name, data) {
      const body = JSON.parse(data) as Session | { id: string }
      if (name === 'deleted') forget(body.id)
      else if (name === 'updated') upsert(body as Session)
    },
    // This stream does not replay: after a reconnect, what changed meanwhile is fetched.
    onState(state) {
      if (state === 'open' && ++opened > 1) void fetchAll().catch(() => {})
    },
  })
  await fetchAll()
  sessions.loaded = true
}

export function stopSessions(): void {
  closeStream?.()
  closeStream = null
  sessions.list.splice(0)
  sessions.loaded = false
}

/** A new chat with `model` (the default one when `null`). */
export async function createSession(model: string | null = null): Promise<Session> {
  const session = await api<Session>('POST', routes.sessions.all, model ? { model } : {})
  upsert(session)
  return session
}

/** The chat's next turn asks `model`. */
export async function setSessionModel(id: string, model: string): Promise<void> {
  upsert(await api<Session>('PATCH', routes.sessions.one(id), { model }))
}

export async function renameSession(id: string, title: string): Promise<void> {
  upsert(await api<Session>('PATCH', routes.sessions.one(id), { title }))
}

export async function deleteSession(id: string): Promise<void> {
  await api('DELETE', routes.sessions.one(id))
  forget(id)
}

/** Chats whose title matches the search, newest first. */
export function filterSessions(list: Session[], query: string): Session[] {
  const needle = query.trim().toLowerCase()
  return needle ? list.filter((s) => (s.title || '').toLowerCase().includes(needle)) : list
}
