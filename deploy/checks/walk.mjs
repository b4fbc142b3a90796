// Walks a running deployment through its one public address, as a browser would:
// health, registration, the refresh cookie (rotated through the proxy), a session, a file written into the session's sandbox and read back, the agent's event
// stream (which must not be held back by a proxy), and a shell over the terminal
// WebSocket. The session and its sandbox are left running for the caller to inspect.
// Prints each step; exits non-zero at the first failure.
//
//   node --experimental-websocket deploy/checks/walk.mjs http://127.0.0.1:8080
const base = process.argv[2]
if (!base) throw new Error('usage: walk.mjs <base URL>')
const wsBase = base.replace(/^http/, 'ws')
let token = null

function step(what) {
  console.log(`walk: ${what}`)
}

async function call(method, path, body, { raw = false, expect = [200, 201, 204] } = {}) {
  const headers = {}
  if (token) headers.authorization = `Bearer ${token}`
  if (body !== undefined && !raw) headers['content-type'] = 'application/json'
  const response = await fetch(base + path, {
    method,
    headers,
    body: body === undefined ? undefined : raw ? body : JSON.stringify(body),
    signal: AbortSignal.timeout(60_000),
  })
  const text = await response.text()
  if (!expect.includes(response.status)) {
    throw new Error(`${method} ${path}: ${response.status} ${text}`)
  }
  return response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text
}

// Reads a server-sent event stream until `done(text so far)` holds, within `ms`.
async function readStream(path, done, ms) {
  const response = await fetch(base + path, {
    headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
    signal: AbortSignal.timeout(ms),
  })
  if (response.status !== 200) throw new Error(`GET ${path}: ${response.status}`)
  const decoder = new TextDecoder()
  let text = ''
  for await (const chunk of response.body) {
    text += decoder.decode(chunk, { stream: true })
    if (done(text)) return text
  }
  throw new Error(`${path} ended before the expected event: ${text}`)
}

function terminal(url) {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${wsBase}${url}&cols=100&rows=30`)
    socket.binaryType = 'arraybuffer'
    const timer = setTimeout(() => reject(new Error(`terminal: no answer; saw ${JSON.stringify(output)}`)), 30_000)
    let output = ''
    socket.onopen = () => socket.send(new TextEncoder().encode('echo walk-$((6 * 7)); exit 0\n'))
    socket.onmessage = (message) => {
      if (typeof message.data === 'string') {
        const frame = JSON.parse(message.data)
        if (frame.type === 'exit') {
          clearTimeout(timer)
          resolve({ output, code: frame.code })
        }
      } else {
        output += new TextDecoder().decode(message.data)
      }
    }
    socket.onerror = () => reject(new Error('terminal: the WebSocket failed'))
  })
}

step('the API and the app')
const mode = await call('GET', '/api/v1/auth/mode')
if (mode.mode !== 'password') throw new Error(`auth mode ${JSON.stringify(mode)}`)
const app = await call('GET', '/')
if (!app.includes('<div id="app">')) throw new Error('/ is not the app')

if (process.argv.includes('--headers')) {
  step('each answer with its own Content-Security-Policy, once')
  for (const [path, start] of [['/', "default-src 'self'; script-src 'self';"],
    ['/docs', "default-src 'none'; script-src 'self';"], ['/api/v1/auth/mode', "default-src 'none';"]]) {
    const headers = (await fetch(base + path)).headers
    const policy = headers.get('content-security-policy') ?? ''
    // Two policies would arrive joined by a comma.
    if (!policy.startsWith(start) || policy.includes(',')) throw new Error(`${path}: policy ${policy}`)
    if (headers.get('x-content-type-options') !== 'nosniff') throw new Error(`${path}: no nosniff`)
  }
}

step('register')
const email = `walk-${Date.now()}@example.com`
const registered = await call('POST', '/api/v1/auth/register', { email, password: 'walk-the-deployment-1' })
token = registered.tokens.access_token

step('the refresh cookie: set by sign-in, never in a body, rotated by refresh')
const json = { 'content-type': 'application/json' }
// The cookie for the refresh route, as `name=value`.
const refreshCookie = (response) =>
  response.headers.getSetCookie().find((c) => c.startsWith('sandpiper_refresh=') && c.includes('Path=/api/v1/auth/refresh'))?.split(';')[0]
const signedIn = await fetch(base + '/api/v1/auth/login', {
  method: 'POST',
  headers: json,
  body: JSON.stringify({ email, password: 'walk-the-deployment-1' }),
  signal: AbortSignal.timeout(60_000),
})
const cookie = refreshCookie(signedIn)
const signedInBody = await signedIn.text()
if (signedIn.status !== 200 || !cookie) throw new Error(`login: ${signedIn.status}, no refresh cookie`)
if (signedInBody.includes('refresh_token') || signedInBody.includes(cookie.split('=')[1])) {
  throw new Error('the refresh token is in the login answer')
}
const refreshed = await fetch(base + '/api/v1/auth/refresh', {
  method: 'POST',
  headers: { ...json, cookie },
  body: '{}',
  signal: AbortSignal.timeout(60_000),
})
const rotated = refreshCookie(refreshed)
if (refreshed.status !== 200 || !rotated || rotated === cookie) {
  throw new Error(`refresh: ${refreshed.status} ${await refreshed.text()}; cookie ${rotated ? 'kept' : 'missing'}`)
}

// With the walk in the TLS proxy's place (the deployment's nginx takes it for one):
// hops forged in front of the one the proxy appends change nothing, and another client
// is counted apart. backend-api backs an account and address off after 5 failures.
if (process.argv.includes('--client-addresses')) {
  step('sign-in limits count the client the proxy names')
  const login = async (forwardedFor, password) => {
    const response = await fetch(base + '/api/v1/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor },
      body: JSON.stringify({ email, password }),
      signal: AbortSignal.timeout(60_000),
    })
    return response.status
  }
  for (let i = 0; i < 5; i++) {
    const status = await login(`192.0.2.${i}, 198.51.100.7`, 'not the password!')
    if (status !== 401) throw new Error(`a wrong password was answered ${status}`)
  }
  const guesser = await login('192.0.2.9, 198.51.100.7', 'walk-the-deployment-1')
  if (guesser !== 429) throw new Error(`forged hops gave the guesser a new address (${guesser})`)
  const other = await login('198.51.100.8', 'walk-the-deployment-1')
  if (other !== 200) throw new Error(`another client was refused with the right password (${other})`)
}

step("E2B's SDKs: the E2B-compatible API and a signed file link, through the one port")
const e2bKey = await call('POST', '/api/v1/api-keys', { name: 'walk e2b', scope: 'sandboxes' })
const listed = await fetch(base + '/e2b/v2/sandboxes', { headers: { 'x-api-key': e2bKey.key } })
const sandboxes = await listed.text()
if (listed.status !== 200 || sandboxes !== '[]') throw new Error(`E2B listing: ${listed.status} ${sandboxes}`)
// backend-api's answer in E2B's shape, not the app's page: no running sandbox signed it.
const link = await fetch(base + '/files?path=walk.txt&signature=v1_AAAA')
const refused = await link.text()
if (link.status !== 401 || JSON.parse(refused).code !== 401) throw new Error(`signed link: ${link.status} ${refused}`)

step('session')
const session = await call('POST', '/api/v1/sessions', { title: 'deployment walk' })

step('a file into the sandbox and back (starts the sandbox)')
const content = `written through the deployment at ${new Date().toISOString()}\n`
await call('PUT', `/api/v1/sessions/${session.id}/files/upload?path=walk.txt`, content, { raw: true })
const read = await call('GET', `/api/v1/sessions/${session.id}/files/download?path=walk.txt`)
if (read !== content) throw new Error(`read back ${JSON.stringify(read)}`)

step('agent events stream unbuffered')
const events = readStream(`/api/v1/sessions/${session.id}/events`, (text) => text.includes('event: message'), 15_000)
await call('POST', `/api/v1/sessions/${session.id}/messages`, { content: 'hello from the walk' })
await events

step('terminal over WebSocket')
const ticket = await call('POST', `/api/v1/sessions/${session.id}/terminal/tickets`)
const shell = await terminal(ticket.url)
if (!shell.output.includes('walk-42') || shell.code !== 0) {
  throw new Error(`terminal: ${JSON.stringify(shell)}`)
}
console.log('walk: all good')
