# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.registered_tool import RegisteredTool


T = TypeVar("T", bound="ToolRegistration")


@_attrs_define
class ToolRegistration:
    """An MCP server the agent registered: its name, how it is started, and the tools it
    offered with the test call's result — or why it was not registered (`error`).

        Attributes:
            args (list[str]):
            command (str):
            server (str):
            tools (list[RegisteredTool]):
            error (None | str | Unset):
            test (None | str | Unset):
    """

    args: list[str]
    command: str
    server: str
    tools: list[RegisteredTool]
    error: None | str | Unset = UNSET
    test: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        args = self.args

        command = self.command

        server = self.server

        tools = []
        for tools_item_data in self.tools:
            tools_item = tools_item_data.to_dict()
            tools.append(tools_item)

        error: None | str | Unset
        if isinstance(self.error, Unset):
            error = UNSET
        else:
            error = self.error

        test: None | str | Unset
        if isinstance(self.test, Unset):
            test = UNSET
        else:
            test = self.test

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "args": args,
                "command": command,
                "server": server,
                "tools": tools,
            }
        )
        if error is not UNSET:
            field_dict["error"] = error
        if test is not UNSET:
            field_dict["test"] = test

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.registered_tool import RegisteredTool  # noqa: PLC0415

        d = dict(src_dict)
        args = cast(list[str], d.pop("args"))

        command = d.pop("command")

        server = d.pop("server")

        tools = []
        _tools = d.pop("tools")
        for tools_item_data in _tools:
            tools_item = RegisteredTool.from_dict(tools_item_data)

            tools.append(tools_item)

        def _parse_error(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        error = _parse_error(d.pop("error", UNSET))

        def _parse_test(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        test = _parse_test(d.pop("test", UNSET))

        tool_registration = cls(
            args=args,
            command=command,
            server=server,
            tools=tools,
            error=error,
            test=test,
        )

        tool_registration.additional_properties = d
        return tool_registration

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
