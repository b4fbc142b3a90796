// The backend's wire types under the names the app uses. They are generated from the
// API's OpenAPI document (src/api/generated, see scripts/api-types.sh); only what the
// document cannot describe (server-sent events' payloads outside it) is written here.

export type {
  AccessToken,
  AgentEvent,
  ApiKeyScope,
  ApiKeyView as ApiKey,
  AuthModeView,
  AutomationEdit,
  AutomationList,
  AutomationView as Automation,
  Preview as AutomationPreview,
  DesktopView,
  FileEntry,
  KeptFileView as KeptFile,
  KeptToolView as KeptTool,
  Listing,
  LoggedCall,
  McpItem,
  McpServerInput,
  McpServerStatus as McpServer,
  McpServerView as McpServerConfig,
  MemoryNoteView as MemoryNote,
  MemoryView as Memory,
  ModelList,
  ModelView as Model,
  NewApiKey,
  NewAutomation,
  NewInvite,
  NewTrigger,
  OwnedApiKeyView as OwnedApiKey,
  PlanStep,
  RegisteredServerView as RegisteredServer,
  RotatedSecret,
  RunList,
  RunStarted,
  RunView as AutomationRun,
  SessionMode,
  SessionPage,
  SessionStatus,
  SessionView as Session,
  SharedEvent,
  SharedSessionView as SharedSession,
  SignedIn,
  StepStatus,
  StoredEvent,
  TerminalTicketView as TerminalTicket,
  TicketView as VncTicket,
  ToolView,
  TriggerView as Trigger,
  UserView as User,
} from './generated'


/** A change under a watched folder, as the file watch stream sends it. */
export interface FileChange {
  kind: 'created' | 'modified' | 'removed'
  path: string
}
