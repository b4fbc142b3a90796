// A session's live timeline: the event stream opened from the start (or resumed after
// the last event shown), each event applied once, closed when the view goes away.
import { reactive, ref, onScopeDispose } from 'vue'
import { openEventStream, type StreamState } from '../api/sse'
import type { StoredEvent } from '../api/types'
import type { ApiFailure } from '../api/http'
import { applyEvent, emptyTimeline } from './timeline'

export function useSessionEvents(path: string) {
  const timeline = reactive(emptyTimeline())
  const state = ref<StreamState>('connecting')
  const failure = ref<ApiFailure | null>(null)
  const close = openEventStream(path, {
    onEvent(_name, data) {
      try {
        applyEvent(timeline, JSON.parse(data) as StoredEvent)
      } catch {
        // A malformed event is skipped rather than breaking the whole view.
      }
    },
    onState(next, why) {
      state.value = next
      if (why) failure.value = why
    },
  })
  onScopeDispose(close)
  return { timeline, state, failure, close }
}
