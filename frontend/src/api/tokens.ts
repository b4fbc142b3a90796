// The signed-in person's tokens, kept in localStorage so a reload stays signed in. The
// access token is refreshed silently: one refresh at a time, shared by every caller that
// found it expired (the backend spends a refresh token once, so two refreshes racing
// would sign the person out).
import type { TokenPair } from './types'

const KEY = 'sandpiper.tokens'

let tokens: TokenPair | null = load()
let refreshing: Promise<boolean> | null = null

function load(): TokenPair | null {
  try {
    const raw = localStorage.getItem(KEY)
    return raw ? (JSON.parse(raw) as TokenPair) : null
  } catch {
    return null
  }
}

export function accessToken(): string | null {
  return tokens?.access_token ?? null
}

export function refreshToken(): string | null {
  return tokens?.refresh_token ?? null
}

export function storeTokens(pair: TokenPair | null): void {
  tokens = pair
  if (pair) localStorage.setItem(KEY, JSON.stringify(pair))
  else localStorage.removeItem(KEY)
}

/** Trades the refresh token for a new pair; false when the sign-in is over. */
export function refresh(): Promise<boolean> {
  // Another tab may have refreshed already: its pair is the live one (presenting the
  // spent token would revoke the whole sign-in).
  const stored = load()
  if (stored && tokens && stored.refresh_token !== tokens.refresh_token) {
    tokens = stored
    return Promise.resolve(true)
  }
  const current = tokens?.refresh_token
  if (!current) return Promise.resolve(false)
  refreshing ??= fetch('/api/v1/auth/refresh', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ refresh_token: current }),
  })
    .then(async (response) => {
      if (!response.ok) {
        // Another tab may have refreshed first and stored the new pair.
        const stored = load()
        if (stored && stored.refresh_token !== current) {
          tokens = stored
          return true
        }
        // Only a refusal ends the sign-in; an outage (5xx) keeps the tokens for later.
        if (response.status === 401) storeTokens(null)
        return false
      }
      storeTokens((await response.json()) as TokenPair)
      return true
    })
    .catch(() => false)
    .finally(() => {
      refreshing = null
    })
  return refreshing
}
