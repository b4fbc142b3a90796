# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.logged_call_tool_register_args_test_type_1_arguments import (
        LoggedCallToolRegisterArgsTestType1Arguments,
    )


T = TypeVar("T", bound="LoggedCallToolRegisterArgsTestType1")


@_attrs_define
class LoggedCallToolRegisterArgsTestType1:
    """
    Attributes:
        tool (str): The tool's name on the server (not the mcp__ name).
        arguments (LoggedCallToolRegisterArgsTestType1Arguments | Unset):
    """

    tool: str
    arguments: LoggedCallToolRegisterArgsTestType1Arguments | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        tool = self.tool

        arguments: dict[str, Any] | Unset = UNSET
        if not isinstance(self.arguments, Unset):
            arguments = self.arguments.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "tool": tool,
            }
        )
        if arguments is not UNSET:
            field_dict["arguments"] = arguments

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.logged_call_tool_register_args_test_type_1_arguments import (
            LoggedCallToolRegisterArgsTestType1Arguments,  # noqa: PLC0415
        )

        d = dict(src_dict)
        tool = d.pop("tool")

        _arguments = d.pop("arguments", UNSET)
        arguments: LoggedCallToolRegisterArgsTestType1Arguments | Unset
        if isinstance(_arguments, Unset):
            arguments = UNSET
        else:
            arguments = LoggedCallToolRegisterArgsTestType1Arguments.from_dict(_arguments)

        logged_call_tool_register_args_test_type_1 = cls(
            tool=tool,
            arguments=arguments,
        )

        return logged_call_tool_register_args_test_type_1
