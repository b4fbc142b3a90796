# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="LoggedCallMessageAskUserArgs")


@_attrs_define
class LoggedCallMessageAskUserArgs:
    """
    Attributes:
        question (str):
        take_over (bool | Unset): Whether the person should use the desktop themselves (e.g. to sign in).
    """

    question: str
    take_over: bool | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        question = self.question

        take_over = self.take_over

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "question": question,
            }
        )
        if take_over is not UNSET:
            field_dict["take_over"] = take_over

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        question = d.pop("question")

        take_over = d.pop("take_over", UNSET)

        logged_call_message_ask_user_args = cls(
            question=question,
            take_over=take_over,
        )

        logged_call_message_ask_user_args.additional_properties = d
        return logged_call_message_ask_user_args

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
