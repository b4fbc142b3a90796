# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="ModelUsage")


@_attrs_define
class ModelUsage:
    """One model's share of a session's tokens, and what they cost when it has prices.

    Attributes:
        completion_tokens (int):
        model (str): The model's name.
        prompt_tokens (int):
        cost (float | None | Unset): In the prices' currency; absent when the model has no prices.
    """

    completion_tokens: int
    model: str
    prompt_tokens: int
    cost: float | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        completion_tokens = self.completion_tokens

        model = self.model

        prompt_tokens = self.prompt_tokens

        cost: float | None | Unset
        if isinstance(self.cost, Unset):
            cost = UNSET
        else:
            cost = self.cost

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "completion_tokens": completion_tokens,
                "model": model,
                "prompt_tokens": prompt_tokens,
            }
        )
        if cost is not UNSET:
            field_dict["cost"] = cost

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        completion_tokens = d.pop("completion_tokens")

        model = d.pop("model")

        prompt_tokens = d.pop("prompt_tokens")

        def _parse_cost(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        cost = _parse_cost(d.pop("cost", UNSET))

        model_usage = cls(
            completion_tokens=completion_tokens,
            model=model,
            prompt_tokens=prompt_tokens,
            cost=cost,
        )

        model_usage.additional_properties = d
        return model_usage

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
