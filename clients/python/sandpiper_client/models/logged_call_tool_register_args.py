# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.logged_call_tool_register_args_test_type_1 import LoggedCallToolRegisterArgsTestType1


T = TypeVar("T", bound="LoggedCallToolRegisterArgs")


@_attrs_define
class LoggedCallToolRegisterArgs:
    """
    Attributes:
        command (str): The program that starts the server, e.g. "python3" or "node".
        name (str): 1 to 32 letters, digits, '-' or '_' (no '__'): its tools are offered as
            mcp__<name>__<tool>.
        args (list[str] | Unset): Its arguments, e.g. ["tools/server.py"] (relative to the workspace).
        test (LoggedCallToolRegisterArgsTestType1 | None | Unset): A call made once it lists its tools: the server is
            registered only if it succeeds.
    """

    command: str
    name: str
    args: list[str] | Unset = UNSET
    test: LoggedCallToolRegisterArgsTestType1 | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.logged_call_tool_register_args_test_type_1 import LoggedCallToolRegisterArgsTestType1  # noqa: PLC0415

        command = self.command

        name = self.name

        args: list[str] | Unset = UNSET
        if not isinstance(self.args, Unset):
            args = self.args

        test: dict[str, Any] | None | Unset
        if isinstance(self.test, Unset):
            test = UNSET
        elif isinstance(self.test, LoggedCallToolRegisterArgsTestType1):
            test = self.test.to_dict()
        else:
            test = self.test

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "command": command,
                "name": name,
            }
        )
        if args is not UNSET:
            field_dict["args"] = args
        if test is not UNSET:
            field_dict["test"] = test

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.logged_call_tool_register_args_test_type_1 import LoggedCallToolRegisterArgsTestType1  # noqa: PLC0415

        d = dict(src_dict)
        command = d.pop("command")

        name = d.pop("name")

        args = cast(list[str], d.pop("args", UNSET))

        def _parse_test(data: object) -> LoggedCallToolRegisterArgsTestType1 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                test_type_1 = LoggedCallToolRegisterArgsTestType1.from_dict(data)

                return test_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(LoggedCallToolRegisterArgsTestType1 | None | Unset, data)

        test = _parse_test(d.pop("test", UNSET))

        logged_call_tool_register_args = cls(
            command=command,
            name=name,
            args=args,
            test=test,
        )

        return logged_call_tool_register_args
