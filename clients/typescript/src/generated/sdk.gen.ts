// Generated from docs/openapi.json by scripts/clients.sh (@hey-api/openapi-ts): do not edit.

import { client } from './client.gen.js';
import type { Client, ClientMeta, Options as Options2, RequestResult, ServerSentEventsResult, TDataShape } from './client/index.js';
import type { ActivateData, ActivateErrors, ActivateResponses, AddData, AddErrors, AddResponses, ApproveMemoryNoteData, ApproveMemoryNoteErrors, ApproveMemoryNoteResponses, ArchiveData, ArchiveErrors, ArchiveResponses, AttachData, AttachErrors, AttachmentsData, AttachmentsErrors, AttachmentsResponses, AttachResponses, CancelData, CancelErrors, CancelResponses, ChangePasswordData, ChangePasswordErrors, ChangePasswordResponses, Connect2Data, Connect2Errors, ConnectData, ConnectErrors, Create2Data, Create2Errors, Create2Responses, Create3Data, Create3Errors, Create3Responses, Create4Data, Create4Errors, Create4Responses, CreateApiKeyData, CreateApiKeyErrors, CreateApiKeyResponses, CreateData, CreateErrors, CreateResponses, DeactivateData, DeactivateErrors, DeactivateResponses, Delete2Data, Delete2Errors, Delete2Responses, Delete3Data, Delete3Errors, Delete3Responses, DeleteData, DeleteErrors, DeleteKeptToolData, DeleteKeptToolErrors, DeleteKeptToolResponses, DeleteMemoryNoteData, DeleteMemoryNoteErrors, DeleteMemoryNoteResponses, DeleteResponses, DeliverData, DeliverErrors, DeliverResponses, DesktopStateData, DesktopStateErrors, DesktopStateResponses, DownloadData, DownloadErrors, DownloadResponses, Edit2Data, Edit2Errors, Edit2Responses, Edit3Data, Edit3Errors, Edit3Responses, EditData, EditErrors, EditMemoryNoteData, EditMemoryNoteErrors, EditMemoryNoteResponses, EditResponses, EventsData, EventsErrors, EventsResponse, EventsResponses, Get2Data, Get2Errors, Get2Responses, Get3Data, Get3Errors, Get3Responses, GetData, GetErrors, GetKeptToolData, GetKeptToolErrors, GetKeptToolResponses, GetMemoryData, GetMemoryResponses, GetResponses, HealthData, HealthResponses, ImageData, ImageErrors, ImageResponses, IssueTicket2Data, IssueTicket2Errors, IssueTicket2Responses, IssueTicketData, IssueTicketErrors, IssueTicketResponses, KeepToolData, KeepToolErrors, KeepToolResponses, List2Data, List2Errors, List2Responses, List3Data, List3Errors, List3Responses, List4Data, List4Errors, List4Responses, List5Data, List5Errors, List5Responses, List6Data, List6Errors, List6Responses, List7Data, List7Errors, List7Responses, ListAllApiKeysData, ListAllApiKeysErrors, ListAllApiKeysResponses, ListApiKeysData, ListApiKeysResponses, ListData, ListErrors, ListResponses, ListToolboxData, ListToolboxErrors, ListToolboxResponses, LoginData, LoginErrors, LoginResponses, LogoutAllData, LogoutAllErrors, LogoutAllResponses, LogoutData, LogoutErrors, LogoutResponses, MarkReadData, MarkReadErrors, MarkReadResponses, MeData, MeErrors, MeResponses, MetricsTextData, MetricsTextResponses, ModeData, ModeResponses, NotebookData, NotebookErrors, NotebookResponses, PostMessageData, PostMessageErrors, PostMessageResponses, PreviewData, PreviewErrors, PreviewResponses, PublishKeptToolData, PublishKeptToolErrors, PublishKeptToolResponses, ReadyData, ReadyErrors, ReadyResponses, RefreshData, RefreshErrors, RefreshResponses, RegisterData, RegisteredToolsData, RegisteredToolsErrors, RegisteredToolsResponses, RegisterErrors, RegisterResponses, RemoveData, RemoveErrors, RemoveResponses, ReplyData, ReplyErrors, ReplyResponses, ResultData, ResultErrors, ResultResponses, RevokeAnyApiKeyData, RevokeAnyApiKeyErrors, RevokeAnyApiKeyResponses, RevokeApiKeyData, RevokeApiKeyErrors, RevokeApiKeyResponses, RevokeData, RevokeErrors, RevokeResponses, RotateData, RotateErrors, RotateResponses, RunNowData, RunNowErrors, RunNowResponses, RunsData, RunsErrors, RunsResponses, ServersData, ServersErrors, ServersResponses, SessionEventsData, SessionEventsErrors, SessionEventsResponse, SessionEventsResponses, SessionListStreamData, SessionListStreamErrors, SessionListStreamResponse, SessionListStreamResponses, SetKeptToolData, SetKeptToolErrors, SetKeptToolResponses, SetMemoryData, SetMemoryErrors, SetMemoryResponses, ShareData, SharedData, SharedErrors, SharedEventsData, SharedEventsErrors, SharedEventsResponses, SharedImageData, SharedImageErrors, SharedImageResponses, SharedResponses, ShareErrors, ShareResponses, StatData, StatErrors, StatResponses, StopData, StopErrors, StopResponses, UnpublishKeptToolData, UnpublishKeptToolErrors, UnpublishKeptToolResponses, UnshareData, UnshareErrors, UnshareResponses, UploadData, UploadErrors, UploadResponses, WatchData, WatchErrors, WatchResponse, WatchResponses, WipeMemoryData, WipeMemoryResponses } from './types.gen.js';

export type Options<TData extends TDataShape = TDataShape, ThrowOnError extends boolean = boolean, TResponse = unknown> = Options2<TData, ThrowOnError, TResponse> & {
    /**
     * You can provide a client instance returned by `createClient()` instead of
     * individual options. This might be also useful if you want to implement a
     * custom client.
     */
    client?: Client;
    /**
     * You can pass arbitrary values through the `meta` object. This can be
     * used to access values that aren't defined as part of the SDK function.
     */
    meta?: keyof ClientMeta extends never ? Record<string, unknown> : ClientMeta;
};

export class ApiKeys {
    /**
     * Everyone's API keys (not revoked), with their owners, oldest first.
     */
    public static listAllApiKeys<ThrowOnError extends boolean = false>(options?: Options<ListAllApiKeysData, ThrowOnError>): RequestResult<ListAllApiKeysResponses, ListAllApiKeysErrors, ThrowOnError> {
        return (options?.client ?? client).get<ListAllApiKeysResponses, ListAllApiKeysErrors, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/admin/api-keys',
            ...options
        });
    }
    
    /**
     * Revokes anyone's API key; the automations made with it pause.
     */
    public static revokeAnyApiKey<ThrowOnError extends boolean = false>(options: Options<RevokeAnyApiKeyData, ThrowOnError>): RequestResult<RevokeAnyApiKeyResponses, RevokeAnyApiKeyErrors, ThrowOnError> {
        return (options.client ?? client).delete<RevokeAnyApiKeyResponses, RevokeAnyApiKeyErrors, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/admin/api-keys/{id}',
            ...options
        });
    }
    
    /**
     * Your API keys (not revoked; expired ones too), oldest first.
     */
    public static listApiKeys<ThrowOnError extends boolean = false>(options?: Options<ListApiKeysData, ThrowOnError>): RequestResult<ListApiKeysResponses, unknown, ThrowOnError> {
        return (options?.client ?? client).get<ListApiKeysResponses, unknown, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/api-keys',
            ...options
        });
    }
    
    /**
     * Makes a personal API key. The key (`sp_…`) is in this answer only: the server keeps
     * just its SHA-256. Send it as `Authorization: Bearer <key>`. A key with scope `full`
     * may make keys too.
     */
    public static createApiKey<ThrowOnError extends boolean = false>(options: Options<CreateApiKeyData, ThrowOnError>): RequestResult<CreateApiKeyResponses, CreateApiKeyErrors, ThrowOnError> {
        return (options.client ?? client).post<CreateApiKeyResponses, CreateApiKeyErrors, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/api-keys',
            ...options,
            headers: {
                'Content-Type': 'application/json',
                ...options.headers
            }
        });
    }
    
    /**
     * Revokes one of your API keys: it stops working at once, everywhere, and the
     * automations made with it pause (saying why).
     */
    public static revokeApiKey<ThrowOnError extends boolean = false>(options: Options<RevokeApiKeyData, ThrowOnError>): RequestResult<RevokeApiKeyResponses, RevokeApiKeyErrors, ThrowOnError> {
        return (options.client ?? client).delete<RevokeApiKeyResponses, RevokeApiKeyErrors, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/api-keys/{id}',
            ...options
        });
    }
}

export class Users {
    /**
     * Makes an invite; its code is in this answer only (the sign-in page takes it as
     * `?invite=<code>`).
     */
    public static create<ThrowOnError extends boolean = false>(options: Options<CreateData, ThrowOnError>): RequestResult<CreateResponses, CreateErrors, ThrowOnError> {
        return (options.client ?? client).post<CreateResponses, CreateErrors, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/admin/invites',
            ...options,
            headers: {
                'Content-Type': 'application/json',
                ...options.headers
            }
        });
    }
    
    /**
     * Ends an unused invite.
     */
    public static revoke<ThrowOnError extends boolean = false>(options: Options<RevokeData, ThrowOnError>): RequestResult<RevokeResponses, RevokeErrors, ThrowOnError> {
        return (options.client ?? client).delete<RevokeResponses, RevokeErrors, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/admin/invites/{code}',
            ...options
        });
    }
    
    /**
     * Every account, oldest first (admins only).
     */
    public static list<ThrowOnError extends boolean = false>(options?: Options<List7Data, ThrowOnError>): RequestResult<List7Responses, List7Errors, ThrowOnError> {
        return (options?.client ?? client).get<List7Responses, List7Errors, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/users',
            ...options
        });
    }
    
    /**
     * Lets the account sign in again (admins only).
     */
    public static activate<ThrowOnError extends boolean = false>(options: Options<ActivateData, ThrowOnError>): RequestResult<ActivateResponses, ActivateErrors, ThrowOnError> {
        return (options.client ?? client).post<ActivateResponses, ActivateErrors, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/users/{id}/activate',
            ...options
        });
    }
    
    /**
     * Stops the account from signing in and ends its sign-ins, its running E2B sandboxes
     * (whose tokens stop working at once) and its automations, which pause (admins only).
     */
    public static deactivate<ThrowOnError extends boolean = false>(options: Options<DeactivateData, ThrowOnError>): RequestResult<DeactivateResponses, DeactivateErrors, ThrowOnError> {
        return (options.client ?? client).post<DeactivateResponses, DeactivateErrors, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/users/{id}/deactivate',
            ...options
        });
    }
}

export class Mcp {
    /**
     * Every MCP server, enabled or not, by name (admins only; no secret values).
     */
    public static list<ThrowOnError extends boolean = false>(options?: Options<ListData, ThrowOnError>): RequestResult<ListResponses, ListErrors, ThrowOnError> {
        return (options?.client ?? client).get<ListResponses, ListErrors, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/admin/mcp/servers',
            ...options
        });
    }
    
    /**
     * Adds an MCP server (admins only): `name`, `transport` and its fields; runs get its
     * tools from their next turn when it is enabled (the default).
     */
    public static add<ThrowOnError extends boolean = false>(options: Options<AddData, ThrowOnError>): RequestResult<AddResponses, AddErrors, ThrowOnError> {
        return (options.client ?? client).post<AddResponses, AddErrors, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/admin/mcp/servers',
            ...options,
            headers: {
                'Content-Type': 'application/json',
                ...options.headers
            }
        });
    }
    
    /**
     * Deletes an MCP server (admins only); the `MCP_CONFIG` file does not bring it back.
     */
    public static remove<ThrowOnError extends boolean = false>(options: Options<RemoveData, ThrowOnError>): RequestResult<RemoveResponses, RemoveErrors, ThrowOnError> {
        return (options.client ?? client).delete<RemoveResponses, RemoveErrors, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/admin/mcp/servers/{name}',
            ...options
        });
    }
    
    /**
     * Changes the fields given (admins only): `enabled`, and the transport's fields. In
     * `headers` and `env` the keys given replace the stored set, and a key whose value is
     * `null` keeps its stored value.
     */
    public static edit<ThrowOnError extends boolean = false>(options: Options<EditData, ThrowOnError>): RequestResult<EditResponses, EditErrors, ThrowOnError> {
        return (options.client ?? client).patch<EditResponses, EditErrors, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/admin/mcp/servers/{name}',
            ...options,
            headers: {
                'Content-Type': 'application/json',
                ...options.headers
            }
        });
    }
    
    /**
     * The deployment's MCP servers and their tools (headers and environments are never shown).
     */
    public static servers<ThrowOnError extends boolean = false>(options?: Options<ServersData, ThrowOnError>): RequestResult<ServersResponses, ServersErrors, ThrowOnError> {
        return (options?.client ?? client).get<ServersResponses, ServersErrors, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/mcp/servers',
            ...options
        });
    }
}

export class Auth {
    /**
     * Signs in and sets the refresh cookie. Failures back off per account and client
     * address, and are limited per address; in a rush the password check waits its turn.
     */
    public static login<ThrowOnError extends boolean = false>(options: Options<LoginData, ThrowOnError>): RequestResult<LoginResponses, LoginErrors, ThrowOnError> {
        return (options.client ?? client).post<LoginResponses, LoginErrors, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/auth/login',
            ...options,
            headers: {
                'Content-Type': 'application/json',
                ...options.headers
            }
        });
    }
    
    /**
     * Ends this sign-in: the access token stops working now, the refresh cookie's family
     * is revoked and the cookie cleared.
     */
    public static logout<ThrowOnError extends boolean = false>(options: Options<LogoutData, ThrowOnError>): RequestResult<LogoutResponses, LogoutErrors, ThrowOnError> {
        return (options.client ?? client).post<LogoutResponses, LogoutErrors, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/auth/logout',
            ...options,
            headers: {
                'Content-Type': 'application/json',
                ...options.headers
            }
        });
    }
    
    /**
     * Ends every sign-in of the caller, on every device (and clears this browser's cookie).
     */
    public static logoutAll<ThrowOnError extends boolean = false>(options?: Options<LogoutAllData, ThrowOnError>): RequestResult<LogoutAllResponses, LogoutAllErrors, ThrowOnError> {
        return (options?.client ?? client).post<LogoutAllResponses, LogoutAllErrors, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/auth/logout-all',
            ...options
        });
    }
    
    /**
     * The signed-in account.
     */
    public static me<ThrowOnError extends boolean = false>(options?: Options<MeData, ThrowOnError>): RequestResult<MeResponses, MeErrors, ThrowOnError> {
        return (options?.client ?? client).get<MeResponses, MeErrors, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/auth/me',
            ...options
        });
    }
    
    /**
     * How people sign in here, so a front end knows what to show before anyone has.
     */
    public static mode<ThrowOnError extends boolean = false>(options?: Options<ModeData, ThrowOnError>): RequestResult<ModeResponses, unknown, ThrowOnError> {
        return (options?.client ?? client).get<ModeResponses, unknown, ThrowOnError>({ url: '/api/v1/auth/mode', ...options });
    }
    
    /**
     * Changes the password and ends every other sign-in; returns a fresh access token and
     * sets a fresh refresh cookie.
     */
    public static changePassword<ThrowOnError extends boolean = false>(options: Options<ChangePasswordData, ThrowOnError>): RequestResult<ChangePasswordResponses, ChangePasswordErrors, ThrowOnError> {
        return (options.client ?? client).post<ChangePasswordResponses, ChangePasswordErrors, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/auth/password',
            ...options,
            headers: {
                'Content-Type': 'application/json',
                ...options.headers
            }
        });
    }
    
    /**
     * Exchanges the refresh cookie for a new access token and sets the next cookie; the
     * old one is spent. Reusing a spent one ends every sign-in descended from the same
     * login. A refused cookie is cleared.
     */
    public static refresh<ThrowOnError extends boolean = false>(options: Options<RefreshData, ThrowOnError>): RequestResult<RefreshResponses, RefreshErrors, ThrowOnError> {
        return (options.client ?? client).post<RefreshResponses, RefreshErrors, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/auth/refresh',
            ...options,
            headers: {
                'Content-Type': 'application/json',
                ...options.headers
            }
        });
    }
    
    /**
     * Creates an account (`password` mode) as the registration mode allows; the first
     * account is an admin, whatever the mode. Sets the refresh cookie.
     */
    public static register<ThrowOnError extends boolean = false>(options: Options<RegisterData, ThrowOnError>): RequestResult<RegisterResponses, RegisterErrors, ThrowOnError> {
        return (options.client ?? client).post<RegisterResponses, RegisterErrors, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/auth/register',
            ...options,
            headers: {
                'Content-Type': 'application/json',
                ...options.headers
            }
        });
    }
}

export class Automations {
    /**
     * Your automations, oldest first, each with its next fire time and last run.
     */
    public static list<ThrowOnError extends boolean = false>(options?: Options<List2Data, ThrowOnError>): RequestResult<List2Responses, List2Errors, ThrowOnError> {
        return (options?.client ?? client).get<List2Responses, List2Errors, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/automations',
            ...options
        });
    }
    
    /**
     * Makes an automation. The answer has each trigger's `id`, a webhook's `url` and its
     * `secret` (shown only here), and the next 5 fire times.
     */
    public static create<ThrowOnError extends boolean = false>(options: Options<Create2Data, ThrowOnError>): RequestResult<Create2Responses, Create2Errors, ThrowOnError> {
        return (options.client ?? client).post<Create2Responses, Create2Errors, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/automations',
            ...options,
            headers: {
                'Content-Type': 'application/json',
                ...options.headers
            }
        });
    }
    
    /**
     * The next 5 fire times of triggers not saved yet, checked as a save checks them: the
     * editor's preview. Saves nothing.
     */
    public static preview<ThrowOnError extends boolean = false>(options: Options<PreviewData, ThrowOnError>): RequestResult<PreviewResponses, PreviewErrors, ThrowOnError> {
        return (options.client ?? client).post<PreviewResponses, PreviewErrors, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/automations/preview',
            ...options,
            headers: {
                'Content-Type': 'application/json',
                ...options.headers
            }
        });
    }
    
    /**
     * Deletes an automation with its history (its runs' jobs and sessions stay).
     */
    public static delete<ThrowOnError extends boolean = false>(options: Options<DeleteData, ThrowOnError>): RequestResult<DeleteResponses, DeleteErrors, ThrowOnError> {
        return (options.client ?? client).delete<DeleteResponses, DeleteErrors, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/automations/{id}',
            ...options
        });
    }
    
    /**
     * One of your automations.
     */
    public static get<ThrowOnError extends boolean = false>(options: Options<GetData, ThrowOnError>): RequestResult<GetResponses, GetErrors, ThrowOnError> {
        return (options.client ?? client).get<GetResponses, GetErrors, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/automations/{id}',
            ...options
        });
    }
    
    /**
     * Changes an automation (what is left out stays; `triggers` replaces them all, one
     * given with its `id` staying that trigger; `attachments` adds files,
     * `remove_attachments` removes them). Enabling one that paused itself clears its
     * failures.
     */
    public static edit<ThrowOnError extends boolean = false>(options: Options<Edit2Data, ThrowOnError>): RequestResult<Edit2Responses, Edit2Errors, ThrowOnError> {
        return (options.client ?? client).patch<Edit2Responses, Edit2Errors, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/automations/{id}',
            ...options,
            headers: {
                'Content-Type': 'application/json',
                ...options.headers
            }
        });
    }
    
    /**
     * Runs the automation now, whatever its schedule (also when disabled). The run is a
     * job, queued behind your other jobs like any.
     */
    public static runNow<ThrowOnError extends boolean = false>(options: Options<RunNowData, ThrowOnError>): RequestResult<RunNowResponses, RunNowErrors, ThrowOnError> {
        return (options.client ?? client).post<RunNowResponses, RunNowErrors, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/automations/{id}/run',
            ...options
        });
    }
    
    /**
     * The automation's history, newest first: each fire with its job's status, or why
     * nothing ran.
     */
    public static runs<ThrowOnError extends boolean = false>(options: Options<RunsData, ThrowOnError>): RequestResult<RunsResponses, RunsErrors, ThrowOnError> {
        return (options.client ?? client).get<RunsResponses, RunsErrors, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/automations/{id}/runs',
            ...options
        });
    }
    
    /**
     * A new signing secret for a webhook trigger; the old one is still taken until
     * `previous_valid_until`, so senders can move to the new one without losing deliveries.
     */
    public static rotate<ThrowOnError extends boolean = false>(options: Options<RotateData, ThrowOnError>): RequestResult<RotateResponses, RotateErrors, ThrowOnError> {
        return (options.client ?? client).post<RotateResponses, RotateErrors, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/automations/{id}/triggers/{trigger_id}/rotate',
            ...options
        });
    }
    
    /**
     * Fires the automation whose webhook trigger this is. `202` with the run's job; `200`
     * for a delivery taken before (the same signature, the same value of the trigger's key,
     * or a repeated `Idempotency-Key`: the earlier job, no second run) or one that runs
     * nothing (the filter did not match, the automation is paused). Unsigned, badly signed
     * or signed at a time more than the tolerance (5 minutes) from the clock: `401`,
     * larger than allowed: `413`, broken off: `400`; nothing runs. An unknown
     * trigger is `404` before any of the body is read; so is `503` (with `Retry-After`) when
     * too many deliveries wait to be read.
     */
    public static deliver<ThrowOnError extends boolean = false>(options: Options<DeliverData, ThrowOnError>): RequestResult<DeliverResponses, DeliverErrors, ThrowOnError> {
        return (options.client ?? client).post<DeliverResponses, DeliverErrors, ThrowOnError>({
            url: '/api/v1/hooks/{trigger_id}',
            ...options,
            headers: {
                'Content-Type': 'application/json',
                ...options.headers
            }
        });
    }
}

export class Jobs {
    /**
     * The caller's jobs, newest first, a page at a time.
     */
    public static list<ThrowOnError extends boolean = false>(options?: Options<List3Data, ThrowOnError>): RequestResult<List3Responses, List3Errors, ThrowOnError> {
        return (options?.client ?? client).get<List3Responses, List3Errors, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/jobs',
            ...options
        });
    }
    
    /**
     * Runs a prompt as a job: a new session the agent works in without a chat window. It
     * starts at once, or waits as `queued` while the caller's other jobs run. A caller with
     * as many jobs queued as allowed gets 429; during a burst of creations a request waits
     * for a turn a few seconds, then gets 503 (both with `Retry-After`).
     */
    public static create<ThrowOnError extends boolean = false>(options: Options<Create3Data, ThrowOnError>): RequestResult<Create3Responses, Create3Errors, ThrowOnError> {
        return (options.client ?? client).post<Create3Responses, Create3Errors, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/jobs',
            ...options,
            headers: {
                'Content-Type': 'application/json',
                ...options.headers
            }
        });
    }
    
    /**
     * One of the caller's jobs with its answer, usage and written files (others' are 404).
     */
    public static get<ThrowOnError extends boolean = false>(options: Options<Get2Data, ThrowOnError>): RequestResult<Get2Responses, Get2Errors, ThrowOnError> {
        return (options.client ?? client).get<Get2Responses, Get2Errors, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/jobs/{id}',
            ...options
        });
    }
    
    /**
     * Cancels a job that has not ended; a running one's run is stopped before this answers.
     */
    public static cancel<ThrowOnError extends boolean = false>(options: Options<CancelData, ThrowOnError>): RequestResult<CancelResponses, CancelErrors, ThrowOnError> {
        return (options.client ?? client).post<CancelResponses, CancelErrors, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/jobs/{id}/cancel',
            ...options
        });
    }
    
    /**
     * The job's session's events, as `GET /api/v1/sessions/{id}/events` streams them.
     */
    public static events<ThrowOnError extends boolean = false>(options: Options<EventsData, ThrowOnError, EventsResponse>): Promise<ServerSentEventsResult<EventsResponses>> {
        return (options.client ?? client).sse.get<EventsResponses, EventsErrors, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/jobs/{id}/events',
            ...options
        });
    }
    
    /**
     * Answers the question a `waiting` job asked; the agent goes on.
     */
    public static reply<ThrowOnError extends boolean = false>(options: Options<ReplyData, ThrowOnError>): RequestResult<ReplyResponses, ReplyErrors, ThrowOnError> {
        return (options.client ?? client).post<ReplyResponses, ReplyErrors, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/jobs/{id}/reply',
            ...options,
            headers: {
                'Content-Type': 'application/json',
                ...options.headers
            }
        });
    }
    
    /**
     * The job's workspace (or `?path=` a folder in it) as a zip, streamed as it is made.
     */
    public static result<ThrowOnError extends boolean = false>(options: Options<ResultData, ThrowOnError>): RequestResult<ResultResponses, ResultErrors, ThrowOnError> {
        return (options.client ?? client).get<ResultResponses, ResultErrors, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/jobs/{id}/result',
            ...options
        });
    }
}

export class Memory {
    /**
     * Deletes every note, and what your chats were given of them. Memory stays on or off.
     */
    public static wipeMemory<ThrowOnError extends boolean = false>(options?: Options<WipeMemoryData, ThrowOnError>): RequestResult<WipeMemoryResponses, unknown, ThrowOnError> {
        return (options?.client ?? client).delete<WipeMemoryResponses, unknown, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/memory',
            ...options
        });
    }
    
    /**
     * Your memory across chats: whether it is on, and your notes, oldest first.
     */
    public static getMemory<ThrowOnError extends boolean = false>(options?: Options<GetMemoryData, ThrowOnError>): RequestResult<GetMemoryResponses, unknown, ThrowOnError> {
        return (options?.client ?? client).get<GetMemoryResponses, unknown, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/memory',
            ...options
        });
    }
    
    /**
     * Turns your memory on or off. A chat already begun keeps what it started with.
     */
    public static setMemory<ThrowOnError extends boolean = false>(options: Options<SetMemoryData, ThrowOnError>): RequestResult<SetMemoryResponses, SetMemoryErrors, ThrowOnError> {
        return (options.client ?? client).patch<SetMemoryResponses, SetMemoryErrors, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/memory',
            ...options,
            headers: {
                'Content-Type': 'application/json',
                ...options.headers
            }
        });
    }
    
    /**
     * Deletes one of your notes.
     */
    public static deleteMemoryNote<ThrowOnError extends boolean = false>(options: Options<DeleteMemoryNoteData, ThrowOnError>): RequestResult<DeleteMemoryNoteResponses, DeleteMemoryNoteErrors, ThrowOnError> {
        return (options.client ?? client).delete<DeleteMemoryNoteResponses, DeleteMemoryNoteErrors, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/memory/notes/{id}',
            ...options
        });
    }
    
    /**
     * Gives one of your notes a new text; chats already begun keep the old one.
     */
    public static editMemoryNote<ThrowOnError extends boolean = false>(options: Options<EditMemoryNoteData, ThrowOnError>): RequestResult<EditMemoryNoteResponses, EditMemoryNoteErrors, ThrowOnError> {
        return (options.client ?? client).patch<EditMemoryNoteResponses, EditMemoryNoteErrors, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/memory/notes/{id}',
            ...options,
            headers: {
                'Content-Type': 'application/json',
                ...options.headers
            }
        });
    }
    
    /**
     * Approves a note the agent wrote after its chat read content from outside: your chats
     * get it from their next run (in place of the note it replaces). Deleting it is how to
     * refuse it.
     */
    public static approveMemoryNote<ThrowOnError extends boolean = false>(options: Options<ApproveMemoryNoteData, ThrowOnError>): RequestResult<ApproveMemoryNoteResponses, ApproveMemoryNoteErrors, ThrowOnError> {
        return (options.client ?? client).post<ApproveMemoryNoteResponses, ApproveMemoryNoteErrors, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/memory/notes/{id}/approve',
            ...options
        });
    }
}

export class Models {
    /**
     * The models the caller may pick (an API key of scope `jobs` may ask too).
     */
    public static list<ThrowOnError extends boolean = false>(options?: Options<List4Data, ThrowOnError>): RequestResult<List4Responses, List4Errors, ThrowOnError> {
        return (options?.client ?? client).get<List4Responses, List4Errors, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/models',
            ...options
        });
    }
}

export class Sessions {
    /**
     * The caller's sessions, newest first, a page at a time.
     */
    public static list<ThrowOnError extends boolean = false>(options?: Options<List5Data, ThrowOnError>): RequestResult<List5Responses, List5Errors, ThrowOnError> {
        return (options?.client ?? client).get<List5Responses, List5Errors, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/sessions',
            ...options
        });
    }
    
    /**
     * Starts a new, empty session.
     */
    public static create<ThrowOnError extends boolean = false>(options: Options<Create4Data, ThrowOnError>): RequestResult<Create4Responses, Create4Errors, ThrowOnError> {
        return (options.client ?? client).post<Create4Responses, Create4Errors, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/sessions',
            ...options,
            headers: {
                'Content-Type': 'application/json',
                ...options.headers
            }
        });
    }
    
    /**
     * Deletes a session, its events and its sandbox.
     */
    public static delete<ThrowOnError extends boolean = false>(options: Options<Delete2Data, ThrowOnError>): RequestResult<Delete2Responses, Delete2Errors, ThrowOnError> {
        return (options.client ?? client).delete<Delete2Responses, Delete2Errors, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/sessions/{id}',
            ...options
        });
    }
    
    /**
     * One of the caller's sessions (others' are 404).
     */
    public static get<ThrowOnError extends boolean = false>(options: Options<Get3Data, ThrowOnError>): RequestResult<Get3Responses, Get3Errors, ThrowOnError> {
        return (options.client ?? client).get<Get3Responses, Get3Errors, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/sessions/{id}',
            ...options
        });
    }
    
    /**
     * Renames a session or changes its model (from its next turn).
     */
    public static edit<ThrowOnError extends boolean = false>(options: Options<Edit3Data, ThrowOnError>): RequestResult<Edit3Responses, Edit3Errors, ThrowOnError> {
        return (options.client ?? client).patch<Edit3Responses, Edit3Errors, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/sessions/{id}',
            ...options,
            headers: {
                'Content-Type': 'application/json',
                ...options.headers
            }
        });
    }
    
    /**
     * Adds the person's message to the session's log; the agent takes it up.
     */
    public static postMessage<ThrowOnError extends boolean = false>(options: Options<PostMessageData, ThrowOnError>): RequestResult<PostMessageResponses, PostMessageErrors, ThrowOnError> {
        return (options.client ?? client).post<PostMessageResponses, PostMessageErrors, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/sessions/{id}/messages',
            ...options,
            headers: {
                'Content-Type': 'application/json',
                ...options.headers
            }
        });
    }
    
    /**
     * The session's code cells as a Jupyter notebook (`.ipynb`, nbformat 4) with their
     * outputs, charts included.
     */
    public static notebook<ThrowOnError extends boolean = false>(options: Options<NotebookData, ThrowOnError>): RequestResult<NotebookResponses, NotebookErrors, ThrowOnError> {
        return (options.client ?? client).get<NotebookResponses, NotebookErrors, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/sessions/{id}/notebook',
            ...options
        });
    }
    
    /**
     * Marks everything in the session as read.
     */
    public static markRead<ThrowOnError extends boolean = false>(options: Options<MarkReadData, ThrowOnError>): RequestResult<MarkReadResponses, MarkReadErrors, ThrowOnError> {
        return (options.client ?? client).post<MarkReadResponses, MarkReadErrors, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/sessions/{id}/read',
            ...options
        });
    }
    
    /**
     * An image from one of the caller's sessions (`{image}` as the tool event's view gives it:
     * `<hash>.jpg`, `.png` or `.svg`).
     */
    public static image<ThrowOnError extends boolean = false>(options: Options<ImageData, ThrowOnError>): RequestResult<ImageResponses, ImageErrors, ThrowOnError> {
        return (options.client ?? client).get<ImageResponses, ImageErrors, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/sessions/{id}/screenshots/{image}',
            ...options
        });
    }
    
    /**
     * Revokes the link: its token is not found from now on (sharing again makes a new one).
     */
    public static unshare<ThrowOnError extends boolean = false>(options: Options<UnshareData, ThrowOnError>): RequestResult<UnshareResponses, UnshareErrors, ThrowOnError> {
        return (options.client ?? client).delete<UnshareResponses, UnshareErrors, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/sessions/{id}/share',
            ...options
        });
    }
    
    /**
     * Shares the session as a read-only replay (`share_token` is the link's secret) until
     * `expires_in_secs` from now, or until revoked. Sharing a shared session keeps its link
     * and sets this expiry; one whose link expired gets a new link.
     */
    public static share<ThrowOnError extends boolean = false>(options: Options<ShareData, ThrowOnError>): RequestResult<ShareResponses, ShareErrors, ThrowOnError> {
        return (options.client ?? client).post<ShareResponses, ShareErrors, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/sessions/{id}/share',
            ...options,
            headers: {
                'Content-Type': 'application/json',
                ...options.headers
            }
        });
    }
    
    /**
     * Stops the agent's work on the session: the run is cancelled (its command killed)
     * before this answers.
     */
    public static stop<ThrowOnError extends boolean = false>(options: Options<StopData, ThrowOnError>): RequestResult<StopResponses, StopErrors, ThrowOnError> {
        return (options.client ?? client).post<StopResponses, StopErrors, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/sessions/{id}/stop',
            ...options
        });
    }
}

export class Events {
    /**
     * Live changes to the caller's sessions: `updated` with the session, `deleted` with its id.
     */
    public static sessionListStream<ThrowOnError extends boolean = false>(options?: Options<SessionListStreamData, ThrowOnError, SessionListStreamResponse>): Promise<ServerSentEventsResult<SessionListStreamResponses>> {
        return (options?.client ?? client).sse.get<SessionListStreamResponses, SessionListStreamErrors, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/sessions/stream',
            ...options
        });
    }
    
    /**
     * The session's events: everything after the client's last id, then live ones.
     */
    public static sessionEvents<ThrowOnError extends boolean = false>(options: Options<SessionEventsData, ThrowOnError, SessionEventsResponse>): Promise<ServerSentEventsResult<SessionEventsResponses>> {
        return (options.client ?? client).sse.get<SessionEventsResponses, SessionEventsErrors, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/sessions/{id}/events',
            ...options
        });
    }
}

export class Files {
    /**
     * The session's attachments.
     */
    public static attachments<ThrowOnError extends boolean = false>(options: Options<AttachmentsData, ThrowOnError>): RequestResult<AttachmentsResponses, AttachmentsErrors, ThrowOnError> {
        return (options.client ?? client).get<AttachmentsResponses, AttachmentsErrors, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/sessions/{id}/attachments',
            ...options
        });
    }
    
    /**
     * Uploads an attachment (the body, streamed) to `uploads/<name>` in the workspace; send
     * its `path` in the message's `attachments`.
     */
    public static attach<ThrowOnError extends boolean = false>(options: Options<AttachData, ThrowOnError>): RequestResult<AttachResponses, AttachErrors, ThrowOnError> {
        return (options.client ?? client).post<AttachResponses, AttachErrors, ThrowOnError>({
            bodySerializer: null,
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/sessions/{id}/attachments',
            ...options,
            headers: {
                'Content-Type': 'application/octet-stream',
                ...options.headers
            }
        });
    }
    
    /**
     * Deletes a file, or a folder with everything in it.
     */
    public static delete<ThrowOnError extends boolean = false>(options: Options<Delete3Data, ThrowOnError>): RequestResult<Delete3Responses, Delete3Errors, ThrowOnError> {
        return (options.client ?? client).delete<Delete3Responses, Delete3Errors, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/sessions/{id}/files',
            ...options
        });
    }
    
    /**
     * A folder's entries.
     */
    public static list<ThrowOnError extends boolean = false>(options: Options<List6Data, ThrowOnError>): RequestResult<List6Responses, List6Errors, ThrowOnError> {
        return (options.client ?? client).get<List6Responses, List6Errors, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/sessions/{id}/files',
            ...options
        });
    }
    
    /**
     * A folder and everything in it as one zip, streamed as it is made.
     */
    public static archive<ThrowOnError extends boolean = false>(options: Options<ArchiveData, ThrowOnError>): RequestResult<ArchiveResponses, ArchiveErrors, ThrowOnError> {
        return (options.client ?? client).get<ArchiveResponses, ArchiveErrors, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/sessions/{id}/files/archive',
            ...options
        });
    }
    
    /**
     * A file's content; a `Range` header gets a 206 with that part.
     */
    public static download<ThrowOnError extends boolean = false>(options: Options<DownloadData, ThrowOnError>): RequestResult<DownloadResponses, DownloadErrors, ThrowOnError> {
        return (options.client ?? client).get<DownloadResponses, DownloadErrors, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/sessions/{id}/files/download',
            ...options
        });
    }
    
    /**
     * One file's or folder's details.
     */
    public static stat<ThrowOnError extends boolean = false>(options: Options<StatData, ThrowOnError>): RequestResult<StatResponses, StatErrors, ThrowOnError> {
        return (options.client ?? client).get<StatResponses, StatErrors, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/sessions/{id}/files/stat',
            ...options
        });
    }
    
    /**
     * Stores the request body (streamed) as a file.
     */
    public static upload<ThrowOnError extends boolean = false>(options: Options<UploadData, ThrowOnError>): RequestResult<UploadResponses, UploadErrors, ThrowOnError> {
        return (options.client ?? client).put<UploadResponses, UploadErrors, ThrowOnError>({
            bodySerializer: null,
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/sessions/{id}/files/upload',
            ...options,
            headers: {
                'Content-Type': 'application/octet-stream',
                ...options.headers
            }
        });
    }
    
    /**
     * Live changes under a folder: SSE events named `file` with `{kind, path}`.
     */
    public static watch<ThrowOnError extends boolean = false>(options: Options<WatchData, ThrowOnError, WatchResponse>): Promise<ServerSentEventsResult<WatchResponses>> {
        return (options.client ?? client).sse.get<WatchResponses, WatchErrors, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/sessions/{id}/files/watch',
            ...options
        });
    }
}

export class Vnc {
    /**
     * Whether the session's desktop runs. Asking starts nothing: a session without a
     * sandbox gets `no_sandbox`, and a stopped desktop stays stopped until a browser call
     * or a desktop connection starts it.
     */
    public static desktopState<ThrowOnError extends boolean = false>(options: Options<DesktopStateData, ThrowOnError>): RequestResult<DesktopStateResponses, DesktopStateErrors, ThrowOnError> {
        return (options.client ?? client).get<DesktopStateResponses, DesktopStateErrors, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/sessions/{id}/desktop',
            ...options
        });
    }
    
    /**
     * The desktop as RFB over a WebSocket (subprotocol `binary`, as noVNC expects), with
     * no VNC password: the ticket is the credential.
     */
    public static connect<ThrowOnError extends boolean = false>(options: Options<Connect2Data, ThrowOnError>): RequestResult<unknown, Connect2Errors, ThrowOnError> {
        return (options.client ?? client).get<unknown, Connect2Errors, ThrowOnError>({ url: '/api/v1/sessions/{id}/vnc', ...options });
    }
    
    /**
     * A single-use ticket (valid 30 s unless configured otherwise) to open the session's desktop: `view` to watch,
     * `control` to take over (the agent pauses until the connection closes).
     */
    public static issueTicket<ThrowOnError extends boolean = false>(options: Options<IssueTicket2Data, ThrowOnError>): RequestResult<IssueTicket2Responses, IssueTicket2Errors, ThrowOnError> {
        return (options.client ?? client).post<IssueTicket2Responses, IssueTicket2Errors, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/sessions/{id}/vnc/tickets',
            ...options,
            headers: {
                'Content-Type': 'application/json',
                ...options.headers
            }
        });
    }
}

export class Toolbox {
    /**
     * The servers the agent registered in one of your chats, by name, with the id of your
     * kept tool of each name.
     */
    public static registeredTools<ThrowOnError extends boolean = false>(options: Options<RegisteredToolsData, ThrowOnError>): RequestResult<RegisteredToolsResponses, RegisteredToolsErrors, ThrowOnError> {
        return (options.client ?? client).get<RegisteredToolsResponses, RegisteredToolsErrors, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/sessions/{id}/registered-tools',
            ...options
        });
    }
    
    /**
     * Your kept tools, by name (file names and sizes, not their text); with
     * `everyone=true`, every person's (admins only).
     */
    public static listToolbox<ThrowOnError extends boolean = false>(options?: Options<ListToolboxData, ThrowOnError>): RequestResult<ListToolboxResponses, ListToolboxErrors, ThrowOnError> {
        return (options?.client ?? client).get<ListToolboxResponses, ListToolboxErrors, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/toolbox',
            ...options
        });
    }
    
    /**
     * Keeps a tool the agent registered in one of your chats: its command, its tools and
     * its files (the folder holding the script the command names, inside the sandbox's
     * home; the script alone when that is the home or the workspace). Keeping one of a
     * name you keep already replaces it (and withdraws its publication).
     */
    public static keepTool<ThrowOnError extends boolean = false>(options: Options<KeepToolData, ThrowOnError>): RequestResult<KeepToolResponses, KeepToolErrors, ThrowOnError> {
        return (options.client ?? client).post<KeepToolResponses, KeepToolErrors, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/toolbox',
            ...options,
            headers: {
                'Content-Type': 'application/json',
                ...options.headers
            }
        });
    }
    
    /**
     * Deletes one of your kept tools (chats it was registered in drop it from their next
     * turn).
     */
    public static deleteKeptTool<ThrowOnError extends boolean = false>(options: Options<DeleteKeptToolData, ThrowOnError>): RequestResult<DeleteKeptToolResponses, DeleteKeptToolErrors, ThrowOnError> {
        return (options.client ?? client).delete<DeleteKeptToolResponses, DeleteKeptToolErrors, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/toolbox/{id}',
            ...options
        });
    }
    
    /**
     * One of your kept tools, with the text of its files (an admin may read anyone's).
     */
    public static getKeptTool<ThrowOnError extends boolean = false>(options: Options<GetKeptToolData, ThrowOnError>): RequestResult<GetKeptToolResponses, GetKeptToolErrors, ThrowOnError> {
        return (options.client ?? client).get<GetKeptToolResponses, GetKeptToolErrors, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/toolbox/{id}',
            ...options
        });
    }
    
    /**
     * Enables or disables one of your kept tools for your chats (disabled, chats it was
     * registered in drop it from their next turn).
     */
    public static setKeptTool<ThrowOnError extends boolean = false>(options: Options<SetKeptToolData, ThrowOnError>): RequestResult<SetKeptToolResponses, SetKeptToolErrors, ThrowOnError> {
        return (options.client ?? client).patch<SetKeptToolResponses, SetKeptToolErrors, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/toolbox/{id}',
            ...options,
            headers: {
                'Content-Type': 'application/json',
                ...options.headers
            }
        });
    }
    
    /**
     * Withdraws a publication (admins only); other persons' chats it was registered in
     * drop it from their next turn.
     */
    public static unpublishKeptTool<ThrowOnError extends boolean = false>(options: Options<UnpublishKeptToolData, ThrowOnError>): RequestResult<UnpublishKeptToolResponses, UnpublishKeptToolErrors, ThrowOnError> {
        return (options.client ?? client).delete<UnpublishKeptToolResponses, UnpublishKeptToolErrors, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/toolbox/{id}/publish',
            ...options
        });
    }
    
    /**
     * Publishes a kept tool (admins only, having read its code with `GET`, whose
     * `kept_at` the body carries): every person's chats get it from their next turn, but
     * for a person keeping one of that name.
     */
    public static publishKeptTool<ThrowOnError extends boolean = false>(options: Options<PublishKeptToolData, ThrowOnError>): RequestResult<PublishKeptToolResponses, PublishKeptToolErrors, ThrowOnError> {
        return (options.client ?? client).post<PublishKeptToolResponses, PublishKeptToolErrors, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/toolbox/{id}/publish',
            ...options,
            headers: {
                'Content-Type': 'application/json',
                ...options.headers
            }
        });
    }
}

export class Terminal {
    /**
     * A new bash on a PTY in the sandbox, over a WebSocket: binary messages are raw bytes
     * (keyboard in, screen out); text messages are JSON control messages —
     * `{"type":"resize","cols":…,"rows":…}` and `{"type":"input","data":…}` in,
     * `{"type":"exit","code":…}` and `{"type":"error","message":…}` out.
     */
    public static connect<ThrowOnError extends boolean = false>(options: Options<ConnectData, ThrowOnError>): RequestResult<unknown, ConnectErrors, ThrowOnError> {
        return (options.client ?? client).get<unknown, ConnectErrors, ThrowOnError>({ url: '/api/v1/sessions/{id}/terminal', ...options });
    }
    
    /**
     * A single-use ticket (valid 30 s unless configured otherwise) to open a terminal in the
     * session's sandbox. The agent pauses while a terminal is open.
     */
    public static issueTicket<ThrowOnError extends boolean = false>(options: Options<IssueTicketData, ThrowOnError>): RequestResult<IssueTicketResponses, IssueTicketErrors, ThrowOnError> {
        return (options.client ?? client).post<IssueTicketResponses, IssueTicketErrors, ThrowOnError>({
            security: [{
                    key: 'bearer',
                    scheme: 'bearer',
                    type: 'http'
                }, {
                    key: 'api_key',
                    scheme: 'bearer',
                    type: 'http'
                }],
            url: '/api/v1/sessions/{id}/terminal/tickets',
            ...options
        });
    }
}

export class Shared {
    /**
     * A shared session (no sign-in needed).
     */
    public static shared<ThrowOnError extends boolean = false>(options: Options<SharedData, ThrowOnError>): RequestResult<SharedResponses, SharedErrors, ThrowOnError> {
        return (options.client ?? client).get<SharedResponses, SharedErrors, ThrowOnError>({ url: '/api/v1/shared/{token}', ...options });
    }
    
    /**
     * What the replay of a shared session shows, a page at a time (no sign-in needed):
     * messages, the plan, tool calls with their views, questions and errors — never the
     * model's working memory, token counts or status changes. A page shorter than `limit`
     * is the last.
     */
    public static sharedEvents<ThrowOnError extends boolean = false>(options: Options<SharedEventsData, ThrowOnError>): RequestResult<SharedEventsResponses, SharedEventsErrors, ThrowOnError> {
        return (options.client ?? client).get<SharedEventsResponses, SharedEventsErrors, ThrowOnError>({ url: '/api/v1/shared/{token}/events', ...options });
    }
    
    /**
     * An image from a shared session (no sign-in needed).
     */
    public static sharedImage<ThrowOnError extends boolean = false>(options: Options<SharedImageData, ThrowOnError>): RequestResult<SharedImageResponses, SharedImageErrors, ThrowOnError> {
        return (options.client ?? client).get<SharedImageResponses, SharedImageErrors, ThrowOnError>({ url: '/api/v1/shared/{token}/screenshots/{image}', ...options });
    }
}

export class System {
    /**
     * The process is up, and how the data directory's disk stands.
     */
    public static health<ThrowOnError extends boolean = false>(options?: Options<HealthData, ThrowOnError>): RequestResult<HealthResponses, unknown, ThrowOnError> {
        return (options?.client ?? client).get<HealthResponses, unknown, ThrowOnError>({ url: '/health', ...options });
    }
    
    /**
     * Prometheus text format.
     */
    public static metricsText<ThrowOnError extends boolean = false>(options?: Options<MetricsTextData, ThrowOnError>): RequestResult<MetricsTextResponses, unknown, ThrowOnError> {
        return (options?.client ?? client).get<MetricsTextResponses, unknown, ThrowOnError>({ url: '/metrics', ...options });
    }
    
    /**
     * Every store answers: 200, else 503 with which does not.
     */
    public static ready<ThrowOnError extends boolean = false>(options?: Options<ReadyData, ThrowOnError>): RequestResult<ReadyResponses, ReadyErrors, ThrowOnError> {
        return (options?.client ?? client).get<ReadyResponses, ReadyErrors, ThrowOnError>({ url: '/ready', ...options });
    }
}
