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
})
