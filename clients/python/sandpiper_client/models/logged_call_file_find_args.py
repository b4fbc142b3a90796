# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="LoggedCallFileFindArgs")


@_attrs_define
class LoggedCallFileFindArgs:
    """Find files under `path` whose path relative to it matches `glob` (e.g. `**/*.rs`).

    Attributes:
        glob (str):
        path (str):
        max_results (int | None | Unset):
        modified_since_ms (int | None | Unset): Only files (no folders) last modified at or after this time, in
            milliseconds
            since the Unix epoch: what a piece of work created or changed.
        skip_hidden (bool | Unset): Leaves out names starting with `.` and does not look inside such folders (caches,
            tool state), which can hold more files than the scan limit.
    """

    glob: str
    path: str
    max_results: int | None | Unset = UNSET
    modified_since_ms: int | None | Unset = UNSET
    skip_hidden: bool | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        glob = self.glob

        path = self.path

        max_results: int | None | Unset
        if isinstance(self.max_results, Unset):
            max_results = UNSET
        else:
            max_results = self.max_results

        modified_since_ms: int | None | Unset
        if isinstance(self.modified_since_ms, Unset):
            modified_since_ms = UNSET
        else:
            modified_since_ms = self.modified_since_ms

        skip_hidden = self.skip_hidden

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "glob": glob,
                "path": path,
            }
        )
        if max_results is not UNSET:
            field_dict["max_results"] = max_results
        if modified_since_ms is not UNSET:
            field_dict["modified_since_ms"] = modified_since_ms
        if skip_hidden is not UNSET:
            field_dict["skip_hidden"] = skip_hidden

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        glob = d.pop("glob")

        path = d.pop("path")

        def _parse_max_results(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        max_results = _parse_max_results(d.pop("max_results", UNSET))

        def _parse_modified_since_ms(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        modified_since_ms = _parse_modified_since_ms(d.pop("modified_since_ms", UNSET))

        skip_hidden = d.pop("skip_hidden", UNSET)

        logged_call_file_find_args = cls(
            glob=glob,
            path=path,
            max_results=max_results,
            modified_since_ms=modified_since_ms,
            skip_hidden=skip_hidden,
        )

        logged_call_file_find_args.additional_properties = d
        return logged_call_file_find_args

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
