// Debian's Chromium driven by playwright-core (no browser download), and a page that
// fails the test on any console error, uncaught exception or Content-Security-Policy
// violation (reported by the page's `securitypolicyviolation` events as well as the
// console, so one the browser does not log still counts).
// Chromium aborts the requests in flight with ERR_NETWORK_CHANGED whenever the host's
// network interfaces change, which the Docker engine does each time the stack's manager
// starts a sandbox (its pool refilling meanwhile): that is the test machine's, not the
// app's, and is not counted.
import { chromium } from 'playwright-core'
import { mkdirSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export const ARTIFACTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../artifacts')

export async function launch() {
  mkdirSync(ARTIFACTS, { recursive: true })
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  })
}

const HOST_NETWORK_CHANGED = /^Failed to load resource: net::ERR_NETWORK_CHANGED$/

/** A new page; `problems` collects console errors, page errors and CSP violations. */
export async function openPage(browser, options = {}) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, acceptDownloads: true, ...options })
  const problems = []
  await context.exposeBinding('reportCspViolation', (_source, text) => problems.push(`CSP violation: ${text}`))
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) =>
      window.reportCspViolation(`${event.effectiveDirective} refused ${event.blockedURI} on ${event.documentURI}`))
  })
  const page = await context.newPage()
  page.on('console', (message) => {
    if (message.type() === 'error' && !HOST_NETWORK_CHANGED.test(message.text())) problems.push(`console: ${message.text()}`)
  })
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`))
  return { context, page, problems }
}

export async function snap(page, name) {
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) })
}
