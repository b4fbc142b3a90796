# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.tool_view_matches_kind import ToolViewMatchesKind

if TYPE_CHECKING:
    from ..models.search_match import SearchMatch


T = TypeVar("T", bound="ToolViewMatches")


@_attrs_define
class ToolViewMatches:
    """The lines that matched a pattern, each with its file and line (`file_search`).

    Attributes:
        files_scanned (int):
        kind (ToolViewMatchesKind):
        matches (list[SearchMatch]):
        truncated (bool):
    """

    files_scanned: int
    kind: ToolViewMatchesKind
    matches: list[SearchMatch]
    truncated: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        files_scanned = self.files_scanned

        kind = self.kind.value

        matches = []
        for matches_item_data in self.matches:
            matches_item = matches_item_data.to_dict()
            matches.append(matches_item)

        truncated = self.truncated

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "files_scanned": files_scanned,
                "kind": kind,
                "matches": matches,
                "truncated": truncated,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.search_match import SearchMatch  # noqa: PLC0415

        d = dict(src_dict)
        files_scanned = d.pop("files_scanned")

        kind = ToolViewMatchesKind(d.pop("kind"))

        matches = []
        _matches = d.pop("matches")
        for matches_item_data in _matches:
            matches_item = SearchMatch.from_dict(matches_item_data)

            matches.append(matches_item)

        truncated = d.pop("truncated")

        tool_view_matches = cls(
            files_scanned=files_scanned,
            kind=kind,
            matches=matches,
            truncated=truncated,
        )

        tool_view_matches.additional_properties = d
        return tool_view_matches

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
