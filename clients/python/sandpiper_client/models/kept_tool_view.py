# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.kept_file_view import KeptFileView
    from ..models.kept_tool_tool_view import KeptToolToolView


T = TypeVar("T", bound="KeptToolView")


@_attrs_define
class KeptToolView:
    """A kept tool: what starts it, the tools it offers, its files.

    Attributes:
        args (list[str]):
        command (str):
        enabled (bool): Whether the owner's later chats get it.
        files (list[KeptFileView]): Its files, where they were in the sandbox (and are written again in each chat
            that gets it); with their text when one kept tool is asked for.
        from_session (str): The chat it was kept from.
        id (str):
        kept_at (datetime.datetime):
        name (str): The server's name: its tools are `mcp__<name>__<tool>`.
        owner (str): The user who kept it.
        published (bool): Whether an admin published it: every person's chats get it.
        tools (list[KeptToolToolView]):
    """

    args: list[str]
    command: str
    enabled: bool
    files: list[KeptFileView]
    from_session: str
    id: str
    kept_at: datetime.datetime
    name: str
    owner: str
    published: bool
    tools: list[KeptToolToolView]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        args = self.args

        command = self.command

        enabled = self.enabled

        files = []
        for files_item_data in self.files:
            files_item = files_item_data.to_dict()
            files.append(files_item)

        from_session = self.from_session

        id = self.id

        kept_at = self.kept_at.isoformat()

        name = self.name

        owner = self.owner

        published = self.published

        tools = []
        for tools_item_data in self.tools:
            tools_item = tools_item_data.to_dict()
            tools.append(tools_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "args": args,
                "command": command,
                "enabled": enabled,
                "files": files,
                "from_session": from_session,
                "id": id,
                "kept_at": kept_at,
                "name": name,
                "owner": owner,
                "published": published,
                "tools": tools,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.kept_file_view import KeptFileView  # noqa: PLC0415
        from ..models.kept_tool_tool_view import KeptToolToolView  # noqa: PLC0415

        d = dict(src_dict)
        args = cast(list[str], d.pop("args"))

        command = d.pop("command")

        enabled = d.pop("enabled")

        files = []
        _files = d.pop("files")
        for files_item_data in _files:
            files_item = KeptFileView.from_dict(files_item_data)

            files.append(files_item)

        from_session = d.pop("from_session")

        id = d.pop("id")

        kept_at = datetime.datetime.fromisoformat(d.pop("kept_at"))

        name = d.pop("name")

        owner = d.pop("owner")

        published = d.pop("published")

        tools = []
        _tools = d.pop("tools")
        for tools_item_data in _tools:
            tools_item = KeptToolToolView.from_dict(tools_item_data)

            tools.append(tools_item)

        kept_tool_view = cls(
            args=args,
            command=command,
            enabled=enabled,
            files=files,
            from_session=from_session,
            id=id,
            kept_at=kept_at,
            name=name,
            owner=owner,
            published=published,
            tools=tools,
        )

        kept_tool_view.additional_properties = d
        return kept_tool_view

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
