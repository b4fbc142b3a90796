// The automation editor's form: what a person types, turned into what the API takes,
// and back; how a trigger reads in the list; and the `curl` line that signs a webhook
// delivery as the API checks it (HMAC-SHA256 of the body with the trigger's secret).
import type { Automation, AutomationEdit, NewAutomation, NewTrigger, SessionMode, Trigger } from '../api/types'
import { strings } from '../strings'

export type TriggerType = 'schedule' | 'at' | 'webhook'

/** One trigger row. `id`: a stored trigger's, kept on save (a webhook with its URL and
 * secret). `savedAt`: a stored one-shot's time, sent back as it was while the field still
 * shows it (the field has no seconds), so a one-shot that fired saves unchanged. */
export interface TriggerRow {
  key: number
  type: TriggerType
  id?: string
  savedAt?: string
  cron: string
  timezone: string
  /** A `datetime-local` value, in the browser's time zone. */
  at: string
  filter: string
  url?: string
}

export interface AutomationForm {
  name: string
  prompt: string
  model: string
  session: SessionMode
  enabled: boolean
  triggers: TriggerRow[]
  /** Where each run's end is sent; empty for none. */
  webhookUrl: string
  /** Its files: stored ones (no content) and ones added in this form (base64). */
  files: FormFile[]
  /** Stored files removed in this form, by name. */
  removed: string[]
}

/** A file each run gets as `uploads/<name>`. */
export interface FormFile {
  name: string
  size: number
  /** Only for a file added in the form, not saved yet. */
  contentBase64?: string
}

/** A browser file as the form holds it, its content in base64. */
export async function formFile(file: File): Promise<FormFile> {
  const bytes = new Uint8Array(await file.arrayBuffer())
  let binary = ''
  for (let at = 0; at < bytes.length; at += 0x8000) binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000))
  return { name: file.name, size: bytes.length, contentBase64: btoa(binary) }
}

/** Adds `file` to the form, replacing one of the same name. */
export function addFile(form: AutomationForm, file: FormFile): void {
  removeFile(form, file.name)
  form.files.push(file)
}

/** Removes a file from the form; a stored one is removed on save. */
export function removeFile(form: AutomationForm, name: string): void {
  const at = form.files.findIndex((f) => f.name === name)
  if (at === -1) return
  if (form.files[at]?.contentBase64 === undefined) form.removed.push(name)
  form.files.splice(at, 1)
}

let keys = 0

/** A webhook's full address (the API gives it relative to its origin, which is ours). */
export const absoluteUrl = (url: string) => new URL(url, location.origin).toString()

/** The browser's IANA time zone, the default of a new schedule. */
export const localZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'

/** Every IANA time zone the browser knows, for the zone field's suggestions. */
export const knownZones = (): string[] => (typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [])

export function newTrigger(type: TriggerType): TriggerRow {
  return { key: ++keys, type, cron: '0 9 * * 1-5', timezone: localZone(), at: '', filter: '' }
}

export function newForm(): AutomationForm {
  return { name: '', prompt: '', model: '', session: 'fresh', enabled: true, triggers: [newTrigger('schedule')], webhookUrl: '', files: [], removed: [] }
}

/** `2026-12-01T09:00` in the browser's zone, as a `datetime-local` field shows it. */
function localInput(at: string): string {
  const date = new Date(at)
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`
}

export function formOf(automation: Automation): AutomationForm {
  return {
    name: automation.name,
    prompt: automation.prompt,
    model: automation.model ?? '',
    session: automation.session,
    enabled: automation.enabled,
    webhookUrl: automation.webhook_url ?? '',
    files: (automation.attachments ?? []).map((file) => ({ name: file.name, size: file.size })),
    removed: [],
    triggers: automation.triggers.map((trigger) => {
      const row = { ...newTrigger(trigger.type as TriggerType), id: trigger.id }
      if (trigger.type === 'schedule') return { ...row, cron: trigger.cron ?? '', timezone: trigger.timezone ?? '' }
      if (trigger.type === 'at') return { ...row, at: trigger.at ? localInput(trigger.at) : '', savedAt: trigger.at ?? undefined }
      return { ...row, filter: trigger.filter ?? '', url: trigger.url ? absoluteUrl(trigger.url) : undefined }
    }),
  }
}

/** An `at` the API reads (RFC 3339); an empty or unreadable field is sent as typed, for
 * the API to name. */
function instant(local: string): string {
  const date = new Date(local)
  return Number.isNaN(date.getTime()) ? local : date.toISOString()
}

function triggerOf(row: TriggerRow): NewTrigger {
  const id = row.id ? { id: row.id } : {}
  if (row.type === 'schedule') return { type: 'schedule', ...id, cron: row.cron.trim(), timezone: row.timezone.trim() }
  if (row.type === 'at') {
    const unchanged = row.savedAt !== undefined && row.at === localInput(row.savedAt)
    return { type: 'at', ...id, at: unchanged ? (row.savedAt as string) : instant(row.at) }
  }
  return { type: 'webhook', ...id, filter: row.filter.trim() || null }
}

/** What a save sends: a new automation, or a change (`remove_attachments` only then). */
export type AutomationInput = NewAutomation & Pick<AutomationEdit, 'remove_attachments'>

export function inputOf(form: AutomationForm): AutomationInput {
  const added = form.files.flatMap((file) => (file.contentBase64 === undefined ? [] : [{ name: file.name, content_base64: file.contentBase64 }]))
  // A stored file removed and added again under its name is simply replaced.
  const removed = form.removed.filter((name) => !added.some((file) => file.name === name))
  return {
    name: form.name.trim(),
    prompt: form.prompt,
    ...(form.model ? { model: form.model } : {}),
    session: form.session,
    enabled: form.enabled,
    triggers: form.triggers.map(triggerOf),
    // Empty removes it; the same URL keeps its secret.
    webhook_url: form.webhookUrl.trim(),
    ...(added.length ? { attachments: added } : {}),
    ...(removed.length ? { remove_attachments: removed } : {}),
  }
}

/** The fields a trigger row has, as the API names them in a 422. */
export const triggerFields: Record<TriggerType, string[]> = {
  schedule: ['cron', 'timezone'],
  at: ['at'],
  webhook: ['filter'],
}

/** A history entry's status in the badge colours the chat list uses. */
export const runTone = (status: string): string =>
  ({ succeeded: 'completed', failed: 'failed', cancelled: 'failed', paused: 'failed', running: 'running', queued: 'waiting', waiting: 'waiting' })[status] ?? ''

/** A time in the browser's zone, the zone named (a schedule may be in another). */
export const formatTime = (at: string) =>
  new Date(at).toLocaleString(undefined, { month: 'short', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short' })

/** A trigger in a few words, for the list. */
export function describeTrigger(trigger: Trigger): string {
  if (trigger.type === 'schedule') return `${trigger.cron} (${trigger.timezone})`
  if (trigger.type === 'at') return trigger.at ? formatTime(trigger.at) : ''
  return trigger.filter ? `${strings.automations.ifFilter} ${trigger.filter}` : strings.automations.anyDelivery
}

/** Shell-quoted with single quotes. */
const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`

/** A `curl` that sends `body` to the webhook, signed with openssl as the API checks it:
 * the HMAC-SHA256 of `<time>.<body>`, with the time it was signed at. */
export function signedCurl(url: string, secret: string, body = '{"event":"test"}'): string {
  return [
    `BODY=${quote(body)}`,
    `T=$(date +%s)`,
    `SIG=$(printf '%s.%s' "$T" "$BODY" | openssl dgst -sha256 -hmac ${quote(secret)} | sed 's/^.* //')`,
    `curl -sS -X POST ${quote(url)} \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -H "X-Sandpiper-Signature: t=$T,v1=$SIG" \\`,
    `  --data-binary "$BODY"`,
  ].join('\n')
}
