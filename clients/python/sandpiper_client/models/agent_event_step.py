# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.agent_event_step_type import AgentEventStepType
from ..models.step_status import StepStatus

T = TypeVar("T", bound="AgentEventStep")


@_attrs_define
class AgentEventStep:
    """A plan step changed state.

    Attributes:
        description (str):
        status (StepStatus):
        step_id (str):
        type_ (AgentEventStepType):
    """

    description: str
    status: StepStatus
    step_id: str
    type_: AgentEventStepType
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        description = self.description

        status = self.status.value

        step_id = self.step_id

        type_ = self.type_.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "description": description,
                "status": status,
                "step_id": step_id,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        description = d.pop("description")

        status = StepStatus(d.pop("status"))

        step_id = d.pop("step_id")

        type_ = AgentEventStepType(d.pop("type"))

        agent_event_step = cls(
            description=description,
            status=status,
            step_id=step_id,
            type_=type_,
        )

        agent_event_step.additional_properties = d
        return agent_event_step

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
