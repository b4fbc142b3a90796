# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.tool_view_file_kind import ToolViewFileKind
from ..types import UNSET, Unset

T = TypeVar("T", bound="ToolViewFile")


@_attrs_define
class ToolViewFile:
    """A file read or written (`content`), or edited (`old` replaced by `new`).

    Attributes:
        kind (ToolViewFileKind):
        path (str):
        content (None | str | Unset):
        new (None | str | Unset):
        old (None | str | Unset):
    """

    kind: ToolViewFileKind
    path: str
    content: None | str | Unset = UNSET
    new: None | str | Unset = UNSET
    old: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        kind = self.kind.value

        path = self.path

        content: None | str | Unset
        if isinstance(self.content, Unset):
            content = UNSET
        else:
            content = self.content

        new: None | str | Unset
        if isinstance(self.new, Unset):
            new = UNSET
        else:
            new = self.new

        old: None | str | Unset
        if isinstance(self.old, Unset):
            old = UNSET
        else:
            old = self.old

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "kind": kind,
                "path": path,
            }
        )
        if content is not UNSET:
            field_dict["content"] = content
        if new is not UNSET:
            field_dict["new"] = new
        if old is not UNSET:
            field_dict["old"] = old

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        kind = ToolViewFileKind(d.pop("kind"))

        path = d.pop("path")

        def _parse_content(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        content = _parse_content(d.pop("content", UNSET))

        def _parse_new(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        new = _parse_new(d.pop("new", UNSET))

        def _parse_old(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        old = _parse_old(d.pop("old", UNSET))

        tool_view_file = cls(
            kind=kind,
            path=path,
            content=content,
            new=new,
            old=old,
        )

        tool_view_file.additional_properties = d
        return tool_view_file

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
