# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.tool_view_found_kind import ToolViewFoundKind

T = TypeVar("T", bound="ToolViewFound")


@_attrs_define
class ToolViewFound:
    """The paths whose names matched a pattern (`file_find`).

    Attributes:
        kind (ToolViewFoundKind):
        matches (list[str]):
        truncated (bool): True when `max_results` or the scan limit stopped the search.
    """

    kind: ToolViewFoundKind
    matches: list[str]
    truncated: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        kind = self.kind.value

        matches = self.matches

        truncated = self.truncated

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "kind": kind,
                "matches": matches,
                "truncated": truncated,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        kind = ToolViewFoundKind(d.pop("kind"))

        matches = cast(list[str], d.pop("matches"))

        truncated = d.pop("truncated")

        tool_view_found = cls(
            kind=kind,
            matches=matches,
            truncated=truncated,
        )

        tool_view_found.additional_properties = d
        return tool_view_found

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
