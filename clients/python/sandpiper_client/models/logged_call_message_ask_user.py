# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.logged_call_message_ask_user_name import LoggedCallMessageAskUserName

if TYPE_CHECKING:
    from ..models.logged_call_message_ask_user_args import LoggedCallMessageAskUserArgs


T = TypeVar("T", bound="LoggedCallMessageAskUser")


@_attrs_define
class LoggedCallMessageAskUser:
    """
    Attributes:
        args (LoggedCallMessageAskUserArgs):
        name (LoggedCallMessageAskUserName):
    """

    args: LoggedCallMessageAskUserArgs
    name: LoggedCallMessageAskUserName
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        args = self.args.to_dict()

        name = self.name.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "args": args,
                "name": name,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.logged_call_message_ask_user_args import LoggedCallMessageAskUserArgs  # noqa: PLC0415

        d = dict(src_dict)
        args = LoggedCallMessageAskUserArgs.from_dict(d.pop("args"))

        name = LoggedCallMessageAskUserName(d.pop("name"))

        logged_call_message_ask_user = cls(
            args=args,
            name=name,
        )

        logged_call_message_ask_user.additional_properties = d
        return logged_call_message_ask_user

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
