// End to end, on a stack of its own: the tool box. The agent makes a tool; the person
// keeps it from its "Registered a tool" line, finds it in the chat's Tools tab with its
// source one click from the Files panel, uses it in a new chat, reads its code in
// Settings → Tool box and (as the admin) publishes it.
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { startStack } from './support/stack.mjs'
import { launch, snap } from './support/browser.mjs'
import { onPage as runOnPage, signIn as signInAs } from './support/pages.mjs'

const EMAIL = 'kim@example.com'
const PASSWORD = 'correct horse battery'
const SLOW = { timeout: 90_000 }
const PHONE = { width: 390, height: 844 }

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

describe('The tool box in a browser', () => {
  test('a tool the agent made is kept, its source opens, a new chat uses it, Settings shows its code', { timeout: 300_000 }, () =>
    onPage('toolbox', {}, async (page) => {
      await signIn(page)
      await page.fill('[data-test=composer]', 'Make yourself a greeter')
      await page.keyboard.press('Enter')
      const line = page.locator('[data-test=tool-line][data-tool=tool_register][data-state=done]')
      await line.waitFor(SLOW)
      await page.locator('[data-test=message-assistant]', { hasText: 'greeted Grace' }).waitFor(SLOW)
      await line.click()
      const view = page.locator('[data-test=tool-view][data-kind=tool_register]')
      await view.locator('[data-test=keep-button]').click()
      await view.locator('[data-test=keep-done]').waitFor()
      await snap(page, '40-keep-registered-tool')

      // The Tools tab: the chat's server, kept, its source one click from Files.
      await page.getByRole('button', { name: 'Close' }).click()
      await page.click('[data-test=tab-tools]')
      const server = page.locator('[data-test=registered-server][data-name=greeter]')
      await server.locator('.badge', { hasText: 'Kept' }).waitFor()
      assert.match(await server.innerText(), /mcp__greeter__greet/)
      await snap(page, '41-tools-panel-registered')
      await server.locator('[data-test=open-source]').click()
      await page.locator('[data-test=file-row].active[data-path$="/tools/greeter.js"]').waitFor()
      await snap(page, '42-source-in-files')

      // A new chat gets the kept tool from its first request and runs it in its sandbox.
      await page.goto(`${stack.url}/`)
      await page.fill('[data-test=composer]', 'Use the kept tool to say hi')
      await page.keyboard.press('Enter')
      await page.waitForURL(/\/s\//)
      await page.locator('[data-test=tool-line][data-tool=mcp__greeter__greet][data-state=done]').waitFor(SLOW)
      await page.locator('[data-test=message-assistant]', { hasText: 'The kept greeter said hello to Lin.' }).waitFor(SLOW)
      await page.locator('[data-test=tool-line][data-tool=mcp__greeter__greet]').click()
      assert.match(await page.locator('[data-test=tool-view]').innerText(), /Hello, Lin!/)
      await snap(page, '43-kept-tool-in-new-chat')

      // Settings → Tool box: its code; as the admin, everyone's, published after reading.
      await page.goto(`${stack.url}/settings`)
      const kept = page.locator('[data-test=toolbox] [data-test=kept-tool][data-name=greeter]')
      await kept.locator('[data-test=kept-code]').click()
      await kept.locator('[data-test=kept-files]', { hasText: 'tools/list' }).waitFor()
      await kept.scrollIntoViewIfNeeded()
      await snap(page, '44-settings-toolbox')
      page.once('dialog', (dialog) => dialog.accept())
      const everyone = page.locator('[data-test=toolbox-everyone] [data-test=kept-tool][data-name=greeter]')
      await everyone.locator('[data-test=kept-code]').click()
      await everyone.locator('[data-test=kept-files]', { hasText: 'tools/list' }).waitFor()
      await everyone.locator('[data-test=kept-publish]').click()
      await everyone.locator('[data-test=kept-published]').waitFor()
      await everyone.scrollIntoViewIfNeeded()
      await snap(page, '45-settings-toolbox-published')
    }))

  test('the tool box reads on a phone', { timeout: 60_000 }, () =>
    onPage('toolbox-phone', { viewport: PHONE }, async (page) => {
      await signIn(page)
      await page.goto(`${stack.url}/settings`)
      const kept = page.locator('[data-test=toolbox] [data-test=kept-tool][data-name=greeter]')
      await kept.waitFor()
      await kept.scrollIntoViewIfNeeded()
      await snap(page, '46-phone-toolbox')
    }))
})
