// Who is signed in. The backend says first how people sign in here (`/auth/mode`): in
// `none` mode there is nothing to sign in to and no sign-out to offer; registration may be
// open, by invite or closed. On start, a browser that signed in gets its access token
// through the refresh cookie; `/auth/me` is asked only with a token (or in `none` mode).
import { reactive } from 'vue'
import { api, ApiFailure, whenSignedOut } from '../api/http'
import * as routes from '../api/routes'
import { accessToken, forgetSignIn, keepAccessToken, refresh, signedInHere } from '../api/tokens'
import type { AuthModeView, SignedIn, User } from '../api/types'
import { forgetDrafts } from '../lib/drafts'

export const auth = reactive({
  user: null as User | null,
  /** The backend needs no sign-in (`none` mode). */
  open: false,
  /** Who may create an account: anyone, someone with an invite, no one. */
  registration: 'closed' as AuthModeView['registration'],
  /** The sign-in ran out while the app was in use (the sign-in page says so). */
  expired: false,
  checked: false,
})

whenSignedOut(() => {
  if (!auth.user) return
  auth.user = null
  auth.expired = true
  forgetSignIn()
})

/** Finds out who is signed in (on start). */
export async function checkSignIn(): Promise<void> {
  try {
    const mode = await api<AuthModeView>('GET', routes.auth.mode)
    auth.open = mode.mode === 'none'
    auth.registration = mode.registration
    if (!auth.open && !accessToken() && signedInHere()) await refresh()
    auth.user = auth.open || accessToken() ? await api<User>('GET', routes.auth.me) : null
  } catch (err) {
    if (!(err instanceof ApiFailure) || err.status !== 401) throw err
    auth.user = null
  } finally {
    auth.checked = true
  }
}

/** Signs in, or with `register` creates the account (with the invite's code when the
 * deployment's registration asks for one). */
export async function signIn(email: string, password: string, register: boolean, invite = ''): Promise<void> {
  const path = register ? routes.auth.register : routes.auth.login
  const body = register && invite ? { email, password, invite } : { email, password }
  const signedIn = await api<SignedIn>('POST', path, body)
  keepAccessToken(signedIn.tokens)
  auth.user = signedIn.user
  auth.expired = false
  auth.open = false
}

/** Signs out here whatever the backend says (an unreachable backend must not keep the
 * person signed in on this screen), and forgets unsent drafts — the next person at this
 * computer should not find them. An expired sign-in, by contrast, keeps them. */
export async function signOut(): Promise<void> {
  try {
    // The browser sends the refresh cookie; the backend revokes it and clears it.
    await api('POST', routes.auth.logout, {})
  } catch {
    // Forgotten here all the same; the cookie's sign-in expires on its own.
  } finally {
    forgetSignIn()
    auth.user = null
    forgetDrafts()
  }
}
