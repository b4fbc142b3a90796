# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="LoggedCallFileReadArgs")


@_attrs_define
class LoggedCallFileReadArgs:
    """Read a text file, whole or a 1-based inclusive line range, up to `max_bytes`.

    Attributes:
        path (str):
        end_line (int | None | Unset): Last line to return (inclusive). Defaults to the end of the file.
        max_bytes (int | None | Unset): Cap on the returned content in bytes; the server also applies its own cap.
        start_line (int | None | Unset): First line to return (1-based). Defaults to 1.
    """

    path: str
    end_line: int | None | Unset = UNSET
    max_bytes: int | None | Unset = UNSET
    start_line: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        path = self.path

        end_line: int | None | Unset
        if isinstance(self.end_line, Unset):
            end_line = UNSET
        else:
            end_line = self.end_line

        max_bytes: int | None | Unset
        if isinstance(self.max_bytes, Unset):
            max_bytes = UNSET
        else:
            max_bytes = self.max_bytes

        start_line: int | None | Unset
        if isinstance(self.start_line, Unset):
            start_line = UNSET
        else:
            start_line = self.start_line

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "path": path,
            }
        )
        if end_line is not UNSET:
            field_dict["end_line"] = end_line
        if max_bytes is not UNSET:
            field_dict["max_bytes"] = max_bytes
        if start_line is not UNSET:
            field_dict["start_line"] = start_line

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        path = d.pop("path")

        def _parse_end_line(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        end_line = _parse_end_line(d.pop("end_line", UNSET))

        def _parse_max_bytes(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        max_bytes = _parse_max_bytes(d.pop("max_bytes", UNSET))

        def _parse_start_line(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        start_line = _parse_start_line(d.pop("start_line", UNSET))

        logged_call_file_read_args = cls(
            path=path,
            end_line=end_line,
            max_bytes=max_bytes,
            start_line=start_line,
        )

        logged_call_file_read_args.additional_properties = d
        return logged_call_file_read_args

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
