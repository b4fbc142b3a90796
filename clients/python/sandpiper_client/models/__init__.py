# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
"""Contains all the data models used in inputs/outputs"""

from .access_token import AccessToken
from .agent_event_delegated import AgentEventDelegated
from .agent_event_delegated_type import AgentEventDelegatedType
from .agent_event_done import AgentEventDone
from .agent_event_done_type import AgentEventDoneType
from .agent_event_error import AgentEventError
from .agent_event_error_type import AgentEventErrorType
from .agent_event_memory import AgentEventMemory
from .agent_event_memory_type import AgentEventMemoryType
from .agent_event_message import AgentEventMessage
from .agent_event_message_type import AgentEventMessageType
from .agent_event_plan import AgentEventPlan
from .agent_event_plan_type import AgentEventPlanType
from .agent_event_status import AgentEventStatus
from .agent_event_status_type import AgentEventStatusType
from .agent_event_step import AgentEventStep
from .agent_event_step_type import AgentEventStepType
from .agent_event_title import AgentEventTitle
from .agent_event_title_type import AgentEventTitleType
from .agent_event_tool import AgentEventTool
from .agent_event_tool_type import AgentEventToolType
from .agent_event_usage import AgentEventUsage
from .agent_event_usage_type import AgentEventUsageType
from .agent_event_wait import AgentEventWait
from .agent_event_wait_type import AgentEventWaitType
from .api_key_request import ApiKeyRequest
from .api_key_scope import ApiKeyScope
from .api_key_view import ApiKeyView
from .auth_mode_view import AuthModeView
from .automation_edit import AutomationEdit
from .automation_list import AutomationList
from .automation_made import AutomationMade
from .automation_view import AutomationView
from .chat_message import ChatMessage
from .chat_role import ChatRole
from .check import Check
from .code_cell import CodeCell
from .code_error import CodeError
from .code_language import CodeLanguage
from .code_output_html import CodeOutputHtml
from .code_output_html_type import CodeOutputHtmlType
from .code_output_image import CodeOutputImage
from .code_output_image_type import CodeOutputImageType
from .code_output_text import CodeOutputText
from .code_output_text_type import CodeOutputTextType
from .command_state import CommandState
from .console_log import ConsoleLog
from .console_message import ConsoleMessage
from .cookie_request import CookieRequest
from .created_job import CreatedJob
from .credentials import Credentials
from .delivery_answer import DeliveryAnswer
from .desktop_state import DesktopState
from .desktop_view import DesktopView
from .disk_health import DiskHealth
from .edit_session import EditSession
from .error_body import ErrorBody
from .error_detail import ErrorDetail
from .evaluate_response import EvaluateResponse
from .fetch_response import FetchResponse
from .file_entry import FileEntry
from .file_kind import FileKind
from .file_view import FileView
from .find_response import FindResponse
from .fired_by import FiredBy
from .health import Health
from .image_ref import ImageRef
from .invite_request import InviteRequest
from .job_detail import JobDetail
from .job_page import JobPage
from .job_status import JobStatus
from .job_view import JobView
from .keep_tool import KeepTool
from .kept_file_view import KeptFileView
from .kept_tool_settings import KeptToolSettings
from .kept_tool_tool_view import KeptToolToolView
from .kept_tool_view import KeptToolView
from .kernel_restarted import KernelRestarted
from .listing import Listing
from .logged_call_automation_create import LoggedCallAutomationCreate
from .logged_call_automation_create_args import LoggedCallAutomationCreateArgs
from .logged_call_automation_create_name import LoggedCallAutomationCreateName
from .logged_call_browser_click import LoggedCallBrowserClick
from .logged_call_browser_click_args import LoggedCallBrowserClickArgs
from .logged_call_browser_click_name import LoggedCallBrowserClickName
from .logged_call_browser_console_exec import LoggedCallBrowserConsoleExec
from .logged_call_browser_console_exec_args import LoggedCallBrowserConsoleExecArgs
from .logged_call_browser_console_exec_name import LoggedCallBrowserConsoleExecName
from .logged_call_browser_console_view import LoggedCallBrowserConsoleView
from .logged_call_browser_console_view_args import LoggedCallBrowserConsoleViewArgs
from .logged_call_browser_console_view_name import LoggedCallBrowserConsoleViewName
from .logged_call_browser_input import LoggedCallBrowserInput
from .logged_call_browser_input_args import LoggedCallBrowserInputArgs
from .logged_call_browser_input_name import LoggedCallBrowserInputName
from .logged_call_browser_move_mouse import LoggedCallBrowserMoveMouse
from .logged_call_browser_move_mouse_args import LoggedCallBrowserMoveMouseArgs
from .logged_call_browser_move_mouse_name import LoggedCallBrowserMoveMouseName
from .logged_call_browser_navigate import LoggedCallBrowserNavigate
from .logged_call_browser_navigate_args import LoggedCallBrowserNavigateArgs
from .logged_call_browser_navigate_name import LoggedCallBrowserNavigateName
from .logged_call_browser_press_key import LoggedCallBrowserPressKey
from .logged_call_browser_press_key_args import LoggedCallBrowserPressKeyArgs
from .logged_call_browser_press_key_name import LoggedCallBrowserPressKeyName
from .logged_call_browser_scroll import LoggedCallBrowserScroll
from .logged_call_browser_scroll_args import LoggedCallBrowserScrollArgs
from .logged_call_browser_scroll_args_direction import LoggedCallBrowserScrollArgsDirection
from .logged_call_browser_scroll_name import LoggedCallBrowserScrollName
from .logged_call_browser_select import LoggedCallBrowserSelect
from .logged_call_browser_select_args import LoggedCallBrowserSelectArgs
from .logged_call_browser_select_name import LoggedCallBrowserSelectName
from .logged_call_browser_view import LoggedCallBrowserView
from .logged_call_browser_view_args import LoggedCallBrowserViewArgs
from .logged_call_browser_view_name import LoggedCallBrowserViewName
from .logged_call_code_restart import LoggedCallCodeRestart
from .logged_call_code_restart_args import LoggedCallCodeRestartArgs
from .logged_call_code_restart_name import LoggedCallCodeRestartName
from .logged_call_code_run import LoggedCallCodeRun
from .logged_call_code_run_args import LoggedCallCodeRunArgs
from .logged_call_code_run_args_language import LoggedCallCodeRunArgsLanguage
from .logged_call_code_run_name import LoggedCallCodeRunName
from .logged_call_delegate import LoggedCallDelegate
from .logged_call_delegate_args import LoggedCallDelegateArgs
from .logged_call_delegate_name import LoggedCallDelegateName
from .logged_call_file_find import LoggedCallFileFind
from .logged_call_file_find_args import LoggedCallFileFindArgs
from .logged_call_file_find_name import LoggedCallFileFindName
from .logged_call_file_list import LoggedCallFileList
from .logged_call_file_list_args import LoggedCallFileListArgs
from .logged_call_file_list_name import LoggedCallFileListName
from .logged_call_file_read import LoggedCallFileRead
from .logged_call_file_read_args import LoggedCallFileReadArgs
from .logged_call_file_read_name import LoggedCallFileReadName
from .logged_call_file_replace import LoggedCallFileReplace
from .logged_call_file_replace_args import LoggedCallFileReplaceArgs
from .logged_call_file_replace_name import LoggedCallFileReplaceName
from .logged_call_file_search import LoggedCallFileSearch
from .logged_call_file_search_args import LoggedCallFileSearchArgs
from .logged_call_file_search_name import LoggedCallFileSearchName
from .logged_call_file_write import LoggedCallFileWrite
from .logged_call_file_write_args import LoggedCallFileWriteArgs
from .logged_call_file_write_name import LoggedCallFileWriteName
from .logged_call_memory import LoggedCallMemory
from .logged_call_memory_args import LoggedCallMemoryArgs
from .logged_call_memory_args_action import LoggedCallMemoryArgsAction
from .logged_call_memory_name import LoggedCallMemoryName
from .logged_call_message_ask_user import LoggedCallMessageAskUser
from .logged_call_message_ask_user_args import LoggedCallMessageAskUserArgs
from .logged_call_message_ask_user_name import LoggedCallMessageAskUserName
from .logged_call_message_notify_user import LoggedCallMessageNotifyUser
from .logged_call_message_notify_user_args import LoggedCallMessageNotifyUserArgs
from .logged_call_message_notify_user_name import LoggedCallMessageNotifyUserName
from .logged_call_plan_update import LoggedCallPlanUpdate
from .logged_call_plan_update_args import LoggedCallPlanUpdateArgs
from .logged_call_plan_update_args_steps_item import LoggedCallPlanUpdateArgsStepsItem
from .logged_call_plan_update_args_steps_item_status import LoggedCallPlanUpdateArgsStepsItemStatus
from .logged_call_plan_update_name import LoggedCallPlanUpdateName
from .logged_call_set_title import LoggedCallSetTitle
from .logged_call_set_title_args import LoggedCallSetTitleArgs
from .logged_call_set_title_name import LoggedCallSetTitleName
from .logged_call_shell_exec import LoggedCallShellExec
from .logged_call_shell_exec_args import LoggedCallShellExecArgs
from .logged_call_shell_exec_args_env import LoggedCallShellExecArgsEnv
from .logged_call_shell_exec_name import LoggedCallShellExecName
from .logged_call_shell_kill import LoggedCallShellKill
from .logged_call_shell_kill_args import LoggedCallShellKillArgs
from .logged_call_shell_kill_name import LoggedCallShellKillName
from .logged_call_shell_view import LoggedCallShellView
from .logged_call_shell_view_args import LoggedCallShellViewArgs
from .logged_call_shell_view_name import LoggedCallShellViewName
from .logged_call_shell_wait import LoggedCallShellWait
from .logged_call_shell_wait_args import LoggedCallShellWaitArgs
from .logged_call_shell_wait_name import LoggedCallShellWaitName
from .logged_call_shell_write_input import LoggedCallShellWriteInput
from .logged_call_shell_write_input_args import LoggedCallShellWriteInputArgs
from .logged_call_shell_write_input_name import LoggedCallShellWriteInputName
from .logged_call_step_update import LoggedCallStepUpdate
from .logged_call_step_update_args import LoggedCallStepUpdateArgs
from .logged_call_step_update_args_status import LoggedCallStepUpdateArgsStatus
from .logged_call_step_update_name import LoggedCallStepUpdateName
from .logged_call_tool_register import LoggedCallToolRegister
from .logged_call_tool_register_args import LoggedCallToolRegisterArgs
from .logged_call_tool_register_args_test_type_1 import LoggedCallToolRegisterArgsTestType1
from .logged_call_tool_register_args_test_type_1_arguments import LoggedCallToolRegisterArgsTestType1Arguments
from .logged_call_tool_register_name import LoggedCallToolRegisterName
from .logged_call_true import LoggedCallTrue
from .logged_call_true_args import LoggedCallTrueArgs
from .logged_call_web_fetch import LoggedCallWebFetch
from .logged_call_web_fetch_args import LoggedCallWebFetchArgs
from .logged_call_web_fetch_name import LoggedCallWebFetchName
from .logged_call_web_search import LoggedCallWebSearch
from .logged_call_web_search_args import LoggedCallWebSearchArgs
from .logged_call_web_search_name import LoggedCallWebSearchName
from .mcp_item_image import McpItemImage
from .mcp_item_image_type import McpItemImageType
from .mcp_item_resource import McpItemResource
from .mcp_item_resource_type import McpItemResourceType
from .mcp_item_text import McpItemText
from .mcp_item_text_type import McpItemTextType
from .mcp_server_input import McpServerInput
from .mcp_server_input_env_type_0 import McpServerInputEnvType0
from .mcp_server_input_headers_type_0 import McpServerInputHeadersType0
from .mcp_server_status import McpServerStatus
from .mcp_server_view import McpServerView
from .mcp_tool import McpTool
from .mcp_transport_kind import McpTransportKind
from .memory_action import MemoryAction
from .memory_change import MemoryChange
from .memory_note_edit import MemoryNoteEdit
from .memory_note_view import MemoryNoteView
from .memory_settings import MemorySettings
from .memory_view import MemoryView
from .message_role import MessageRole
from .missed_runs import MissedRuns
from .model_list import ModelList
from .model_usage import ModelUsage
from .model_view import ModelView
from .network import Network
from .new_api_key import NewApiKey
from .new_attachment import NewAttachment
from .new_automation import NewAutomation
from .new_invite import NewInvite
from .new_job_body import NewJobBody
from .new_message import NewMessage
from .new_session import NewSession
from .new_trigger_at import NewTriggerAt
from .new_trigger_at_type import NewTriggerAtType
from .new_trigger_schedule import NewTriggerSchedule
from .new_trigger_schedule_type import NewTriggerScheduleType
from .new_trigger_webhook import NewTriggerWebhook
from .new_trigger_webhook_type import NewTriggerWebhookType
from .notebook_response_200 import NotebookResponse200
from .owned_api_key_view import OwnedApiKeyView
from .password_change import PasswordChange
from .plan_step import PlanStep
from .preview import Preview
from .preview_request import PreviewRequest
from .prices import Prices
from .publish_tool import PublishTool
from .readiness import Readiness
from .registered_server_view import RegisteredServerView
from .registered_tool import RegisteredTool
from .registration import Registration
from .registration_mode import RegistrationMode
from .reply import Reply
from .role import Role
from .rotated_secret import RotatedSecret
from .run_list import RunList
from .run_started import RunStarted
from .run_view import RunView
from .search_match import SearchMatch
from .search_response import SearchResponse
from .session_mode import SessionMode
from .session_page import SessionPage
from .session_status import SessionStatus
from .session_view import SessionView
from .share_request import ShareRequest
from .shared_event import SharedEvent
from .shared_session_view import SharedSessionView
from .signed_in import SignedIn
from .step_status import StepStatus
from .stored_event import StoredEvent
from .terminal_ticket_view import TerminalTicketView
from .ticket_request import TicketRequest
from .ticket_view import TicketView
from .token_usage import TokenUsage
from .tool_call_request import ToolCallRequest
from .tool_registration import ToolRegistration
from .tool_status import ToolStatus
from .tool_view_automation import ToolViewAutomation
from .tool_view_automation_kind import ToolViewAutomationKind
from .tool_view_browser import ToolViewBrowser
from .tool_view_browser_kind import ToolViewBrowserKind
from .tool_view_code import ToolViewCode
from .tool_view_code_kind import ToolViewCodeKind
from .tool_view_console import ToolViewConsole
from .tool_view_console_kind import ToolViewConsoleKind
from .tool_view_delegation import ToolViewDelegation
from .tool_view_delegation_kind import ToolViewDelegationKind
from .tool_view_error import ToolViewError
from .tool_view_error_kind import ToolViewErrorKind
from .tool_view_evaluated import ToolViewEvaluated
from .tool_view_evaluated_kind import ToolViewEvaluatedKind
from .tool_view_fetched import ToolViewFetched
from .tool_view_fetched_kind import ToolViewFetchedKind
from .tool_view_file import ToolViewFile
from .tool_view_file_kind import ToolViewFileKind
from .tool_view_found import ToolViewFound
from .tool_view_found_kind import ToolViewFoundKind
from .tool_view_kernel_restart import ToolViewKernelRestart
from .tool_view_kernel_restart_kind import ToolViewKernelRestartKind
from .tool_view_listing import ToolViewListing
from .tool_view_listing_kind import ToolViewListingKind
from .tool_view_matches import ToolViewMatches
from .tool_view_matches_kind import ToolViewMatchesKind
from .tool_view_mcp import ToolViewMcp
from .tool_view_mcp_kind import ToolViewMcpKind
from .tool_view_memory import ToolViewMemory
from .tool_view_memory_kind import ToolViewMemoryKind
from .tool_view_result import ToolViewResult
from .tool_view_result_kind import ToolViewResultKind
from .tool_view_result_result import ToolViewResultResult
from .tool_view_search import ToolViewSearch
from .tool_view_search_kind import ToolViewSearchKind
from .tool_view_shell import ToolViewShell
from .tool_view_shell_kind import ToolViewShellKind
from .tool_view_tool_register import ToolViewToolRegister
from .tool_view_tool_register_kind import ToolViewToolRegisterKind
from .trigger_view import TriggerView
from .user_view import UserView
from .vnc_mode import VncMode
from .web_search_result import WebSearchResult

__all__ = (
    "AccessToken",
    "AgentEventDelegated",
    "AgentEventDelegatedType",
    "AgentEventDone",
    "AgentEventDoneType",
    "AgentEventError",
    "AgentEventErrorType",
    "AgentEventMemory",
    "AgentEventMemoryType",
    "AgentEventMessage",
    "AgentEventMessageType",
    "AgentEventPlan",
    "AgentEventPlanType",
    "AgentEventStatus",
    "AgentEventStatusType",
    "AgentEventStep",
    "AgentEventStepType",
    "AgentEventTitle",
    "AgentEventTitleType",
    "AgentEventTool",
    "AgentEventToolType",
    "AgentEventUsage",
    "AgentEventUsageType",
    "AgentEventWait",
    "AgentEventWaitType",
    "ApiKeyRequest",
    "ApiKeyScope",
    "ApiKeyView",
    "AuthModeView",
    "AutomationEdit",
    "AutomationList",
    "AutomationMade",
    "AutomationView",
    "ChatMessage",
    "ChatRole",
    "Check",
    "CodeCell",
    "CodeError",
    "CodeLanguage",
    "CodeOutputHtml",
    "CodeOutputHtmlType",
    "CodeOutputImage",
    "CodeOutputImageType",
    "CodeOutputText",
    "CodeOutputTextType",
    "CommandState",
    "ConsoleLog",
    "ConsoleMessage",
    "CookieRequest",
    "CreatedJob",
    "Credentials",
    "DeliveryAnswer",
    "DesktopState",
    "DesktopView",
    "DiskHealth",
    "EditSession",
    "ErrorBody",
    "ErrorDetail",
    "EvaluateResponse",
    "FetchResponse",
    "FileEntry",
    "FileKind",
    "FileView",
    "FindResponse",
    "FiredBy",
    "Health",
    "ImageRef",
    "InviteRequest",
    "JobDetail",
    "JobPage",
    "JobStatus",
    "JobView",
    "KeepTool",
    "KeptFileView",
    "KeptToolSettings",
    "KeptToolToolView",
    "KeptToolView",
    "KernelRestarted",
    "Listing",
    "LoggedCallAutomationCreate",
    "LoggedCallAutomationCreateArgs",
    "LoggedCallAutomationCreateName",
    "LoggedCallBrowserClick",
    "LoggedCallBrowserClickArgs",
    "LoggedCallBrowserClickName",
    "LoggedCallBrowserConsoleExec",
    "LoggedCallBrowserConsoleExecArgs",
    "LoggedCallBrowserConsoleExecName",
    "LoggedCallBrowserConsoleView",
    "LoggedCallBrowserConsoleViewArgs",
    "LoggedCallBrowserConsoleViewName",
    "LoggedCallBrowserInput",
    "LoggedCallBrowserInputArgs",
    "LoggedCallBrowserInputName",
    "LoggedCallBrowserMoveMouse",
    "LoggedCallBrowserMoveMouseArgs",
    "LoggedCallBrowserMoveMouseName",
    "LoggedCallBrowserNavigate",
    "LoggedCallBrowserNavigateArgs",
    "LoggedCallBrowserNavigateName",
    "LoggedCallBrowserPressKey",
    "LoggedCallBrowserPressKeyArgs",
    "LoggedCallBrowserPressKeyName",
    "LoggedCallBrowserScroll",
    "LoggedCallBrowserScrollArgs",
    "LoggedCallBrowserScrollArgsDirection",
    "LoggedCallBrowserScrollName",
    "LoggedCallBrowserSelect",
    "LoggedCallBrowserSelectArgs",
    "LoggedCallBrowserSelectName",
    "LoggedCallBrowserView",
    "LoggedCallBrowserViewArgs",
    "LoggedCallBrowserViewName",
    "LoggedCallCodeRestart",
    "LoggedCallCodeRestartArgs",
    "LoggedCallCodeRestartName",
    "LoggedCallCodeRun",
    "LoggedCallCodeRunArgs",
    "LoggedCallCodeRunArgsLanguage",
    "LoggedCallCodeRunName",
    "LoggedCallDelegate",
    "LoggedCallDelegateArgs",
    "LoggedCallDelegateName",
    "LoggedCallFileFind",
    "LoggedCallFileFindArgs",
    "LoggedCallFileFindName",
    "LoggedCallFileList",
    "LoggedCallFileListArgs",
    "LoggedCallFileListName",
    "LoggedCallFileRead",
    "LoggedCallFileReadArgs",
    "LoggedCallFileReadName",
    "LoggedCallFileReplace",
    "LoggedCallFileReplaceArgs",
    "LoggedCallFileReplaceName",
    "LoggedCallFileSearch",
    "LoggedCallFileSearchArgs",
    "LoggedCallFileSearchName",
    "LoggedCallFileWrite",
    "LoggedCallFileWriteArgs",
    "LoggedCallFileWriteName",
    "LoggedCallMemory",
    "LoggedCallMemoryArgs",
    "LoggedCallMemoryArgsAction",
    "LoggedCallMemoryName",
    "LoggedCallMessageAskUser",
    "LoggedCallMessageAskUserArgs",
    "LoggedCallMessageAskUserName",
    "LoggedCallMessageNotifyUser",
    "LoggedCallMessageNotifyUserArgs",
    "LoggedCallMessageNotifyUserName",
    "LoggedCallPlanUpdate",
    "LoggedCallPlanUpdateArgs",
    "LoggedCallPlanUpdateArgsStepsItem",
    "LoggedCallPlanUpdateArgsStepsItemStatus",
    "LoggedCallPlanUpdateName",
    "LoggedCallSetTitle",
    "LoggedCallSetTitleArgs",
    "LoggedCallSetTitleName",
    "LoggedCallShellExec",
    "LoggedCallShellExecArgs",
    "LoggedCallShellExecArgsEnv",
    "LoggedCallShellExecName",
    "LoggedCallShellKill",
    "LoggedCallShellKillArgs",
    "LoggedCallShellKillName",
    "LoggedCallShellView",
    "LoggedCallShellViewArgs",
    "LoggedCallShellViewName",
    "LoggedCallShellWait",
    "LoggedCallShellWaitArgs",
    "LoggedCallShellWaitName",
    "LoggedCallShellWriteInput",
    "LoggedCallShellWriteInputArgs",
    "LoggedCallShellWriteInputName",
    "LoggedCallStepUpdate",
    "LoggedCallStepUpdateArgs",
    "LoggedCallStepUpdateArgsStatus",
    "LoggedCallStepUpdateName",
    "LoggedCallToolRegister",
    "LoggedCallToolRegisterArgs",
    "LoggedCallToolRegisterArgsTestType1",
    "LoggedCallToolRegisterArgsTestType1Arguments",
    "LoggedCallToolRegisterName",
    "LoggedCallTrue",
    "LoggedCallTrueArgs",
    "LoggedCallWebFetch",
    "LoggedCallWebFetchArgs",
    "LoggedCallWebFetchName",
    "LoggedCallWebSearch",
    "LoggedCallWebSearchArgs",
    "LoggedCallWebSearchName",
    "McpItemImage",
    "McpItemImageType",
    "McpItemResource",
    "McpItemResourceType",
    "McpItemText",
    "McpItemTextType",
    "McpServerInput",
    "McpServerInputEnvType0",
    "McpServerInputHeadersType0",
    "McpServerStatus",
    "McpServerView",
    "McpTool",
    "McpTransportKind",
    "MemoryAction",
    "MemoryChange",
    "MemoryNoteEdit",
    "MemoryNoteView",
    "MemorySettings",
    "MemoryView",
    "MessageRole",
    "MissedRuns",
    "ModelList",
    "ModelUsage",
    "ModelView",
    "Network",
    "NewApiKey",
    "NewAttachment",
    "NewAutomation",
    "NewInvite",
    "NewJobBody",
    "NewMessage",
    "NewSession",
    "NewTriggerAt",
    "NewTriggerAtType",
    "NewTriggerSchedule",
    "NewTriggerScheduleType",
    "NewTriggerWebhook",
    "NewTriggerWebhookType",
    "NotebookResponse200",
    "OwnedApiKeyView",
    "PasswordChange",
    "PlanStep",
    "Preview",
    "PreviewRequest",
    "Prices",
    "PublishTool",
    "Readiness",
    "RegisteredServerView",
    "RegisteredTool",
    "Registration",
    "RegistrationMode",
    "Reply",
    "Role",
    "RotatedSecret",
    "RunList",
    "RunStarted",
    "RunView",
    "SearchMatch",
    "SearchResponse",
    "SessionMode",
    "SessionPage",
    "SessionStatus",
    "SessionView",
    "SharedEvent",
    "SharedSessionView",
    "ShareRequest",
    "SignedIn",
    "StepStatus",
    "StoredEvent",
    "TerminalTicketView",
    "TicketRequest",
    "TicketView",
    "TokenUsage",
    "ToolCallRequest",
    "ToolRegistration",
    "ToolStatus",
    "ToolViewAutomation",
    "ToolViewAutomationKind",
    "ToolViewBrowser",
    "ToolViewBrowserKind",
    "ToolViewCode",
    "ToolViewCodeKind",
    "ToolViewConsole",
    "ToolViewConsoleKind",
    "ToolViewDelegation",
    "ToolViewDelegationKind",
    "ToolViewError",
    "ToolViewErrorKind",
    "ToolViewEvaluated",
    "ToolViewEvaluatedKind",
    "ToolViewFetched",
    "ToolViewFetchedKind",
    "ToolViewFile",
    "ToolViewFileKind",
    "ToolViewFound",
    "ToolViewFoundKind",
    "ToolViewKernelRestart",
    "ToolViewKernelRestartKind",
    "ToolViewListing",
    "ToolViewListingKind",
    "ToolViewMatches",
    "ToolViewMatchesKind",
    "ToolViewMcp",
    "ToolViewMcpKind",
    "ToolViewMemory",
    "ToolViewMemoryKind",
    "ToolViewResult",
    "ToolViewResultKind",
    "ToolViewResultResult",
    "ToolViewSearch",
    "ToolViewSearchKind",
    "ToolViewShell",
    "ToolViewShellKind",
    "ToolViewToolRegister",
    "ToolViewToolRegisterKind",
    "TriggerView",
    "UserView",
    "VncMode",
    "WebSearchResult",
)
