// The models the person may pick for a chat (`GET /api/v1/models`, default first),
// fetched once; a failed fetch leaves the list empty (no selector) and is tried again on
// the next call.
import { reactive } from 'vue'
import { api } from '../api/http'
import * as routes from '../api/routes'
import type { Model, ModelList } from '../api/types'

export const models = reactive({ list: [] as Model[] })

let loading: Promise<void> | null = null

export function loadModels(): Promise<void> {
  loading ??= api<ModelList>('GET', routes.models).then(
    (answer) => {
      models.list = answer.models
    },
    () => {
      loading = null
    },
  )
  return loading
}

/** The model a chat gets when it names none. */
export function defaultModel(): string | null {
  return models.list.find((m) => m.default)?.name ?? null
}
