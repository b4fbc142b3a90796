// @vitest-environment node
// The event stream over real HTTP: a server that drops the connection after each event
// must see the client come back with the last id, and every event must arrive once.
import { afterEach, describe, expect, it } from 'vitest'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { openEventStream } from '../src/api/sse'

let server: http.Server | null = null
afterEach(() => server?.close())

async function serve(handler: http.RequestListener): Promise<string> {
  server = http.createServer(handler)
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/events`
}

describe('openEventStream', () => {
  it('resumes after a dropped connection with Last-Event-ID and loses nothing', async () => {
    const asked: (string | undefined)[] = []
    const url = await serve((req, res) => {
      const last = req.headers['last-event-id'] as string | undefined
      asked.push(last)
      const next = Number(last ?? 0) + 1
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      // One event per connection, then the connection drops.
      res.end(`: heartbeat\n\nid: ${next}\nevent: message\ndata: {"n":${next}}\n\n`)
    })
    const seen: string[] = []
    await new Promise<void>((resolve) => {
      const close = openEventStream(url, {
        onEvent(name, data, id) {
          seen.push(`${name}:${id}:${data}`)
          if (seen.length === 3) {
            close()
            resolve()
          }
        },
      })
    })
    expect(seen).toEqual(['message:1:{"n":1}', 'message:2:{"n":2}', 'message:3:{"n":3}'])
    expect(asked.slice(0, 3)).toEqual([undefined, '1', '2'])
  })

  it('gives up on a stream that cannot exist, with the server’s reason', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(404, { 'content-type': 'application/json' })
      res.end('{"error":{"code":"not_found","message":"session not found"}}')
    })
    const failure = await new Promise<{ status: number; message: string }>((resolve) => {
      openEventStream(url, {
        onEvent() {},
        onState(state, why) {
          if (state === 'closed' && why) resolve(why)
        },
      })
    })
    expect(failure).toMatchObject({ status: 404, message: 'session not found' })
  })

  it('reconnects a stream that went silent', async () => {
    let connections = 0
    const url = await serve((_req, res) => {
      connections += 1
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.write(`id: ${connections}\ndata: x\n\n`)
      // …and then nothing, not even heartbeats.
    })
    const ids: string[] = []
    await new Promise<void>((resolve) => {
      const close = openEventStream(url, {
        silenceMs: 200,
        onEvent(_name, _data, id) {
          ids.push(id!)
          if (ids.length === 2) {
            close()
            resolve()
          }
        },
      })
    })
    expect(ids).toEqual(['1', '2'])
  })
})
