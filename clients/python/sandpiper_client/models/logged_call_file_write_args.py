# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="LoggedCallFileWriteArgs")


@_attrs_define
class LoggedCallFileWriteArgs:
    """Write a file. Parents are created. Without `append` the file is replaced atomically
    (written to a temporary file beside it, then renamed over it).

        Attributes:
            content (str):
            path (str):
            append (bool | Unset):
    """

    content: str
    path: str
    append: bool | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        content = self.content

        path = self.path

        append = self.append

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "content": content,
                "path": path,
            }
        )
        if append is not UNSET:
            field_dict["append"] = append

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        content = d.pop("content")

        path = d.pop("path")

        append = d.pop("append", UNSET)

        logged_call_file_write_args = cls(
            content=content,
            path=path,
            append=append,
        )

        logged_call_file_write_args.additional_properties = d
        return logged_call_file_write_args

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
