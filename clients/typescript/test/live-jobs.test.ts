// A job run with the generated TypeScript client, end to end: `clients/test-live.sh --jobs`
// starts a backend-api whose model is clients/scripted-model.py and whose sandboxes are real.
//
// It registers an account, makes a `jobs` API key with the client, runs a job with the key,
// polls it until it ends, checks its answer and files and finds fib.py in its result zip;
// then the job routes' documented errors.
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { after, before, describe, it } from 'node:test'
import { inflateRawSync } from 'node:zlib'
import { ApiKeys, Auth, type Client, createClient, type JobDetail, Jobs, Sessions } from '@sandpiper/client'

const baseUrl = process.env.SANDPIPER_URL ?? 'http://127.0.0.1:8000'
const password = 'client-test-password-1'
// What clients/scripted-model.py makes the agent write, and answer.
const fibPy = `def fib(n):
    a, b = 0, 1
    for _ in range(n):
        yield a
        a, b = b, a + b


print(*fib(20))
`
const answer = 'Wrote fib.py: it prints the first 20 Fibonacci numbers.'
// How long a job may take to end (its sandbox is started for it: no warm pool).
const waitMs = 120_000

/** The files of a zip by name, read from its central directory (stored or deflated). */
function unzip(zip: Buffer): Map<string, Buffer> {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]))
  assert.ok(end >= 0, 'the result is a zip (it has an end of central directory)')
  const files = new Map<string, Buffer>()
  let at = zip.readUInt32LE(end + 16)
  for (let n = zip.readUInt16LE(end + 10); n > 0; n--) {
    assert.equal(zip.readUInt32LE(at), 0x02014b50, 'a central directory entry')
    const method = zip.readUInt16LE(at + 10)
    const compressed = zip.readUInt32LE(at + 20)
    const nameLength = zip.readUInt16LE(at + 28)
    const skip = nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32)
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength)
    const local = zip.readUInt32LE(at + 42)
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28)
    const data = zip.subarray(start, start + compressed)
    files.set(name, method === 8 ? inflateRawSync(data) : data)
    at += 46 + skip
  }
  return files
}

describe('a job with the TypeScript client', () => {
  let account: Client
  let key: Client
  let keyId: string

  before(async () => {
    const anonymous = createClient({ baseUrl })
    const email = `jobs-${randomUUID().slice(0, 12)}@example.com`
    const registered = await Auth.register({ client: anonymous, body: { email, password } })
    assert.equal(registered.response?.status, 201, JSON.stringify(registered.error))
    const signedIn = await Auth.login({ client: anonymous, body: { email, password } })
    account = createClient({ baseUrl, auth: signedIn.data!.tokens.access_token })
    const made = await ApiKeys.createApiKey({
      client: account,
      body: { name: 'typescript jobs test', scope: 'jobs', expires_in_days: 1 },
    })
    assert.equal(made.response?.status, 201, JSON.stringify(made.error))
    assert.equal(made.data!.scope, 'jobs')
    keyId = made.data!.id
    key = createClient({ baseUrl, auth: made.data!.key })
  })
  after(async () => {
    const revoked = await ApiKeys.revokeApiKey({ client: account, path: { id: keyId } })
    assert.equal(revoked.response?.status, 204)
  })

  it('writes fib.py in a sandbox, and the zip of its result holds it', async () => {
    const created = await Jobs.create({
      client: key,
      body: { prompt: 'Write fib.py that prints Fibonacci numbers', network: 'offline' },
    })
    assert.equal(created.response?.status, 201, JSON.stringify(created.error))

    const deadline = Date.now() + waitMs
    let job: JobDetail
    for (;;) {
      const polled = await Jobs.get({ client: key, path: { id: created.data!.id } })
      assert.equal(polled.response?.status, 200, JSON.stringify(polled.error))
      job = polled.data!
      if (['succeeded', 'failed', 'cancelled'].includes(job.status)) break
      assert.ok(Date.now() < deadline, `the job had not ended after ${waitMs / 1000} s: ${JSON.stringify(job)}`)
      await new Promise((resolve) => setTimeout(resolve, 500))
    }
    assert.equal(job.status, 'succeeded', JSON.stringify(job))
    assert.equal(job.answer, answer)
    assert.deepEqual(job.files, ['fib.py'])
    assert.ok(job.usage.prompt_tokens > 0)

    const result = await Jobs.result({ client: key, path: { id: job.id } })
    assert.equal(result.response?.status, 200, JSON.stringify(result.error))
    assert.match(result.response!.headers.get('content-type') ?? '', /zip/)
    const files = unzip(Buffer.from(await (result.data as unknown as Blob).arrayBuffer()))
    const name = [...files.keys()].find((n) => n.endsWith('fib.py'))
    assert.ok(name, `fib.py is in the zip: ${[...files.keys()]}`)
    assert.equal(files.get(name)!.toString('utf8'), fibPy)
  })

  it('answers bad input on the job routes with the documented status', async () => {
    const unknown = await Jobs.get({ client: key, path: { id: randomUUID() } })
    assert.equal(unknown.response?.status, 404)
    assert.equal((unknown.error as { error: { code: string } }).error.code, 'not_found')
    const noResult = await Jobs.result({ client: key, path: { id: randomUUID() } })
    assert.equal(noResult.response?.status, 404)
    const tooShort = await Jobs.create({ client: key, body: { prompt: 'Write fib.py', timeout_secs: 5 } })
    assert.equal(tooShort.response?.status, 422)
    const invalid = tooShort.error as { error: { code: string; field?: string } }
    assert.equal(invalid.error.code, 'invalid')
    assert.equal(invalid.error.field, 'timeout_secs')
    // The key is for jobs only.
    assert.equal((await Sessions.list({ client: key })).response?.status, 403)
  })
})
