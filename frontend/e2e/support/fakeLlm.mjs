// A scripted OpenAI-compatible chat-completions server for the end-to-end tests: it
// streams real SSE chunks (tool calls split into deltas as providers send them). What it
// answers depends on the person's last message (a scenario word in it) and on how many
// answers it has given since — so a run is a fixed script the tests can rely on.
import http from 'node:http'

const WORKSPACE = '/home/sandbox/workspace'

const scenarios = {
  report: [
    [
      ['plan_update', { steps: [{ id: '1', description: 'Write the report' }, { id: '2', description: 'Check the page in the browser' }] }],
      ['set_title', { title: 'Sales report' }],
      ['step_update', { step_id: '1', status: 'running' }],
    ],
    [['shell_exec', { command: "mkdir -p out && printf 'total: 42\\n' > out/report.txt && cat out/report.txt" }]],
    [['file_write', { path: 'out/page.html', content: '<!doctype html><title>Report</title><h1 style="font:48px sans-serif">Report</h1><p>total 42</p>\n' }]],
    [['file_replace', { path: 'out/page.html', old: 'total 42', new: 'total 43' }]],
    [
      ['step_update', { step_id: '1', status: 'completed' }],
      ['step_update', { step_id: '2', status: 'running' }],
    ],
    [['browser_navigate', { url: `file://${WORKSPACE}/out/page.html` }]],
    [['step_update', { step_id: '2', status: 'completed' }]],
    'The report is ready: **total 43**, written to `out/report.txt`.\n\n```python\nprint("total", 43)\n```',
  ],
  slow: [
    [
      ['plan_update', { steps: [{ id: '1', description: 'Wait for the long job' }] }],
      ['step_update', { step_id: '1', status: 'running' }],
    ],
    [['shell_exec', { command: 'echo started; sleep 90; echo finished', timeout_secs: 120 }]],
    'The long job finished.',
  ],
  ask: [[['message_ask_user', { question: 'Which format do you want, CSV or JSON?' }]], 'Noted.'],
  // The session's agent hands two tasks to sub-agents, whose task texts are a scenario too.
  divide: [
    [
      ['delegate', { task: 'helper job: count the lines of /etc/hostname' }],
      ['delegate', { task: 'helper job: print the kernel name' }],
    ],
    'Both sub-agents reported back: one line, and Linux.',
  ],
  helper: [[['shell_exec', { command: 'uname -s; wc -l < /etc/hostname' }]], 'Done: Linux, 1 line.'],
  logo: [[['mcp__everything__get-tiny-image', {}]], 'That is the MCP logo.'],
  // Two notes for the person's memory across chats (offered only while it is on).
  remember: [
    [['memory', { action: 'add', text: 'Ada keeps her reports in out/reports' }]],
    [['memory', { action: 'add', text: 'Ada prefers CSV over JSON' }]],
    'I will remember both.',
  ],
  // The shell alone (no desktop needed), then the browser on what it wrote.
  tally: [
    [['shell_exec', { command: `printf '<body style="background:#1f6feb;color:#fff;font:64px sans-serif"><h1>Tally</h1>' > tally.html; ls | wc -l` }]],
    'Tallied with the shell alone.',
  ],
  browser: [[['browser_navigate', { url: `file://${WORKSPACE}/tally.html` }]], 'The page is open.'],
  chart: [
    [['file_write', { path: 'sales.csv', content: 'month,sales\n1,10\n2,30\n3,20\n4,45\n' }]],
    [
      [
        'code_run',
        {
          code:
            "import pandas as pd\nimport matplotlib.pyplot as plt\nframe = pd.read_csv('sales.csv')\n" +
            "print('total', frame['sales'].sum())\nframe.plot(x='month', y='sales', marker='o', title='Sales by month')\n" +
            'frame.describe()',
        },
      ],
    ],
    [['code_run', { code: "frame['profit']" }]],
    'Sales total 105; the chart is above.',
  ],
}

// An MCP stdio server the agent writes itself (plain JSON-RPC lines, no package needed).
const GREETER = `const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\\n')
require('readline').createInterface({ input: process.stdin }).on('line', (line) => {
  const { id, method, params } = JSON.parse(line)
  if (id === undefined) return
  if (method === 'initialize') {
    send({ id, result: { protocolVersion: params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'greeter', version: '1.0.0' } } })
  } else if (method === 'tools/list') {
    const greet = { name: 'greet', description: 'Greets someone by name', inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } }
    send({ id, result: { tools: [greet] } })
  } else if (method === 'tools/call') {
    send({ id, result: { content: [{ type: 'text', text: 'Hello, ' + params.arguments.name + '!' }] } })
  } else {
    send({ id, error: { code: -32601, message: 'unknown method' } })
  }
})
`
// The workspace looked over: a folder's listing, found files and matched lines, each
// shown in a view of its own.
scenarios.inventory = [
  [['file_write', { path: 'notes/birds.txt', content: 'heron\nsandpiper\nplover\n' }]],
  [['file_write', { path: 'notes/coast.md', content: '# Coast\n\nThe sandpiper runs along the tide line.\n' }]],
  [['file_list', { path: 'notes' }]],
  [['file_find', { path: '.', glob: '**/*.md' }]],
  [['file_search', { path: '.', regex: 'sandpiper' }]],
  'Two notes mention the sandpiper.',
]

// A note for the person's memory and an automation made for them, each shown in a view
// of its own.
scenarios.standup = [
  [['memory', { action: 'add', text: 'Ines runs the team standup on Mondays' }]],
  [['automation_create', { name: 'Standup reminder', prompt: 'Remind me of the standup', cron: '0 9 * * MON', timezone: 'Europe/Berlin' }]],
  'Noted, and the standup reminder is set.',
]

// A note written after the agent read a file (content from outside): it waits for the
// person's approval.
scenarios.handbook = [
  [['file_write', { path: 'handbook.md', content: '# Handbook\n\nDeploys go out on Tuesdays only.\n' }]],
  [['file_read', { path: 'handbook.md' }]],
  [['memory', { action: 'add', text: 'Deploys go out on Tuesdays only' }]],
  'Kept the rule; it waits for your approval.',
]

// The agent makes a tool (tool_register), then calls it in the same turn.
scenarios.greeter = [
  [['file_write', { path: 'tools/greeter.js', content: GREETER }]],
  [['tool_register', { name: 'greeter', command: 'node', args: ['tools/greeter.js'], test: { tool: 'greet', arguments: { name: 'Ada' } } }]],
  [['mcp__greeter__greet', { name: 'Grace' }]],
  'I made a greeter tool and greeted Grace with it.',
]

// A later chat uses the greeter its person kept in their tool box: offered from the
// chat's first request, run in its own sandbox.
scenarios.kept = [
  [['mcp__greeter__greet', { name: 'Lin' }]],
  'The kept greeter said hello to Lin.',
]

let callCounter = 0

function chunk(delta) {
  return `data: ${JSON.stringify({ object: 'chat.completion.chunk', choices: [{ index: 0, delta }] })}\n\n`
}

function reply(messages) {
  let lastUser = -1
  messages.forEach((m, i) => {
    if (m.role === 'user') lastUser = i
  })
  const said = typeof messages[lastUser]?.content === 'string' ? messages[lastUser].content : ''
  const answered = messages.slice(lastUser + 1).filter((m) => m.role === 'assistant').length
  const name = Object.keys(scenarios).find((word) => said.toLowerCase().includes(word))
  if (!name) return `You said: ${said.slice(0, 200)}`
  return scenarios[name][answered] ?? 'Nothing more to do.'
}

export async function startFakeLlm() {
  const requests = []
  const server = http.createServer((req, res) => {
    let body = ''
    req.on('data', (c) => (body += c))
    req.on('end', () => {
      const request = JSON.parse(body || '{}')
      requests.push(request)
      const answer = reply(request.messages ?? [])
      let out = ''
      if (typeof answer === 'string') {
        const half = Math.floor(answer.length / 2)
        out += chunk({ role: 'assistant', content: answer.slice(0, half) })
        out += chunk({ content: answer.slice(half) })
      } else {
        answer.forEach(([name, args], index) => {
          const text = JSON.stringify(args)
          const half = Math.floor(text.length / 2)
          callCounter += 1
          out += chunk({ tool_calls: [{ index, id: `call_${callCounter}`, type: 'function', function: { name, arguments: '' } }] })
          out += chunk({ tool_calls: [{ index, function: { arguments: text.slice(0, half) } }] })
          out += chunk({ tool_calls: [{ index, function: { arguments: text.slice(half) } }] })
        })
      }
      out += `data: ${JSON.stringify({ choices: [], usage: { prompt_tokens: 100, completion_tokens: 20 } })}\n\ndata: [DONE]\n\n`
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.end(out)
    })
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    baseUrl: `http://127.0.0.1:${server.address().port}/v1`,
    requests,
    close: () => new Promise((resolve) => server.close(resolve)),
  }
}
