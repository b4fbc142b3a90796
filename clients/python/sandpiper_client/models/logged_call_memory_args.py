# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.logged_call_memory_args_action import LoggedCallMemoryArgsAction
from ..types import UNSET, Unset

T = TypeVar("T", bound="LoggedCallMemoryArgs")


@_attrs_define
class LoggedCallMemoryArgs:
    """The `memory` tool's arguments, as the model writes them.

    Attributes:
        action (LoggedCallMemoryArgsAction): What a `memory` call does to the person's notes.
        old (None | str | Unset): replace, remove: a part of the note's text that no other note has.
        text (str | Unset): The note (add) or its new text (replace): one short fact, never a secret.
    """

    action: LoggedCallMemoryArgsAction
    old: None | str | Unset = UNSET
    text: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        action = self.action.value

        old: None | str | Unset
        if isinstance(self.old, Unset):
            old = UNSET
        else:
            old = self.old

        text = self.text

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "action": action,
            }
        )
        if old is not UNSET:
            field_dict["old"] = old
        if text is not UNSET:
            field_dict["text"] = text

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        action = LoggedCallMemoryArgsAction(d.pop("action"))

        def _parse_old(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        old = _parse_old(d.pop("old", UNSET))

        text = d.pop("text", UNSET)

        logged_call_memory_args = cls(
            action=action,
            old=old,
            text=text,
        )

        return logged_call_memory_args
