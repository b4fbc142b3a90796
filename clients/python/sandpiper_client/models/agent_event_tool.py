# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.agent_event_tool_type import AgentEventToolType
from ..models.tool_status import ToolStatus
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.tool_view_automation import ToolViewAutomation
    from ..models.tool_view_browser import ToolViewBrowser
    from ..models.tool_view_code import ToolViewCode
    from ..models.tool_view_console import ToolViewConsole
    from ..models.tool_view_delegation import ToolViewDelegation
    from ..models.tool_view_error import ToolViewError
    from ..models.tool_view_evaluated import ToolViewEvaluated
    from ..models.tool_view_fetched import ToolViewFetched
    from ..models.tool_view_file import ToolViewFile
    from ..models.tool_view_found import ToolViewFound
    from ..models.tool_view_kernel_restart import ToolViewKernelRestart
    from ..models.tool_view_listing import ToolViewListing
    from ..models.tool_view_matches import ToolViewMatches
    from ..models.tool_view_mcp import ToolViewMcp
    from ..models.tool_view_memory import ToolViewMemory
    from ..models.tool_view_result import ToolViewResult
    from ..models.tool_view_search import ToolViewSearch
    from ..models.tool_view_shell import ToolViewShell
    from ..models.tool_view_tool_register import ToolViewToolRegister


T = TypeVar("T", bound="AgentEventTool")


@_attrs_define
class AgentEventTool:
    """A tool call: `calling` when it starts, `called` with its view when it ends.

    Attributes:
        args (Any):
        call_id (str):
        name (str):
        status (ToolStatus):
        type_ (AgentEventToolType):
        view (None | ToolViewAutomation | ToolViewBrowser | ToolViewCode | ToolViewConsole | ToolViewDelegation |
            ToolViewError | ToolViewEvaluated | ToolViewFetched | ToolViewFile | ToolViewFound | ToolViewKernelRestart |
            ToolViewListing | ToolViewMatches | ToolViewMcp | ToolViewMemory | ToolViewResult | ToolViewSearch |
            ToolViewShell | ToolViewToolRegister | Unset):
    """

    args: Any
    call_id: str
    name: str
    status: ToolStatus
    type_: AgentEventToolType
    view: (
        None
        | ToolViewAutomation
        | ToolViewBrowser
        | ToolViewCode
        | ToolViewConsole
        | ToolViewDelegation
        | ToolViewError
        | ToolViewEvaluated
        | ToolViewFetched
        | ToolViewFile
        | ToolViewFound
        | ToolViewKernelRestart
        | ToolViewListing
        | ToolViewMatches
        | ToolViewMcp
        | ToolViewMemory
        | ToolViewResult
        | ToolViewSearch
        | ToolViewShell
        | ToolViewToolRegister
        | Unset
    ) = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.tool_view_automation import ToolViewAutomation  # noqa: PLC0415
        from ..models.tool_view_browser import ToolViewBrowser  # noqa: PLC0415
        from ..models.tool_view_code import ToolViewCode  # noqa: PLC0415
        from ..models.tool_view_console import ToolViewConsole  # noqa: PLC0415
        from ..models.tool_view_delegation import ToolViewDelegation  # noqa: PLC0415
        from ..models.tool_view_error import ToolViewError  # noqa: PLC0415
        from ..models.tool_view_evaluated import ToolViewEvaluated  # noqa: PLC0415
        from ..models.tool_view_fetched import ToolViewFetched  # noqa: PLC0415
        from ..models.tool_view_file import ToolViewFile  # noqa: PLC0415
        from ..models.tool_view_found import ToolViewFound  # noqa: PLC0415
        from ..models.tool_view_kernel_restart import ToolViewKernelRestart  # noqa: PLC0415
        from ..models.tool_view_listing import ToolViewListing  # noqa: PLC0415
        from ..models.tool_view_matches import ToolViewMatches  # noqa: PLC0415
        from ..models.tool_view_mcp import ToolViewMcp  # noqa: PLC0415
        from ..models.tool_view_memory import ToolViewMemory  # noqa: PLC0415
        from ..models.tool_view_result import ToolViewResult  # noqa: PLC0415
        from ..models.tool_view_search import ToolViewSearch  # noqa: PLC0415
        from ..models.tool_view_shell import ToolViewShell  # noqa: PLC0415
        from ..models.tool_view_tool_register import ToolViewToolRegister  # noqa: PLC0415

        args = self.args

        call_id = self.call_id

        name = self.name

        status = self.status.value

        type_ = self.type_.value

        view: dict[str, Any] | None | Unset
        if isinstance(self.view, Unset):
            view = UNSET
        elif isinstance(self.view, ToolViewShell):
            view = self.view.to_dict()
        elif isinstance(self.view, ToolViewFile):
            view = self.view.to_dict()
        elif isinstance(self.view, ToolViewBrowser):
            view = self.view.to_dict()
        elif isinstance(self.view, ToolViewSearch):
            view = self.view.to_dict()
        elif isinstance(self.view, ToolViewListing):
            view = self.view.to_dict()
        elif isinstance(self.view, ToolViewFound):
            view = self.view.to_dict()
        elif isinstance(self.view, ToolViewMatches):
            view = self.view.to_dict()
        elif isinstance(self.view, ToolViewEvaluated):
            view = self.view.to_dict()
        elif isinstance(self.view, ToolViewConsole):
            view = self.view.to_dict()
        elif isinstance(self.view, ToolViewKernelRestart):
            view = self.view.to_dict()
        elif isinstance(self.view, ToolViewFetched):
            view = self.view.to_dict()
        elif isinstance(self.view, ToolViewResult):
            view = self.view.to_dict()
        elif isinstance(self.view, ToolViewMcp):
            view = self.view.to_dict()
        elif isinstance(self.view, ToolViewCode):
            view = self.view.to_dict()
        elif isinstance(self.view, ToolViewDelegation):
            view = self.view.to_dict()
        elif isinstance(self.view, ToolViewToolRegister):
            view = self.view.to_dict()
        elif isinstance(self.view, ToolViewMemory):
            view = self.view.to_dict()
        elif isinstance(self.view, ToolViewAutomation):
            view = self.view.to_dict()
        elif isinstance(self.view, ToolViewError):
            view = self.view.to_dict()
        else:
            view = self.view

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "args": args,
                "call_id": call_id,
                "name": name,
                "status": status,
                "type": type_,
            }
        )
        if view is not UNSET:
            field_dict["view"] = view

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.tool_view_automation import ToolViewAutomation  # noqa: PLC0415
        from ..models.tool_view_browser import ToolViewBrowser  # noqa: PLC0415
        from ..models.tool_view_code import ToolViewCode  # noqa: PLC0415
        from ..models.tool_view_console import ToolViewConsole  # noqa: PLC0415
        from ..models.tool_view_delegation import ToolViewDelegation  # noqa: PLC0415
        from ..models.tool_view_error import ToolViewError  # noqa: PLC0415
        from ..models.tool_view_evaluated import ToolViewEvaluated  # noqa: PLC0415
        from ..models.tool_view_fetched import ToolViewFetched  # noqa: PLC0415
        from ..models.tool_view_file import ToolViewFile  # noqa: PLC0415
        from ..models.tool_view_found import ToolViewFound  # noqa: PLC0415
        from ..models.tool_view_kernel_restart import ToolViewKernelRestart  # noqa: PLC0415
        from ..models.tool_view_listing import ToolViewListing  # noqa: PLC0415
        from ..models.tool_view_matches import ToolViewMatches  # noqa: PLC0415
        from ..models.tool_view_mcp import ToolViewMcp  # noqa: PLC0415
        from ..models.tool_view_memory import ToolViewMemory  # noqa: PLC0415
        from ..models.tool_view_result import ToolViewResult  # noqa: PLC0415
        from ..models.tool_view_search import ToolViewSearch  # noqa: PLC0415
        from ..models.tool_view_shell import ToolViewShell  # noqa: PLC0415
        from ..models.tool_view_tool_register import ToolViewToolRegister  # noqa: PLC0415

        d = dict(src_dict)
        args = d.pop("args")

        call_id = d.pop("call_id")

        name = d.pop("name")

        status = ToolStatus(d.pop("status"))

        type_ = AgentEventToolType(d.pop("type"))

        def _parse_view(
            data: object,
        ) -> (
            None
            | ToolViewAutomation
            | ToolViewBrowser
            | ToolViewCode
            | ToolViewConsole
            | ToolViewDelegation
            | ToolViewError
            | ToolViewEvaluated
            | ToolViewFetched
            | ToolViewFile
            | ToolViewFound
            | ToolViewKernelRestart
            | ToolViewListing
            | ToolViewMatches
            | ToolViewMcp
            | ToolViewMemory
            | ToolViewResult
            | ToolViewSearch
            | ToolViewShell
            | ToolViewToolRegister
            | Unset
        ):
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_tool_view_type_0 = ToolViewShell.from_dict(data)

                return componentsschemas_tool_view_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_tool_view_type_1 = ToolViewFile.from_dict(data)

                return componentsschemas_tool_view_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_tool_view_type_2 = ToolViewBrowser.from_dict(data)

                return componentsschemas_tool_view_type_2
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_tool_view_type_3 = ToolViewSearch.from_dict(data)

                return componentsschemas_tool_view_type_3
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_tool_view_type_4 = ToolViewListing.from_dict(data)

                return componentsschemas_tool_view_type_4
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_tool_view_type_5 = ToolViewFound.from_dict(data)

                return componentsschemas_tool_view_type_5
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_tool_view_type_6 = ToolViewMatches.from_dict(data)

                return componentsschemas_tool_view_type_6
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_tool_view_type_7 = ToolViewEvaluated.from_dict(data)

                return componentsschemas_tool_view_type_7
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_tool_view_type_8 = ToolViewConsole.from_dict(data)

                return componentsschemas_tool_view_type_8
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_tool_view_type_9 = ToolViewKernelRestart.from_dict(data)

                return componentsschemas_tool_view_type_9
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_tool_view_type_10 = ToolViewFetched.from_dict(data)

                return componentsschemas_tool_view_type_10
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_tool_view_type_11 = ToolViewResult.from_dict(data)

                return componentsschemas_tool_view_type_11
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_tool_view_type_12 = ToolViewMcp.from_dict(data)

                return componentsschemas_tool_view_type_12
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_tool_view_type_13 = ToolViewCode.from_dict(data)

                return componentsschemas_tool_view_type_13
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_tool_view_type_14 = ToolViewDelegation.from_dict(data)

                return componentsschemas_tool_view_type_14
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_tool_view_type_15 = ToolViewToolRegister.from_dict(data)

                return componentsschemas_tool_view_type_15
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_tool_view_type_16 = ToolViewMemory.from_dict(data)

                return componentsschemas_tool_view_type_16
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_tool_view_type_17 = ToolViewAutomation.from_dict(data)

                return componentsschemas_tool_view_type_17
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_tool_view_type_18 = ToolViewError.from_dict(data)

                return componentsschemas_tool_view_type_18
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(
                None
                | ToolViewAutomation
                | ToolViewBrowser
                | ToolViewCode
                | ToolViewConsole
                | ToolViewDelegation
                | ToolViewError
                | ToolViewEvaluated
                | ToolViewFetched
                | ToolViewFile
                | ToolViewFound
                | ToolViewKernelRestart
                | ToolViewListing
                | ToolViewMatches
                | ToolViewMcp
                | ToolViewMemory
                | ToolViewResult
                | ToolViewSearch
                | ToolViewShell
                | ToolViewToolRegister
                | Unset,
                data,
            )

        view = _parse_view(d.pop("view", UNSET))

        agent_event_tool = cls(
            args=args,
            call_id=call_id,
            name=name,
            status=status,
            type_=type_,
            view=view,
        )

        agent_event_tool.additional_properties = d
        return agent_event_tool

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
