// End to end, on a stack of its own: the views of the sandbox tools that answer with a
// listing, found files or matched lines, opened from a real run in a real sandbox; and
// the views of the run's own memory and automation tools, and a note written after the
// agent read a file, which waits for the person's approval in Settings → Memory.
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { startStack } from './support/stack.mjs'
import { launch, snap } from './support/browser.mjs'
import { onPage as runOnPage, signIn } from './support/pages.mjs'

const EMAIL = 'ines@example.com'
const PASSWORD = 'correct horse battery'
const SLOW = { timeout: 120_000 }
const WORKSPACE = '/home/sandbox/workspace'

let stack
let browser

before(async () => {
  stack = await startStack()
  browser = await launch()
  // The one account both tests sign in with (registration is by invite after the first).
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

const onPage = (name, options, body) => runOnPage(browser, stack, name, options, body)

describe('Tool views', () => {
  test('a listing, found files and matched lines each show as what they are', { timeout: 240_000 }, () =>
    onPage('tool-views', {}, async (page) => {
      await signIn(page, stack.url, EMAIL, PASSWORD)
      await page.getByText('What should Sandpiper do?').waitFor()
      await page.fill('[data-test=composer]', 'Take an inventory of the notes')
      await page.keyboard.press('Enter')
      await page.locator('[data-test=message-assistant]').getByText('Two notes mention the sandpiper.').waitFor(SLOW)

      // Each line says what its call did, from the call's typed arguments.
      const summaries = await page.locator('[data-test=tool-line] .summary').allInnerTexts()
      assert.deepEqual(summaries, ['notes/birds.txt', 'notes/coast.md', 'notes', '**/*.md', 'sandpiper'])

      await page.locator('[data-test=tool-line][data-tool=file_list]').click()
      const listing = page.locator('[data-test=tool-view][data-kind=listing]')
      await listing.waitFor()
      assert.deepEqual(await listing.locator('[data-test=listing] .name').allInnerTexts(), ['birds.txt', 'coast.md'])
      assert.equal(await listing.locator('pre').count(), 0, 'no JSON dump')
      await snap(page, '24-tool-listing')

      await page.locator('[data-test=tool-line][data-tool=file_find]').click()
      const found = page.locator('[data-test=tool-view][data-kind=found]')
      await found.waitFor()
      assert.deepEqual(await found.locator('[data-test=found] li').allInnerTexts(), [`${WORKSPACE}/notes/coast.md`])

      await page.locator('[data-test=tool-line][data-tool=file_search]').click()
      const matches = page.locator('[data-test=tool-view][data-kind=matches]')
      await matches.waitFor()
      const where = await matches.locator('.where').allInnerTexts()
      assert.deepEqual(where.sort(), [`${WORKSPACE}/notes/birds.txt:2`, `${WORKSPACE}/notes/coast.md:3`])
      assert.match(await matches.innerText(), /The sandpiper runs along the tide line\./)
      await snap(page, '25-tool-matches')
    }),
  )

  test('a memory note and an automation the agent made each show as what they are', { timeout: 120_000 }, () =>
    onPage('own-tool-views', {}, async (page) => {
      await signIn(page, stack.url, EMAIL, PASSWORD)
      await page.getByText('What should Sandpiper do?').waitFor()
      // Memory is off until the person turns it on.
      await page.click('[data-test=open-settings]')
      await page.locator('[data-test=memory] [data-test=memory-enabled]').click()
      await page.locator('[data-test=memory][data-enabled=true]').waitFor()
      await page.click('[data-test=page-back]')

      await page.fill('[data-test=composer]', 'Set up my standup')
      await page.keyboard.press('Enter')
      await page.locator('[data-test=message-assistant]').getByText('Noted, and the standup reminder is set.').waitFor(SLOW)
      const summaries = await page.locator('[data-test=tool-line] .summary').allInnerTexts()
      assert.deepEqual(summaries, ['Ines runs the team standup on Mondays', 'Standup reminder'])

      await page.locator('[data-test=tool-line][data-tool=memory]').click()
      const memory = page.locator('[data-test=tool-view][data-kind=memory]')
      await memory.waitFor()
      assert.equal(await memory.locator('[data-test=memory-note]').innerText(), 'Ines runs the team standup on Mondays')
      assert.match(await memory.locator('[data-test=memory-holds]').innerText(), /holds 1 note;/)
      assert.equal(await memory.locator('pre').count(), 0, 'no JSON dump')
      await snap(page, '47-tool-memory')

      await page.locator('[data-test=tool-line][data-tool=automation_create]').click()
      const made = page.locator('[data-test=tool-view][data-kind=automation]')
      await made.waitFor()
      assert.equal(await made.locator('[data-test=automation-made] strong').innerText(), 'Standup reminder')
      assert.equal(await made.locator('[data-test=automation-made] li').count(), 3, 'its next three fire times')
      assert.equal(await made.locator('pre').count(), 0, 'no JSON dump')
      await snap(page, '48-tool-automation')
    }),
  )

  test('a note written after reading a file waits for the person’s approval', { timeout: 240_000 }, () =>
    onPage('memory-approval', {}, async (page) => {
      const rule = 'Deploys go out on Tuesdays only'
      await signIn(page, stack.url, EMAIL, PASSWORD)
      await page.getByText('What should Sandpiper do?').waitFor()
      await page.click('[data-test=open-settings]')
      const switched = page.locator('[data-test=memory] [data-test=memory-enabled]')
      await switched.waitFor()
      if (!(await switched.isChecked())) await switched.click()
      await page.locator('[data-test=memory][data-enabled=true]').waitFor()
      await page.click('[data-test=page-back]')

      await page.fill('[data-test=composer]', 'Study the handbook’s deploy rule')
      await page.keyboard.press('Enter')
      await page.locator('[data-test=message-assistant]').getByText('Kept the rule; it waits for your approval.').waitFor(SLOW)
      await page.locator('[data-test=tool-line][data-tool=memory]').click()
      const view = page.locator('[data-test=tool-view][data-kind=memory]')
      assert.match(await view.locator('[data-test=memory-pending]').innerText(), /waits for your approval/)
      await snap(page, '49-tool-memory-pending')

      await page.click('[data-test=open-settings]')
      const waiting = page.locator('[data-test=memory-note][data-pending=true]')
      await waiting.locator('[data-test=memory-text]', { hasText: rule }).waitFor()
      assert.match(await waiting.locator('[data-test=memory-pending]').innerText(), /Waiting for your approval/)
      await waiting.scrollIntoViewIfNeeded()
      await snap(page, '50-memory-pending')
      await waiting.locator('[data-test=memory-approve]').click()
      await page.locator('[data-test=memory-note][data-pending=false] [data-test=memory-text]', { hasText: rule }).waitFor()
      assert.equal(await page.locator('[data-test=memory-note][data-pending=true]').count(), 0)
    }),
  )
})
