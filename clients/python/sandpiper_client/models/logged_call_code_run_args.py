# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.logged_call_code_run_args_language import LoggedCallCodeRunArgsLanguage
from ..types import UNSET, Unset

T = TypeVar("T", bound="LoggedCallCodeRunArgs")


@_attrs_define
class LoggedCallCodeRunArgs:
    """
    Attributes:
        code (str):
        language (LoggedCallCodeRunArgsLanguage | Unset):
        timeout_secs (float | None | Unset): How long the cell may run before it is interrupted (default 60 s, capped by
            the
            server).
    """

    code: str
    language: LoggedCallCodeRunArgsLanguage | Unset = UNSET
    timeout_secs: float | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        code = self.code

        language: str | Unset = UNSET
        if not isinstance(self.language, Unset):
            language = self.language.value

        timeout_secs: float | None | Unset
        if isinstance(self.timeout_secs, Unset):
            timeout_secs = UNSET
        else:
            timeout_secs = self.timeout_secs

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "code": code,
            }
        )
        if language is not UNSET:
            field_dict["language"] = language
        if timeout_secs is not UNSET:
            field_dict["timeout_secs"] = timeout_secs

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        code = d.pop("code")

        _language = d.pop("language", UNSET)
        language: LoggedCallCodeRunArgsLanguage | Unset
        if isinstance(_language, Unset):
            language = UNSET
        else:
            language = LoggedCallCodeRunArgsLanguage(_language)

        def _parse_timeout_secs(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        timeout_secs = _parse_timeout_secs(d.pop("timeout_secs", UNSET))

        logged_call_code_run_args = cls(
            code=code,
            language=language,
            timeout_secs=timeout_secs,
        )

        logged_call_code_run_args.additional_properties = d
        return logged_call_code_run_args

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
