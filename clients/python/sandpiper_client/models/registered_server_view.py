# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.kept_tool_tool_view import KeptToolToolView


T = TypeVar("T", bound="RegisteredServerView")


@_attrs_define
class RegisteredServerView:
    """A server the agent registered in a chat, for its Tools tab.

    Attributes:
        args (list[str]):
        command (str):
        name (str):
        registered_at (datetime.datetime):
        sources (list[str]): The words of the command that may name its source files, as written (relative
            ones start at the workspace).
        tools (list[KeptToolToolView]):
        kept_id (None | str | Unset): Your kept tool of this name, if you keep one.
    """

    args: list[str]
    command: str
    name: str
    registered_at: datetime.datetime
    sources: list[str]
    tools: list[KeptToolToolView]
    kept_id: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        args = self.args

        command = self.command

        name = self.name

        registered_at = self.registered_at.isoformat()

        sources = self.sources

        tools = []
        for tools_item_data in self.tools:
            tools_item = tools_item_data.to_dict()
            tools.append(tools_item)

        kept_id: None | str | Unset
        if isinstance(self.kept_id, Unset):
            kept_id = UNSET
        else:
            kept_id = self.kept_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "args": args,
                "command": command,
                "name": name,
                "registered_at": registered_at,
                "sources": sources,
                "tools": tools,
            }
        )
        if kept_id is not UNSET:
            field_dict["kept_id"] = kept_id

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.kept_tool_tool_view import KeptToolToolView  # noqa: PLC0415

        d = dict(src_dict)
        args = cast(list[str], d.pop("args"))

        command = d.pop("command")

        name = d.pop("name")

        registered_at = datetime.datetime.fromisoformat(d.pop("registered_at"))

        sources = cast(list[str], d.pop("sources"))

        tools = []
        _tools = d.pop("tools")
        for tools_item_data in _tools:
            tools_item = KeptToolToolView.from_dict(tools_item_data)

            tools.append(tools_item)

        def _parse_kept_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        kept_id = _parse_kept_id(d.pop("kept_id", UNSET))

        registered_server_view = cls(
            args=args,
            command=command,
            name=name,
            registered_at=registered_at,
            sources=sources,
            tools=tools,
            kept_id=kept_id,
        )

        registered_server_view.additional_properties = d
        return registered_server_view

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
