# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.tool_view_result_kind import ToolViewResultKind

if TYPE_CHECKING:
    from ..models.tool_view_result_result import ToolViewResultResult


T = TypeVar("T", bound="ToolViewResult")


@_attrs_define
class ToolViewResult:
    """An answer shown as it came: a tool whose answer has no view of its own, and views
    stored before their tool's answer was typed (or in a shape this version does not
    know).

        Attributes:
            kind (ToolViewResultKind):
            result (ToolViewResultResult):
    """

    kind: ToolViewResultKind
    result: ToolViewResultResult
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        kind = self.kind.value

        result = self.result.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "kind": kind,
                "result": result,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.tool_view_result_result import ToolViewResultResult  # noqa: PLC0415

        d = dict(src_dict)
        kind = ToolViewResultKind(d.pop("kind"))

        result = ToolViewResultResult.from_dict(d.pop("result"))

        tool_view_result = cls(
            kind=kind,
            result=result,
        )

        tool_view_result.additional_properties = d
        return tool_view_result

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
