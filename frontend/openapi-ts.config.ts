// The API's TypeScript types, generated from the backend's OpenAPI document
// (docs/openapi.json, written by `backend-api openapi`); see scripts/api-types.sh.
import { defineConfig } from '@hey-api/openapi-ts'

export default defineConfig({
  input: '../docs/openapi.json',
  output: { path: 'src/api/generated', postProcess: [] },
  plugins: ['@hey-api/typescript'],
})
