# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.command_state import CommandState
from ..models.tool_view_shell_kind import ToolViewShellKind
from ..types import UNSET, Unset

T = TypeVar("T", bound="ToolViewShell")


@_attrs_define
class ToolViewShell:
    """A shell command and its console output.

    Attributes:
        command (str):
        kind (ToolViewShellKind):
        output (str):
        state (CommandState):
        exit_code (int | None | Unset):
    """

    command: str
    kind: ToolViewShellKind
    output: str
    state: CommandState
    exit_code: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        command = self.command

        kind = self.kind.value

        output = self.output

        state = self.state.value

        exit_code: int | None | Unset
        if isinstance(self.exit_code, Unset):
            exit_code = UNSET
        else:
            exit_code = self.exit_code

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "command": command,
                "kind": kind,
                "output": output,
                "state": state,
            }
        )
        if exit_code is not UNSET:
            field_dict["exit_code"] = exit_code

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        command = d.pop("command")

        kind = ToolViewShellKind(d.pop("kind"))

        output = d.pop("output")

        state = CommandState(d.pop("state"))

        def _parse_exit_code(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        exit_code = _parse_exit_code(d.pop("exit_code", UNSET))

        tool_view_shell = cls(
            command=command,
            kind=kind,
            output=output,
            state=state,
            exit_code=exit_code,
        )

        tool_view_shell.additional_properties = d
        return tool_view_shell

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
