# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="LoggedCallFileSearchArgs")


@_attrs_define
class LoggedCallFileSearchArgs:
    """Search file contents under `path` for a regular expression (Rust `regex` syntax).

    Attributes:
        path (str):
        regex (str):
        case_insensitive (bool | Unset):
        glob (None | str | Unset): Only files whose relative path matches this glob.
        max_results (int | None | Unset):
    """

    path: str
    regex: str
    case_insensitive: bool | Unset = UNSET
    glob: None | str | Unset = UNSET
    max_results: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        path = self.path

        regex = self.regex

        case_insensitive = self.case_insensitive

        glob: None | str | Unset
        if isinstance(self.glob, Unset):
            glob = UNSET
        else:
            glob = self.glob

        max_results: int | None | Unset
        if isinstance(self.max_results, Unset):
            max_results = UNSET
        else:
            max_results = self.max_results

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "path": path,
                "regex": regex,
            }
        )
        if case_insensitive is not UNSET:
            field_dict["case_insensitive"] = case_insensitive
        if glob is not UNSET:
            field_dict["glob"] = glob
        if max_results is not UNSET:
            field_dict["max_results"] = max_results

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        path = d.pop("path")

        regex = d.pop("regex")

        case_insensitive = d.pop("case_insensitive", UNSET)

        def _parse_glob(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        glob = _parse_glob(d.pop("glob", UNSET))

        def _parse_max_results(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        max_results = _parse_max_results(d.pop("max_results", UNSET))

        logged_call_file_search_args = cls(
            path=path,
            regex=regex,
            case_insensitive=case_insensitive,
            glob=glob,
            max_results=max_results,
        )

        logged_call_file_search_args.additional_properties = d
        return logged_call_file_search_args

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
