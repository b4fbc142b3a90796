# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.logged_call_shell_exec_args_env import LoggedCallShellExecArgsEnv


T = TypeVar("T", bound="LoggedCallShellExecArgs")


@_attrs_define
class LoggedCallShellExecArgs:
    """
    Attributes:
        command (str):
        cwd (None | str | Unset): Working directory; relative to the workspace when not absolute. Defaults to it.
        env (LoggedCallShellExecArgsEnv | Unset): Extra environment variables for this command.
        timeout_secs (float | None | Unset): How long to wait for the command before answering "still running" (default
            30 s,
            capped by the server).
    """

    command: str
    cwd: None | str | Unset = UNSET
    env: LoggedCallShellExecArgsEnv | Unset = UNSET
    timeout_secs: float | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        command = self.command

        cwd: None | str | Unset
        if isinstance(self.cwd, Unset):
            cwd = UNSET
        else:
            cwd = self.cwd

        env: dict[str, Any] | Unset = UNSET
        if not isinstance(self.env, Unset):
            env = self.env.to_dict()

        timeout_secs: float | None | Unset
        if isinstance(self.timeout_secs, Unset):
            timeout_secs = UNSET
        else:
            timeout_secs = self.timeout_secs

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "command": command,
            }
        )
        if cwd is not UNSET:
            field_dict["cwd"] = cwd
        if env is not UNSET:
            field_dict["env"] = env
        if timeout_secs is not UNSET:
            field_dict["timeout_secs"] = timeout_secs

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.logged_call_shell_exec_args_env import LoggedCallShellExecArgsEnv  # noqa: PLC0415

        d = dict(src_dict)
        command = d.pop("command")

        def _parse_cwd(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        cwd = _parse_cwd(d.pop("cwd", UNSET))

        _env = d.pop("env", UNSET)
        env: LoggedCallShellExecArgsEnv | Unset
        if isinstance(_env, Unset):
            env = UNSET
        else:
            env = LoggedCallShellExecArgsEnv.from_dict(_env)

        def _parse_timeout_secs(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        timeout_secs = _parse_timeout_secs(d.pop("timeout_secs", UNSET))

        logged_call_shell_exec_args = cls(
            command=command,
            cwd=cwd,
            env=env,
            timeout_secs=timeout_secs,
        )

        logged_call_shell_exec_args.additional_properties = d
        return logged_call_shell_exec_args

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
