# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.logged_call_browser_scroll_args_direction import LoggedCallBrowserScrollArgsDirection
from ..types import UNSET, Unset

T = TypeVar("T", bound="LoggedCallBrowserScrollArgs")


@_attrs_define
class LoggedCallBrowserScrollArgs:
    """
    Attributes:
        direction (LoggedCallBrowserScrollArgsDirection | Unset):
        to_end (bool | Unset): Scroll all the way to the top or bottom instead of one screen.
    """

    direction: LoggedCallBrowserScrollArgsDirection | Unset = UNSET
    to_end: bool | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        direction: str | Unset = UNSET
        if not isinstance(self.direction, Unset):
            direction = self.direction.value

        to_end = self.to_end

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if direction is not UNSET:
            field_dict["direction"] = direction
        if to_end is not UNSET:
            field_dict["to_end"] = to_end

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        _direction = d.pop("direction", UNSET)
        direction: LoggedCallBrowserScrollArgsDirection | Unset
        if isinstance(_direction, Unset):
            direction = UNSET
        else:
            direction = LoggedCallBrowserScrollArgsDirection(_direction)

        to_end = d.pop("to_end", UNSET)

        logged_call_browser_scroll_args = cls(
            direction=direction,
            to_end=to_end,
        )

        logged_call_browser_scroll_args.additional_properties = d
        return logged_call_browser_scroll_args

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
