// One way for a component to run what a person asked for: `busy` while it runs (so its
// buttons can wait), and the failure's message in `error` afterwards (cleared when the
// next one starts).
import { ref } from 'vue'

export function useAction() {
  const busy = ref(false)
  const error = ref('')
  async function act(work: () => Promise<void>) {
    error.value = ''
    busy.value = true
    try {
      await work()
    } catch (err) {
      error.value = (err as Error).message
    } finally {
      busy.value = false
    }
  }
  return { busy, error, act }
}
