// Every API call goes through `api()`: the access token is attached, an expired one is
// refreshed once and the call repeated, and a failure becomes an `ApiFailure` carrying
// the backend's `{error: {code, message, field?}}` so screens can show what to do.
import { accessToken, refresh } from './tokens'
import { strings } from '../strings'

export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** The request field to fix, when the backend named one. */
    readonly field?: string,
  ) {
    super(message)
  }

  /** The message without the field's name it starts with, to show beside that field. */
  get detail(): string {
    const named = `${this.field}: `
    return this.field && this.message.startsWith(named) ? this.message.slice(named.length) : this.message
  }
}

/** Called when a refresh fails: the person must sign in again. */
let onSignedOut: () => void = () => {}
export function whenSignedOut(handler: () => void): void {
  onSignedOut = handler
}

export function authHeaders(): Record<string, string> {
  const token = accessToken()
  return token ? { Authorization: `Bearer ${token}` } : {}
}

/** Sends (with whatever transport `send` uses, reading the token each time) and, when
 * the backend says the access token expired, refreshes it once and sends again. */
export async function withFreshToken<R extends { status: number }>(send: () => Promise<R>): Promise<R> {
  const response = await send()
  if (response.status === 401 && accessToken()) {
    if (await refresh()) return send()
    // Signed out only when the backend refused the refresh token (an outage keeps it).
    if (!accessToken()) onSignedOut()
  }
  return response
}

/** fetch() with the access token, refreshed once when it has expired. */
export function authorizedFetch(path: string, init: RequestInit = {}): Promise<Response> {
  return withFreshToken(async () => {
    try {
      return await fetch(path, { ...init, headers: { ...authHeaders(), ...(init.headers as Record<string, string>) } })
    } catch {
      throw new ApiFailure(0, 'network', strings.errors.network)
    }
  })
}

export async function failureOf(response: Response): Promise<ApiFailure> {
  try {
    const body = (await response.json()) as { error?: { code?: string; message?: string; field?: string } }
    return new ApiFailure(
      response.status,
      body.error?.code ?? 'error',
      body.error?.message ?? strings.errors.status(response.status),
      body.error?.field,
    )
  } catch {
    return new ApiFailure(response.status, 'error', strings.errors.status(response.status))
  }
}

export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const init: RequestInit = { method }
  if (body !== undefined) {
    init.body = JSON.stringify(body)
    init.headers = { 'Content-Type': 'application/json' }
  }
  const response = await authorizedFetch(path, init)
  if (!response.ok) throw await failureOf(response)
  if (response.status === 204) return undefined as T
  return (await response.json()) as T
}

/** The WebSocket address of a path the API gave (a relay's `url`), on this origin. */
export function socketUrl(path: string): string {
  const url = new URL(path, location.href)
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:'
  return url.toString()
}
