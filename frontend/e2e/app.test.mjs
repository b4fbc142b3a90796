// End to end: the built app served by the real backend-api, with a real sandbox-manager
// starting real sandboxes and the scripted model; Debian's Chromium plays the person.
// Screenshots of the main screens are saved in e2e/artifacts/.
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { startStack } from './support/stack.mjs'
import { launch, snap } from './support/browser.mjs'
import { expectProblem, onPage as runOnPage, signIn as signInAs } from './support/pages.mjs'

const EMAIL = 'ada@example.com'
const PASSWORD = 'correct horse battery'
const SLOW = { timeout: 60_000 }
// A file an agent could be talked into writing: it tries to act as the person.
const HOSTILE = '<!doctype html><h1>Quarterly figures</h1><script>parent.document.title = "taken"</script>\n'
// What Chromium logs when a sandboxed frame's script is refused, as it should be.
const SANDBOXED_SCRIPT = /^console: Blocked script execution in 'blob:.*' because the document's frame is sandboxed/

let stack
let browser
let shareLink

before(async () => {
  stack = await startStack()
  browser = await launch()
})

after(async () => {
  await browser?.close()
  await stack?.stop()
})

const signIn = (page) => signInAs(page, stack.url, EMAIL, PASSWORD)
const onPage = (name, options, body) => runOnPage(browser, stack, name, options, body)

describe('Sandpiper in a browser', () => {
  test('sign up, run a task, open its tool views, the desktop and the files', { timeout: 240_000 }, () =>
    onPage('task', {}, async (page, problems) => {
      const response = await page.goto(stack.url)
      // The rest of this test runs under the app's policy.
      assert.match(response.headers()['content-security-policy'], /script-src 'self';.*frame-ancestors 'none'/)
      await page.waitForURL(/\/signin/)
      await snap(page, '01-sign-in')
      await page.getByRole('button', { name: 'Create account' }).click()
      await page.fill('input[name=email]', EMAIL)
      await page.fill('input[name=password]', PASSWORD)
      await page.click('button[type=submit]')
      await page.getByText('What should Sandpiper do?').waitFor()

      await page.fill('[data-test=composer]', 'Please write the sales report')
      await page.keyboard.press('Enter')
      await page.waitForURL(/\/s\//)

      // The plan, every tool call and the answer arrive live.
      await page.locator('[data-test=plan-step]').first().waitFor()
      await page.locator('[data-test=message-assistant]').getByText('total 43').waitFor(SLOW)
      await page.locator('[data-test=plan-step][data-status=completed]').nth(1).waitFor()
      const tools = page.locator('[data-test=tool-line]')
      assert.deepEqual(await tools.evaluateAll((lines) => lines.map((l) => `${l.dataset.tool}:${l.dataset.state}`)), [
        'shell_exec:done',
        'file_write:done',
        'file_replace:done',
        'browser_navigate:done',
      ])
      assert.equal(await page.locator('[data-test=message-assistant] pre .hljs-string').count() > 0, true, 'code is highlighted')
      await page.locator('[data-test=chat-title]', { hasText: 'Sales report' }).waitFor()
      await page.locator('[data-test=session-row]', { hasText: 'Sales report' }).waitFor()

      await tools.nth(0).click()
      assert.match(await page.locator('[data-test=shell-output]').innerText(), /total: 42/)
      await tools.nth(2).click()
      const diff = page.locator('[data-test=file-diff]')
      assert.match(await diff.locator('.del').innerText(), /total 42/)
      assert.match(await diff.locator('.add').innerText(), /total 43/)
      await tools.nth(3).click()
      const shot = page.locator('[data-test=screenshot]')
      await shot.waitFor()
      await page.waitForFunction(() => document.querySelector('[data-test=screenshot]')?.naturalWidth > 100)
      await snap(page, '02-chat-with-browser-view')
      await page.getByRole('button', { name: 'Close' }).click()

      // The live desktop: pixels on the canvas; take over and give back.
      const desktop = page.locator('[data-test=desktop]')
      await page.locator('[data-test=desktop][data-state=connected]').waitFor(SLOW)
      await page.waitForFunction(() => {
        const canvas = document.querySelector('[data-test=desktop] canvas')
        if (!canvas || canvas.width < 100) return false
        const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data
        let lit = 0
        for (let i = 0; i < pixels.length; i += 4 * 97) if (pixels[i] + pixels[i + 1] + pixels[i + 2] > 60) lit++
        return lit > 100
      }, null, SLOW)
      await snap(page, '03-desktop')
      await page.click('[data-test=take-over]')
      await page.locator('[data-test=desktop][data-mode=control][data-state=connected]').waitFor(SLOW)
      assert.match(await page.locator('[data-test=sign-in-note]').innerText(), /deleted with the chat; passwords are never saved/)
      await page.click('[data-test=give-back]')
      await page.locator('[data-test=desktop][data-mode=view][data-state=connected]').waitFor(SLOW)
      assert.equal(await desktop.count(), 1)

      // The file browser: the report is there, previewed and downloaded.
      await page.click('[data-test=tab-files]')
      await page.locator('[data-test=file-row][data-path$="/out"]').click()
      await page.locator('[data-test=file-row][data-path$="/out/report.txt"]').click()
      await page.locator('[data-test=file-preview]', { hasText: 'total: 42' }).waitFor()
      const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-test=files-download]')])
      assert.equal(download.suggestedFilename(), 'report.txt')
      assert.equal(readFileSync(await download.path(), 'utf8'), 'total: 42\n')
      // A file the agent did not write appears in the tree by itself (live watch).
      await page.locator('[data-test=file-row][data-path$="/out/page.html"]').waitFor()
      await snap(page, '04-files')

      // HTML is drawn in a sandboxed frame, where its script does not run.
      await page.setInputFiles('[data-test=files-picker]', { name: 'hostile.html', mimeType: 'text/html', buffer: Buffer.from(HOSTILE) })
      await page.locator('[data-test=file-row][data-path$="/out/hostile.html"]').click()
      const frame = page.locator('[data-test=document-preview]')
      assert.equal(await frame.getAttribute('sandbox'), '')
      await page.frameLocator('[data-test=document-preview]').getByText('Quarterly figures').waitFor()
      await expectProblem(problems, SANDBOXED_SCRIPT)
      assert.notEqual(await page.title(), 'taken')
      await snap(page, '04b-html-preview')

      // The terminal: a shell in the workspace, typed into, ended by `exit`.
      await page.click('[data-test=tab-terminal]')
      await page.click('[data-test=terminal-open]')
      await page.locator('[data-test=terminal][data-state=open]').waitFor(SLOW)
      await page.keyboard.type('cat out/report.txt; echo sum=$((40 + 2))')
      await page.keyboard.press('Enter')
      const screenHas = (text) =>
        page.waitForFunction((t) => document.querySelector('[data-test=terminal] .xterm-rows')?.textContent.includes(t), text)
      await screenHas('sum=42')
      await screenHas('total: 42')
      await snap(page, '05-terminal')
      await page.keyboard.type('exit 3')
      await page.keyboard.press('Enter')
      await page.locator('[data-test=terminal][data-state=ended]', { hasText: 'exit code 3' }).waitFor()

      const shared = await page.evaluate(async () => {
        // The app's access token is in its memory only: this script gets one of its own.
        const json = { 'Content-Type': 'application/json' }
        const refreshed = await fetch('/api/v1/auth/refresh', { method: 'POST', headers: json, body: '{}' })
        const { access_token } = await refreshed.json()
        const id = location.pathname.split('/').pop()
        const r = await fetch(`/api/v1/sessions/${id}/share`, { method: 'POST', headers: { Authorization: `Bearer ${access_token}` } })
        return (await r.json()).share_token
      })
      shareLink = `${stack.url}/share/${shared}`
    }))

  test('a reload stays signed in through the refresh cookie, which no script can read; signing out ends it', { timeout: 60_000 }, () =>
    onPage('cookie', {}, async (page) => {
      await signIn(page)
      const refreshCookies = async () => (await page.context().cookies()).filter((c) => c.name === 'sandpiper_refresh')
      const signedIn = await refreshCookies()
      assert.deepEqual(signedIn.map((c) => c.path).sort(), ['/api/v1/auth/logout', '/api/v1/auth/refresh'])
      assert.ok(signedIn.every((c) => c.httpOnly && c.sameSite === 'Strict' && c.value === signedIn[0].value))
      const visible = () => page.evaluate(() => ({ storage: JSON.stringify({ ...localStorage }), cookies: document.cookie }))
      const before = await visible()
      // Neither token is where a script could read it: no refresh token, no JWT.
      assert.equal(before.cookies, '')
      assert.ok(!before.storage.includes(signedIn[0].value), before.storage)
      assert.doesNotMatch(before.storage, /refresh_token|access_token|eyJ/)

      await page.reload()
      await page.getByRole('button', { name: 'Sign out' }).waitFor()
      assert.equal(new URL(page.url()).pathname, '/')
      const rotated = await refreshCookies()
      assert.equal(rotated.length, 2)
      assert.notEqual(rotated[0].value, signedIn[0].value, 'the reload spent the cookie for a new one')
      assert.doesNotMatch((await visible()).storage, /refresh_token|access_token|eyJ/)

      await page.getByRole('button', { name: 'Sign out' }).click()
      await page.waitForURL(/\/signin/)
      assert.deepEqual(await refreshCookies(), [], 'signing out clears the cookie')
      await page.reload()
      await page.locator('input[name=email]').waitFor()
      assert.match(page.url(), /\/signin/)
      // The cookie's family is revoked, not only forgotten by this browser.
      for (const { value } of [signedIn[0], rotated[0]]) {
        const response = await page.request.post(`${stack.url}/api/v1/auth/refresh`, {
          data: {},
          headers: { cookie: `sandpiper_refresh=${value}` },
        })
        assert.equal(response.status(), 401)
      }
    }))

  test('reload mid-run resumes the stream without duplicates, and stop ends the run', { timeout: 180_000 }, () =>
    onPage('stop', {}, async (page) => {
      await signIn(page)
      await page.fill('[data-test=composer]', 'Start the slow job')
      await page.keyboard.press('Enter')
      await page.locator('[data-test=tool-line][data-tool=shell_exec][data-state=running]').waitFor(SLOW)
      await page.reload()
      await page.locator('[data-test=tool-line][data-tool=shell_exec][data-state=running]').waitFor(SLOW)
      assert.equal(await page.locator('[data-test=message-user]').count(), 1)
      assert.equal(await page.locator('[data-test=tool-line]').count(), 1)
      assert.equal(await page.locator('[data-test=plan-step]').count(), 1)
      await page.click('[data-test=stop]')
      await page.locator('[data-test=tool-line][data-tool=shell_exec][data-state=failed]').waitFor({ timeout: 10_000 })
      await page.locator('[data-test=stop]').waitFor({ state: 'detached', timeout: 10_000 })
      assert.notEqual(await page.locator('[data-test=chat-status]').innerText(), 'Working')
    }))

  test("an MCP server's tool runs, its image shows in the tool view, the Tools tab lists it", { timeout: 60_000 }, () =>
    onPage('mcp', {}, async (page) => {
      await signIn(page)
      await page.fill('[data-test=composer]', 'Show me the logo')
      await page.keyboard.press('Enter')
      const line = page.locator('[data-test=tool-line][data-tool="mcp__everything__get-tiny-image"][data-state=done]')
      await line.waitFor(SLOW)
      await page.locator('[data-test=message-assistant]', { hasText: 'That is the MCP logo.' }).waitFor()
      await line.click()
      await page.locator('[data-test=tool-view][data-kind=mcp] header', { hasText: 'get-tiny-image (everything)' }).waitFor()
      await page.waitForFunction(() => document.querySelector('[data-test=tool-view] img')?.naturalWidth > 0)
      await snap(page, '08-mcp-tool')
      // The Tools tab lists the server and its tools.
      await page.click('[data-test=tab-tools]')
      await page.locator('[data-test=mcp-server][data-name=everything] li', { hasText: 'get-sum' }).waitFor()
      await snap(page, '09-tools-panel')
    }))

  test('a tool the agent makes shows its command and tools, and its call runs', { timeout: 120_000 }, () =>
    onPage('toolmaker', {}, async (page) => {
      await signIn(page)
      await page.fill('[data-test=composer]', 'Make yourself a greeter')
      await page.keyboard.press('Enter')
      const line = page.locator('[data-test=tool-line][data-tool=tool_register][data-state=done]')
      await line.waitFor(SLOW)
      await page.locator('[data-test=tool-line][data-tool=mcp__greeter__greet][data-state=done]').waitFor(SLOW)
      await page.locator('[data-test=message-assistant]', { hasText: 'greeted Grace' }).waitFor(SLOW)
      await line.click()
      const view = page.locator('[data-test=tool-view][data-kind=tool_register]')
      await view.locator('[data-test=register-tools]', { hasText: 'mcp__greeter__greet' }).waitFor()
      assert.equal(await view.locator('[data-test=register-command]').innerText(), 'node tools/greeter.js')
      assert.match(await view.innerText(), /Hello, Ada!/)
      await snap(page, '23-tool-register')
    }))

  test('the model picked in the composer answers the next message', { timeout: 60_000 }, () =>
    onPage('model', {}, async (page) => {
      await signIn(page)
      const picker = page.locator('[data-test=model]')
      // The list comes from the API after the page is up.
      await picker.locator('option', { hasText: 'coder' }).waitFor({ state: 'attached' })
      assert.deepEqual(await picker.locator('option').allTextContents(), ['scripted', 'coder'])
      assert.equal(await picker.inputValue(), 'scripted')
      await picker.selectOption('coder')
      await page.fill('[data-test=composer]', 'Which model is this?')
      const asked = stack.llm.requests.length
      await page.keyboard.press('Enter')
      await page.locator('[data-test=message-assistant]', { hasText: 'You said: Which model is this?' }).waitFor(SLOW)
      assert.equal(stack.llm.requests[asked].model, 'scripted-coder')
      await snap(page, '19-composer-model')
      // The pick is the chat's: it is still there after a reload, once the chat is read
      // (its messages may show first, and the picker its first model until then).
      await page.reload()
      await page.locator('[data-test=message-assistant]').first().waitFor()
      await page.waitForFunction(() => document.querySelector('[data-test=model]')?.value === 'coder')
      assert.equal(await page.locator('[data-test=model]').inputValue(), 'coder')
    }))

  test('sub-agents work side by side, their steps folded under the delegating calls', { timeout: 120_000 }, () =>
    onPage('sub-agents', {}, async (page) => {
      await signIn(page)
      await page.fill('[data-test=composer]', 'Divide the work in two')
      await page.keyboard.press('Enter')
      await page.locator('[data-test=message-assistant]', { hasText: 'Both sub-agents reported back' }).waitFor(SLOW)
      const delegations = page.locator('[data-test=tool-line][data-tool=delegate]')
      assert.equal(await delegations.count(), 2)
      assert.deepEqual(await delegations.evaluateAll((lines) => lines.map((l) => l.dataset.state)), ['done', 'done'])
      // Folded: each sub-agent's steps are there, closed until opened.
      const folds = page.locator('[data-test=sub-agent]')
      assert.equal(await folds.count(), 2)
      assert.equal(await folds.first().evaluate((d) => d.open), false)
      await folds.first().locator('summary').click()
      const nested = folds.first().locator('[data-test=tool-line][data-tool=shell_exec]')
      await nested.click()
      await page.locator('[data-test=tool-view][data-kind=shell]', { hasText: 'Linux' }).waitFor()
      await delegations.first().click()
      const answer = page.locator('[data-test=tool-view][data-kind=delegation] [data-test=delegation-answer]')
      await answer.filter({ hasText: 'Done: Linux, 1 line.' }).waitFor()
      await snap(page, '20-sub-agents')
    }))

  test('code runs in the kernel: its chart, table and error show, and the notebook downloads', { timeout: 120_000 }, () =>
    onPage('code', {}, async (page) => {
      await signIn(page)
      await page.fill('[data-test=composer]', 'Make a chart of my sales')
      await page.keyboard.press('Enter')
      await page.locator('[data-test=message-assistant]', { hasText: 'Sales total 105' }).waitFor(SLOW)
      const cells = page.locator('[data-test=tool-line][data-tool=code_run]')
      assert.equal(await cells.count(), 2)
      assert.deepEqual(await cells.evaluateAll((lines) => lines.map((l) => l.dataset.state)), ['done', 'failed'])
      await cells.nth(0).click()
      const view = page.locator('[data-test=tool-view][data-kind=code]')
      assert.match(await view.locator('[data-test=code-stdout]').innerText(), /total 105/)
      await page.waitForFunction(() => document.querySelector('[data-test=code-image]')?.naturalWidth > 300)
      assert.match(await view.locator('[data-test=code-html] table').innerText(), /mean/)
      assert.ok((await view.locator('pre .hljs-keyword').count()) > 0, 'the code is highlighted')
      await snap(page, '15-code-chart')
      await cells.nth(1).click()
      assert.match(await view.locator('[data-test=code-error]').innerText(), /KeyError: 'profit'/)
      await snap(page, '16-code-error')
      const [download] = await Promise.all([page.waitForEvent('download'), view.locator('[data-test=download-notebook]').click()])
      assert.match(download.suggestedFilename(), /\.ipynb$/)
      const notebook = JSON.parse(readFileSync(await download.path(), 'utf8'))
      assert.equal(notebook.nbformat, 4)
      assert.equal(notebook.cells.length, 2)
      assert.ok(notebook.cells[0].outputs.some((o) => o.data?.['image/png']))
    }))

  test('the desktop starts only when needed: by the browser, or when asked', { timeout: 150_000 }, () =>
    onPage('desktop-on-demand', {}, async (page) => {
      await signIn(page)
      await page.fill('[data-test=composer]', 'Tally the files with the shell')
      await page.keyboard.press('Enter')
      await page.locator('[data-test=message-assistant]', { hasText: 'Tallied with the shell alone.' }).waitFor(SLOW)
      const session = page.url().split('/').pop()
      // Opened afresh, the chat shows the agent's last tool view and starts no desktop.
      await page.reload()
      await page.locator('[data-test=tool-view][data-kind=shell]').waitFor()
      await page.locator('[data-test=desktop][data-state=off]').waitFor({ state: 'attached' })
      await new Promise((resolve) => setTimeout(resolve, 10_000))
      const memory = await stack.sandboxMemoryMib(session)
      console.log(`sandbox memory after 10 s on a shell-only chat: ${memory.toFixed(1)} MiB`)
      assert.ok(memory < 30, `the sandbox uses ${memory} MiB: its desktop was started`)
      await snap(page, '21-shell-only-chat')

      // A browser call brings the live view up by itself, and into sight.
      await page.fill('[data-test=composer]', 'Now open it in the browser')
      await page.keyboard.press('Enter')
      await page.locator('[data-test=desktop][data-state=connected]').waitFor(SLOW)
      await page.waitForFunction(() => {
        const canvas = document.querySelector('[data-test=desktop] canvas')
        if (!canvas || canvas.width < 100) return false
        // The page's blue fills the screen's middle.
        const [r, g, b] = canvas.getContext('2d').getImageData(canvas.width / 2, canvas.height / 2, 1, 1).data
        return b > 200 && r < 80
      }, null, SLOW)
      await snap(page, '22-desktop-live')
      await page.setViewportSize({ width: 390, height: 844 })
      await page.getByRole('button', { name: 'Desktop', exact: true }).click()
      await page.waitForFunction(() => document.querySelector('.side-list').getBoundingClientRect().right <= 0)
      await snap(page, '23-phone-desktop')
      await page.setViewportSize({ width: 1440, height: 900 })

      // Stopped under the watcher, it says so; "Start the desktop" and "Take over" start it.
      const stopDesktop = async () => {
        const tools = await stack.toolApi(session)
        const stopped = await fetch(`${tools.url}/v1/desktop/stop`, { method: 'POST', headers: { Authorization: `Bearer ${tools.token}` } })
        assert.equal(stopped.status, 200)
        await page.locator('[data-test=desktop][data-state=ended]').waitFor(SLOW)
      }
      await stopDesktop()
      await snap(page, '24-desktop-ended')
      await page.setViewportSize({ width: 390, height: 844 })
      await page.waitForFunction(() => document.querySelector('.side-list').getBoundingClientRect().right <= 0)
      await snap(page, '25-phone-desktop-ended')
      await page.setViewportSize({ width: 1440, height: 900 })
      await page.click('[data-test=desktop-start]')
      await page.locator('[data-test=desktop][data-mode=view][data-state=connected]').waitFor(SLOW)
      await stopDesktop()
      await page.click('[data-test=take-over]')
      await page.locator('[data-test=desktop][data-mode=control][data-state=connected]').waitFor(SLOW)
      await page.click('[data-test=give-back]')
      await page.locator('[data-test=desktop][data-mode=view][data-state=connected]').waitFor(SLOW)
    }))

  test('an admin adds MCP servers in the settings: HTTP with its tools, stdio listed per chat', { timeout: 90_000 }, () =>
    onPage('mcp-admin', {}, async (page, problems) => {
      await signIn(page)
      await page.click('[data-test=open-settings]')
      await page.waitForURL(`${stack.url}/settings`)
      // The server of the MCP_CONFIG file, seeded into the store, is there and working.
      await page.locator('[data-test=mcp-admin-server][data-name=everything][data-health=ok]').waitFor(SLOW)

      await page.click('[data-test=mcp-add]')
      await page.fill('input[name=name]', 'reference')
      await page.fill('input[name=url]', stack.mcpUrl)
      await page.getByRole('button', { name: 'Add header' }).click()
      await page.getByLabel('Headers: Name').fill('Authorization')
      await page.getByLabel('Authorization: Value').fill('Bearer e2e-secret-value')
      await snap(page, '10-settings-add-server')
      await page.click('[data-test=mcp-save]')
      const added = page.locator('[data-test=mcp-admin-server][data-name=reference]')
      await page.locator('[data-test=mcp-admin-server][data-name=reference][data-health=ok]').waitFor(SLOW)
      await added.locator('summary').click()
      await added.locator('li', { hasText: 'get-sum' }).waitFor()
      assert.match(await added.innerText(), /Authorization\s+set/)
      assert.equal((await page.content()).includes('e2e-secret-value'), false, 'the secret is not on the page')
      await snap(page, '11-settings-mcp-servers')

      // A stdio server: no variables offered, a relative command refused by the backend,
      // and its tools listed in each chat's own sandbox, so none here (nothing started).
      await page.click('[data-test=mcp-add]')
      await page.check('input[name=transport][value=stdio]')
      assert.equal(await page.locator('[data-test=mcp-form] fieldset.secrets').count(), 0, 'no variables for stdio')
      await page.fill('input[name=name]', 'local')
      await page.fill('input[name=command]', 'bin/server-everything')
      await page.fill('textarea[name=args]', '-y\n@modelcontextprotocol/server-everything')
      await page.click('[data-test=mcp-save]')
      await page.locator('input[name=command][aria-invalid=true]').waitFor()
      await expectProblem(problems, /status of 422/)
      await snap(page, '11b-settings-add-stdio')
      await page.fill('input[name=command]', 'npx')
      await page.click('[data-test=mcp-save]')
      const local = page.locator('[data-test=mcp-admin-server][data-name=local][data-health=per-chat]')
      await local.waitFor(SLOW)
      assert.match(await local.innerText(), /Tools listed per chat/)
      await snap(page, '11c-settings-stdio-server')

      // Editing shows the stored header as set, never its value.
      await added.getByRole('button', { name: 'Edit' }).click()
      await page.locator('[data-test=mcp-form] [data-test=secret-row]', { hasText: 'set' }).waitFor()
      await snap(page, '12-settings-edit-server')
      await page.setViewportSize({ width: 390, height: 844 })
      await snap(page, '13-phone-settings-edit')
      await page.getByRole('button', { name: 'Cancel' }).click()
      await snap(page, '14-phone-settings')
      await page.setViewportSize({ width: 1440, height: 900 })

      // An invite: its link opens the registration with the code filled in, once.
      await page.fill('input[name=invite-email]', 'grace@example.com')
      await page.click('[data-test=invite-create]')
      const link = await page.locator('[data-test=invite-link]').innerText()
      assert.match(link, /\/signin\?invite=[A-Za-z0-9]{24}$/)
      await snap(page, '17-settings-invite')
      const guest = await browser.newContext({ viewport: { width: 1440, height: 900 } })
      const joining = await guest.newPage()
      await joining.goto(link)
      assert.equal(await joining.locator('[data-test=invite-code]').inputValue(), link.split('=').pop())
      await joining.fill('input[name=email]', 'grace@example.com')
      await joining.fill('input[name=password]', PASSWORD)
      await snap(joining, '18-sign-up-with-invite')
      await joining.click('button[type=submit]')
      await joining.waitForURL(`${stack.url}/`)
      await guest.close()

      // Its tools reach the chat's Tools tab.
      await page.click('[data-test=page-back]')
      await page.locator('[data-test=session-row]').first().click()
      await page.click('[data-test=tab-tools]')
      await page.locator('[data-test=mcp-server][data-name=reference] li', { hasText: 'get-sum' }).waitFor(SLOW)
      const stdio = page.locator('[data-test=mcp-server][data-name=local] [data-test=not-started]')
      assert.match(await stdio.innerText(), /go to this chat’s agent only/)
      await stdio.scrollIntoViewIfNeeded()
      await snap(page, '09b-tools-panel-stdio')
    }))

  test('a shared chat replays without signing in', { timeout: 60_000 }, () => {
    assert.ok(shareLink, 'the first test shared its chat')
    return onPage('replay', {}, async (page) => {
      // A replay never reaches for the desktop (nor asks whether it runs).
      const desktopCalls = []
      page.on('request', (request) => /\/(vnc|desktop)\b/.test(request.url()) && desktopCalls.push(request.url()))
      await page.goto(shareLink)
      await page.click('[data-test=replay-all]')
      await page.locator('[data-test=replay-title]', { hasText: 'Sales report' }).waitFor()
      await page.locator('[data-test=message-assistant]', { hasText: 'total 43' }).waitFor()
      await page.locator('[data-test=tool-line][data-tool=browser_navigate]').click()
      await page.waitForFunction(() => document.querySelector('[data-test=screenshot]')?.naturalWidth > 100)
      await snap(page, '05-shared-replay')
      assert.deepEqual(desktopCalls, [])
    })
  })

  test('the share dialog sets the link’s expiry, shows it, and revoking ends the replay', { timeout: 60_000 }, () =>
    onPage('share-dialog', {}, async (page, problems) => {
      await signIn(page)
      await page.locator('[data-test=session-row]', { hasText: 'Sales report' }).click()
      await page.locator('[data-test=message-assistant]', { hasText: 'total 43' }).waitFor()
      await page.click('[data-test=share]')
      const dialog = page.locator('[data-test=share-dialog]')
      // Shared by the first test, until revoked.
      await dialog.locator('[data-test=share-state]', { hasText: 'until you revoke it' }).waitFor()
      const link = await dialog.locator('[data-test=share-link]').inputValue()
      assert.equal(link, shareLink)
      await dialog.locator('select[name=share-expiry]').selectOption('86400')
      await dialog.locator('[data-test=share-save]').click()
      await dialog.locator('[data-test=share-state]', { hasText: 'The link works until' }).waitFor()
      assert.equal(await dialog.locator('[data-test=share-link]').inputValue(), link, 'a new expiry keeps the link')
      await snap(page, '05b-share-dialog')
      const api = link.replace('/share/', '/api/v1/shared/')
      assert.equal((await page.request.get(api)).status(), 200)

      await dialog.locator('[data-test=share-revoke]').click()
      await page.locator('[data-test=share-dialog][data-state=unshared]').waitFor()
      assert.equal((await page.request.get(api)).status(), 404)
      await dialog.getByRole('button', { name: 'Close' }).click()
      await page.locator('[data-test=share] .share-label', { hasText: /^Share$/ }).waitFor()
      await page.goto(link)
      await page.getByRole('alert').filter({ hasText: 'no longer shared' }).waitFor()
      await expectProblem(problems, /status of 404/)
    }))

  test('the API reference renders from its own origin under its policy', { timeout: 60_000 }, () =>
    onPage('docs', {}, async (page, problems) => {
      const response = await page.goto(`${stack.url}/docs`)
      assert.match(response.headers()['content-security-policy'], /default-src 'none'; script-src 'self';/)
      await page.getByText('/api/v1/auth/login').first().waitFor(SLOW)
      // A tag's operations show once it is opened (only the first one starts open).
      await page.getByRole('link', { name: 'mcp', exact: true }).first().click()
      await page.getByText('/api/v1/admin/mcp/servers', { exact: true }).first().waitFor()
      await snap(page, '15-api-docs')
      // Zod, inside the viewer, tries `Function('')` to learn whether eval is allowed and,
      // refused, validates without it; nothing else may be refused.
      await expectProblem(problems, /^CSP violation: script-src refused eval on .*\/docs$/)
    }))

  test('on a phone the panels are tabs and the chat list a drawer', { timeout: 60_000 }, () =>
    onPage('phone', { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }, async (page) => {
      await signIn(page)
      await page.getByRole('button', { name: 'Chats' }).first().click()
      await page.locator('[data-test=session-row]', { hasText: 'Sales report' }).click()
      await page.locator('[data-test=message-assistant]', { hasText: 'total 43' }).waitFor()
      // The drawer has slid away.
      await page.waitForFunction(() => document.querySelector('.side-list').getBoundingClientRect().right <= 0)
      assert.equal(await page.locator('[data-test=desktop]').isVisible(), false)
      await snap(page, '06-phone-chat')
      await page.getByRole('button', { name: 'Files', exact: true }).click()
      await page.locator('[data-test=file-row][data-path$="/out"]').waitFor()
      assert.equal(await page.locator('[data-test=composer]').isVisible(), false)
      await snap(page, '07-phone-files')
    }))
})
