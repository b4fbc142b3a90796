// Every backend-api path the app calls, in one place: screens and stores ask here and
// never spell `/api/v1` themselves. What each route takes and answers is in
// docs/openapi.json (and its types in ./generated). Every id and name is encoded, those
// the backend made too: a session id comes from the page's address, and a crafted link
// (`/s/..%2F..%2Fadmin`) must not steer the app's calls to another route.

const V1 = '/api/v1'
const part = encodeURIComponent

/** A path with its query; `undefined` values are left out. */
function withQuery(path: string, query: Record<string, string | number | boolean | undefined>): string {
  const pairs = Object.entries(query).filter(([, value]) => value !== undefined)
  return pairs.length ? `${path}?${pairs.map(([key, value]) => `${key}=${part(String(value))}`).join('&')}` : path
}

export const auth = {
  mode: `${V1}/auth/mode`,
  me: `${V1}/auth/me`,
  register: `${V1}/auth/register`,
  login: `${V1}/auth/login`,
  logout: `${V1}/auth/logout`,
  refresh: `${V1}/auth/refresh`,
}

export const models = `${V1}/models`

/** The person's chats: the list, its live stream, and what one chat offers. */
export const sessions = {
  all: `${V1}/sessions`,
  /** A page of the list, newest first; `before` is the previous page's `next_before`. */
  page: (limit: number, before?: string | null) => withQuery(`${V1}/sessions`, { limit, before: before || undefined }),
  stream: `${V1}/sessions/stream`,
  one: (id: string) => `${V1}/sessions/${part(id)}`,
  events: (id: string) => `${V1}/sessions/${part(id)}/events`,
  messages: (id: string) => `${V1}/sessions/${part(id)}/messages`,
  stop: (id: string) => `${V1}/sessions/${part(id)}/stop`,
  read: (id: string) => `${V1}/sessions/${part(id)}/read`,
  attachments: (id: string, name: string) => withQuery(`${V1}/sessions/${part(id)}/attachments`, { name }),
  share: (id: string) => `${V1}/sessions/${part(id)}/share`,
  notebook: (id: string) => `${V1}/sessions/${part(id)}/notebook`,
  desktop: (id: string) => `${V1}/sessions/${part(id)}/desktop`,
  vncTickets: (id: string) => `${V1}/sessions/${part(id)}/vnc/tickets`,
  terminalTickets: (id: string) => `${V1}/sessions/${part(id)}/terminal/tickets`,
}

/** The files of a chat's sandbox: a folder's entries (no path: the workspace), a file
 * or a folder (as an archive) to download, an upload, a delete and the change stream. */
export const files = {
  list: (id: string, path?: string) => withQuery(`${V1}/sessions/${part(id)}/files`, { path: path || undefined }),
  download: (id: string, path: string) => withQuery(`${V1}/sessions/${part(id)}/files/download`, { path }),
  archive: (id: string, path: string) => withQuery(`${V1}/sessions/${part(id)}/files/archive`, { path }),
  upload: (id: string, path: string, overwrite: boolean) =>
    withQuery(`${V1}/sessions/${part(id)}/files/upload`, { path, overwrite }),
  remove: (id: string, path: string) => withQuery(`${V1}/sessions/${part(id)}/files`, { path }),
  watch: (id: string, path: string) => withQuery(`${V1}/sessions/${part(id)}/files/watch`, { path }),
}

/** A chat shared by link, as anyone with the link reads it. */
export const shared = {
  one: (token: string) => `${V1}/shared/${part(token)}`,
  events: (token: string, after: number, limit: number) => withQuery(`${V1}/shared/${part(token)}/events`, { after, limit }),
  screenshot: (token: string, image: string) => `${V1}/shared/${part(token)}/screenshots/${part(image)}`,
}

export const mcp = {
  /** The MCP servers' state and tools, as the person's agent gets them. */
  servers: `${V1}/mcp/servers`,
  /** The deployment's MCP servers, as an admin configures them. */
  admin: `${V1}/admin/mcp/servers`,
}

/** API keys: the person's own, or (`everyone`, for an admin) every account's. */
const keyList = (everyone: boolean) => (everyone ? `${V1}/admin/api-keys` : `${V1}/api-keys`)
export const apiKeys = {
  list: keyList,
  one: (everyone: boolean, id: string) => `${keyList(everyone)}/${part(id)}`,
}

export const invites = `${V1}/admin/invites`

export const memory = {
  settings: `${V1}/memory`,
  note: (id: string) => `${V1}/memory/notes/${part(id)}`,
  approve: (id: string) => `${V1}/memory/notes/${part(id)}/approve`,
}

/** The person's tool box (`everyone`: every person's, for an admin), one kept tool, its
 * publication, and the tools registered in one of their chats. */
export const toolbox = {
  list: (everyone: boolean) => withQuery(`${V1}/toolbox`, { everyone: everyone || undefined }),
  keep: `${V1}/toolbox`,
  one: (id: string) => `${V1}/toolbox/${part(id)}`,
  publish: (id: string) => `${V1}/toolbox/${part(id)}/publish`,
  registered: (session: string) => `${V1}/sessions/${part(session)}/registered-tools`,
}

export const automations = {
  all: `${V1}/automations`,
  preview: `${V1}/automations/preview`,
  one: (id: string) => `${V1}/automations/${part(id)}`,
  run: (id: string) => `${V1}/automations/${part(id)}/run`,
  runs: (id: string) => `${V1}/automations/${part(id)}/runs`,
  rotate: (id: string, trigger: string) => `${V1}/automations/${part(id)}/triggers/${part(trigger)}/rotate`,
}
