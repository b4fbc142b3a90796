# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="KeepTool")


@_attrs_define
class KeepTool:
    """
    Attributes:
        name (str): The name it was registered under (`tool_register`'s `name`).
        session_id (str): The chat the agent registered the tool in.
    """

    name: str
    session_id: str

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        session_id = self.session_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "session_id": session_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        session_id = d.pop("session_id")

        keep_tool = cls(
            name=name,
            session_id=session_id,
        )

        return keep_tool
