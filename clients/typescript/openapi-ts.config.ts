// The TypeScript client, generated from the backend's OpenAPI document by scripts/clients.sh
// (which also checks that the committed files are what this makes): the fetch client, the
// types, and one class of static methods per tag (`Sessions.create`, `Auth.login`, …).
import { defineConfig } from '@hey-api/openapi-ts'

export default defineConfig({
  input: '../../docs/openapi.json',
  output: {
    // scripts/clients.sh generates into a folder of its own first, to compare or copy.
    path: process.env.CLIENT_OUTPUT ?? 'src/generated',
    module: { extension: '.js' },
    postProcess: [],
    header: ['// Generated from docs/openapi.json by scripts/clients.sh (@hey-api/openapi-ts): do not edit.'],
  },
  plugins: [
    '@hey-api/client-fetch',
    '@hey-api/typescript',
    { name: '@hey-api/sdk', operations: { strategy: 'byTags', methods: 'static' } },
  ],
})
