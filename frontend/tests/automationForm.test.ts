import { afterEach, describe, expect, it, vi } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import { execFileSync } from 'node:child_process'
import { createHmac } from 'node:crypto'
import AutomationEditor from '../src/components/automations/AutomationEditor.vue'
import type { Automation } from '../src/api/types'
import { addFile, formFile, formOf, inputOf, newForm, newTrigger, removeFile, signedCurl } from '../src/lib/automationForm'

const stored: Automation = {
  id: 'a1',
  name: 'Nightly',
  prompt: 'Check {{ body.repo }}',
  model: 'coder',
  session: 'persistent',
  enabled: false,
  failures: 0,
  missed_runs: 'run_once',
  triggers: [
    { id: 't1', type: 'schedule', cron: '0 2 * * *', timezone: 'Asia/Tokyo' },
    { id: 't2', type: 'at', at: '2020-12-01T09:30:15.250Z' },
    { id: 't3', type: 'webhook', url: '/api/v1/hooks/t3', filter: 'body.action == "opened"' },
  ],
  next_runs: [],
  attachments: [],
  created_at: '2026-11-01T00:00:00Z',
}

describe('the automation form', () => {
  it('sends a new automation with its triggers, an empty filter left out', () => {
    const form = { ...newForm(), name: ' Morning ', prompt: 'Report' }
    form.triggers[0] = { ...form.triggers[0], cron: ' 0 9 * * 1-5 ', timezone: 'Europe/Berlin' }
    form.triggers.push({ ...newTrigger('webhook'), filter: '  ' })
    expect(inputOf(form)).toEqual({
      name: 'Morning',
      prompt: 'Report',
      session: 'fresh',
      enabled: true,
      triggers: [
        { type: 'schedule', cron: '0 9 * * 1-5', timezone: 'Europe/Berlin' },
        { type: 'webhook', filter: null },
      ],
      webhook_url: '',
    })
  })

  it('edits a stored automation: each trigger keeps its id, a past time goes back as it was', () => {
    const form = formOf({ ...stored, webhook_url: 'https://ci.example.org/done' })
    const input = inputOf(form)
    expect(input).toMatchObject({ name: 'Nightly', model: 'coder', session: 'persistent', enabled: false, webhook_url: 'https://ci.example.org/done' })
    expect(input.triggers).toEqual([
      { type: 'schedule', id: 't1', cron: '0 2 * * *', timezone: 'Asia/Tokyo' },
      { type: 'at', id: 't2', at: '2020-12-01T09:30:15.250Z' },
      { type: 'webhook', id: 't3', filter: 'body.action == "opened"' },
    ])
    // A time changed in the field is sent as typed (to the minute), for the API to hold
    // to the future.
    form.triggers[1] = { ...form.triggers[1], at: '2030-01-02T03:04' }
    expect(inputOf(form).triggers[1]).toEqual({ type: 'at', id: 't2', at: new Date('2030-01-02T03:04').toISOString() })
  })
})

describe('the files of the form', () => {
  it('sends the added ones in base64 and the stored ones removed by name', async () => {
    const form = formOf({ ...stored, attachments: [{ name: 'old.csv', size: 3 }, { name: 'keep.txt', size: 1 }] })
    expect(inputOf(form)).not.toHaveProperty('attachments')
    removeFile(form, 'old.csv')
    addFile(form, await formFile(new File(['x,1\n'], 'new.csv')))
    addFile(form, await formFile(new File(['ab'], 'keep.txt')))
    const input = inputOf(form)
    expect(input.attachments).toEqual([
      { name: 'new.csv', content_base64: 'eCwxCg==' },
      { name: 'keep.txt', content_base64: 'YWI=' },
    ])
    // A stored file sent again is replaced, not removed.
    expect(input.remove_attachments).toEqual(['old.csv'])
    expect(form.files.map((f) => [f.name, f.size])).toEqual([['new.csv', 4], ['keep.txt', 2]])
  })
})

describe('the webhook curl', () => {
  it('signs "<time>.<body>" with openssl exactly as HMAC-SHA256 with the secret, and sends both', () => {
    const secret = "s3cr'et"
    const body = '{"event":"it\'s here"}'
    // The script's signing lines, run as printed, with curl replaced by an echo.
    const lines = signedCurl('http://127.0.0.1:1/api/v1/hooks/x', secret, body).split('\n')
    const printed = execFileSync('bash', ['-c', `${lines.slice(0, 3).join('\n')}\nprintf '%s %s' "$T" "$SIG"`], { encoding: 'utf8' })
    const [time, signature] = printed.split(' ')
    expect(Math.abs(Number(time) - Date.now() / 1000)).toBeLessThan(60)
    expect(signature).toBe(createHmac('sha256', secret).update(`${time}.${body}`).digest('hex'))
    expect(lines).toContain('  -H "X-Sandpiper-Signature: t=$T,v1=$SIG" \\')
  })
})

describe('the automation editor', () => {
  afterEach(() => vi.unstubAllGlobals())

  /** An editor whose save is answered 422 naming `field`. */
  async function refused(field: string, message: string) {
    vi.stubGlobal('fetch', async (path: string) =>
      path === '/api/v1/models'
        ? Response.json({ models: [] })
        : Response.json({ error: { code: 'invalid', message: `${field}: ${message}`, field } }, { status: 422 }),
    )
    const wrapper = mount(AutomationEditor, { props: { editing: null } })
    await wrapper.get('[data-test=add-webhook]').trigger('click')
    await wrapper.get('form').trigger('submit')
    await flushPromises()
    return wrapper
  }

  it('shows a trigger field’s 422 under that field, in the row that has it', async () => {
    const wrapper = await refused('timezone', '`Mars/Base` is not an IANA time zone')
    const schedule = wrapper.get('[data-test=trigger][data-type=schedule]')
    expect(schedule.get('input[name=timezone]').attributes('aria-invalid')).toBe('true')
    expect(schedule.get('input[name=cron]').attributes('aria-invalid')).toBeUndefined()
    expect(schedule.findAll('[data-test=field-error]').map((e) => e.text())).toEqual(['`Mars/Base` is not an IANA time zone'])
    expect(wrapper.get('[data-test=trigger][data-type=webhook]').find('[data-test=field-error]').exists()).toBe(false)
  })

  it('shows a form field’s 422 under it, and one it has no field for below the form', async () => {
    const named = await refused('name', 'a name has 1 to 100 characters')
    expect(named.get('input[name=name]').attributes('aria-invalid')).toBe('true')
    expect(named.findAll('[data-test=field-error]').map((e) => e.text())).toEqual(['a name has 1 to 100 characters'])
    const other = await refused('network', 'not a network')
    expect(other.find('[data-test=field-error]').exists()).toBe(false)
    expect(other.get('[role=alert]').text()).toBe('network: not a network')
  })
})
