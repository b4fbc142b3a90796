// The Automations page's data: the person's automations (each with its next fire times
// and last result), saved, switched on and off, run by hand and deleted through the
// automations routes; an automation's history; and the webhook secrets an answer
// carries, which the API shows once and the page keeps only until dismissed.
import { reactive } from 'vue'
import { api } from '../api/http'
import * as routes from '../api/routes'
import { absoluteUrl, type AutomationInput } from '../lib/automationForm'
import type { Automation, AutomationList, AutomationPreview, AutomationRun, NewAutomation, RotatedSecret, RunList, RunStarted } from '../api/types'


/** A webhook's address and secret, as shown once: a trigger's (`trigger`: its id), or
 * the automation's own that runs' ends go to (`trigger`: `outgoing`). */
export interface Revealed {
  trigger: string
  url: string
  secret: string
  /** After a rotation: until when the secret it replaced is still taken. */
  previousUntil?: string
}

/** The `trigger` of the automation's own webhook in [[Revealed]]. */
export const OUTGOING = 'outgoing'

export const automations = reactive({
  list: [] as Automation[],
  loaded: false,
  /** Webhook secrets from the last save or rotation, by automation id. */
  revealed: {} as Record<string, Revealed[]>,
})

function keep(automation: Automation): void {
  const secrets = automation.triggers.flatMap((t) => (t.url && t.secret ? [{ trigger: t.id, url: absoluteUrl(t.url), secret: t.secret }] : []))
  if (automation.webhook_url && automation.webhook_secret) secrets.push({ trigger: OUTGOING, url: automation.webhook_url, secret: automation.webhook_secret })
  if (secrets.length) automations.revealed[automation.id] = secrets
  const at = automations.list.findIndex((a) => a.id === automation.id)
  if (at === -1) automations.list.push(automation)
  else automations.list.splice(at, 1, { ...automation, last_run: automation.last_run ?? automations.list[at]?.last_run })
}

export async function loadAutomations(): Promise<void> {
  automations.list = (await api<AutomationList>('GET', routes.automations.all)).automations
  automations.loaded = true
}

/** Saves a new automation (`id` null) or changes one; the answer has its next runs. */
export async function saveAutomation(id: string | null, body: AutomationInput): Promise<Automation> {
  const saved = await api<Automation>(id ? 'PATCH' : 'POST', id ? routes.automations.one(id) : routes.automations.all, body)
  keep(saved)
  return saved
}

/** The next fire times of triggers not saved yet (a 422 names a bad field). */
export async function previewRuns(triggers: NewAutomation['triggers']): Promise<string[]> {
  return (await api<AutomationPreview>('POST', routes.automations.preview, { triggers })).next_runs
}

export async function setEnabled(id: string, enabled: boolean): Promise<void> {
  keep(await api<Automation>('PATCH', routes.automations.one(id), { enabled }))
}

export async function deleteAutomation(id: string): Promise<void> {
  await api('DELETE', routes.automations.one(id))
  automations.list = automations.list.filter((a) => a.id !== id)
  delete automations.revealed[id]
}

/** "Run now"; the list is asked again for the run's last result. */
export async function runNow(id: string): Promise<string> {
  const { job_id } = await api<RunStarted>('POST', routes.automations.run(id))
  await loadAutomations()
  return job_id
}

/** A new secret for a webhook trigger; the old one is still taken until `previousUntil`. */
export async function rotateSecret(id: string, trigger: string): Promise<void> {
  const answer = await api<RotatedSecret>('POST', routes.automations.rotate(id, trigger))
  const others = (automations.revealed[id] ?? []).filter((hook) => hook.trigger !== trigger)
  const hook = { trigger, url: absoluteUrl(answer.url), secret: answer.secret, previousUntil: answer.previous_valid_until }
  automations.revealed[id] = [...others, hook]
}

/** The history's newest entry as the automation's last result. */
export function showLastRun(id: string, run: AutomationRun | undefined): void {
  const automation = automations.list.find((a) => a.id === id)
  if (automation && run) automation.last_run = run
}

export async function loadRuns(id: string): Promise<AutomationRun[]> {
  return (await api<RunList>('GET', routes.automations.runs(id))).runs
}
