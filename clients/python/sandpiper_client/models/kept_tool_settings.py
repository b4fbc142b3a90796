# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="KeptToolSettings")


@_attrs_define
class KeptToolSettings:
    """
    Attributes:
        enabled (bool): Whether your later chats get it.
    """

    enabled: bool

    def to_dict(self) -> dict[str, Any]:
        enabled = self.enabled

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "enabled": enabled,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        enabled = d.pop("enabled")

        kept_tool_settings = cls(
            enabled=enabled,
        )

        return kept_tool_settings
