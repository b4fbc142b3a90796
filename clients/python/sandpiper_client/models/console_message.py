# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ConsoleMessage")


@_attrs_define
class ConsoleMessage:
    """
    Attributes:
        level (str): `log`, `info`, `warning`, `error`, `debug` or `exception`.
        text (str):
        timestamp_ms (int):
    """

    level: str
    text: str
    timestamp_ms: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        level = self.level

        text = self.text

        timestamp_ms = self.timestamp_ms

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "level": level,
                "text": text,
                "timestamp_ms": timestamp_ms,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        level = d.pop("level")

        text = d.pop("text")

        timestamp_ms = d.pop("timestamp_ms")

        console_message = cls(
            level=level,
            text=text,
            timestamp_ms=timestamp_ms,
        )

        console_message.additional_properties = d
        return console_message

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
