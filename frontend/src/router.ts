// The app's pages: sign-in, the workspace (optionally with a chat open), the settings
// (the person's own; more for admins), the automations and the public replay of a
// shared chat. Pages behind sign-in send the person to it and back.
import { createRouter, createWebHistory } from 'vue-router'
import { auth, checkSignIn } from './state/auth'

export const router = createRouter({
  history: createWebHistory(),
  routes: [
    { path: '/signin', name: 'signin', component: () => import('./views/SignInView.vue') },
    { path: '/', name: 'home', component: () => import('./views/WorkspaceView.vue'), meta: { private: true } },
    { path: '/s/:id', name: 'session', component: () => import('./views/WorkspaceView.vue'), meta: { private: true } },
    { path: '/settings', name: 'settings', component: () => import('./views/SettingsView.vue'), meta: { private: true } },
    { path: '/automations', name: 'automations', component: () => import('./views/AutomationsView.vue'), meta: { private: true } },
    { path: '/share/:token', name: 'share', component: () => import('./views/ReplayView.vue') },
    { path: '/:rest(.*)*', redirect: '/' },
  ],
})

router.beforeEach(async (to) => {
  if (!auth.checked) {
    try {
      await checkSignIn()
    } catch {
      // The server is unreachable; the page itself shows that.
    }
  }
  if (to.meta.private && !auth.user) return { name: 'signin', query: { next: to.fullPath } }
  if (to.name === 'signin' && auth.user) return { path: (to.query.next as string) || '/' }
})
