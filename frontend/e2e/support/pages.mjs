// What every end-to-end test file does with a page: sign in, run a test's body on a
// fresh page that fails on console errors (saving a screenshot and the servers' logs
// when it fails), and take out a console error the test expects.
import assert from 'node:assert/strict'
import { openPage, snap } from './browser.mjs'

export async function signIn(page, url, email, password) {
  await page.goto(`${url}/signin`)
  await page.fill('input[name=email]', email)
  await page.fill('input[name=password]', password)
  await page.click('button[type=submit]')
  await page.waitForURL(`${url}/`)
}

/** Runs `body` on a fresh page; on failure saves a screenshot and adds the servers' logs.
 * A console error, an uncaught exception or a CSP violation on the page fails the test
 * too, unless `body` takes it out of `problems` as expected. */
export async function onPage(browser, stack, name, options, body) {
  const { page, context, problems } = await openPage(browser, options)
  try {
    await body(page, problems)
    assert.deepEqual(problems, [], 'no console errors')
  } catch (err) {
    await snap(page, `failure-${name}`).catch(() => {})
    err.message += `\n${stack.logs().slice(-6000)}`
    throw err
  } finally {
    await context.close()
  }
}

/** Waits up to 5 s for a problem matching `pattern`, then takes it out of `problems`. */
export async function expectProblem(problems, pattern) {
  for (let i = 0; i < 50 && !problems.some((p) => pattern.test(p)); i++) await new Promise((r) => setTimeout(r, 100))
  const index = problems.findIndex((p) => pattern.test(p))
  assert.notEqual(index, -1, `expected ${pattern} among ${JSON.stringify(problems)}`)
  problems.splice(index, 1)
}
