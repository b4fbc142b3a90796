// Generated from docs/openapi.json by scripts/clients.sh (@hey-api/openapi-ts): do not edit.

export type ClientOptions = {
    baseUrl: `${string}://${string}` | (string & {});
};

/**
 * The access token of a sign-in. Its refresh token is never in a body: the answer sets
 * it as an `HttpOnly` cookie that only `/auth/refresh` and `/auth/logout` receive.
 */
export type AccessToken = {
    access_token: string;
    /**
     * Seconds until the access token expires.
     */
    expires_in: number;
    token_type: string;
};

export type AgentEvent = {
    attachments?: Array<string>;
    content: string;
    role: MessageRole;
    type: 'message';
} | {
    steps: Array<PlanStep>;
    type: 'plan';
} | {
    description: string;
    status: StepStatus;
    step_id: string;
    type: 'step';
} | (LoggedCall & {
    call_id: string;
    status: ToolStatus;
    view?: null | ToolView;
} & {
    type: 'tool';
}) | {
    title: string;
    type: 'title';
} | {
    prompt?: string | null;
    take_over?: boolean;
    type: 'wait';
} | {
    type: 'done';
} | {
    message: string;
    type: 'error';
} | {
    status: SessionStatus;
    type: 'status';
} | {
    completion_tokens: number;
    /**
     * What the tokens cost, when the model has prices.
     */
    cost?: number | null;
    /**
     * The model the turn asked (absent in events from before there were several).
     */
    model?: string | null;
    prompt_tokens: number;
    type: 'usage';
} | {
    call_id: string;
    event: AgentEvent;
    type: 'delegated';
} | {
    /**
     * The log had been read up to here when the request was made: person messages
     * after it reached the model after these messages.
     */
    after: number;
    messages: Array<ChatMessage>;
    type: 'memory';
};

export type ApiKeyRequest = {
    /**
     * When the key stops working (RFC 3339, in the future). Give this or
     * `expires_in_days`, or neither for a key that never expires.
     */
    expires_at?: string | null;
    /**
     * Days until the key stops working, 1 to 3650.
     */
    expires_in_days?: number | null;
    /**
     * 1 to 100 characters, to tell the key apart.
     */
    name: string;
    /**
     * `full` (the default): everything you may do; `jobs`: only `/api/v1/jobs`, `/api/v1/automations` and
     * `GET /api/v1/auth/me`; `sandboxes`: E2B's SDKs, the API under `/e2b` (the secret
     * is shaped `e2b_<hex>`, as they require).
     */
    scope?: ApiKeyScope;
};

/**
 * What a key may do.
 */
export type ApiKeyScope = 'jobs' | 'sandboxes' | 'full';

/**
 * A personal API key as its owner sees it; never its secret.
 */
export type ApiKeyView = {
    created_at: string;
    /**
     * Absent: it never expires.
     */
    expires_at?: string | null;
    id: string;
    /**
     * Absent: never used. Like `requests`, written every few seconds, so it may lag.
     */
    last_used_at?: string | null;
    name: string;
    /**
     * The key's first characters after `sp_`, to tell keys apart.
     */
    prefix: string;
    /**
     * Requests made while the key was valid and within its rate limit, whatever they
     * answered.
     */
    requests: number;
    scope: ApiKeyScope;
    /**
     * The model's tokens over the jobs made with the key, counted when each ends.
     */
    tokens: TokenUsage;
};

export type AuthModeView = {
    /**
     * `password` (accounts, registration open), `local` (one configured account) or
     * `none` (no sign-in).
     */
    mode: string;
    /**
     * Who `/auth/register` accepts now: anyone (`open`, also while there is no account
     * yet), someone with an invite (`invite`) or no one (`closed`, also outside
     * `password` mode).
     */
    registration: RegistrationMode;
};

/**
 * Changes to an automation; what is left out stays. `triggers` replaces them all (one
 * given with its `id` stays that trigger: a webhook keeps its URL and secret).
 */
export type AutomationEdit = {
    /**
     * Files added to those it has (one of the same name replaced).
     */
    attachments?: Array<NewAttachment> | null;
    /**
     * Enabling clears a pause after failures, and the failure count.
     */
    enabled?: boolean | null;
    missed_runs?: null | MissedRuns;
    model?: string | null;
    name?: string | null;
    network?: string | null;
    prompt?: string | null;
    /**
     * Names of its files to remove.
     */
    remove_attachments?: Array<string> | null;
    session?: null | SessionMode;
    timeout_secs?: number | null;
    triggers?: Array<NewTrigger> | null;
    /**
     * As when made; the same URL keeps its secret, another gets a new one, `""` removes it.
     */
    webhook_url?: string | null;
};

export type AutomationList = {
    automations: Array<AutomationView>;
};

/**
 * An automation the agent made for its person (`automation_create`).
 */
export type AutomationMade = {
    id: string;
    name: string;
    /**
     * Its next fire times, soonest first (empty: it will not fire).
     */
    next_runs: Array<string>;
};

export type AutomationView = {
    /**
     * The files each run gets in its workspace's `uploads/`.
     */
    attachments: Array<FileView>;
    created_at: string;
    enabled: boolean;
    /**
     * Runs failed in a row.
     */
    failures: number;
    id: string;
    last_run?: null | RunView;
    missed_runs: MissedRuns;
    model?: string | null;
    name: string;
    network?: null | Network;
    /**
     * When it fires next (absent when disabled or no time trigger fires again).
     */
    next_fire?: string | null;
    /**
     * Its time triggers' next 5 fire times, enabled or not.
     */
    next_runs: Array<string>;
    /**
     * Why it paused itself, until enabled again.
     */
    paused_reason?: string | null;
    prompt: string;
    session: SessionMode;
    /**
     * The session a persistent automation's runs continue, once the first made it.
     */
    session_id?: string | null;
    timeout_secs?: number | null;
    triggers: Array<TriggerView>;
    /**
     * The key those bodies are signed with: only in the answer that set the URL.
     */
    webhook_secret?: string | null;
    /**
     * Where each run's job is sent when it waits and when it ends.
     */
    webhook_url?: string | null;
};

/**
 * One message of the conversation as chat-completion APIs know it.
 */
export type ChatMessage = {
    content?: string | null;
    role: ChatRole;
    /**
     * The call a tool message answers.
     */
    tool_call_id?: string | null;
    /**
     * The model's tool calls (assistant messages).
     */
    tool_calls?: Array<ToolCallRequest>;
};

export type ChatRole = 'system' | 'user' | 'assistant' | 'tool';

export type Check = {
    name: string;
    status: string;
};

/**
 * A code cell as the person sees it.
 */
export type CodeCell = {
    code: string;
    error?: null | CodeError;
    execution_count?: number | null;
    /**
     * Why the kernel was started afresh during the cell.
     */
    kernel_restarted?: string | null;
    language: CodeLanguage;
    outputs: Array<CodeOutput>;
    stderr: string;
    stdout: string;
    timed_out?: boolean;
};

export type CodeError = {
    /**
     * The exception's type, e.g. `ZeroDivisionError`.
     */
    name: string;
    /**
     * Without colour codes, and cut to its end when long.
     */
    traceback: string;
    value: string;
};

export type CodeLanguage = 'python' | 'bash';

/**
 * One display output of a code cell, in the order the kernel produced it.
 */
export type CodeOutput = {
    text: string;
    type: 'text';
} | {
    html: string;
    type: 'html';
} | {
    height?: number | null;
    image?: null | ImageRef;
    type: 'image';
    width?: number | null;
};

export type CommandState = 'running' | 'exited' | 'killed';

export type ConsoleLog = {
    /**
     * Oldest first; the most recent 500 of the active tab.
     */
    messages: Array<ConsoleMessage>;
};

export type ConsoleMessage = {
    /**
     * `log`, `info`, `warning`, `error`, `debug` or `exception`.
     */
    level: string;
    text: string;
    timestamp_ms: number;
};

/**
 * The body the cookie routes take: an empty JSON object (they read the cookie; the
 * JSON content type is what a cross-site form cannot send).
 */
export type CookieRequest = {
    [key: string]: unknown;
};

/**
 * A job just made, with its webhook's signing key.
 */
export type CreatedJob = JobView & {
    /**
     * The key the webhook's bodies are signed with (`X-Sandpiper-Signature:
     * t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`); shown only here.
     */
    webhook_secret?: string | null;
};

export type Credentials = {
    email: string;
    password: string;
};

export type DeliveryAnswer = {
    /**
     * The run's job; for a repeated `Idempotency-Key`, the one the first delivery
     * started; absent when nothing ran.
     */
    job_id?: string | null;
    /**
     * Why nothing ran (the filter did not match, the automation is paused…).
     */
    note?: string | null;
    /**
     * The key was seen before: nothing ran again.
     */
    repeated: boolean;
};

/**
 * Whether a session's desktop runs: what the person's panel asks before it connects,
 * since connecting starts the desktop (and the sandbox, when the session has none).
 */
export type DesktopState = 'no_sandbox' | 'stopped' | 'starting' | 'running' | 'disabled';

export type DesktopView = {
    state: DesktopState;
};

export type DiskHealth = {
    /**
     * Free space in MiB, when the disk answers.
     */
    free_mb?: number | null;
    /**
     * `ok`; `low` below `BACKEND_DATA_DIR_LOW_SPACE_MB` free; `full` once a write failed
     * for want of space, until space is freed and the store opens again by itself.
     */
    status: string;
};

/**
 * What to change; parts left out stay as they are.
 */
export type EditSession = {
    /**
     * One of `GET /api/v1/models`' names. Takes effect from the next turn: a turn in
     * progress finishes with the model it started with.
     */
    model?: string | null;
    title?: string | null;
};

export type ErrorBody = {
    error: ErrorDetail;
};

export type ErrorDetail = {
    /**
     * Stable, machine-readable: `malformed_request`, `invalid`, `unauthorized`,
     * `forbidden`, `not_found`, `gone`, `method_not_allowed`, `conflict`, `payload_too_large`,
     * `range_not_satisfiable`,
     * `rate_limited`, `too_many_open`, `unavailable`, `internal`.
     */
    code: string;
    /**
     * The request field to fix, when one is to blame (`invalid` only).
     */
    field?: string | null;
    /**
     * For people: what went wrong and what to do.
     */
    message: string;
};

export type EvaluateResponse = {
    /**
     * The exception text when the script threw.
     */
    exception?: string | null;
    /**
     * The value, as JSON (`null` when it has no JSON form).
     */
    result: unknown;
};

export type FetchResponse = {
    content_type?: string | null;
    status: number;
    /**
     * The page as markdown-like text (HTML converted; plain text and JSON as they are).
     */
    text: string;
    title?: string | null;
    truncated: boolean;
    /**
     * The URL after redirects.
     */
    url: string;
};

/**
 * One file or folder.
 */
export type FileEntry = {
    kind: FileKind;
    /**
     * Modification time, milliseconds since the Unix epoch.
     */
    mtime_ms: number;
    name: string;
    /**
     * Absolute path inside the sandbox.
     */
    path: string;
    size: number;
};

export type FileKind = 'file' | 'dir' | 'symlink' | 'other';

/**
 * A file each run gets as `uploads/<name>`.
 */
export type FileView = {
    name: string;
    /**
     * Bytes.
     */
    size: number;
};

export type FindResponse = {
    matches: Array<string>;
    /**
     * True when `max_results` or the scan limit stopped the search.
     */
    truncated: boolean;
};

/**
 * What fired a run.
 */
export type FiredBy = 'schedule' | 'at' | 'webhook' | 'manual' | 'paused';

export type Health = {
    disk?: null | DiskHealth;
    /**
     * `ok`, or `degraded` while the data directory's disk is full (writes answer `507`).
     */
    status: string;
    version: string;
};

/**
 * A stored image (a browser screenshot, a chart), as the view refers to it.
 */
export type ImageRef = {
    id: string;
    /**
     * Where the signed-in person (or a share link) loads it.
     */
    url: string;
};

export type InviteRequest = {
    /**
     * Only this address may use the invite.
     */
    email?: string | null;
    /**
     * 1 to 720; default 168 (a week).
     */
    expires_in_hours?: number | null;
};

/**
 * A job with its outcome.
 */
export type JobDetail = JobView & {
    /**
     * The agent's last message.
     */
    answer?: string | null;
    /**
     * Once the job has ended: the files its run created or changed in the workspace,
     * relative to it and by path (hidden ones and the job's own attachments left out).
     * While it runs: the files its file tools wrote so far.
     */
    files: Array<string>;
    /**
     * More files changed than `files` lists.
     */
    files_truncated: boolean;
    /**
     * The model's tokens over the job's session.
     */
    usage: TokenUsage;
};

export type JobPage = {
    jobs: Array<JobView>;
    /**
     * Pass as `before` for the next page; absent on the last.
     */
    next_before?: string | null;
};

export type JobStatus = 'queued' | 'running' | 'waiting' | 'succeeded' | 'failed' | 'cancelled';

/**
 * A job as clients see it (and its webhook gets it, in [`JobDetail`]).
 */
export type JobView = {
    created_at: string;
    /**
     * Why it failed.
     */
    error?: string | null;
    finished_at?: string | null;
    id: string;
    network?: null | Network;
    /**
     * The session the job runs in (open it in the UI to watch or take over).
     */
    session_id: string;
    started_at?: string | null;
    status: JobStatus;
    timeout_secs: number;
    /**
     * Where the job's webhook goes, if it has one.
     */
    webhook_url?: string | null;
};

export type KeepTool = {
    /**
     * The name it was registered under (`tool_register`'s `name`).
     */
    name: string;
    /**
     * The chat the agent registered the tool in.
     */
    session_id: string;
};

/**
 * One file of a kept tool.
 */
export type KeptFileView = {
    /**
     * The file's text (only when one kept tool is asked for).
     */
    content?: string | null;
    /**
     * Absolute, inside the sandbox's home.
     */
    path: string;
    size: number;
};

export type KeptToolSettings = {
    /**
     * Whether your later chats get it.
     */
    enabled: boolean;
};

/**
 * One tool a kept server offers.
 */
export type KeptToolToolView = {
    description: string;
    /**
     * As the model is offered it: `mcp__<server>__<tool>`.
     */
    name: string;
};

/**
 * A kept tool: what starts it, the tools it offers, its files.
 */
export type KeptToolView = {
    args: Array<string>;
    command: string;
    /**
     * Whether the owner's later chats get it.
     */
    enabled: boolean;
    /**
     * Its files, where they were in the sandbox (and are written again in each chat
     * that gets it); with their text when one kept tool is asked for.
     */
    files: Array<KeptFileView>;
    /**
     * The chat it was kept from.
     */
    from_session: string;
    id: string;
    kept_at: string;
    /**
     * The server's name: its tools are `mcp__<name>__<tool>`.
     */
    name: string;
    /**
     * The user who kept it.
     */
    owner: string;
    /**
     * Whether an admin published it: every person's chats get it.
     */
    published: boolean;
    tools: Array<KeptToolToolView>;
};

/**
 * The answer of `POST /v1/code/restart`.
 */
export type KernelRestarted = {
    /**
     * How long the new kernel took to be ready.
     */
    ready_ms: number;
};

/**
 * A folder's entries: folders first, then by name.
 */
export type Listing = {
    entries: Array<FileEntry>;
    path: string;
};

export type LoggedCall = {
    args: {
        command: string;
        /**
         * Working directory; relative to the workspace when not absolute. Defaults to it.
         */
        cwd?: string | null;
        /**
         * Extra environment variables for this command.
         */
        env?: {
            [key: string]: string;
        };
        /**
         * How long to wait for the command before answering "still running" (default 30 s,
         * capped by the server).
         */
        timeout_secs?: number | null;
    };
    name: 'shell_exec';
} | {
    /**
     * The arguments of a tool that takes none.
     */
    args: {
        [key: string]: never;
    };
    name: 'shell_view';
} | {
    args: {
        /**
         * Default 30 s, capped by the server.
         */
        timeout_secs?: number | null;
    };
    name: 'shell_wait';
} | {
    args: {
        /**
         * Send a newline after the input (default true).
         */
        enter?: boolean;
        input: string;
    };
    name: 'shell_write_input';
} | {
    /**
     * The arguments of a tool that takes none.
     */
    args: {
        [key: string]: never;
    };
    name: 'shell_kill';
} | {
    /**
     * Read a text file, whole or a 1-based inclusive line range, up to `max_bytes`.
     */
    args: {
        /**
         * Last line to return (inclusive). Defaults to the end of the file.
         */
        end_line?: number | null;
        /**
         * Cap on the returned content in bytes; the server also applies its own cap.
         */
        max_bytes?: number | null;
        path: string;
        /**
         * First line to return (1-based). Defaults to 1.
         */
        start_line?: number | null;
    };
    name: 'file_read';
} | {
    /**
     * Write a file. Parents are created. Without `append` the file is replaced atomically
     * (written to a temporary file beside it, then renamed over it).
     */
    args: {
        append?: boolean;
        content: string;
        path: string;
    };
    name: 'file_write';
} | {
    /**
     * Replace exactly one occurrence of `old` with `new`.
     */
    args: {
        new: string;
        old: string;
        path: string;
    };
    name: 'file_replace';
} | {
    /**
     * Find files under `path` whose path relative to it matches `glob` (e.g. `***.rs`).
     */
    args: {
        glob: string;
        max_results?: number | null;
        /**
         * Only files (no folders) last modified at or after this time, in milliseconds
         * since the Unix epoch: what a piece of work created or changed.
         */
        modified_since_ms?: number | null;
        path: string;
        /**
         * Leaves out names starting with `.` and does not look inside such folders (caches,
         * tool state), which can hold more files than the scan limit.
         */
        skip_hidden?: boolean;
    };
    name: 'file_find';
} | {
    /**
     * Search file contents under `path` for a regular expression (Rust `regex` syntax).
     */
    args: {
        case_insensitive?: boolean;
        /**
         * Only files whose relative path matches this glob.
         */
        glob?: string | null;
        max_results?: number | null;
        path: string;
        regex: string;
    };
    name: 'file_search';
} | {
    /**
     * A request that names one path.
     */
    args: {
        path: string;
    };
    name: 'file_list';
} | {
    args: {
        /**
         * How long to wait for the page to load (default 30 s, at most 120 s).
         */
        timeout_secs?: number | null;
        /**
         * An absolute `http`, `https`, `file` or `about` URL; a bare host gets `https://`.
         */
        url: string;
    };
    name: 'browser_navigate';
} | {
    /**
     * The arguments of a tool that takes none.
     */
    args: {
        [key: string]: never;
    };
    name: 'browser_view';
} | {
    /**
     * Click an element by index, or a point of the viewport.
     */
    args: {
        index?: number | null;
        x?: number | null;
        y?: number | null;
    };
    name: 'browser_click';
} | {
    args: {
        /**
         * Append to what is there instead of replacing it.
         */
        append?: boolean;
        index: number;
        /**
         * Press Enter afterwards.
         */
        press_enter?: boolean;
        text: string;
    };
    name: 'browser_input';
} | {
    args: {
        x: number;
        y: number;
    };
    name: 'browser_move_mouse';
} | {
    args: {
        /**
         * A key name (`Enter`, `Tab`, `Escape`, `ArrowDown`, `PageDown`, `a`…), optionally with
         * modifiers: `Control+a`, `Shift+Tab`.
         */
        key: string;
    };
    name: 'browser_press_key';
} | {
    args: {
        index: number;
        /**
         * The option's value or its visible label.
         */
        option: string;
    };
    name: 'browser_select';
} | {
    args: {
        direction?: 'down' | 'up';
        /**
         * Scroll all the way to the top or bottom instead of one screen.
         */
        to_end?: boolean;
    };
    name: 'browser_scroll';
} | {
    args: {
        /**
         * A JavaScript expression; a promise is awaited.
         */
        javascript: string;
    };
    name: 'browser_console_exec';
} | {
    /**
     * The arguments of a tool that takes none.
     */
    args: {
        [key: string]: never;
    };
    name: 'browser_console_view';
} | {
    args: {
        code: string;
        language?: 'python' | 'bash';
        /**
         * How long the cell may run before it is interrupted (default 60 s, capped by the
         * server).
         */
        timeout_secs?: number | null;
    };
    name: 'code_run';
} | {
    /**
     * The arguments of a tool that takes none.
     */
    args: {
        [key: string]: never;
    };
    name: 'code_restart';
} | {
    args: {
        /**
         * Cap on the returned text in bytes (default and maximum set by the server).
         */
        max_bytes?: number | null;
        /**
         * An `http` or `https` URL.
         */
        url: string;
    };
    name: 'web_fetch';
} | {
    args: {
        steps: Array<{
            description: string;
            id: string;
            status?: 'pending' | 'running' | 'completed' | 'failed';
        }>;
    };
    name: 'plan_update';
} | {
    args: {
        description?: string;
        status: 'pending' | 'running' | 'completed' | 'failed';
        step_id: string;
    };
    name: 'step_update';
} | {
    args: {
        title: string;
    };
    name: 'set_title';
} | {
    args: {
        text: string;
    };
    name: 'message_notify_user';
} | {
    args: {
        question: string;
        /**
         * Whether the person should use the desktop themselves (e.g. to sign in).
         */
        take_over?: boolean;
    };
    name: 'message_ask_user';
} | {
    /**
     * The `memory` tool's arguments, as the model writes them.
     */
    args: {
        /**
         * What a `memory` call does to the person's notes.
         */
        action: 'add' | 'replace' | 'remove';
        /**
         * replace, remove: a part of the note's text that no other note has.
         */
        old?: string | null;
        /**
         * The note (add) or its new text (replace): one short fact, never a secret.
         */
        text?: string;
    };
    name: 'memory';
} | {
    args: {
        /**
         * Its arguments, e.g. ["tools/server.py"] (relative to the workspace).
         */
        args?: Array<string>;
        /**
         * The program that starts the server, e.g. "python3" or "node".
         */
        command: string;
        /**
         * 1 to 32 letters, digits, '-' or '_' (no '__'): its tools are offered as
         * mcp__<name>__<tool>.
         */
        name: string;
        /**
         * A call made once it lists its tools: the server is registered only if it succeeds.
         */
        test?: null | {
            arguments?: {
                [key: string]: unknown;
            };
            /**
             * The tool's name on the server (not the mcp__ name).
             */
            tool: string;
        };
    };
    name: 'tool_register';
} | {
    /**
     * What the agent's `automation_create` tool takes: a time-triggered automation for its
     * person (webhooks are made in the app).
     */
    args: {
        /**
         * Instead of (or besides) `cron`: once, at this RFC 3339 time.
         */
        at?: string | null;
        /**
         * A cron expression: 5 fields (minute hour day month weekday), e.g. `0 9 * * MON`.
         */
        cron?: string | null;
        /**
         * A few words naming it.
         */
        name: string;
        /**
         * What to do at each run, as the person would ask it; each run starts a new chat
         * that sees only this.
         */
        prompt: string;
        /**
         * The IANA time zone the cron is read in (the person's, if known); default UTC.
         */
        timezone?: string | null;
    };
    name: 'automation_create';
} | {
    args: {
        /**
         * One of the models listed in your instructions; the deployment's implementer model
         * when left out.
         */
        model?: string | null;
        /**
         * Give the sub-agent a sandbox of its own (a fresh machine) instead of working in
         * yours; it is removed when the sub-agent ends.
         */
        own_sandbox?: boolean;
        /**
         * Files of the sub-agent's sandbox to copy into yours, at the same paths, when it
         * ends; only with `own_sandbox`. Paths relative to the workspace (`out/report.md`),
         * at most 20, regular files of at most 100 MiB each.
         */
        return_files?: Array<string>;
        /**
         * Everything the sub-agent needs to know: it sees nothing of this conversation.
         */
        task: string;
    };
    name: 'delegate';
} | {
    args: {
        /**
         * Default 10, at most 50.
         */
        max_results?: number | null;
        query: string;
    };
    name: 'web_search';
} | {
    args: {
        [key: string]: unknown;
    };
    name: string;
    written: true;
};

/**
 * One piece of an MCP tool's result.
 */
export type McpItem = {
    text: string;
    type: 'text';
} | {
    mime_type: string;
    src: string;
    type: 'image';
} | {
    text?: string | null;
    type: 'resource';
    uri: string;
};

/**
 * A server's fields as an admin sends them: all that are needed to add a server, only
 * those that change to edit one. In `headers` and `env`, the keys given are the new set
 * and a `null` value keeps the stored value of that key.
 */
export type McpServerInput = {
    /**
     * `stdio`: its arguments (readable in the sandbox: no secrets).
     */
    args?: Array<string> | null;
    /**
     * `stdio`: the program to start: a name, found in the sandbox's system directories,
     * or an absolute path.
     */
    command?: string | null;
    /**
     * Whether runs get its tools; a new server is enabled unless this says otherwise.
     */
    enabled?: boolean | null;
    /**
     * `stdio`: must be empty (`{}`, which removes the variables a server stored
     * earlier has): a stdio server runs in a person's sandbox, where its environment
     * is readable, so it takes none.
     */
    env?: {
        [key: string]: string | null;
    } | null;
    /**
     * `http`: headers sent with every request (e.g. `Authorization`).
     */
    headers?: {
        [key: string]: string | null;
    } | null;
    /**
     * Adding only: 1 to 32 letters, digits, `-` or `_`, without `__`.
     */
    name?: string | null;
    transport?: null | McpTransportKind;
    /**
     * `http`: the server's `http://` or `https://` address.
     */
    url?: string | null;
};

/**
 * A server as a person sees it: where it is (without secrets), its tools, or why it
 * offers none.
 */
export type McpServerStatus = {
    /**
     * Why the server gives no tools now.
     */
    error?: string | null;
    name: string;
    /**
     * A stdio server: it runs in each session's own sandbox, and the tools it lists
     * there go to that session's runs only, never here.
     */
    not_started: boolean;
    tools: Array<McpTool>;
    /**
     * `http` or `stdio`.
     */
    transport: string;
    /**
     * The server's address without query or credentials (`http` only).
     */
    url?: string | null;
};

/**
 * An MCP server as an admin sees it: its configuration with the names of its headers
 * and environment variables, never their values.
 */
export type McpServerView = {
    args?: Array<string> | null;
    /**
     * `stdio`: the program.
     */
    command?: string | null;
    created_at: string;
    enabled: boolean;
    /**
     * `stdio`: the environment variables set, by name.
     */
    env_names?: Array<string> | null;
    /**
     * `http`: the headers sent, by name.
     */
    header_names?: Array<string> | null;
    name: string;
    transport: McpTransportKind;
    updated_at: string;
    /**
     * `http`: the address, as stored.
     */
    url?: string | null;
};

/**
 * One tool of a server, with the description and input schema the server gave.
 */
export type McpTool = {
    description: string;
    /**
     * The tool's name on its server.
     */
    name: string;
};

/**
 * How a server is reached: `http` (Streamable HTTP) or `stdio` (a command).
 */
export type McpTransportKind = 'http' | 'stdio';

/**
 * What a `memory` call does to the person's notes.
 */
export type MemoryAction = 'add' | 'replace' | 'remove';

/**
 * A note the agent wrote to the person's memory (`memory`).
 */
export type MemoryChange = {
    action: MemoryAction;
    /**
     * The notes the memory holds afterwards.
     */
    notes: number;
    /**
     * The part of the note's text that named the one replaced or removed.
     */
    old?: string | null;
    /**
     * Written after the chat read content from outside: no chat gets it until the
     * person approves it on the Memory page. Absent: kept at once.
     */
    pending?: boolean;
    /**
     * The note as kept (add, replace); empty for remove.
     */
    text: string;
};

export type MemoryNoteEdit = {
    /**
     * The note's new text: 1 to 500 characters, nothing that looks like a key, token or
     * password.
     */
    text: string;
};

/**
 * One note of a person's memory, with the chat that wrote it.
 */
export type MemoryNoteView = {
    created_at: string;
    id: string;
    /**
     * Written after its chat read content from outside (a page, a file, a tool's
     * result): no chat gets it until you approve it.
     */
    pending: boolean;
    /**
     * The note it takes the place of once approved.
     */
    replaces?: string | null;
    /**
     * The session (chat) whose agent wrote the note.
     */
    session_id: string;
    text: string;
};

export type MemorySettings = {
    /**
     * On: the agent may keep notes, and each new chat starts with them. Off: neither
     * (the notes stay until deleted or wiped).
     */
    enabled: boolean;
};

/**
 * A person's memory across chats: whether it is on, and their notes, oldest first.
 */
export type MemoryView = {
    /**
     * Off by default; while off, the agent keeps no notes and new chats get none.
     */
    enabled: boolean;
    notes: Array<MemoryNoteView>;
};

export type MessageRole = 'user' | 'assistant';

/**
 * What happens to a fire time that passed while no replica ran: one run on recovery
 * (however many were missed), or none; either is recorded in the history.
 */
export type MissedRuns = 'run_once' | 'skip';

/**
 * The offered models, the default first; empty when none is configured.
 */
export type ModelList = {
    models: Array<ModelView>;
};

/**
 * One model's share of a session's tokens, and what they cost when it has prices.
 */
export type ModelUsage = {
    completion_tokens: number;
    /**
     * In the prices' currency; absent when the model has no prices.
     */
    cost?: number | null;
    /**
     * The model's name.
     */
    model: string;
    prompt_tokens: number;
};

/**
 * One offered model.
 */
export type ModelView = {
    /**
     * The context window, in tokens.
     */
    context_tokens: number;
    /**
     * The model a session or job gets when it names none.
     */
    default: boolean;
    /**
     * What a session's or a job's `model` names.
     */
    name: string;
    prices?: null | Prices;
    supports_images: boolean;
    /**
     * Whether it calls tools; the agent cannot work with a model that does not.
     */
    supports_tools: boolean;
};

/**
 * Whether a session's sandboxes may reach the internet. Chosen when the session is
 * made (a job's `network`) and kept by every sandbox it gets: its sub-agents' own, and
 * one made again after the last was removed.
 */
export type Network = 'internet' | 'offline';

/**
 * A new API key, with its secret: shown in this answer only.
 */
export type NewApiKey = ApiKeyView & {
    /**
     * The key itself (`sp_…`), to send as `Authorization: Bearer <key>`.
     */
    key: string;
};

/**
 * A file sent with a job, unchecked.
 */
export type NewAttachment = {
    /**
     * The file's content, base64 (standard alphabet, padded).
     */
    content_base64: string;
    /**
     * A plain file name (no `/`, `\\` or `..`); stored as `uploads/<name>`.
     */
    name: string;
};

/**
 * An automation as a client sends it.
 */
export type NewAutomation = {
    /**
     * Files each run gets in its workspace as `uploads/<name>`, as a job's attachments
     * are: at most 20, together at most the operator's cap (the lesser of a job's and
     * 8 MiB; 413 past it, saying it).
     */
    attachments?: Array<NewAttachment>;
    /**
     * Default true.
     */
    enabled?: boolean | null;
    missed_runs?: null | MissedRuns;
    /**
     * One of `GET /api/v1/models`' names (default: the default model).
     */
    model?: string | null;
    name: string;
    /**
     * `internet` or `offline`; default: the sandbox-manager's.
     */
    network?: string | null;
    /**
     * What to do, as a chat message; a template that may name the fire's payload:
     * `{{ body.repository.name }}`, `{{ fired_at }}`, `{{ trigger }}`.
     */
    prompt: string;
    session?: null | SessionMode;
    /**
     * Each run's time limit, as a job's (default: a job's).
     */
    timeout_secs?: number | null;
    triggers: Array<NewTrigger>;
    /**
     * Gets each run's job, as `GET /api/v1/jobs/{id}` shows it, when the run starts
     * waiting and when it ends, signed as a job's webhook is with the automation's one
     * secret (`webhook_secret`, shown only in the answer that set the URL); a public
     * address unless the operator allows private ones.
     */
    webhook_url?: string | null;
};

/**
 * A new invite, its code shown this once.
 */
export type NewInvite = {
    code: string;
    /**
     * Only this address may use it, when set.
     */
    email?: string | null;
    expires_at: string;
};

export type NewJobBody = {
    /**
     * Files for the job, written to its workspace as `uploads/<name>` before the agent
     * starts and named with the prompt: at most 20, at most 10 MiB decoded together
     * (the operator's `BACKEND_JOBS__MAX_ATTACHMENT_BYTES`; 413 past it).
     */
    attachments?: Array<NewAttachment>;
    /**
     * The model to run it with: one of `GET /api/v1/models`' names (the default model
     * when left out); another name is refused (422) rather than ignored.
     */
    model?: string | null;
    /**
     * `internet` or `offline`; default: the sandbox-manager's.
     */
    network?: string | null;
    /**
     * What to do, as a person would write it in a chat.
     */
    prompt: string;
    /**
     * How long the job may take from its start, waiting included (default 1800).
     */
    timeout_secs?: number | null;
    /**
     * The session's title; defaults to the start of the prompt.
     */
    title?: string | null;
    /**
     * Gets the job (as `GET /jobs/{id}` shows it) when it starts waiting and when it
     * ends, signed; a public address unless the operator allows private ones.
     */
    webhook_url?: string | null;
};

export type NewMessage = {
    /**
     * Paths of uploaded attachments (as `POST /sessions/{id}/attachments` answered).
     */
    attachments?: Array<string>;
    content: string;
};

export type NewSession = {
    /**
     * One of `GET /api/v1/models`' names; the default model when left out.
     */
    model?: string | null;
    /**
     * Defaults to "New chat"; the agent sets one later.
     */
    title?: string | null;
};

/**
 * A trigger as a client sends it. `id`: one of the automation's triggers (of the same
 * type) that this one is, in an edit; it keeps its id (and a webhook its URL and
 * secret), and an `at` sent unchanged is taken even once its time has passed.
 */
export type NewTrigger = {
    cron: string;
    id?: string | null;
    timezone?: string | null;
    type: 'schedule';
} | {
    at: string;
    id?: string | null;
    type: 'at';
} | {
    filter?: string | null;
    id?: string | null;
    key?: string | null;
    type: 'webhook';
};

/**
 * An API key in the admins' list, with its owner.
 */
export type OwnedApiKeyView = ApiKeyView & {
    owner_email: string;
    owner_id: string;
};

export type PasswordChange = {
    current_password: string;
    new_password: string;
};

export type PlanStep = {
    description: string;
    id: string;
    status: StepStatus;
};

export type Preview = {
    /**
     * The next 5 fire times, merged across the triggers (fewer when they end).
     */
    next_runs: Array<string>;
};

export type PreviewRequest = {
    triggers: Array<NewTrigger>;
};

/**
 * What a model's tokens cost, per million, in the operator's currency.
 */
export type Prices = {
    input_per_million: number;
    output_per_million: number;
};

export type PublishTool = {
    /**
     * The `kept_at` of the kept tool whose code you read (from `GET
     * /api/v1/toolbox/{id}`): publishing is refused (409) when its owner kept it anew
     * since, so what is published is what you read.
     */
    kept_at: string;
};

export type Readiness = {
    /**
     * Each store and whether it answers (`ok` or what failed).
     */
    checks: Array<Check>;
    /**
     * `ready` or `unavailable`.
     */
    status: string;
};

/**
 * A server the agent registered in a chat, for its Tools tab.
 */
export type RegisteredServerView = {
    args: Array<string>;
    command: string;
    /**
     * Your kept tool of this name, if you keep one.
     */
    kept_id?: string | null;
    name: string;
    registered_at: string;
    /**
     * The words of the command that may name its source files, as written (relative
     * ones start at the workspace).
     */
    sources: Array<string>;
    tools: Array<KeptToolToolView>;
};

/**
 * A tool a registered server offers, as the person sees it.
 */
export type RegisteredTool = {
    description: string;
    /**
     * As the model calls it: `mcp__<server>__<tool>`.
     */
    name: string;
};

/**
 * A new account: in `invite` registration, with the invite's code.
 */
export type Registration = {
    email: string;
    invite?: string | null;
    password: string;
};

/**
 * Who may create an account with a password. The deployment's first account (its
 * admin) may always be created.
 */
export type RegistrationMode = 'open' | 'invite' | 'closed';

export type Reply = {
    content: string;
};

export type Role = 'admin' | 'user';

export type RotatedSecret = {
    id: string;
    /**
     * Until when the secret it replaced is still taken beside it (the rotation's grace,
     * `AUTOMATIONS__ROTATION_GRACE_SECS`); after, only the new one.
     */
    previous_valid_until: string;
    /**
     * The new signing secret, shown only here.
     */
    secret: string;
    url: string;
};

export type RunList = {
    /**
     * Newest first.
     */
    runs: Array<RunView>;
};

export type RunStarted = {
    /**
     * The run's job (`GET /api/v1/jobs/{id}`).
     */
    job_id: string;
};

/**
 * One entry of the history.
 */
export type RunView = {
    /**
     * Why the run's job failed.
     */
    error?: string | null;
    fired_at: string;
    /**
     * The run's job (`GET /api/v1/jobs/{id}`); absent when nothing ran.
     */
    job_id?: string | null;
    /**
     * Why nothing ran, or what else happened (a missed time run on recovery).
     */
    note?: string | null;
    /**
     * The job's session, to open its chat.
     */
    session_id?: string | null;
    /**
     * The job's status (`queued`, `running`, `waiting`, `succeeded`, `failed`,
     * `cancelled`); `skipped` when nothing ran; `paused` for the entry saying the
     * automation paused itself.
     */
    status: string;
    trigger: FiredBy;
    trigger_id?: string | null;
};

export type SearchMatch = {
    line: number;
    path: string;
    /**
     * The matching line, cut to a sane length.
     */
    text: string;
};

export type SearchResponse = {
    files_scanned: number;
    matches: Array<SearchMatch>;
    truncated: boolean;
};

/**
 * Where the runs work: a new session each, or one session every run continues.
 */
export type SessionMode = 'fresh' | 'persistent';

/**
 * A page of the caller's sessions, newest first.
 */
export type SessionPage = {
    /**
     * Pass as `before` for the next page; absent on the last page.
     */
    next_before?: string | null;
    sessions: Array<SessionView>;
};

export type SessionStatus = 'pending' | 'running' | 'waiting' | 'completed' | 'failed';

export type SessionView = {
    created_at: string;
    id: string;
    /**
     * The start of the last message.
     */
    last_message_preview?: string | null;
    /**
     * Sequence number of the last event (0: none yet).
     */
    last_seq: number;
    /**
     * The model the session's next turn asks (absent: the default one).
     */
    model?: string | null;
    /**
     * When the replay link stops working (absent: it works until revoked). A link
     * whose time has passed is refused; sharing again makes a new one.
     */
    share_expires_at?: string | null;
    /**
     * Present while the session is shared: the replay link's token.
     */
    share_token?: string | null;
    status: SessionStatus;
    title: string;
    /**
     * Assistant messages the owner has not read.
     */
    unread_count: number;
    updated_at: string;
    /**
     * The model's tokens over the whole session.
     */
    usage: TokenUsage;
    /**
     * `usage` by the model that used the tokens, in the order first used, with their
     * cost where the model has prices.
     */
    usage_by_model: Array<ModelUsage>;
};

/**
 * How long the link works. An empty body (or `{}`) shares until revoked.
 */
export type ShareRequest = {
    /**
     * Seconds from now, 60 (a minute) to 31536000 (a year); absent or null: until
     * revoked.
     */
    expires_in_secs?: number | null;
};

/**
 * An event of a shared session as its replay shows it.
 */
export type SharedEvent = {
    event: AgentEvent;
    /**
     * Increasing, with gaps where the log holds what a replay does not show; pass the
     * last one as `after` for the next page.
     */
    seq: number;
};

/**
 * A shared session as its replay shows it.
 */
export type SharedSessionView = {
    title: string;
};

/**
 * A signed-in user and their access token (the refresh token is in the
 * `sandpiper_refresh` cookie the same answer sets).
 */
export type SignedIn = {
    tokens: AccessToken;
    user: UserView;
};

export type StepStatus = 'pending' | 'running' | 'completed' | 'failed';

/**
 * An event as the log holds it.
 */
export type StoredEvent = {
    at: string;
    event: AgentEvent;
    /**
     * 1, 2, 3… per session, without gaps.
     */
    seq: number;
    session_id: string;
};

export type TerminalTicketView = {
    expires_in_secs: number;
    ticket: string;
    /**
     * Where to open the WebSocket (ticket included), relative to the API's origin; add
     * `&cols=…&rows=…` for the terminal's size.
     */
    url: string;
};

export type TicketRequest = {
    mode: VncMode;
};

export type TicketView = {
    expires_in_secs: number;
    mode: VncMode;
    ticket: string;
    /**
     * Where to open the WebSocket (ticket included), relative to the API's origin.
     */
    url: string;
};

/**
 * Tokens the model provider counted (and bills).
 */
export type TokenUsage = {
    completion_tokens: number;
    prompt_tokens: number;
};

/**
 * A tool call as the model wrote it: `arguments` is its raw JSON text, which may not
 * parse (the run feeds the error back).
 */
export type ToolCallRequest = {
    arguments: string;
    id: string;
    name: string;
};

/**
 * An MCP server the agent registered: its name, how it is started, and the tools it
 * offered with the test call's result — or why it was not registered (`error`).
 */
export type ToolRegistration = {
    args: Array<string>;
    command: string;
    error?: string | null;
    server: string;
    test?: string | null;
    tools: Array<RegisteredTool>;
};

export type ToolStatus = 'calling' | 'called';

/**
 * What the person sees of a finished tool call.
 */
export type ToolView = {
    command: string;
    exit_code?: number | null;
    kind: 'shell';
    output: string;
    state: CommandState;
} | {
    content?: string | null;
    kind: 'file';
    new?: string | null;
    old?: string | null;
    path: string;
} | {
    kind: 'browser';
    screenshot?: null | ImageRef;
    title: string;
    url: string;
} | {
    kind: 'search';
    results: Array<WebSearchResult>;
} | (Listing & {
    kind: 'listing';
}) | (FindResponse & {
    kind: 'found';
}) | (SearchResponse & {
    kind: 'matches';
}) | (EvaluateResponse & {
    kind: 'evaluated';
}) | (ConsoleLog & {
    kind: 'console';
}) | (KernelRestarted & {
    kind: 'kernel_restart';
}) | (FetchResponse & {
    kind: 'fetched';
}) | {
    kind: 'result';
    result: {
        [key: string]: unknown;
    };
} | {
    content: Array<McpItem>;
    is_error: boolean;
    kind: 'mcp';
    server: string;
    tool: string;
} | (CodeCell & {
    kind: 'code';
}) | {
    answer: string;
    files?: Array<string>;
    kind: 'delegation';
    model: string;
    own_sandbox: boolean;
} | (ToolRegistration & {
    kind: 'tool_register';
}) | (MemoryChange & {
    kind: 'memory';
}) | (AutomationMade & {
    kind: 'automation';
}) | {
    kind: 'error';
    message: string;
};

export type TriggerView = {
    at?: string | null;
    cron?: string | null;
    filter?: string | null;
    id: string;
    /**
     * A webhook's expression over the body giving a delivery's deduplication key (without
     * one, the delivery's signature is its key).
     */
    key?: string | null;
    /**
     * A webhook's signing secret: only in the answer that made it (or rotated it).
     */
    secret?: string | null;
    timezone?: string | null;
    /**
     * `schedule`, `at` or `webhook`.
     */
    type: string;
    /**
     * A webhook's address: `<BACKEND_PUBLIC_URL>/api/v1/hooks/{id}` when the deployment
     * knows its public URL, else relative to this API's origin (`/api/v1/hooks/{id}`).
     */
    url?: string | null;
};

export type UserView = {
    active: boolean;
    created_at: string;
    email: string;
    id: string;
    role: Role;
};

export type VncMode = 'view' | 'control';

export type WebSearchResult = {
    snippet: string;
    title: string;
    url: string;
};

export type ListAllApiKeysData = {
    body?: never;
    path?: never;
    query?: never;
    url: '/api/v1/admin/api-keys';
};

export type ListAllApiKeysErrors = {
    /**
     * not an admin
     */
    403: ErrorBody;
};

export type ListAllApiKeysError = ListAllApiKeysErrors[keyof ListAllApiKeysErrors];

export type ListAllApiKeysResponses = {
    200: Array<OwnedApiKeyView>;
};

export type ListAllApiKeysResponse = ListAllApiKeysResponses[keyof ListAllApiKeysResponses];

export type RevokeAnyApiKeyData = {
    body?: never;
    path: {
        id: string;
    };
    query?: never;
    url: '/api/v1/admin/api-keys/{id}';
};

export type RevokeAnyApiKeyErrors = {
    /**
     * not an admin
     */
    403: ErrorBody;
    /**
     * no key has this id
     */
    404: ErrorBody;
};

export type RevokeAnyApiKeyError = RevokeAnyApiKeyErrors[keyof RevokeAnyApiKeyErrors];

export type RevokeAnyApiKeyResponses = {
    204: void;
};

export type RevokeAnyApiKeyResponse = RevokeAnyApiKeyResponses[keyof RevokeAnyApiKeyResponses];

export type CreateData = {
    body: InviteRequest;
    path?: never;
    query?: never;
    url: '/api/v1/admin/invites';
};

export type CreateErrors = {
    /**
     * not an admin
     */
    403: ErrorBody;
    422: ErrorBody;
};

export type CreateError = CreateErrors[keyof CreateErrors];

export type CreateResponses = {
    201: NewInvite;
};

export type CreateResponse = CreateResponses[keyof CreateResponses];

export type RevokeData = {
    body?: never;
    path: {
        code: string;
    };
    query?: never;
    url: '/api/v1/admin/invites/{code}';
};

export type RevokeErrors = {
    /**
     * not an admin
     */
    403: ErrorBody;
    /**
     * no such unused invite
     */
    404: ErrorBody;
};

export type RevokeError = RevokeErrors[keyof RevokeErrors];

export type RevokeResponses = {
    204: void;
};

export type RevokeResponse = RevokeResponses[keyof RevokeResponses];

export type ListData = {
    body?: never;
    path?: never;
    query?: never;
    url: '/api/v1/admin/mcp/servers';
};

export type ListErrors = {
    401: ErrorBody;
    403: ErrorBody;
};

export type ListError = ListErrors[keyof ListErrors];

export type ListResponses = {
    200: Array<McpServerView>;
};

export type ListResponse = ListResponses[keyof ListResponses];

export type AddData = {
    body: McpServerInput;
    path?: never;
    query?: never;
    url: '/api/v1/admin/mcp/servers';
};

export type AddErrors = {
    /**
     * not JSON
     */
    400: ErrorBody;
    401: ErrorBody;
    403: ErrorBody;
    /**
     * the name is taken
     */
    409: ErrorBody;
    /**
     * a field breaks a rule; `field` names it
     */
    422: ErrorBody;
};

export type AddError = AddErrors[keyof AddErrors];

export type AddResponses = {
    201: McpServerView;
};

export type AddResponse = AddResponses[keyof AddResponses];

export type RemoveData = {
    body?: never;
    path: {
        name: string;
    };
    query?: never;
    url: '/api/v1/admin/mcp/servers/{name}';
};

export type RemoveErrors = {
    401: ErrorBody;
    403: ErrorBody;
    404: ErrorBody;
};

export type RemoveError = RemoveErrors[keyof RemoveErrors];

export type RemoveResponses = {
    204: void;
};

export type RemoveResponse = RemoveResponses[keyof RemoveResponses];

export type EditData = {
    body: McpServerInput;
    path: {
        name: string;
    };
    query?: never;
    url: '/api/v1/admin/mcp/servers/{name}';
};

export type EditErrors = {
    /**
     * not JSON
     */
    400: ErrorBody;
    401: ErrorBody;
    403: ErrorBody;
    404: ErrorBody;
    /**
     * a field breaks a rule; `field` names it
     */
    422: ErrorBody;
};

export type EditError = EditErrors[keyof EditErrors];

export type EditResponses = {
    200: McpServerView;
};

export type EditResponse = EditResponses[keyof EditResponses];

export type ListApiKeysData = {
    body?: never;
    path?: never;
    query?: never;
    url: '/api/v1/api-keys';
};

export type ListApiKeysResponses = {
    200: Array<ApiKeyView>;
};

export type ListApiKeysResponse = ListApiKeysResponses[keyof ListApiKeysResponses];

export type CreateApiKeyData = {
    body: ApiKeyRequest;
    path?: never;
    query?: never;
    url: '/api/v1/api-keys';
};

export type CreateApiKeyErrors = {
    /**
     * you have as many keys as one person may
     */
    409: ErrorBody;
    /**
     * a bad name, scope or expiry
     */
    422: ErrorBody;
};

export type CreateApiKeyError = CreateApiKeyErrors[keyof CreateApiKeyErrors];

export type CreateApiKeyResponses = {
    201: NewApiKey;
};

export type CreateApiKeyResponse = CreateApiKeyResponses[keyof CreateApiKeyResponses];

export type RevokeApiKeyData = {
    body?: never;
    path: {
        id: string;
    };
    query?: never;
    url: '/api/v1/api-keys/{id}';
};

export type RevokeApiKeyErrors = {
    /**
     * none of your keys has this id
     */
    404: ErrorBody;
};

export type RevokeApiKeyError = RevokeApiKeyErrors[keyof RevokeApiKeyErrors];

export type RevokeApiKeyResponses = {
    204: void;
};

export type RevokeApiKeyResponse = RevokeApiKeyResponses[keyof RevokeApiKeyResponses];

export type LoginData = {
    body: Credentials;
    path?: never;
    query?: never;
    url: '/api/v1/auth/login';
};

export type LoginErrors = {
    401: ErrorBody;
    429: ErrorBody;
    /**
     * too many password checks waiting; retry after `Retry-After` seconds
     */
    503: ErrorBody;
};

export type LoginError = LoginErrors[keyof LoginErrors];

export type LoginResponses = {
    200: SignedIn;
};

export type LoginResponse = LoginResponses[keyof LoginResponses];

export type LogoutData = {
    body: CookieRequest;
    path?: never;
    query?: never;
    url: '/api/v1/auth/logout';
};

export type LogoutErrors = {
    401: ErrorBody;
    /**
     * not `Content-Type: application/json`, or from another site's page
     */
    403: ErrorBody;
};

export type LogoutError = LogoutErrors[keyof LogoutErrors];

export type LogoutResponses = {
    204: void;
};

export type LogoutResponse = LogoutResponses[keyof LogoutResponses];

export type LogoutAllData = {
    body?: never;
    path?: never;
    query?: never;
    url: '/api/v1/auth/logout-all';
};

export type LogoutAllErrors = {
    401: ErrorBody;
};

export type LogoutAllError = LogoutAllErrors[keyof LogoutAllErrors];

export type LogoutAllResponses = {
    204: void;
};

export type LogoutAllResponse = LogoutAllResponses[keyof LogoutAllResponses];

export type MeData = {
    body?: never;
    path?: never;
    query?: never;
    url: '/api/v1/auth/me';
};

export type MeErrors = {
    401: ErrorBody;
};

export type MeError = MeErrors[keyof MeErrors];

export type MeResponses = {
    200: UserView;
};

export type MeResponse = MeResponses[keyof MeResponses];

export type ModeData = {
    body?: never;
    path?: never;
    query?: never;
    url: '/api/v1/auth/mode';
};

export type ModeResponses = {
    200: AuthModeView;
};

export type ModeResponse = ModeResponses[keyof ModeResponses];

export type ChangePasswordData = {
    body: PasswordChange;
    path?: never;
    query?: never;
    url: '/api/v1/auth/password';
};

export type ChangePasswordErrors = {
    401: ErrorBody;
    422: ErrorBody;
    /**
     * too many password checks waiting; retry after `Retry-After` seconds
     */
    503: ErrorBody;
};

export type ChangePasswordError = ChangePasswordErrors[keyof ChangePasswordErrors];

export type ChangePasswordResponses = {
    200: AccessToken;
};

export type ChangePasswordResponse = ChangePasswordResponses[keyof ChangePasswordResponses];

export type RefreshData = {
    body: CookieRequest;
    path?: never;
    query?: never;
    url: '/api/v1/auth/refresh';
};

export type RefreshErrors = {
    /**
     * no cookie, or one spent, revoked or expired
     */
    401: ErrorBody;
    /**
     * not `Content-Type: application/json`, or from another site's page
     */
    403: ErrorBody;
};

export type RefreshError = RefreshErrors[keyof RefreshErrors];

export type RefreshResponses = {
    200: AccessToken;
};

export type RefreshResponse = RefreshResponses[keyof RefreshResponses];

export type RegisterData = {
    body: Registration;
    path?: never;
    query?: never;
    url: '/api/v1/auth/register';
};

export type RegisterErrors = {
    /**
     * registration closed, or an invite missing, used up or for another address
     */
    403: ErrorBody;
    409: ErrorBody;
    422: ErrorBody;
    /**
     * too many password checks waiting; retry after `Retry-After` seconds
     */
    503: ErrorBody;
};

export type RegisterError = RegisterErrors[keyof RegisterErrors];

export type RegisterResponses = {
    201: SignedIn;
};

export type RegisterResponse = RegisterResponses[keyof RegisterResponses];

export type List2Data = {
    body?: never;
    path?: never;
    query?: never;
    url: '/api/v1/automations';
};

export type List2Errors = {
    401: ErrorBody;
};

export type List2Error = List2Errors[keyof List2Errors];

export type List2Responses = {
    200: AutomationList;
};

export type List2Response = List2Responses[keyof List2Responses];

export type Create2Data = {
    body: NewAutomation;
    path?: never;
    query?: never;
    url: '/api/v1/automations';
};

export type Create2Errors = {
    401: ErrorBody;
    /**
     * its files hold more than the cap, which the message says
     */
    413: ErrorBody;
    /**
     * a bad field, named in `field`: cron, timezone, at, filter, prompt…
     */
    422: ErrorBody;
};

export type Create2Error = Create2Errors[keyof Create2Errors];

export type Create2Responses = {
    201: AutomationView;
};

export type Create2Response = Create2Responses[keyof Create2Responses];

export type PreviewData = {
    body: PreviewRequest;
    path?: never;
    query?: never;
    url: '/api/v1/automations/preview';
};

export type PreviewErrors = {
    401: ErrorBody;
    /**
     * a bad field, named in `field`: cron, timezone, at, triggers…
     */
    422: ErrorBody;
};

export type PreviewError = PreviewErrors[keyof PreviewErrors];

export type PreviewResponses = {
    200: Preview;
};

export type PreviewResponse = PreviewResponses[keyof PreviewResponses];

export type DeleteData = {
    body?: never;
    path: {
        id: string;
    };
    query?: never;
    url: '/api/v1/automations/{id}';
};

export type DeleteErrors = {
    404: ErrorBody;
};

export type DeleteError = DeleteErrors[keyof DeleteErrors];

export type DeleteResponses = {
    204: void;
};

export type DeleteResponse = DeleteResponses[keyof DeleteResponses];

export type GetData = {
    body?: never;
    path: {
        id: string;
    };
    query?: never;
    url: '/api/v1/automations/{id}';
};

export type GetErrors = {
    404: ErrorBody;
};

export type GetError = GetErrors[keyof GetErrors];

export type GetResponses = {
    200: AutomationView;
};

export type GetResponse = GetResponses[keyof GetResponses];

export type Edit2Data = {
    body: AutomationEdit;
    path: {
        id: string;
    };
    query?: never;
    url: '/api/v1/automations/{id}';
};

export type Edit2Errors = {
    404: ErrorBody;
    /**
     * it fired meanwhile; send the change again
     */
    409: ErrorBody;
    /**
     * its files would hold more than the cap, which the message says
     */
    413: ErrorBody;
    422: ErrorBody;
};

export type Edit2Error = Edit2Errors[keyof Edit2Errors];

export type Edit2Responses = {
    200: AutomationView;
};

export type Edit2Response = Edit2Responses[keyof Edit2Responses];

export type RunNowData = {
    body?: never;
    path: {
        id: string;
    };
    query?: never;
    url: '/api/v1/automations/{id}/run';
};

export type RunNowErrors = {
    404: ErrorBody;
    /**
     * nothing ran; the message says why (the history has it too)
     */
    409: ErrorBody;
};

export type RunNowError = RunNowErrors[keyof RunNowErrors];

export type RunNowResponses = {
    202: RunStarted;
};

export type RunNowResponse = RunNowResponses[keyof RunNowResponses];

export type RunsData = {
    body?: never;
    path: {
        id: string;
    };
    query?: {
        /**
         * 1–100, default 30.
         */
        limit?: number | null;
    };
    url: '/api/v1/automations/{id}/runs';
};

export type RunsErrors = {
    404: ErrorBody;
};

export type RunsError = RunsErrors[keyof RunsErrors];

export type RunsResponses = {
    200: RunList;
};

export type RunsResponse = RunsResponses[keyof RunsResponses];

export type RotateData = {
    body?: never;
    path: {
        id: string;
        trigger_id: string;
    };
    query?: never;
    url: '/api/v1/automations/{id}/triggers/{trigger_id}/rotate';
};

export type RotateErrors = {
    404: ErrorBody;
};

export type RotateError = RotateErrors[keyof RotateErrors];

export type RotateResponses = {
    200: RotatedSecret;
};

export type RotateResponse = RotateResponses[keyof RotateResponses];

export type DeliverData = {
    /**
     * the delivery (JSON is offered to the prompt and the filter as `body`; any other body as text)
     */
    body: unknown;
    headers?: {
        /**
         * t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" with the trigger's secret>
         */
        'X-Sandpiper-Signature'?: string | null;
        /**
         * GitHub's signature, sha256=<hex HMAC-SHA256 of the body>, instead of X-Sandpiper-Signature
         */
        'X-Hub-Signature-256'?: string | null;
        /**
         * the delivery's id: a repeat runs nothing
         */
        'Idempotency-Key'?: string | null;
    };
    path: {
        /**
         * the webhook trigger's id
         */
        trigger_id: string;
    };
    query?: never;
    url: '/api/v1/hooks/{trigger_id}';
};

export type DeliverErrors = {
    400: ErrorBody;
    401: ErrorBody;
    404: ErrorBody;
    413: ErrorBody;
    /**
     * no run could start (the queue full, a store failing), or too many deliveries wait to be read; retry later
     */
    503: ErrorBody;
};

export type DeliverError = DeliverErrors[keyof DeliverErrors];

export type DeliverResponses = {
    200: DeliveryAnswer;
    202: DeliveryAnswer;
};

export type DeliverResponse = DeliverResponses[keyof DeliverResponses];

export type List3Data = {
    body?: never;
    path?: never;
    query?: {
        /**
         * Only jobs in this status.
         */
        status?: string | null;
        /**
         * The `next_before` of the previous page.
         */
        before?: string | null;
        /**
         * 1–100, default 30.
         */
        limit?: number | null;
    };
    url: '/api/v1/jobs';
};

export type List3Errors = {
    401: ErrorBody;
    422: ErrorBody;
};

export type List3Error = List3Errors[keyof List3Errors];

export type List3Responses = {
    200: JobPage;
};

export type List3Response = List3Responses[keyof List3Responses];

export type Create3Data = {
    body: NewJobBody;
    path?: never;
    query?: never;
    url: '/api/v1/jobs';
};

export type Create3Errors = {
    400: ErrorBody;
    401: ErrorBody;
    413: ErrorBody;
    422: ErrorBody;
    /**
     * the caller's job queue is full
     */
    429: ErrorBody;
    /**
     * too many jobs are being made at once
     */
    503: ErrorBody;
};

export type Create3Error = Create3Errors[keyof Create3Errors];

export type Create3Responses = {
    201: CreatedJob;
};

export type Create3Response = Create3Responses[keyof Create3Responses];

export type Get2Data = {
    body?: never;
    path: {
        id: string;
    };
    query?: never;
    url: '/api/v1/jobs/{id}';
};

export type Get2Errors = {
    404: ErrorBody;
};

export type Get2Error = Get2Errors[keyof Get2Errors];

export type Get2Responses = {
    200: JobDetail;
};

export type Get2Response = Get2Responses[keyof Get2Responses];

export type CancelData = {
    body?: never;
    path: {
        id: string;
    };
    query?: never;
    url: '/api/v1/jobs/{id}/cancel';
};

export type CancelErrors = {
    404: ErrorBody;
    /**
     * the job has ended already
     */
    409: ErrorBody;
};

export type CancelError = CancelErrors[keyof CancelErrors];

export type CancelResponses = {
    200: JobView;
};

export type CancelResponse = CancelResponses[keyof CancelResponses];

export type EventsData = {
    body?: never;
    path: {
        id: string;
    };
    query?: {
        /**
         * Events after this sequence number (`Last-Event-ID` wins when both are given).
         */
        after?: number | null;
    };
    url: '/api/v1/jobs/{id}/events';
};

export type EventsErrors = {
    400: ErrorBody;
    404: ErrorBody;
    /**
     * too many open streams
     */
    429: ErrorBody;
};

export type EventsError = EventsErrors[keyof EventsErrors];

export type EventsResponses = {
    /**
     * `text/event-stream`; each event's `id:` is its sequence number, `event:` its type, `data:` the stored event as JSON
     */
    200: string;
};

export type EventsResponse = EventsResponses[keyof EventsResponses];

export type ReplyData = {
    body: Reply;
    path: {
        id: string;
    };
    query?: never;
    url: '/api/v1/jobs/{id}/reply';
};

export type ReplyErrors = {
    404: ErrorBody;
    /**
     * the job is not waiting
     */
    409: ErrorBody;
    413: ErrorBody;
};

export type ReplyError = ReplyErrors[keyof ReplyErrors];

export type ReplyResponses = {
    201: StoredEvent;
};

export type ReplyResponse = ReplyResponses[keyof ReplyResponses];

export type ResultData = {
    body?: never;
    path: {
        id: string;
    };
    query?: {
        /**
         * A path in the sandbox; relative ones start at the workspace (default: the workspace).
         */
        path?: string;
    };
    url: '/api/v1/jobs/{id}/result';
};

export type ResultErrors = {
    404: ErrorBody;
};

export type ResultError = ResultErrors[keyof ResultErrors];

export type ResultResponses = {
    /**
     * a zip archive
     */
    200: Array<number>;
};

export type ResultResponse = ResultResponses[keyof ResultResponses];

export type ServersData = {
    body?: never;
    path?: never;
    query?: never;
    url: '/api/v1/mcp/servers';
};

export type ServersErrors = {
    401: ErrorBody;
};

export type ServersError = ServersErrors[keyof ServersErrors];

export type ServersResponses = {
    200: Array<McpServerStatus>;
};

export type ServersResponse = ServersResponses[keyof ServersResponses];

export type WipeMemoryData = {
    body?: never;
    path?: never;
    query?: never;
    url: '/api/v1/memory';
};

export type WipeMemoryResponses = {
    204: void;
};

export type WipeMemoryResponse = WipeMemoryResponses[keyof WipeMemoryResponses];

export type GetMemoryData = {
    body?: never;
    path?: never;
    query?: never;
    url: '/api/v1/memory';
};

export type GetMemoryResponses = {
    200: MemoryView;
};

export type GetMemoryResponse = GetMemoryResponses[keyof GetMemoryResponses];

export type SetMemoryData = {
    body: MemorySettings;
    path?: never;
    query?: never;
    url: '/api/v1/memory';
};

export type SetMemoryErrors = {
    /**
     * `enabled` is missing or not a boolean
     */
    422: ErrorBody;
};

export type SetMemoryError = SetMemoryErrors[keyof SetMemoryErrors];

export type SetMemoryResponses = {
    200: MemoryView;
};

export type SetMemoryResponse = SetMemoryResponses[keyof SetMemoryResponses];

export type DeleteMemoryNoteData = {
    body?: never;
    path: {
        id: string;
    };
    query?: never;
    url: '/api/v1/memory/notes/{id}';
};

export type DeleteMemoryNoteErrors = {
    /**
     * none of your notes has this id
     */
    404: ErrorBody;
};

export type DeleteMemoryNoteError = DeleteMemoryNoteErrors[keyof DeleteMemoryNoteErrors];

export type DeleteMemoryNoteResponses = {
    204: void;
};

export type DeleteMemoryNoteResponse = DeleteMemoryNoteResponses[keyof DeleteMemoryNoteResponses];

export type EditMemoryNoteData = {
    body: MemoryNoteEdit;
    path: {
        id: string;
    };
    query?: never;
    url: '/api/v1/memory/notes/{id}';
};

export type EditMemoryNoteErrors = {
    /**
     * none of your notes has this id
     */
    404: ErrorBody;
    /**
     * the text is empty, too long, looks like a secret, or would overfill memory
     */
    422: ErrorBody;
};

export type EditMemoryNoteError = EditMemoryNoteErrors[keyof EditMemoryNoteErrors];

export type EditMemoryNoteResponses = {
    200: MemoryNoteView;
};

export type EditMemoryNoteResponse = EditMemoryNoteResponses[keyof EditMemoryNoteResponses];

export type ApproveMemoryNoteData = {
    body?: never;
    path: {
        id: string;
    };
    query?: never;
    url: '/api/v1/memory/notes/{id}/approve';
};

export type ApproveMemoryNoteErrors = {
    /**
     * none of your notes has this id
     */
    404: ErrorBody;
};

export type ApproveMemoryNoteError = ApproveMemoryNoteErrors[keyof ApproveMemoryNoteErrors];

export type ApproveMemoryNoteResponses = {
    200: MemoryView;
};

export type ApproveMemoryNoteResponse = ApproveMemoryNoteResponses[keyof ApproveMemoryNoteResponses];

export type List4Data = {
    body?: never;
    path?: never;
    query?: never;
    url: '/api/v1/models';
};

export type List4Errors = {
    401: ErrorBody;
};

export type List4Error = List4Errors[keyof List4Errors];

export type List4Responses = {
    200: ModelList;
};

export type List4Response = List4Responses[keyof List4Responses];

export type List5Data = {
    body?: never;
    path?: never;
    query?: {
        /**
         * The `next_before` of the previous page.
         */
        before?: string | null;
        /**
         * 1–100, default 30.
         */
        limit?: number | null;
    };
    url: '/api/v1/sessions';
};

export type List5Errors = {
    401: ErrorBody;
};

export type List5Error = List5Errors[keyof List5Errors];

export type List5Responses = {
    200: SessionPage;
};

export type List5Response = List5Responses[keyof List5Responses];

export type Create4Data = {
    body: NewSession;
    path?: never;
    query?: never;
    url: '/api/v1/sessions';
};

export type Create4Errors = {
    401: ErrorBody;
    /**
     * a bad title, or a model not offered (`field`: `model`)
     */
    422: ErrorBody;
};

export type Create4Error = Create4Errors[keyof Create4Errors];

export type Create4Responses = {
    201: SessionView;
};

export type Create4Response = Create4Responses[keyof Create4Responses];

export type SessionListStreamData = {
    body?: never;
    path?: never;
    query?: never;
    url: '/api/v1/sessions/stream';
};

export type SessionListStreamErrors = {
    /**
     * too many open streams
     */
    429: ErrorBody;
};

export type SessionListStreamError = SessionListStreamErrors[keyof SessionListStreamErrors];

export type SessionListStreamResponses = {
    /**
     * `text/event-stream` of `updated` / `deleted` events
     */
    200: string;
};

export type SessionListStreamResponse = SessionListStreamResponses[keyof SessionListStreamResponses];

export type Delete2Data = {
    body?: never;
    path: {
        id: string;
    };
    query?: never;
    url: '/api/v1/sessions/{id}';
};

export type Delete2Errors = {
    404: ErrorBody;
};

export type Delete2Error = Delete2Errors[keyof Delete2Errors];

export type Delete2Responses = {
    204: void;
};

export type Delete2Response = Delete2Responses[keyof Delete2Responses];

export type Get3Data = {
    body?: never;
    path: {
        id: string;
    };
    query?: never;
    url: '/api/v1/sessions/{id}';
};

export type Get3Errors = {
    404: ErrorBody;
};

export type Get3Error = Get3Errors[keyof Get3Errors];

export type Get3Responses = {
    200: SessionView;
};

export type Get3Response = Get3Responses[keyof Get3Responses];

export type Edit3Data = {
    body: EditSession;
    path: {
        id: string;
    };
    query?: never;
    url: '/api/v1/sessions/{id}';
};

export type Edit3Errors = {
    404: ErrorBody;
    /**
     * a bad title, or a model not offered (`field`: `model`)
     */
    422: ErrorBody;
};

export type Edit3Error = Edit3Errors[keyof Edit3Errors];

export type Edit3Responses = {
    200: SessionView;
};

export type Edit3Response = Edit3Responses[keyof Edit3Responses];

export type AttachmentsData = {
    body?: never;
    path: {
        id: string;
    };
    query?: never;
    url: '/api/v1/sessions/{id}/attachments';
};

export type AttachmentsErrors = {
    404: ErrorBody;
};

export type AttachmentsError = AttachmentsErrors[keyof AttachmentsErrors];

export type AttachmentsResponses = {
    200: Array<FileEntry>;
};

export type AttachmentsResponse = AttachmentsResponses[keyof AttachmentsResponses];

export type AttachData = {
    body: Array<number>;
    path: {
        id: string;
    };
    query: {
        /**
         * The file's name; it is stored as `uploads/<name>` in the workspace.
         */
        name: string;
    };
    url: '/api/v1/sessions/{id}/attachments';
};

export type AttachErrors = {
    413: ErrorBody;
    422: ErrorBody;
    /**
     * the session's workspace is over its storage quota
     */
    507: ErrorBody;
};

export type AttachError = AttachErrors[keyof AttachErrors];

export type AttachResponses = {
    201: FileEntry;
};

export type AttachResponse = AttachResponses[keyof AttachResponses];

export type DesktopStateData = {
    body?: never;
    path: {
        id: string;
    };
    query?: never;
    url: '/api/v1/sessions/{id}/desktop';
};

export type DesktopStateErrors = {
    404: ErrorBody;
    503: ErrorBody;
};

export type DesktopStateError = DesktopStateErrors[keyof DesktopStateErrors];

export type DesktopStateResponses = {
    200: DesktopView;
};

export type DesktopStateResponse = DesktopStateResponses[keyof DesktopStateResponses];

export type SessionEventsData = {
    body?: never;
    path: {
        id: string;
    };
    query?: {
        /**
         * Events after this sequence number (`Last-Event-ID` wins when both are given).
         */
        after?: number | null;
    };
    url: '/api/v1/sessions/{id}/events';
};

export type SessionEventsErrors = {
    400: ErrorBody;
    404: ErrorBody;
    /**
     * too many open streams
     */
    429: ErrorBody;
};

export type SessionEventsError = SessionEventsErrors[keyof SessionEventsErrors];

export type SessionEventsResponses = {
    /**
     * `text/event-stream`; each event's `id:` is its sequence number, `event:` its type, `data:` the stored event as JSON
     */
    200: string;
};

export type SessionEventsResponse = SessionEventsResponses[keyof SessionEventsResponses];

export type Delete3Data = {
    body?: never;
    path: {
        id: string;
    };
    query: {
        /**
         * A path in the sandbox; relative ones start at the workspace.
         */
        path: string;
    };
    url: '/api/v1/sessions/{id}/files';
};

export type Delete3Errors = {
    400: ErrorBody;
    404: ErrorBody;
};

export type Delete3Error = Delete3Errors[keyof Delete3Errors];

export type Delete3Responses = {
    204: void;
};

export type Delete3Response = Delete3Responses[keyof Delete3Responses];

export type List6Data = {
    body?: never;
    path: {
        id: string;
    };
    query?: {
        /**
         * A path in the sandbox; relative ones start at the workspace (default: the workspace).
         */
        path?: string;
    };
    url: '/api/v1/sessions/{id}/files';
};

export type List6Errors = {
    404: ErrorBody;
    503: ErrorBody;
};

export type List6Error = List6Errors[keyof List6Errors];

export type List6Responses = {
    200: Listing;
};

export type List6Response = List6Responses[keyof List6Responses];

export type ArchiveData = {
    body?: never;
    path: {
        id: string;
    };
    query?: {
        /**
         * A path in the sandbox; relative ones start at the workspace (default: the workspace).
         */
        path?: string;
    };
    url: '/api/v1/sessions/{id}/files/archive';
};

export type ArchiveErrors = {
    404: ErrorBody;
};

export type ArchiveError = ArchiveErrors[keyof ArchiveErrors];

export type ArchiveResponses = {
    /**
     * a zip archive
     */
    200: Array<number>;
};

export type ArchiveResponse = ArchiveResponses[keyof ArchiveResponses];

export type DownloadData = {
    body?: never;
    path: {
        id: string;
    };
    query?: {
        /**
         * A path in the sandbox; relative ones start at the workspace (default: the workspace).
         */
        path?: string;
    };
    url: '/api/v1/sessions/{id}/files/download';
};

export type DownloadErrors = {
    404: ErrorBody;
    416: ErrorBody;
};

export type DownloadError = DownloadErrors[keyof DownloadErrors];

export type DownloadResponses = {
    /**
     * the file
     */
    200: Array<number>;
    /**
     * the requested range
     */
    206: unknown;
};

export type DownloadResponse = DownloadResponses[keyof DownloadResponses];

export type StatData = {
    body?: never;
    path: {
        id: string;
    };
    query?: {
        /**
         * A path in the sandbox; relative ones start at the workspace (default: the workspace).
         */
        path?: string;
    };
    url: '/api/v1/sessions/{id}/files/stat';
};

export type StatErrors = {
    404: ErrorBody;
};

export type StatError = StatErrors[keyof StatErrors];

export type StatResponses = {
    200: FileEntry;
};

export type StatResponse = StatResponses[keyof StatResponses];

export type UploadData = {
    body: Array<number>;
    path: {
        id: string;
    };
    query: {
        /**
         * Where to store the body.
         */
        path: string;
        /**
         * Replace an existing file (default false: 409 when it exists).
         */
        overwrite?: boolean;
    };
    url: '/api/v1/sessions/{id}/files/upload';
};

export type UploadErrors = {
    409: ErrorBody;
    413: ErrorBody;
    /**
     * the session's workspace is over its storage quota
     */
    507: ErrorBody;
};

export type UploadError = UploadErrors[keyof UploadErrors];

export type UploadResponses = {
    201: FileEntry;
};

export type UploadResponse = UploadResponses[keyof UploadResponses];

export type WatchData = {
    body?: never;
    path: {
        id: string;
    };
    query?: {
        /**
         * A path in the sandbox; relative ones start at the workspace (default: the workspace).
         */
        path?: string;
    };
    url: '/api/v1/sessions/{id}/files/watch';
};

export type WatchErrors = {
    404: ErrorBody;
    /**
     * too many open file watches
     */
    429: ErrorBody;
};

export type WatchError = WatchErrors[keyof WatchErrors];

export type WatchResponses = {
    /**
     * `text/event-stream` of `file` events
     */
    200: string;
};

export type WatchResponse = WatchResponses[keyof WatchResponses];

export type PostMessageData = {
    body: NewMessage;
    path: {
        id: string;
    };
    query?: never;
    url: '/api/v1/sessions/{id}/messages';
};

export type PostMessageErrors = {
    404: ErrorBody;
    413: ErrorBody;
    /**
     * an empty message, or a bad attachment path
     */
    422: ErrorBody;
};

export type PostMessageError = PostMessageErrors[keyof PostMessageErrors];

export type PostMessageResponses = {
    201: StoredEvent;
};

export type PostMessageResponse = PostMessageResponses[keyof PostMessageResponses];

export type NotebookData = {
    body?: never;
    path: {
        id: string;
    };
    query?: never;
    url: '/api/v1/sessions/{id}/notebook';
};

export type NotebookErrors = {
    404: ErrorBody;
};

export type NotebookError = NotebookErrors[keyof NotebookErrors];

export type NotebookResponses = {
    /**
     * the notebook
     */
    200: {
        [key: string]: unknown;
    };
};

export type NotebookResponse = NotebookResponses[keyof NotebookResponses];

export type MarkReadData = {
    body?: never;
    path: {
        id: string;
    };
    query?: never;
    url: '/api/v1/sessions/{id}/read';
};

export type MarkReadErrors = {
    404: ErrorBody;
};

export type MarkReadError = MarkReadErrors[keyof MarkReadErrors];

export type MarkReadResponses = {
    200: SessionView;
};

export type MarkReadResponse = MarkReadResponses[keyof MarkReadResponses];

export type RegisteredToolsData = {
    body?: never;
    path: {
        id: string;
    };
    query?: never;
    url: '/api/v1/sessions/{id}/registered-tools';
};

export type RegisteredToolsErrors = {
    /**
     * no such chat of yours
     */
    404: ErrorBody;
};

export type RegisteredToolsError = RegisteredToolsErrors[keyof RegisteredToolsErrors];

export type RegisteredToolsResponses = {
    200: Array<RegisteredServerView>;
};

export type RegisteredToolsResponse = RegisteredToolsResponses[keyof RegisteredToolsResponses];

export type ImageData = {
    body?: never;
    path: {
        id: string;
        image: string;
    };
    query?: never;
    url: '/api/v1/sessions/{id}/screenshots/{image}';
};

export type ImageErrors = {
    404: ErrorBody;
};

export type ImageError = ImageErrors[keyof ImageErrors];

export type ImageResponses = {
    /**
     * the image (JPEG, PNG or SVG)
     */
    200: Array<number>;
};

export type ImageResponse = ImageResponses[keyof ImageResponses];

export type UnshareData = {
    body?: never;
    path: {
        id: string;
    };
    query?: never;
    url: '/api/v1/sessions/{id}/share';
};

export type UnshareErrors = {
    404: ErrorBody;
};

export type UnshareError = UnshareErrors[keyof UnshareErrors];

export type UnshareResponses = {
    200: SessionView;
};

export type UnshareResponse = UnshareResponses[keyof UnshareResponses];

export type ShareData = {
    /**
     * optional: without it, the link works until revoked
     */
    body?: null | ShareRequest;
    path: {
        id: string;
    };
    query?: never;
    url: '/api/v1/sessions/{id}/share';
};

export type ShareErrors = {
    404: ErrorBody;
    /**
     * an expiry out of range (`field`: `expires_in_secs`), or not a number of seconds
     */
    422: ErrorBody;
};

export type ShareError = ShareErrors[keyof ShareErrors];

export type ShareResponses = {
    200: SessionView;
};

export type ShareResponse = ShareResponses[keyof ShareResponses];

export type StopData = {
    body?: never;
    path: {
        id: string;
    };
    query?: never;
    url: '/api/v1/sessions/{id}/stop';
};

export type StopErrors = {
    404: ErrorBody;
};

export type StopError = StopErrors[keyof StopErrors];

export type StopResponses = {
    200: SessionView;
};

export type StopResponse = StopResponses[keyof StopResponses];

export type ConnectData = {
    body?: never;
    path: {
        id: string;
    };
    query?: {
        /**
         * A ticket from `POST /api/v1/sessions/{id}/terminal/tickets`.
         */
        ticket?: string | null;
        /**
         * Columns, 1–1000 (default 80).
         */
        cols?: number | null;
        /**
         * Rows, 1–1000 (default 24).
         */
        rows?: number | null;
    };
    url: '/api/v1/sessions/{id}/terminal';
};

export type ConnectErrors = {
    400: ErrorBody;
    401: ErrorBody;
    403: ErrorBody;
    404: ErrorBody;
    422: ErrorBody;
    503: ErrorBody;
};

export type ConnectError = ConnectErrors[keyof ConnectErrors];

export type IssueTicketData = {
    body?: never;
    path: {
        id: string;
    };
    query?: never;
    url: '/api/v1/sessions/{id}/terminal/tickets';
};

export type IssueTicketErrors = {
    404: ErrorBody;
};

export type IssueTicketError = IssueTicketErrors[keyof IssueTicketErrors];

export type IssueTicketResponses = {
    201: TerminalTicketView;
};

export type IssueTicketResponse = IssueTicketResponses[keyof IssueTicketResponses];

export type Connect2Data = {
    body?: never;
    path: {
        id: string;
    };
    query?: {
        /**
         * A ticket from the matching `…/tickets` route.
         */
        ticket?: string | null;
    };
    url: '/api/v1/sessions/{id}/vnc';
};

export type Connect2Errors = {
    400: ErrorBody;
    401: ErrorBody;
    403: ErrorBody;
    404: ErrorBody;
    503: ErrorBody;
};

export type Connect2Error = Connect2Errors[keyof Connect2Errors];

export type IssueTicket2Data = {
    body: TicketRequest;
    path: {
        id: string;
    };
    query?: never;
    url: '/api/v1/sessions/{id}/vnc/tickets';
};

export type IssueTicket2Errors = {
    404: ErrorBody;
    422: ErrorBody;
};

export type IssueTicket2Error = IssueTicket2Errors[keyof IssueTicket2Errors];

export type IssueTicket2Responses = {
    201: TicketView;
};

export type IssueTicket2Response = IssueTicket2Responses[keyof IssueTicket2Responses];

export type SharedData = {
    body?: never;
    path: {
        token: string;
    };
    query?: never;
    url: '/api/v1/shared/{token}';
};

export type SharedErrors = {
    /**
     * no such link, or revoked
     */
    404: ErrorBody;
    /**
     * the link has expired
     */
    410: ErrorBody;
};

export type SharedError = SharedErrors[keyof SharedErrors];

export type SharedResponses = {
    200: SharedSessionView;
};

export type SharedResponse = SharedResponses[keyof SharedResponses];

export type SharedEventsData = {
    body?: never;
    path: {
        token: string;
    };
    query?: {
        /**
         * Events with a sequence number above this (default 0: from the start).
         */
        after?: number;
        /**
         * 1–1000, default 1000.
         */
        limit?: number | null;
    };
    url: '/api/v1/shared/{token}/events';
};

export type SharedEventsErrors = {
    /**
     * no such link, or revoked
     */
    404: ErrorBody;
    /**
     * the link has expired
     */
    410: ErrorBody;
};

export type SharedEventsError = SharedEventsErrors[keyof SharedEventsErrors];

export type SharedEventsResponses = {
    200: Array<SharedEvent>;
};

export type SharedEventsResponse = SharedEventsResponses[keyof SharedEventsResponses];

export type SharedImageData = {
    body?: never;
    path: {
        token: string;
        image: string;
    };
    query?: never;
    url: '/api/v1/shared/{token}/screenshots/{image}';
};

export type SharedImageErrors = {
    404: ErrorBody;
    /**
     * the link has expired
     */
    410: ErrorBody;
};

export type SharedImageError = SharedImageErrors[keyof SharedImageErrors];

export type SharedImageResponses = {
    /**
     * the image (JPEG, PNG or SVG)
     */
    200: Array<number>;
};

export type SharedImageResponse = SharedImageResponses[keyof SharedImageResponses];

export type ListToolboxData = {
    body?: never;
    path?: never;
    query?: {
        /**
         * Every person's kept tools (admins only), to read and publish.
         */
        everyone?: boolean;
    };
    url: '/api/v1/toolbox';
};

export type ListToolboxErrors = {
    /**
     * `everyone` asked for by someone not an admin
     */
    403: ErrorBody;
};

export type ListToolboxError = ListToolboxErrors[keyof ListToolboxErrors];

export type ListToolboxResponses = {
    200: Array<KeptToolView>;
};

export type ListToolboxResponse = ListToolboxResponses[keyof ListToolboxResponses];

export type KeepToolData = {
    body: KeepTool;
    path?: never;
    query?: never;
    url: '/api/v1/toolbox';
};

export type KeepToolErrors = {
    /**
     * no such chat of yours, or no tool of that name registered in it
     */
    404: ErrorBody;
    /**
     * a tool of that name was kept at the same time (keep it again to replace it)
     */
    409: ErrorBody;
    /**
     * its files are more than a kept tool may hold
     */
    413: ErrorBody;
    /**
     * a bad name, a command naming no file in the sandbox's home, a file that is not text, or a full tool box
     */
    422: ErrorBody;
};

export type KeepToolError = KeepToolErrors[keyof KeepToolErrors];

export type KeepToolResponses = {
    201: KeptToolView;
};

export type KeepToolResponse = KeepToolResponses[keyof KeepToolResponses];

export type DeleteKeptToolData = {
    body?: never;
    path: {
        id: string;
    };
    query?: never;
    url: '/api/v1/toolbox/{id}';
};

export type DeleteKeptToolErrors = {
    /**
     * none of your kept tools has this id
     */
    404: ErrorBody;
};

export type DeleteKeptToolError = DeleteKeptToolErrors[keyof DeleteKeptToolErrors];

export type DeleteKeptToolResponses = {
    204: void;
};

export type DeleteKeptToolResponse = DeleteKeptToolResponses[keyof DeleteKeptToolResponses];

export type GetKeptToolData = {
    body?: never;
    path: {
        id: string;
    };
    query?: never;
    url: '/api/v1/toolbox/{id}';
};

export type GetKeptToolErrors = {
    /**
     * none of your kept tools has this id
     */
    404: ErrorBody;
};

export type GetKeptToolError = GetKeptToolErrors[keyof GetKeptToolErrors];

export type GetKeptToolResponses = {
    200: KeptToolView;
};

export type GetKeptToolResponse = GetKeptToolResponses[keyof GetKeptToolResponses];

export type SetKeptToolData = {
    body: KeptToolSettings;
    path: {
        id: string;
    };
    query?: never;
    url: '/api/v1/toolbox/{id}';
};

export type SetKeptToolErrors = {
    /**
     * none of your kept tools has this id
     */
    404: ErrorBody;
    /**
     * `enabled` is missing or not a boolean
     */
    422: ErrorBody;
};

export type SetKeptToolError = SetKeptToolErrors[keyof SetKeptToolErrors];

export type SetKeptToolResponses = {
    200: KeptToolView;
};

export type SetKeptToolResponse = SetKeptToolResponses[keyof SetKeptToolResponses];

export type UnpublishKeptToolData = {
    body?: never;
    path: {
        id: string;
    };
    query?: never;
    url: '/api/v1/toolbox/{id}/publish';
};

export type UnpublishKeptToolErrors = {
    /**
     * not an admin
     */
    403: ErrorBody;
    /**
     * no kept tool has this id
     */
    404: ErrorBody;
};

export type UnpublishKeptToolError = UnpublishKeptToolErrors[keyof UnpublishKeptToolErrors];

export type UnpublishKeptToolResponses = {
    200: KeptToolView;
};

export type UnpublishKeptToolResponse = UnpublishKeptToolResponses[keyof UnpublishKeptToolResponses];

export type PublishKeptToolData = {
    body: PublishTool;
    path: {
        id: string;
    };
    query?: never;
    url: '/api/v1/toolbox/{id}/publish';
};

export type PublishKeptToolErrors = {
    /**
     * not an admin
     */
    403: ErrorBody;
    /**
     * no kept tool has this id
     */
    404: ErrorBody;
    /**
     * its owner kept it anew after the code you read: read it again
     */
    409: ErrorBody;
    /**
     * `kept_at` is missing or not a time
     */
    422: ErrorBody;
};

export type PublishKeptToolError = PublishKeptToolErrors[keyof PublishKeptToolErrors];

export type PublishKeptToolResponses = {
    200: KeptToolView;
};

export type PublishKeptToolResponse = PublishKeptToolResponses[keyof PublishKeptToolResponses];

export type List7Data = {
    body?: never;
    path?: never;
    query?: {
        offset?: number;
        /**
         * 1–200, default 50.
         */
        limit?: number | null;
    };
    url: '/api/v1/users';
};

export type List7Errors = {
    403: ErrorBody;
};

export type List7Error = List7Errors[keyof List7Errors];

export type List7Responses = {
    200: Array<UserView>;
};

export type List7Response = List7Responses[keyof List7Responses];

export type ActivateData = {
    body?: never;
    path: {
        id: string;
    };
    query?: never;
    url: '/api/v1/users/{id}/activate';
};

export type ActivateErrors = {
    403: ErrorBody;
    404: ErrorBody;
};

export type ActivateError = ActivateErrors[keyof ActivateErrors];

export type ActivateResponses = {
    200: UserView;
};

export type ActivateResponse = ActivateResponses[keyof ActivateResponses];

export type DeactivateData = {
    body?: never;
    path: {
        id: string;
    };
    query?: never;
    url: '/api/v1/users/{id}/deactivate';
};

export type DeactivateErrors = {
    403: ErrorBody;
    404: ErrorBody;
};

export type DeactivateError = DeactivateErrors[keyof DeactivateErrors];

export type DeactivateResponses = {
    200: UserView;
};

export type DeactivateResponse = DeactivateResponses[keyof DeactivateResponses];

export type HealthData = {
    body?: never;
    path?: never;
    query?: never;
    url: '/health';
};

export type HealthResponses = {
    200: Health;
};

export type HealthResponse = HealthResponses[keyof HealthResponses];

export type MetricsTextData = {
    body?: never;
    path?: never;
    query?: never;
    url: '/metrics';
};

export type MetricsTextResponses = {
    200: string;
};

export type MetricsTextResponse = MetricsTextResponses[keyof MetricsTextResponses];

export type ReadyData = {
    body?: never;
    path?: never;
    query?: never;
    url: '/ready';
};

export type ReadyErrors = {
    503: Readiness;
};

export type ReadyError = ReadyErrors[keyof ReadyErrors];

export type ReadyResponses = {
    200: Readiness;
};

export type ReadyResponse = ReadyResponses[keyof ReadyResponses];
