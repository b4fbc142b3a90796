# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.tool_view_search_kind import ToolViewSearchKind

if TYPE_CHECKING:
    from ..models.web_search_result import WebSearchResult


T = TypeVar("T", bound="ToolViewSearch")


@_attrs_define
class ToolViewSearch:
    """Web search results.

    Attributes:
        kind (ToolViewSearchKind):
        results (list[WebSearchResult]):
    """

    kind: ToolViewSearchKind
    results: list[WebSearchResult]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        kind = self.kind.value

        results = []
        for results_item_data in self.results:
            results_item = results_item_data.to_dict()
            results.append(results_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "kind": kind,
                "results": results,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.web_search_result import WebSearchResult  # noqa: PLC0415

        d = dict(src_dict)
        kind = ToolViewSearchKind(d.pop("kind"))

        results = []
        _results = d.pop("results")
        for results_item_data in _results:
            results_item = WebSearchResult.from_dict(results_item_data)

            results.append(results_item)

        tool_view_search = cls(
            kind=kind,
            results=results,
        )

        tool_view_search.additional_properties = d
        return tool_view_search

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
