# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.agent_event_plan_type import AgentEventPlanType

if TYPE_CHECKING:
    from ..models.plan_step import PlanStep


T = TypeVar("T", bound="AgentEventPlan")


@_attrs_define
class AgentEventPlan:
    """The agent's plan: its steps, in order.

    Attributes:
        steps (list[PlanStep]):
        type_ (AgentEventPlanType):
    """

    steps: list[PlanStep]
    type_: AgentEventPlanType
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        steps = []
        for steps_item_data in self.steps:
            steps_item = steps_item_data.to_dict()
            steps.append(steps_item)

        type_ = self.type_.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "steps": steps,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.plan_step import PlanStep  # noqa: PLC0415

        d = dict(src_dict)
        steps = []
        _steps = d.pop("steps")
        for steps_item_data in _steps:
            steps_item = PlanStep.from_dict(steps_item_data)

            steps.append(steps_item)

        type_ = AgentEventPlanType(d.pop("type"))

        agent_event_plan = cls(
            steps=steps,
            type_=type_,
        )

        agent_event_plan.additional_properties = d
        return agent_event_plan

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
