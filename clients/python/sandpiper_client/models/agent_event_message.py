# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.agent_event_message_type import AgentEventMessageType
from ..models.message_role import MessageRole
from ..types import UNSET, Unset

T = TypeVar("T", bound="AgentEventMessage")


@_attrs_define
class AgentEventMessage:
    """A chat message from the person or the assistant.

    Attributes:
        content (str):
        role (MessageRole):
        type_ (AgentEventMessageType):
        attachments (list[str] | Unset):
    """

    content: str
    role: MessageRole
    type_: AgentEventMessageType
    attachments: list[str] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        content = self.content

        role = self.role.value

        type_ = self.type_.value

        attachments: list[str] | Unset = UNSET
        if not isinstance(self.attachments, Unset):
            attachments = self.attachments

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "content": content,
                "role": role,
                "type": type_,
            }
        )
        if attachments is not UNSET:
            field_dict["attachments"] = attachments

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        content = d.pop("content")

        role = MessageRole(d.pop("role"))

        type_ = AgentEventMessageType(d.pop("type"))

        attachments = cast(list[str], d.pop("attachments", UNSET))

        agent_event_message = cls(
            content=content,
            role=role,
            type_=type_,
            attachments=attachments,
        )

        agent_event_message.additional_properties = d
        return agent_event_message

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
