# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.mcp_transport_kind import McpTransportKind
from ..types import UNSET, Unset

T = TypeVar("T", bound="McpServerView")


@_attrs_define
class McpServerView:
    """An MCP server as an admin sees it: its configuration with the names of its headers
    and environment variables, never their values.

        Attributes:
            created_at (datetime.datetime):
            enabled (bool):
            name (str):
            transport (McpTransportKind): How a server is reached: `http` (Streamable HTTP) or `stdio` (a command).
            updated_at (datetime.datetime):
            args (list[str] | None | Unset):
            command (None | str | Unset): `stdio`: the program.
            env_names (list[str] | None | Unset): `stdio`: the environment variables set, by name.
            header_names (list[str] | None | Unset): `http`: the headers sent, by name.
            url (None | str | Unset): `http`: the address, as stored.
    """

    created_at: datetime.datetime
    enabled: bool
    name: str
    transport: McpTransportKind
    updated_at: datetime.datetime
    args: list[str] | None | Unset = UNSET
    command: None | str | Unset = UNSET
    env_names: list[str] | None | Unset = UNSET
    header_names: list[str] | None | Unset = UNSET
    url: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        enabled = self.enabled

        name = self.name

        transport = self.transport.value

        updated_at = self.updated_at.isoformat()

        args: list[str] | None | Unset
        if isinstance(self.args, Unset):
            args = UNSET
        elif isinstance(self.args, list):
            args = self.args

        else:
            args = self.args

        command: None | str | Unset
        if isinstance(self.command, Unset):
            command = UNSET
        else:
            command = self.command

        env_names: list[str] | None | Unset
        if isinstance(self.env_names, Unset):
            env_names = UNSET
        elif isinstance(self.env_names, list):
            env_names = self.env_names

        else:
            env_names = self.env_names

        header_names: list[str] | None | Unset
        if isinstance(self.header_names, Unset):
            header_names = UNSET
        elif isinstance(self.header_names, list):
            header_names = self.header_names

        else:
            header_names = self.header_names

        url: None | str | Unset
        if isinstance(self.url, Unset):
            url = UNSET
        else:
            url = self.url

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "created_at": created_at,
                "enabled": enabled,
                "name": name,
                "transport": transport,
                "updated_at": updated_at,
            }
        )
        if args is not UNSET:
            field_dict["args"] = args
        if command is not UNSET:
            field_dict["command"] = command
        if env_names is not UNSET:
            field_dict["env_names"] = env_names
        if header_names is not UNSET:
            field_dict["header_names"] = header_names
        if url is not UNSET:
            field_dict["url"] = url

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        enabled = d.pop("enabled")

        name = d.pop("name")

        transport = McpTransportKind(d.pop("transport"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        def _parse_args(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                args_type_0 = cast(list[str], data)

                return args_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        args = _parse_args(d.pop("args", UNSET))

        def _parse_command(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        command = _parse_command(d.pop("command", UNSET))

        def _parse_env_names(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                env_names_type_0 = cast(list[str], data)

                return env_names_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        env_names = _parse_env_names(d.pop("env_names", UNSET))

        def _parse_header_names(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                header_names_type_0 = cast(list[str], data)

                return header_names_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        header_names = _parse_header_names(d.pop("header_names", UNSET))

        def _parse_url(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        url = _parse_url(d.pop("url", UNSET))

        mcp_server_view = cls(
            created_at=created_at,
            enabled=enabled,
            name=name,
            transport=transport,
            updated_at=updated_at,
            args=args,
            command=command,
            env_names=env_names,
            header_names=header_names,
            url=url,
        )

        mcp_server_view.additional_properties = d
        return mcp_server_view

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
