# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.memory_action import MemoryAction
from ..models.tool_view_memory_kind import ToolViewMemoryKind
from ..types import UNSET, Unset

T = TypeVar("T", bound="ToolViewMemory")


@_attrs_define
class ToolViewMemory:
    """A note the agent wrote to the person's memory (`memory`).

    Attributes:
        action (MemoryAction): What a `memory` call does to the person's notes.
        kind (ToolViewMemoryKind):
        notes (int): The notes the memory holds afterwards.
        text (str): The note as kept (add, replace); empty for remove.
        old (None | str | Unset): The part of the note's text that named the one replaced or removed.
        pending (bool | Unset): Written after the chat read content from outside: no chat gets it until the
            person approves it on the Memory page. Absent: kept at once.
    """

    action: MemoryAction
    kind: ToolViewMemoryKind
    notes: int
    text: str
    old: None | str | Unset = UNSET
    pending: bool | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        action = self.action.value

        kind = self.kind.value

        notes = self.notes

        text = self.text

        old: None | str | Unset
        if isinstance(self.old, Unset):
            old = UNSET
        else:
            old = self.old

        pending = self.pending

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "action": action,
                "kind": kind,
                "notes": notes,
                "text": text,
            }
        )
        if old is not UNSET:
            field_dict["old"] = old
        if pending is not UNSET:
            field_dict["pending"] = pending

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        action = MemoryAction(d.pop("action"))

        kind = ToolViewMemoryKind(d.pop("kind"))

        notes = d.pop("notes")

        text = d.pop("text")

        def _parse_old(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        old = _parse_old(d.pop("old", UNSET))

        pending = d.pop("pending", UNSET)

        tool_view_memory = cls(
            action=action,
            kind=kind,
            notes=notes,
            text=text,
            old=old,
            pending=pending,
        )

        tool_view_memory.additional_properties = d
        return tool_view_memory

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
