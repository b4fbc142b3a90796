# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.tool_view_fetched_kind import ToolViewFetchedKind
from ..types import UNSET, Unset

T = TypeVar("T", bound="ToolViewFetched")


@_attrs_define
class ToolViewFetched:
    """A web page fetched as text (`web_fetch`).

    Attributes:
        kind (ToolViewFetchedKind):
        status (int):
        text (str): The page as markdown-like text (HTML converted; plain text and JSON as they are).
        truncated (bool):
        url (str): The URL after redirects.
        content_type (None | str | Unset):
        title (None | str | Unset):
    """

    kind: ToolViewFetchedKind
    status: int
    text: str
    truncated: bool
    url: str
    content_type: None | str | Unset = UNSET
    title: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        kind = self.kind.value

        status = self.status

        text = self.text

        truncated = self.truncated

        url = self.url

        content_type: None | str | Unset
        if isinstance(self.content_type, Unset):
            content_type = UNSET
        else:
            content_type = self.content_type

        title: None | str | Unset
        if isinstance(self.title, Unset):
            title = UNSET
        else:
            title = self.title

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "kind": kind,
                "status": status,
                "text": text,
                "truncated": truncated,
                "url": url,
            }
        )
        if content_type is not UNSET:
            field_dict["content_type"] = content_type
        if title is not UNSET:
            field_dict["title"] = title

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        kind = ToolViewFetchedKind(d.pop("kind"))

        status = d.pop("status")

        text = d.pop("text")

        truncated = d.pop("truncated")

        url = d.pop("url")

        def _parse_content_type(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        content_type = _parse_content_type(d.pop("content_type", UNSET))

        def _parse_title(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        title = _parse_title(d.pop("title", UNSET))

        tool_view_fetched = cls(
            kind=kind,
            status=status,
            text=text,
            truncated=truncated,
            url=url,
            content_type=content_type,
            title=title,
        )

        tool_view_fetched.additional_properties = d
        return tool_view_fetched

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
