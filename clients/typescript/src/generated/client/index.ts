// Generated from docs/openapi.json by scripts/clients.sh (@hey-api/openapi-ts): do not edit.

export type { Auth } from '../core/auth.gen.js';
export type { QuerySerializerOptions } from '../core/bodySerializer.gen.js';
export {
  formDataBodySerializer,
  jsonBodySerializer,
  urlSearchParamsBodySerializer,
} from '../core/bodySerializer.gen.js';
export { buildClientParams } from '../core/params.gen.js';
export { serializeQueryKeyValue } from '../core/queryKeySerializer.gen.js';
export type { ServerSentEventsResult } from '../core/serverSentEvents.gen.js';
export type { ClientMeta } from '../core/types.gen.js';
export { createClient } from './client.gen.js';
export type {
  Client,
  ClientOptions,
  Config,
  CreateClientConfig,
  Options,
  RequestOptions,
  RequestResult,
  ResolvedRequestOptions,
  ResponseStyle,
  TDataShape,
} from './types.gen.js';
export { createConfig, mergeHeaders } from './utils.gen.js';
