# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.agent_event_usage_type import AgentEventUsageType
from ..types import UNSET, Unset

T = TypeVar("T", bound="AgentEventUsage")


@_attrs_define
class AgentEventUsage:
    """What the model's requests of one turn cost; the session record keeps the sum, in
    all and by model.

        Attributes:
            completion_tokens (int):
            prompt_tokens (int):
            type_ (AgentEventUsageType):
            cost (float | None | Unset): What the tokens cost, when the model has prices.
            model (None | str | Unset): The model the turn asked (absent in events from before there were several).
    """

    completion_tokens: int
    prompt_tokens: int
    type_: AgentEventUsageType
    cost: float | None | Unset = UNSET
    model: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        completion_tokens = self.completion_tokens

        prompt_tokens = self.prompt_tokens

        type_ = self.type_.value

        cost: float | None | Unset
        if isinstance(self.cost, Unset):
            cost = UNSET
        else:
            cost = self.cost

        model: None | str | Unset
        if isinstance(self.model, Unset):
            model = UNSET
        else:
            model = self.model

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "completion_tokens": completion_tokens,
                "prompt_tokens": prompt_tokens,
                "type": type_,
            }
        )
        if cost is not UNSET:
            field_dict["cost"] = cost
        if model is not UNSET:
            field_dict["model"] = model

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        completion_tokens = d.pop("completion_tokens")

        prompt_tokens = d.pop("prompt_tokens")

        type_ = AgentEventUsageType(d.pop("type"))

        def _parse_cost(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        cost = _parse_cost(d.pop("cost", UNSET))

        def _parse_model(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        model = _parse_model(d.pop("model", UNSET))

        agent_event_usage = cls(
            completion_tokens=completion_tokens,
            prompt_tokens=prompt_tokens,
            type_=type_,
            cost=cost,
            model=model,
        )

        agent_event_usage.additional_properties = d
        return agent_event_usage

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
