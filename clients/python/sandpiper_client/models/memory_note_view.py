# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="MemoryNoteView")


@_attrs_define
class MemoryNoteView:
    """One note of a person's memory, with the chat that wrote it.

    Attributes:
        created_at (datetime.datetime):
        id (str):
        pending (bool): Written after its chat read content from outside (a page, a file, a tool's
            result): no chat gets it until you approve it.
        session_id (str): The session (chat) whose agent wrote the note.
        text (str):
        replaces (None | str | Unset): The note it takes the place of once approved.
    """

    created_at: datetime.datetime
    id: str
    pending: bool
    session_id: str
    text: str
    replaces: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        id = self.id

        pending = self.pending

        session_id = self.session_id

        text = self.text

        replaces: None | str | Unset
        if isinstance(self.replaces, Unset):
            replaces = UNSET
        else:
            replaces = self.replaces

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "created_at": created_at,
                "id": id,
                "pending": pending,
                "session_id": session_id,
                "text": text,
            }
        )
        if replaces is not UNSET:
            field_dict["replaces"] = replaces

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        id = d.pop("id")

        pending = d.pop("pending")

        session_id = d.pop("session_id")

        text = d.pop("text")

        def _parse_replaces(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        replaces = _parse_replaces(d.pop("replaces", UNSET))

        memory_note_view = cls(
            created_at=created_at,
            id=id,
            pending=pending,
            session_id=session_id,
            text=text,
            replaces=replaces,
        )

        memory_note_view.additional_properties = d
        return memory_note_view

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
