# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.mcp_tool import McpTool


T = TypeVar("T", bound="McpServerStatus")


@_attrs_define
class McpServerStatus:
    """A server as a person sees it: where it is (without secrets), its tools, or why it
    offers none.

        Attributes:
            name (str):
            not_started (bool): A stdio server: it runs in each session's own sandbox, and the tools it lists
                there go to that session's runs only, never here.
            tools (list[McpTool]):
            transport (str): `http` or `stdio`.
            error (None | str | Unset): Why the server gives no tools now.
            url (None | str | Unset): The server's address without query or credentials (`http` only).
    """

    name: str
    not_started: bool
    tools: list[McpTool]
    transport: str
    error: None | str | Unset = UNSET
    url: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        not_started = self.not_started

        tools = []
        for tools_item_data in self.tools:
            tools_item = tools_item_data.to_dict()
            tools.append(tools_item)

        transport = self.transport

        error: None | str | Unset
        if isinstance(self.error, Unset):
            error = UNSET
        else:
            error = self.error

        url: None | str | Unset
        if isinstance(self.url, Unset):
            url = UNSET
        else:
            url = self.url

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "name": name,
                "not_started": not_started,
                "tools": tools,
                "transport": transport,
            }
        )
        if error is not UNSET:
            field_dict["error"] = error
        if url is not UNSET:
            field_dict["url"] = url

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.mcp_tool import McpTool  # noqa: PLC0415

        d = dict(src_dict)
        name = d.pop("name")

        not_started = d.pop("not_started")

        tools = []
        _tools = d.pop("tools")
        for tools_item_data in _tools:
            tools_item = McpTool.from_dict(tools_item_data)

            tools.append(tools_item)

        transport = d.pop("transport")

        def _parse_error(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        error = _parse_error(d.pop("error", UNSET))

        def _parse_url(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        url = _parse_url(d.pop("url", UNSET))

        mcp_server_status = cls(
            name=name,
            not_started=not_started,
            tools=tools,
            transport=transport,
            error=error,
            url=url,
        )

        mcp_server_status.additional_properties = d
        return mcp_server_status

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
