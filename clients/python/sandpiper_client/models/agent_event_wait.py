# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.agent_event_wait_type import AgentEventWaitType
from ..types import UNSET, Unset

T = TypeVar("T", bound="AgentEventWait")


@_attrs_define
class AgentEventWait:
    """The agent waits for the person (a question; maybe "take over the browser").

    Attributes:
        type_ (AgentEventWaitType):
        prompt (None | str | Unset):
        take_over (bool | Unset):
    """

    type_: AgentEventWaitType
    prompt: None | str | Unset = UNSET
    take_over: bool | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_.value

        prompt: None | str | Unset
        if isinstance(self.prompt, Unset):
            prompt = UNSET
        else:
            prompt = self.prompt

        take_over = self.take_over

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
            }
        )
        if prompt is not UNSET:
            field_dict["prompt"] = prompt
        if take_over is not UNSET:
            field_dict["take_over"] = take_over

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        type_ = AgentEventWaitType(d.pop("type"))

        def _parse_prompt(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        prompt = _parse_prompt(d.pop("prompt", UNSET))

        take_over = d.pop("take_over", UNSET)

        agent_event_wait = cls(
            type_=type_,
            prompt=prompt,
            take_over=take_over,
        )

        agent_event_wait.additional_properties = d
        return agent_event_wait

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
