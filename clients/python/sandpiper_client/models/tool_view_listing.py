# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.tool_view_listing_kind import ToolViewListingKind

if TYPE_CHECKING:
    from ..models.file_entry import FileEntry


T = TypeVar("T", bound="ToolViewListing")


@_attrs_define
class ToolViewListing:
    """A folder's entries, folders first (`file_list`).

    Attributes:
        entries (list[FileEntry]):
        kind (ToolViewListingKind):
        path (str):
    """

    entries: list[FileEntry]
    kind: ToolViewListingKind
    path: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        entries = []
        for entries_item_data in self.entries:
            entries_item = entries_item_data.to_dict()
            entries.append(entries_item)

        kind = self.kind.value

        path = self.path

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "entries": entries,
                "kind": kind,
                "path": path,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.file_entry import FileEntry  # noqa: PLC0415

        d = dict(src_dict)
        entries = []
        _entries = d.pop("entries")
        for entries_item_data in _entries:
            entries_item = FileEntry.from_dict(entries_item_data)

            entries.append(entries_item)

        kind = ToolViewListingKind(d.pop("kind"))

        path = d.pop("path")

        tool_view_listing = cls(
            entries=entries,
            kind=kind,
            path=path,
        )

        tool_view_listing.additional_properties = d
        return tool_view_listing

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
