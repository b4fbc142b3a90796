# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.tool_view_evaluated_kind import ToolViewEvaluatedKind
from ..types import UNSET, Unset

T = TypeVar("T", bound="ToolViewEvaluated")


@_attrs_define
class ToolViewEvaluated:
    """What a script run in the page gave back, or what it threw
    (`browser_console_exec`).

        Attributes:
            kind (ToolViewEvaluatedKind):
            result (Any): The value, as JSON (`null` when it has no JSON form).
            exception (None | str | Unset): The exception text when the script threw.
    """

    kind: ToolViewEvaluatedKind
    result: Any
    exception: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        kind = self.kind.value

        result = self.result

        exception: None | str | Unset
        if isinstance(self.exception, Unset):
            exception = UNSET
        else:
            exception = self.exception

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "kind": kind,
                "result": result,
            }
        )
        if exception is not UNSET:
            field_dict["exception"] = exception

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        kind = ToolViewEvaluatedKind(d.pop("kind"))

        result = d.pop("result")

        def _parse_exception(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        exception = _parse_exception(d.pop("exception", UNSET))

        tool_view_evaluated = cls(
            kind=kind,
            result=result,
            exception=exception,
        )

        tool_view_evaluated.additional_properties = d
        return tool_view_evaluated

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
