# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.mcp_transport_kind import McpTransportKind
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.mcp_server_input_env_type_0 import McpServerInputEnvType0
    from ..models.mcp_server_input_headers_type_0 import McpServerInputHeadersType0


T = TypeVar("T", bound="McpServerInput")


@_attrs_define
class McpServerInput:
    """A server's fields as an admin sends them: all that are needed to add a server, only
    those that change to edit one. In `headers` and `env`, the keys given are the new set
    and a `null` value keeps the stored value of that key.

        Attributes:
            args (list[str] | None | Unset): `stdio`: its arguments (readable in the sandbox: no secrets).
            command (None | str | Unset): `stdio`: the program to start: a name, found in the sandbox's system directories,
                or an absolute path.
            enabled (bool | None | Unset): Whether runs get its tools; a new server is enabled unless this says otherwise.
            env (McpServerInputEnvType0 | None | Unset): `stdio`: must be empty (`{}`, which removes the variables a server
                stored
                earlier has): a stdio server runs in a person's sandbox, where its environment
                is readable, so it takes none.
            headers (McpServerInputHeadersType0 | None | Unset): `http`: headers sent with every request (e.g.
                `Authorization`).
            name (None | str | Unset): Adding only: 1 to 32 letters, digits, `-` or `_`, without `__`.
            transport (McpTransportKind | None | Unset):
            url (None | str | Unset): `http`: the server's `http://` or `https://` address.
    """

    args: list[str] | None | Unset = UNSET
    command: None | str | Unset = UNSET
    enabled: bool | None | Unset = UNSET
    env: McpServerInputEnvType0 | None | Unset = UNSET
    headers: McpServerInputHeadersType0 | None | Unset = UNSET
    name: None | str | Unset = UNSET
    transport: McpTransportKind | None | Unset = UNSET
    url: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.mcp_server_input_env_type_0 import McpServerInputEnvType0  # noqa: PLC0415
        from ..models.mcp_server_input_headers_type_0 import McpServerInputHeadersType0  # noqa: PLC0415

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

        enabled: bool | None | Unset
        if isinstance(self.enabled, Unset):
            enabled = UNSET
        else:
            enabled = self.enabled

        env: dict[str, Any] | None | Unset
        if isinstance(self.env, Unset):
            env = UNSET
        elif isinstance(self.env, McpServerInputEnvType0):
            env = self.env.to_dict()
        else:
            env = self.env

        headers: dict[str, Any] | None | Unset
        if isinstance(self.headers, Unset):
            headers = UNSET
        elif isinstance(self.headers, McpServerInputHeadersType0):
            headers = self.headers.to_dict()
        else:
            headers = self.headers

        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        transport: None | str | Unset
        if isinstance(self.transport, Unset):
            transport = UNSET
        elif isinstance(self.transport, McpTransportKind):
            transport = self.transport.value
        else:
            transport = self.transport

        url: None | str | Unset
        if isinstance(self.url, Unset):
            url = UNSET
        else:
            url = self.url

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if args is not UNSET:
            field_dict["args"] = args
        if command is not UNSET:
            field_dict["command"] = command
        if enabled is not UNSET:
            field_dict["enabled"] = enabled
        if env is not UNSET:
            field_dict["env"] = env
        if headers is not UNSET:
            field_dict["headers"] = headers
        if name is not UNSET:
            field_dict["name"] = name
        if transport is not UNSET:
            field_dict["transport"] = transport
        if url is not UNSET:
            field_dict["url"] = url

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.mcp_server_input_env_type_0 import McpServerInputEnvType0  # noqa: PLC0415
        from ..models.mcp_server_input_headers_type_0 import McpServerInputHeadersType0  # noqa: PLC0415

        d = dict(src_dict)

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

        def _parse_enabled(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        enabled = _parse_enabled(d.pop("enabled", UNSET))

        def _parse_env(data: object) -> McpServerInputEnvType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                env_type_0 = McpServerInputEnvType0.from_dict(data)

                return env_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(McpServerInputEnvType0 | None | Unset, data)

        env = _parse_env(d.pop("env", UNSET))

        def _parse_headers(data: object) -> McpServerInputHeadersType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                headers_type_0 = McpServerInputHeadersType0.from_dict(data)

                return headers_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(McpServerInputHeadersType0 | None | Unset, data)

        headers = _parse_headers(d.pop("headers", UNSET))

        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))

        def _parse_transport(data: object) -> McpTransportKind | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                transport_type_1 = McpTransportKind(data)

                return transport_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(McpTransportKind | None | Unset, data)

        transport = _parse_transport(d.pop("transport", UNSET))

        def _parse_url(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        url = _parse_url(d.pop("url", UNSET))

        mcp_server_input = cls(
            args=args,
            command=command,
            enabled=enabled,
            env=env,
            headers=headers,
            name=name,
            transport=transport,
            url=url,
        )

        return mcp_server_input
