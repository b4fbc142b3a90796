# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.file_kind import FileKind

T = TypeVar("T", bound="FileEntry")


@_attrs_define
class FileEntry:
    """One file or folder.

    Attributes:
        kind (FileKind):
        mtime_ms (int): Modification time, milliseconds since the Unix epoch.
        name (str):
        path (str): Absolute path inside the sandbox.
        size (int):
    """

    kind: FileKind
    mtime_ms: int
    name: str
    path: str
    size: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        kind = self.kind.value

        mtime_ms = self.mtime_ms

        name = self.name

        path = self.path

        size = self.size

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "kind": kind,
                "mtime_ms": mtime_ms,
                "name": name,
                "path": path,
                "size": size,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        kind = FileKind(d.pop("kind"))

        mtime_ms = d.pop("mtime_ms")

        name = d.pop("name")

        path = d.pop("path")

        size = d.pop("size")

        file_entry = cls(
            kind=kind,
            mtime_ms=mtime_ms,
            name=name,
            path=path,
            size=size,
        )

        file_entry.additional_properties = d
        return file_entry

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
