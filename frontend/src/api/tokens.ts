// The signed-in person's access token, held in memory only: no script finds a token in
// storage. The refresh token is an HttpOnly cookie, which the browser sends to
// `/auth/refresh` and `/auth/logout` alone; a reload, or an expired access token, gets a
// new access token through it. localStorage keeps only a note that this browser signed
// in (so a visitor who never did is not sent to the refresh route for nothing).
//
// One refresh at a time, across this browser's tabs too: the backend spends a refresh
// token once and every tab shares the cookie, so two refreshes racing would present a
// spent one and end the sign-in everywhere.
import type { AccessToken } from './types'
import { auth } from './routes'

const SIGNED_IN = 'sandpiper.signedIn'
/** Where earlier versions kept both tokens. */
const EARLIER_TOKENS = 'sandpiper.tokens'

let access: string | null = null
let refreshing: Promise<boolean> | null = null

export function accessToken(): string | null {
  return access
}

/** Whether this browser may hold a refresh cookie (it signed in and did not sign out).
 * Asked on start, when it also drops a refresh token an earlier version left in
 * localStorage, where any script could read it. */
export function signedInHere(): boolean {
  localStorage.removeItem(EARLIER_TOKENS)
  return localStorage.getItem(SIGNED_IN) !== null
}

export function keepAccessToken(token: AccessToken): void {
  access = token.access_token
  localStorage.setItem(SIGNED_IN, '1')
}

export function forgetSignIn(): void {
  access = null
  localStorage.removeItem(SIGNED_IN)
}

/** Trades the refresh cookie for a new access token (the backend sets the next cookie);
 * false when the sign-in is over, or the backend is out of reach for now. */
export function refresh(): Promise<boolean> {
  refreshing ??= oneTabAtATime(async () => {
    const response = await fetch(auth.refresh, {
      method: 'POST',
      // JSON is what the route takes: a form on another site cannot send it.
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    })
    if (!response.ok) {
      // Only a refusal ends the sign-in; an outage (5xx) keeps it for later.
      if (response.status === 401) forgetSignIn()
      return false
    }
    keepAccessToken((await response.json()) as AccessToken)
    return true
  })
    .catch(() => false)
    .finally(() => {
      refreshing = null
    })
  return refreshing
}

/** Runs `work` while no other tab of this origin runs its own (Web Locks); where the
 * browser has no locks, one at a time in this tab. */
function oneTabAtATime<T>(work: () => Promise<T>): Promise<T> {
  return navigator.locks ? navigator.locks.request('sandpiper.refresh', work) : work()
}
