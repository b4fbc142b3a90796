# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="LoggedCallBrowserInputArgs")


@_attrs_define
class LoggedCallBrowserInputArgs:
    """
    Attributes:
        index (int):
        text (str):
        append (bool | Unset): Append to what is there instead of replacing it.
        press_enter (bool | Unset): Press Enter afterwards.
    """

    index: int
    text: str
    append: bool | Unset = UNSET
    press_enter: bool | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        index = self.index

        text = self.text

        append = self.append

        press_enter = self.press_enter

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "index": index,
                "text": text,
            }
        )
        if append is not UNSET:
            field_dict["append"] = append
        if press_enter is not UNSET:
            field_dict["press_enter"] = press_enter

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        index = d.pop("index")

        text = d.pop("text")

        append = d.pop("append", UNSET)

        press_enter = d.pop("press_enter", UNSET)

        logged_call_browser_input_args = cls(
            index=index,
            text=text,
            append=append,
            press_enter=press_enter,
        )

        logged_call_browser_input_args.additional_properties = d
        return logged_call_browser_input_args

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
