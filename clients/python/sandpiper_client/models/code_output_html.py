# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.code_output_html_type import CodeOutputHtmlType

T = TypeVar("T", bound="CodeOutputHtml")


@_attrs_define
class CodeOutputHtml:
    """A table or other markup, sanitised (no scripts, styles or event handlers).

    Attributes:
        html (str):
        type_ (CodeOutputHtmlType):
    """

    html: str
    type_: CodeOutputHtmlType
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        html = self.html

        type_ = self.type_.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "html": html,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        html = d.pop("html")

        type_ = CodeOutputHtmlType(d.pop("type"))

        code_output_html = cls(
            html=html,
            type_=type_,
        )

        code_output_html.additional_properties = d
        return code_output_html

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
