// Light and dark themes: the system's choice until the person picks one, remembered.
import { ref, watchEffect } from 'vue'

const KEY = 'sandpiper.theme'
const prefersDark = () => window.matchMedia?.('(prefers-color-scheme: dark)').matches ?? false

export const theme = ref<'light' | 'dark'>(
  (localStorage.getItem(KEY) as 'light' | 'dark' | null) ?? (prefersDark() ? 'dark' : 'light'),
)

watchEffect(() => {
  document.documentElement.dataset.theme = theme.value
})

// Until the person picks one, the theme follows the system's as it changes (e.g. at dusk).
window.matchMedia?.('(prefers-color-scheme: dark)').addEventListener?.('change', (event) => {
  if (!localStorage.getItem(KEY)) theme.value = event.matches ? 'dark' : 'light'
})

export function toggleTheme(): void {
  theme.value = theme.value === 'dark' ? 'light' : 'dark'
  localStorage.setItem(KEY, theme.value)
}
