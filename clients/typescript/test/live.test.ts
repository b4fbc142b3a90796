// The generated TypeScript client, as its package exports it, against a running backend-api
// (clients/test-live.sh starts one): SANDPIPER_URL=http://127.0.0.1:8000 npm run test:live
//
// With SANDPIPER_EMAIL and SANDPIPER_PASSWORD it signs in as that account; without them it
// registers a fresh one (the deployment must allow registration). Every test runs once per
// way of authenticating in `authenticators`: the password sign-in's access token (JWT) and a
// personal API key made with it. The refresh cookie is tested once: node's fetch keeps no
// cookies, so the test carries it from answer to request as a browser's jar would.
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { after, before, describe, it } from 'node:test'
import { ApiKeys, Auth, type Client, createClient, Events, Sessions, type StoredEvent } from '@sandpiper/client'

const baseUrl = process.env.SANDPIPER_URL ?? 'http://127.0.0.1:8000'
const password = 'client-test-password-1'
const anonymous = createClient({ baseUrl })

/** Registers a fresh account; undefined when the deployment does not allow it. */
async function newAccount(): Promise<{ email: string; password: string } | undefined> {
  const email = `client-${randomUUID().slice(0, 12)}@example.com`
  const { response, error } = await Auth.register({ client: anonymous, body: { email, password } })
  if (response?.status === 403) return undefined
  assert.equal(response?.status, 201, JSON.stringify(error))
  return { email, password }
}

async function passwordSignIn(email: string, password: string): Promise<Client> {
  const { data, response, error } = await Auth.login({ client: anonymous, body: { email, password } })
  assert.equal(response?.status, 200, JSON.stringify(error))
  assert.equal(data?.user.email, email)
  return createClient({ baseUrl, auth: data!.tokens.access_token })
}

/** A client acting as the account, and what to undo after the tests. */
type Authenticated = { client: Client; done?: () => Promise<void> }

async function signedInWithPassword(email: string, password: string): Promise<Authenticated> {
  return { client: await passwordSignIn(email, password) }
}

/** A personal API key made for the tests, revoked after them. */
async function withAnApiKey(email: string, password: string): Promise<Authenticated> {
  const signedIn = await passwordSignIn(email, password)
  const name = `typescript client test ${randomUUID().slice(0, 8)}`
  const { data, response, error } = await ApiKeys.createApiKey({ client: signedIn, body: { name, expires_in_days: 1 } })
  assert.equal(response?.status, 201, JSON.stringify(error))
  assert.match(data!.key, /^sp_/)
  const done = async () => {
    const revoked = await ApiKeys.revokeApiKey({ client: signedIn, path: { id: data!.id } })
    assert.equal(revoked.response?.status, 204)
  }
  return { client: createClient({ baseUrl, auth: data!.key }), done }
}

// The ways a test's client acts as the account; every test runs with each.
const authenticators: Record<string, (email: string, password: string) => Promise<Authenticated>> = {
  jwt: signedInWithPassword,
  api_key: withAnApiKey,
}

/** Asserts a documented error: the status and the JSON body `{error: {code, message}}`. */
function assertError(
  result: { response?: Response; error?: unknown },
  status: number,
  code: string,
) {
  assert.equal(result.response?.status, status, JSON.stringify(result.error))
  const body = result.error as { error?: { code?: string; message?: string } }
  assert.equal(body?.error?.code, code)
  assert.ok(body.error?.message)
}

/** The first event of the session's SSE stream (stored events are replayed, then it stays open). */
async function firstEvent(client: Client, id: string): Promise<StoredEvent> {
  const abort = new AbortController()
  const timer = setTimeout(() => abort.abort(), 10_000)
  try {
    const { stream } = await Events.sessionEvents({
      client,
      path: { id },
      query: { after: 0 },
      signal: abort.signal,
      sseMaxRetryAttempts: 1,
    })
    // The document types the stream as text; the client parses each event's JSON.
    for await (const event of stream) return event as unknown as StoredEvent
    throw new Error('the event stream ended without an event')
  } finally {
    clearTimeout(timer)
    abort.abort()
  }
}

for (const [kind, authenticate] of Object.entries(authenticators)) {
  describe(`the TypeScript client (${kind})`, () => {
    let account: { email: string; password: string }
    let client: Client
    let done: (() => Promise<void>) | undefined

    before(async () => {
      const given = process.env.SANDPIPER_EMAIL
      const found = given ? { email: given, password: process.env.SANDPIPER_PASSWORD ?? '' } : await newAccount()
      assert.ok(found, 'registration is refused here: set SANDPIPER_EMAIL and SANDPIPER_PASSWORD')
      account = found
      ;({ client, done } = await authenticate(account.email, account.password))
    })
    after(async () => {
      await done?.()
    })

    it('acts as the account signed in', async () => {
      const { data, response } = await Auth.me({ client })
      assert.equal(response?.status, 200)
      assert.equal(data?.email, account.email)
    })

    it('creates a session, lists it, posts a message and replays it as an event', async () => {
      const title = `TypeScript client ${randomUUID().slice(0, 8)}`
      const created = await Sessions.create({ client, body: { title } })
      assert.equal(created.response?.status, 201)
      const session = created.data!
      assert.equal(session.title, title)

      const listed = await Sessions.list({ client, query: { limit: 100 } })
      assert.equal(listed.response?.status, 200)
      assert.ok(listed.data!.sessions.some((s) => s.id === session.id))

      const posted = await Sessions.postMessage({ client, path: { id: session.id }, body: { content: 'hello from TypeScript' } })
      assert.equal(posted.response?.status, 201)
      assert.equal(posted.data!.session_id, session.id)
      assert.equal(posted.data!.seq, 1)
      assert.deepEqual(posted.data!.event, { type: 'message', role: 'user', content: 'hello from TypeScript' })

      const replayed = await firstEvent(client, session.id)
      assert.equal(replayed.seq, 1)
      assert.deepEqual(replayed.event, posted.data!.event)

      const again = await Sessions.get({ client, path: { id: session.id } })
      assert.ok(again.data!.last_seq >= 1)
    })

    it('answers an unknown session with 404 and the JSON error body', async () => {
      assertError(await Sessions.get({ client, path: { id: randomUUID() } }), 404, 'not_found')
      assertError(
        await Sessions.postMessage({ client, path: { id: randomUUID() }, body: { content: 'hi' } }),
        404,
        'not_found',
      )
      const errors: unknown[] = []
      const { stream } = await Events.sessionEvents({
        client,
        path: { id: randomUUID() },
        sseMaxRetryAttempts: 1,
        onSseError: (error) => errors.push(error),
      })
      for await (const event of stream) assert.fail(`an event from an unknown session: ${JSON.stringify(event)}`)
      assert.match(String(errors[0]), /404/)
    })

    it("answers another person's session with 404", async () => {
      const created = await Sessions.create({ client, body: { title: 'Not yours' } })
      assert.equal(created.response?.status, 201)
      const stranger = await newAccount()
      assert.ok(stranger, 'registration is refused here')
      const theirs = await passwordSignIn(stranger.email, stranger.password)
      assertError(await Sessions.get({ client: theirs, path: { id: created.data!.id } }), 404, 'not_found')
    })

    it('answers bad input with the documented status', async () => {
      assertError(await Sessions.create({ client, body: { title: 'x'.repeat(201) } }), 422, 'invalid')
      const created = await Sessions.create({ client, body: { title: 'Big message' } })
      const oversized = await Sessions.postMessage({
        client,
        path: { id: created.data!.id },
        body: { content: 'x'.repeat(100 * 1024 + 1) },
      })
      assertError(oversized, 413, 'payload_too_large')
      assertError(await Auth.me({ client: createClient({ baseUrl, auth: 'not-a-token' }) }), 401, 'unauthorized')
    })
  })
}

describe('the refresh cookie (TypeScript client)', () => {
  /** The refresh route's cookie an answer set, as `name=value` (undefined: none or cleared). */
  const refreshCookie = (response?: Response) =>
    response?.headers
      .getSetCookie()
      .find((c) => c.startsWith('sandpiper_refresh=') && c.includes('Path=/api/v1/auth/refresh'))
      ?.split(';')[0]

  it('is set by sign-in, never in a body, rotated by refresh and ended by logout', async (t) => {
    const given = process.env.SANDPIPER_EMAIL
    const account = given ? { email: given, password: process.env.SANDPIPER_PASSWORD ?? '' } : await newAccount()
    if (!account) return t.skip('registration is refused here')
    const signedIn = await Auth.login({ client: anonymous, body: account })
    assert.equal(signedIn.response?.status, 200)
    const first = refreshCookie(signedIn.response)
    assert.ok(first, 'login sets the cookie')
    assert.ok(!JSON.stringify(signedIn.data).includes(first.split('=')[1]))
    assert.ok(!('refresh_token' in signedIn.data!.tokens))

    const refreshed = await Auth.refresh({ client: anonymous, body: {}, headers: { cookie: first } })
    assert.equal(refreshed.response?.status, 200, JSON.stringify(refreshed.error))
    const second = refreshCookie(refreshed.response)
    assert.ok(second && second !== first, 'refresh sets the next cookie')

    const access = createClient({ baseUrl, auth: refreshed.data!.access_token })
    const out = await Auth.logout({ client: access, body: {}, headers: { cookie: second } })
    assert.equal(out.response?.status, 204)
    assert.ok(out.response?.headers.getSetCookie().some((c) => c.startsWith('sandpiper_refresh=;')))
    for (const spent of [first, second]) {
      assertError(await Auth.refresh({ client: anonymous, body: {}, headers: { cookie: spent } }), 401, 'unauthorized')
    }
  })
})
