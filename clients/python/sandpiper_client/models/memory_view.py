# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.memory_note_view import MemoryNoteView


T = TypeVar("T", bound="MemoryView")


@_attrs_define
class MemoryView:
    """A person's memory across chats: whether it is on, and their notes, oldest first.

    Attributes:
        enabled (bool): Off by default; while off, the agent keeps no notes and new chats get none.
        notes (list[MemoryNoteView]):
    """

    enabled: bool
    notes: list[MemoryNoteView]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        enabled = self.enabled

        notes = []
        for notes_item_data in self.notes:
            notes_item = notes_item_data.to_dict()
            notes.append(notes_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "enabled": enabled,
                "notes": notes,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.memory_note_view import MemoryNoteView  # noqa: PLC0415

        d = dict(src_dict)
        enabled = d.pop("enabled")

        notes = []
        _notes = d.pop("notes")
        for notes_item_data in _notes:
            notes_item = MemoryNoteView.from_dict(notes_item_data)

            notes.append(notes_item)

        memory_view = cls(
            enabled=enabled,
            notes=notes,
        )

        memory_view.additional_properties = d
        return memory_view

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
