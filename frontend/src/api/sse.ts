// Server-sent events over fetch (EventSource cannot send the Authorization header). The
// stream reconnects by itself after a network blip, a server restart or a laptop's
// sleep, sending `Last-Event-ID` so the backend replays exactly what was missed; a
// stream silent for longer than three heartbeats is treated as dead.
import { createParser } from 'eventsource-parser'
import { authorizedFetch, failureOf, ApiFailure } from './http'

export type StreamState = 'connecting' | 'open' | 'retrying' | 'closed'

export interface StreamOptions {
  /** Resume after this id (the last one shown). */
  lastEventId?: string
  onEvent(name: string, data: string, id: string | undefined): void
  onState?(state: StreamState, failure?: ApiFailure): void
  /** Milliseconds without a byte (heartbeats included) before reconnecting. */
  silenceMs?: number
}

const RETRY_MS = [500, 1000, 2000, 5000, 10000]

/** Opens the stream; the returned function closes it for good. */
export function openEventStream(path: string, options: StreamOptions): () => void {
  let lastId = options.lastEventId
  let closed = false
  let attempt = 0
  let current: AbortController | null = null
  const silenceMs = options.silenceMs ?? 50_000

  const run = async () => {
    while (!closed) {
      current = new AbortController()
      options.onState?.(attempt === 0 ? 'connecting' : 'retrying')
      try {
        const headers: Record<string, string> = { Accept: 'text/event-stream' }
        if (lastId) headers['Last-Event-ID'] = lastId
        const response = await authorizedFetch(path, { headers, signal: current.signal })
        if (!response.ok || !response.body) {
          const failure = await failureOf(response)
          // Not found or not allowed will not mend by retrying.
          if ([400, 401, 403, 404].includes(response.status)) {
            closed = true
            options.onState?.('closed', failure)
            return
          }
          throw failure
        }
        attempt = 0
        options.onState?.('open')
        await pump(response.body, current)
      } catch {
        // fall through to the retry below
      }
      if (closed) break
      const wait = RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)]
      attempt += 1
      options.onState?.('retrying')
      await new Promise((resolve) => setTimeout(resolve, wait))
    }
    options.onState?.('closed')
  }

  const pump = async (body: ReadableStream<Uint8Array>, controller: AbortController) => {
    const parser = createParser({
      onEvent(event) {
        if (event.id) lastId = event.id
        options.onEvent(event.event ?? 'message', event.data, event.id)
      },
    })
    const reader = body.getReader()
    const decoder = new TextDecoder()
    let timer = setTimeout(() => controller.abort(), silenceMs)
    try {
      for (;;) {
        const { done, value } = await reader.read()
        if (done) return
        clearTimeout(timer)
        timer = setTimeout(() => controller.abort(), silenceMs)
        parser.feed(decoder.decode(value, { stream: true }))
      }
    } finally {
      clearTimeout(timer)
    }
  }

  void run()
  return () => {
    closed = true
    current?.abort()
  }
}
