# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="LoggedCallBrowserConsoleViewArgs")


@_attrs_define
class LoggedCallBrowserConsoleViewArgs:
    """The arguments of a tool that takes none."""

    def to_dict(self) -> dict[str, Any]:

        field_dict: dict[str, Any] = {}

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        logged_call_browser_console_view_args = cls()

        return logged_call_browser_console_view_args
