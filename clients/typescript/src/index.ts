// @sandpiper/client: the generated SDK (one class per tag), its types, and the fetch
// client it sends with — the shared `client` (configure it with `client.setConfig`) or
// one of your own from `createClient`, passed to a call as `{ client }`.
export * from './generated/index.js'
export { client } from './generated/client.gen.js'
export { createClient, createConfig } from './generated/client/index.js'
export type { Client, Config, RequestResult } from './generated/client/index.js'
