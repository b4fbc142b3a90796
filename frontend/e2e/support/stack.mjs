// The real stack for the end-to-end tests: the sandbox-manager (Docker, the sandbox
// image, a pool of one), backend-api on the embedded store serving the built front end,
// the scripted model, and the published MCP reference server (`server-everything`, over
// Streamable HTTP) as the deployment's MCP server. Everything listens on 127.0.0.1 on free ports; `stop()` kills
// the processes and removes this run's containers and volumes.
import { spawn, execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, existsSync, writeFileSync } from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { startFakeLlm } from './fakeLlm.mjs'

const here = path.dirname(fileURLToPath(import.meta.url))
const repo = path.resolve(here, '../../..')
const MANAGER_TOKEN = 'e2e-manager-token-0123456789'

function binary(name) {
  const dir = process.env.SANDPIPER_BIN_DIR ?? path.join(process.env.CARGO_TARGET_DIR ?? path.join(repo, 'target'), 'debug')
  const file = path.join(dir, name)
  if (!existsSync(file)) throw new Error(`${file} is missing: run \`cargo build -p ${name}\` first (or set SANDPIPER_BIN_DIR)`)
  return file
}

async function freePort() {
  const server = net.createServer()
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address()
  await new Promise((resolve) => server.close(resolve))
  return port
}

async function waitFor(url, what, seconds) {
  const deadline = Date.now() + seconds * 1000
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url)
      if (response.ok) return
    } catch {
      // not yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error(`${what} did not answer ${url} within ${seconds} s`)
}

function start([program, ...args], env, name) {
  const environment = { ...process.env, ...env }
  // The embedded store: not the MongoDB and Redis the Rust suites may point at.
  delete environment.MONGODB_URI
  delete environment.REDIS_URL
  const child = spawn(program, args, { env: environment, stdio: ['ignore', 'pipe', 'pipe'] })
  const log = []
  const keep = (data) => {
    log.push(data.toString())
    if (log.length > 400) log.shift()
  }
  child.stdout.on('data', keep)
  child.stderr.on('data', keep)
  child.on('exit', (code) => code && keep(`${name} exited with ${code}\n`))
  return { child, log }
}

/** Asks a process to stop and waits for it (killing it after 10 s). */
function exited(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 10_000)
    child.once('exit', () => {
      clearTimeout(force)
      resolve()
    })
    child.kill('SIGTERM')
  })
}

/** A docker command's output words; a removal racing another one is not an error. */
function docker(args) {
  try {
    return execFileSync('docker', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).split(/\s+/).filter(Boolean)
  } catch {
    return []
  }
}

export async function startStack() {
  // test.sh names the image it built for these sources; otherwise build it (when missing).
  const image = process.env.SANDBOX_TEST_IMAGE ??
    execFileSync(path.join(repo, 'sandbox-image/build.sh'), ['--print-tag'], { encoding: 'utf8' }).trim().split('\n').pop()
  const data = mkdtempSync(path.join(os.tmpdir(), 'sandpiper-e2e-'))
  const namespace = `e2e${process.pid}`
  // Networks of its own too, so that nothing else on the engine makes or removes them.
  const networks = [`sandpiper-${namespace}-internet`, `sandpiper-${namespace}-offline`]
  const llm = await startFakeLlm()
  const managerPort = await freePort()
  const manager = start([binary('sandbox-manager')], {
    SANDBOX_MANAGER_TOKEN: MANAGER_TOKEN,
    SANDBOX_MANAGER_PORT: String(managerPort),
    SANDBOX_MANAGER_DATA_DIR: path.join(data, 'manager'),
    SANDBOX_MANAGER_NAMESPACE: namespace,
    SANDBOX_MANAGER_POOL__SIZE: '1',
    // The tests open several chats with sandboxes for one person; quotas are not theirs
    // to test.
    SANDBOX_MANAGER_QUOTA__PER_OWNER: '10',
    SANDBOX_MANAGER_SANDBOX__READY_TIMEOUT_SECS: '90',
    SANDBOX_MANAGER_SANDBOX__INTERNET_NETWORK: networks[0],
    SANDBOX_MANAGER_SANDBOX__OFFLINE_NETWORK: networks[1],
    SANDBOX_IMAGE: image,
  }, 'sandbox-manager')
  await waitFor(`http://127.0.0.1:${managerPort}/health`, 'the sandbox-manager', 30)
  const mcpPort = await freePort()
  const everything = path.join(repo, 'tests/mcp-servers/node_modules/@modelcontextprotocol/server-everything/dist/index.js')
  const mcp = start(['node', everything, 'streamableHttp'], { PORT: String(mcpPort) }, 'server-everything')
  const mcpConfig = path.join(data, 'mcp.json')
  writeFileSync(mcpConfig, JSON.stringify({ mcpServers: { everything: { url: `http://127.0.0.1:${mcpPort}/mcp` } } }))
  const backendPort = await freePort()
  const backend = start([binary('backend-api')], {
    BACKEND_PORT: String(backendPort),
    BACKEND_DATA_DIR: path.join(data, 'backend'),
    FRONTEND_DIR: path.resolve(here, '../../dist'),
    SANDBOX_MANAGER_URL: `http://127.0.0.1:${managerPort}`,
    SANDBOX_MANAGER_TOKEN: MANAGER_TOKEN,
    // Two models people pick from, both the scripted one; requests say which was meant.
    LLM_DEFAULT_MODEL: 'scripted',
    BACKEND_LLM__MODELS__SCRIPTED__BASE_URL: llm.baseUrl,
    BACKEND_LLM__MODELS__SCRIPTED__API_KEY: 'e2e-key',
    BACKEND_LLM__MODELS__CODER__BASE_URL: llm.baseUrl,
    BACKEND_LLM__MODELS__CODER__API_KEY: 'e2e-key',
    BACKEND_LLM__MODELS__CODER__MODEL: 'scripted-coder',
    MCP_CONFIG: mcpConfig,
    // As Compose runs it: the first account is the admin, everyone else needs an invite.
    BACKEND_AUTH__REGISTRATION: 'invite',
  }, 'backend-api')
  await waitFor(`http://127.0.0.1:${backendPort}/ready`, 'backend-api', 30)
  /** The session's running sandbox, as the manager lists it. */
  const sandboxOf = async (session) => {
    const response = await fetch(`http://127.0.0.1:${managerPort}/v1/sandboxes?session_id=${session}`, {
      headers: { Authorization: `Bearer ${MANAGER_TOKEN}` },
    })
    const { sandboxes } = await response.json()
    const sandbox = sandboxes.find((s) => s.tool_api)
    if (!sandbox) throw new Error(`session ${session} has no running sandbox`)
    return sandbox
  }
  const stop = async () => {
    await Promise.all([exited(backend.child), exited(manager.child), exited(mcp.child)])
    await llm.close()
    // Whatever the manager left (it may have been killed mid-way) goes too.
    const filter = `label=org.sandpiper.manager=${namespace}`
    const ids = docker(['ps', '-aq', '--filter', filter])
    if (ids.length) docker(['rm', '-f', '-v', ...ids])
    const volumes = docker(['volume', 'ls', '-q', '--filter', filter])
    if (volumes.length) docker(['volume', 'rm', '-f', ...volumes])
    docker(['network', 'rm', ...networks])
    rmSync(data, { recursive: true, force: true })
  }
  return {
    url: `http://127.0.0.1:${backendPort}`,
    /** The session's sandbox's tool-api (address and token), as backend-api reaches it. */
    toolApi: async (session) => (await sandboxOf(session)).tool_api,
    /** The memory the session's sandbox uses, in MiB, as the engine reports it. */
    sandboxMemoryMib: async (session) => {
      // A sandbox claimed from the warm pool has its own id's label, not the session's.
      const [container] = docker(['ps', '-q', '--filter', `label=org.sandpiper.sandbox=${(await sandboxOf(session)).id}`])
      const usage = execFileSync('docker', ['stats', '--no-stream', '--format', '{{.MemUsage}}', container], { encoding: 'utf8' })
      const [, amount, unit] = /^([\d.]+)\s*([KMG]i?B)/.exec(usage.trim()) ?? []
      if (!amount) throw new Error(`unexpected docker stats output: ${usage}`)
      return Number(amount) * { KiB: 1 / 1024, MiB: 1, GiB: 1024, kB: 1 / 1024, MB: 1, GB: 1024 }[unit]
    },
    /** The MCP reference server's address, for a test to add it again. */
    mcpUrl: `http://127.0.0.1:${mcpPort}/mcp`,
    llm,
    logs: () => `--- backend-api\n${backend.log.join('')}\n--- sandbox-manager\n${manager.log.join('')}`,
    stop,
  }
}
