// The API's TypeScript types, generated from the backend's OpenAPI document
// (docs/openapi.json, written by `backend-api openapi`); see scripts/api-types.sh.
import { defineConfig } from '@hey-api/openapi-ts'

/** The first line of every generated file (tests/apiTypes.test.ts generates with it too). */
export const header = ['// Generated from docs/openapi.json by scripts/api-types.sh (@hey-api/openapi-ts): do not edit.']

export default defineConfig({
  input: '../docs/openapi.json',
  output: { path: 'src/api/generated', postProcess: [], header },
  plugins: ['@hey-api/typescript'],
})
