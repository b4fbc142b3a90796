// @vitest-environment node
// The API's types are generated, never edited: this fails while src/api/generated is not
// what the generator makes of docs/openapi.json (run scripts/api-types.sh).
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { createClient } from '@hey-api/openapi-ts'
import { header } from '../openapi-ts.config'

const fresh = mkdtempSync(join(tmpdir(), 'api-types-'))
afterAll(() => rmSync(fresh, { recursive: true, force: true }))

// Generating takes about 1.5 s alone, many times that beside a build: the default 5 s
// limit would say something of the machine's load, not of the types.
const GENERATION_LIMIT_MS = 60_000

it('matches the committed OpenAPI document', async () => {
  await createClient({
    input: resolve(__dirname, '../../docs/openapi.json'),
    output: { path: fresh, postProcess: [], header },
    plugins: ['@hey-api/typescript'],
    logs: { level: 'silent' },
  })
  const committed = resolve(__dirname, '../src/api/generated')
  expect(readdirSync(fresh).sort()).toEqual(readdirSync(committed).sort())
  for (const file of readdirSync(committed)) {
    expect(readFileSync(join(fresh, file), 'utf8'), `${file} is stale: run scripts/api-types.sh`).toBe(
      readFileSync(join(committed, file), 'utf8'),
    )
  }
}, GENERATION_LIMIT_MS)
