// End to end, on a stack of its own: the Automations page (an automation with a
// schedule, a webhook and a file, its next runs, 422s shown at their fields, the webhook's signed
// `curl` run as printed, rotation, run now and the history opening the run's chat) and
// the memory section of the settings (notes the agent kept, edited, deleted, wiped).
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { startStack } from './support/stack.mjs'
import { launch, snap } from './support/browser.mjs'
import { expectProblem, onPage as runOnPage, signIn as signInAs } from './support/pages.mjs'

const EMAIL = 'lin@example.com'
const PASSWORD = 'correct horse battery'
const SLOW = { timeout: 90_000 }
const PHONE = { width: 390, height: 844 }
const DESKTOP = { width: 1440, height: 900 }

let stack
let browser

before(async () => {
  stack = await startStack()
  browser = await launch()
  // The first account (the stack's admin).
  const registered = await fetch(`${stack.url}/api/v1/auth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
  })
  assert.equal(registered.status, 201, await registered.text())
})

after(async () => {
  await browser?.close()
  await stack?.stop()
})

const signIn = (page) => signInAs(page, stack.url, EMAIL, PASSWORD)
const onPage = (name, options, body) => runOnPage(browser, stack, name, options, body)

/** Runs the page's `curl` as a person would paste it into a shell; its JSON answer. */
function runCurl(script) {
  return JSON.parse(execFileSync('bash', ['-c', `${script} -w '\\n'`], { encoding: 'utf8' }))
}

/** A delivery signed with `secret` at `at` (Unix seconds), sent from here: its status. */
async function deliver(url, secret, body = '{"event":"probe"}', at = Math.floor(Date.now() / 1000)) {
  const { createHmac } = await import('node:crypto')
  const signature = `t=${at},v1=${createHmac('sha256', secret).update(`${at}.${body}`).digest('hex')}`
  const response = await fetch(url, { method: 'POST', headers: { 'X-Sandpiper-Signature': signature }, body })
  return response.status
}

/** The clock time and weekday of `at` in `zone`. */
const wallClock = (at, zone) =>
  new Intl.DateTimeFormat('en-GB', { timeZone: zone, weekday: 'short', hour: '2-digit', minute: '2-digit' }).format(new Date(at))

describe('Automations and memory in a browser', () => {
  test('an automation: a bad cron named at its field, next runs, a signed webhook, rotation, run now, its chat', { timeout: 240_000 }, () =>
    onPage('automations', {}, async (page, problems) => {
      page.on('dialog', (dialog) => dialog.accept())
      await signIn(page)
      await page.click('[data-test=open-automations]')
      await page.waitForURL(`${stack.url}/automations`)
      await page.locator('[data-test=automations-none]').waitFor()

      await page.click('[data-test=automation-add]')
      const editor = page.locator('[data-test=automation-editor]')
      await editor.locator('input[name=name]').fill('Morning round')
      await editor.locator('textarea[name=prompt]').fill('Say hello, fired by {{ trigger }}')
      const schedule = editor.locator('[data-test=trigger][data-type=schedule]')
      await schedule.locator('input[name=cron]').fill('0 9 * *')
      await schedule.locator('input[name=timezone]').fill('Europe/Berlin')
      await editor.locator('[data-test=add-webhook]').click()
      await editor.locator('[data-test=automation-save]').click()
      // The API's 422 names `cron`: the message is beside that field, which is marked.
      await schedule.locator('[data-test=field-error]', { hasText: '5 fields' }).waitFor()
      assert.equal(await schedule.locator('input[name=cron]').getAttribute('aria-invalid'), 'true')
      assert.equal(await editor.locator('[data-test=trigger][data-type=webhook] [data-test=field-error]').count(), 0)
      await expectProblem(problems, /status of 422/)
      await snap(page, '30-automation-bad-cron')
      await page.setViewportSize(PHONE)
      await schedule.scrollIntoViewIfNeeded()
      await snap(page, '30b-phone-automation-editor')
      await page.setViewportSize(DESKTOP)

      await schedule.locator('input[name=cron]').fill('0 9 * * 1-5')
      // A webhook told of each run: a URL the API refuses is named at its field.
      await editor.locator('input[name=webhook_url]').fill('ftp://example.org/hook')
      await editor.locator('[data-test=automation-save]').click()
      await editor.locator('[data-test=field-error]', { hasText: 'http or https' }).waitFor()
      assert.equal(await editor.locator('input[name=webhook_url]').getAttribute('aria-invalid'), 'true')
      await expectProblem(problems, /status of 422/)
      await editor.locator('input[name=webhook_url]').fill('')
      // A file each run gets in its uploads/.
      await editor.locator('[data-test=automation-attach]').setInputFiles({ name: 'orders.csv', mimeType: 'text/csv', buffer: Buffer.from('order,total\n1,12\n') })
      await editor.locator('[data-test=automation-files] li[data-name="orders.csv"]').waitFor()
      // Before saving, the editor shows the next 5 fire times of the triggers as typed.
      await editor.locator('[data-test=automation-preview]').click()
      const previewed = editor.locator('[data-test=preview-runs] li')
      await previewed.nth(4).waitFor()
      const soon = await previewed.evaluateAll((items) => items.map((li) => li.dataset.at))
      assert.equal(soon.length, 5)
      for (const at of soon) assert.match(wallClock(at, 'Europe/Berlin'), /^(Mon|Tue|Wed|Thu|Fri) 09:00$/, at)
      await snap(page, '30c-automation-preview')
      await editor.locator('[data-test=automation-save]').click()
      const card = page.locator('[data-test=automation][data-name="Morning round"]')
      await card.waitFor()
      // The next 5 fire times: 09:00 on weekdays, Berlin time.
      const times = await card.locator('[data-test=next-runs] li').evaluateAll((items) => items.map((li) => li.dataset.at))
      assert.equal(times.length, 5)
      for (const at of times) assert.match(wallClock(at, 'Europe/Berlin'), /^(Mon|Tue|Wed|Thu|Fri) 09:00$/, at)
      assert.deepEqual([...times].sort(), times, 'soonest first')

      // The webhook's URL and secret, shown once, with a curl that signs its body.
      const reveal = card.locator('[data-test=webhook-reveal]')
      const url = await reveal.locator('[data-test=webhook-url]').innerText()
      const secret = await reveal.locator('[data-test=webhook-secret]').innerText()
      assert.match(url, new RegExp(`^${stack.url}/api/v1/hooks/[0-9a-f-]{36}$`))
      assert.match(secret, /^[0-9a-f]{64}$/)
      await snap(page, '31-automation-created')
      const curl = await reveal.locator('[data-test=webhook-curl]').innerText()
      const delivered = runCurl(curl)
      assert.match(delivered.job_id ?? '', /.+/, JSON.stringify(delivered))
      assert.equal(await deliver(url, 'not-the-secret'), 401)

      // Once: gone after a reload.
      await page.reload()
      await card.waitFor()
      assert.equal(await page.locator('[data-test=webhook-reveal]').count(), 0)
      assert.equal((await page.content()).includes(secret), false, 'the secret is not shown again')

      // Rotated: a new secret; the old one is still taken for the grace the page names. A
      // delivery sent again runs once; one signed ten minutes ago not at all.
      await card.locator('[data-test=webhook-rotate]').click()
      const rotated = await reveal.locator('[data-test=webhook-secret]').innerText()
      assert.notEqual(rotated, secret)
      assert.match(await reveal.locator('[data-test=webhook-previous-until]').innerText(), /still taken until/)
      await snap(page, '31a-webhook-rotated')
      const at = Math.floor(Date.now() / 1000)
      assert.equal(await deliver(url, secret, '{"event":"again"}', at), 202)
      assert.equal(await deliver(url, secret, '{"event":"again"}', at), 200)
      assert.equal(await deliver(url, rotated, '{"event":"late"}', at - 600), 401)
      await reveal.locator('[data-test=webhook-done]').click()

      // Run now: the history, newest first, opens the run's chat.
      await card.locator('[data-test=automation-run]').click()
      await card.locator('[data-test=run-started]').waitFor()
      const runs = card.locator('[data-test=run]')
      await runs.nth(1).waitFor()
      await runs.nth(2).waitFor()
      assert.deepEqual(await runs.evaluateAll((rows) => rows.map((r) => r.dataset.trigger)), ['manual', 'webhook', 'webhook'])
      // The history follows the runs to their end, and the last result with it.
      await card.locator('[data-test=run][data-trigger=manual][data-status=succeeded]').waitFor(SLOW)
      await card.locator('[data-test=run][data-trigger=webhook][data-status=succeeded]').nth(1).waitFor(SLOW)
      await card.locator('[data-test=automation-last]', { hasText: 'Succeeded' }).waitFor()
      await snap(page, '32-automation-history')
      await page.setViewportSize(PHONE)
      await snap(page, '33-phone-automations')
      await page.setViewportSize(DESKTOP)
      await runs.first().locator('[data-test=run-open]').click()
      await page.waitForURL(/\/s\//)
      await page.locator('[data-test=message-user]', { hasText: 'Say hello, fired by manual' }).waitFor(SLOW)
      await page.locator('[data-test=message-assistant]', { hasText: 'You said: Say hello, fired by manual' }).waitFor(SLOW)

      // Switched off, it stays off, with no next fire time.
      await page.goto(`${stack.url}/automations`)
      await card.locator('[data-test=automation-enabled]').click()
      await page.locator('[data-test=automation][data-enabled=false]').waitFor()
      await page.reload()
      await page.locator('[data-test=automation][data-enabled=false] [data-test=automation-next]', { hasText: 'Off' }).waitFor()
      assert.equal(await card.locator('[data-test=automation-enabled]').isChecked(), false)

      // Edited: renamed, a one-shot time added, its file removed; the webhook keeps its URL.
      await card.locator('[data-test=automation-edit]').click()
      assert.equal(await editor.locator('[data-test=trigger-url]').innerText(), url)
      const file = editor.locator('[data-test=automation-files] li[data-name="orders.csv"]')
      assert.match(await file.innerText(), /orders\.csv\s+17 B/)
      await file.scrollIntoViewIfNeeded()
      await snap(page, '31b-automation-editor-files')
      await file.getByRole('button').click()
      await editor.locator('input[name=name]').fill('Morning round, and once more')
      await editor.locator('[data-test=add-at]').click()
      await editor.locator('[data-test=trigger][data-type=at] input[name=at]').fill('2030-01-02T10:30')
      await editor.locator('[data-test=automation-save]').click()
      const edited = page.locator('[data-test=automation][data-name="Morning round, and once more"]')
      await edited.locator('[data-test=automation-trigger][data-type=at]').waitFor()
      const kept = await edited.locator('[data-test=next-runs] li').evaluateAll((items) => items.map((li) => li.dataset.at))
      assert.equal(kept.length, 5)
      await page.emulateMedia({ colorScheme: 'dark' })
      await snap(page, '32b-automation-edited-dark')
      await page.emulateMedia({ colorScheme: 'light' })
      await edited.locator('[data-test=automation-edit]').click()
      assert.equal(await editor.locator('[data-test=trigger-url]').innerText(), url)
      assert.equal(await editor.locator('input[name=at]').inputValue(), '2030-01-02T10:30')
      assert.equal(await editor.locator('[data-test=automation-files] li').count(), 0, 'its file was removed')
      await editor.getByRole('button', { name: 'Cancel' }).click()

      await edited.locator('[data-test=automation-delete]').click()
      await page.locator('[data-test=automations-none]').waitFor()
      assert.equal(await deliver(url, rotated), 404)
    }))

  test('memory: off by default; on, the agent’s notes are listed with their chat, edited, deleted and wiped', { timeout: 180_000 }, () =>
    onPage('memory', {}, async (page, problems) => {
      page.on('dialog', (dialog) => dialog.accept())
      await signIn(page)
      await page.click('[data-test=open-settings]')
      const memory = page.locator('[data-test=memory]')
      await memory.locator('[data-test=memory-off]').waitFor()
      assert.equal(await memory.locator('[data-test=memory-enabled]').isChecked(), false)
      await memory.locator('[data-test=memory-enabled]').click()
      await page.locator('[data-test=memory][data-enabled=true]').waitFor()

      // A chat whose agent keeps two notes.
      await page.click('[data-test=page-back]')
      await page.fill('[data-test=composer]', 'Please remember this about me')
      await page.keyboard.press('Enter')
      await page.waitForURL(/\/s\//)
      const chat = new URL(page.url()).pathname
      await page.locator('[data-test=message-assistant]', { hasText: 'I will remember both.' }).waitFor(SLOW)

      await page.click('[data-test=open-settings]')
      const notes = memory.locator('[data-test=memory-note]')
      await notes.nth(1).waitFor()
      assert.deepEqual(await notes.locator('[data-test=memory-text]').allInnerTexts(), [
        'Ada keeps her reports in out/reports',
        'Ada prefers CSV over JSON',
      ])
      await snap(page, '34-memory-notes')
      // Each note opens the chat that wrote it.
      await notes.first().locator('[data-test=memory-chat]').click()
      await page.waitForURL(`${stack.url}${chat}`)
      await page.locator('[data-test=tool-line][data-tool=memory][data-state=done]').nth(1).waitFor()
      await page.click('[data-test=open-settings]')

      // An edit the API refuses says why under the note; a good one is kept.
      await notes.first().locator('[data-test=memory-edit]').click()
      await notes.first().locator('textarea[name=note-text]').fill('')
      await notes.first().locator('[data-test=memory-save]').click()
      await notes.first().locator('[data-test=field-error]').waitFor()
      await expectProblem(problems, /status of 422/)
      await snap(page, '35-memory-edit-refused')
      await notes.first().locator('textarea[name=note-text]').fill('Ada keeps her reports in out/reports/2026')
      await notes.first().locator('[data-test=memory-save]').click()
      await notes.first().locator('[data-test=memory-text]', { hasText: 'out/reports/2026' }).waitFor()
      await page.reload()
      await notes.first().locator('[data-test=memory-text]', { hasText: 'out/reports/2026' }).waitFor()

      await notes.nth(1).locator('[data-test=memory-delete]').click()
      await page.waitForFunction(() => document.querySelectorAll('[data-test=memory-note]').length === 1)
      await page.setViewportSize(PHONE)
      await memory.scrollIntoViewIfNeeded()
      await snap(page, '36-phone-memory')
      await page.setViewportSize(DESKTOP)
      await memory.locator('[data-test=memory-wipe]').click()
      await memory.locator('[data-test=memory-none]').waitFor()

      // Off again, and it stays off.
      await memory.locator('[data-test=memory-enabled]').click()
      await page.locator('[data-test=memory][data-enabled=false]').waitFor()
      await page.reload()
      await memory.locator('[data-test=memory-off]').waitFor()
      await snap(page, '37-memory-off')
    }))
})
