# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="NewAttachment")


@_attrs_define
class NewAttachment:
    """A file sent with a job, unchecked.

    Attributes:
        content_base64 (str): The file's content, base64 (standard alphabet, padded).
        name (str): A plain file name (no `/`, `\\\\` or `..`); stored as `uploads/<name>`.
    """

    content_base64: str
    name: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        content_base64 = self.content_base64

        name = self.name

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "content_base64": content_base64,
                "name": name,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        content_base64 = d.pop("content_base64")

        name = d.pop("name")

        new_attachment = cls(
            content_base64=content_base64,
            name=name,
        )

        new_attachment.additional_properties = d
        return new_attachment

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
