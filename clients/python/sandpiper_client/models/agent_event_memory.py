# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.agent_event_memory_type import AgentEventMemoryType

if TYPE_CHECKING:
    from ..models.chat_message import ChatMessage


T = TypeVar("T", bound="AgentEventMemory")


@_attrs_define
class AgentEventMemory:
    """The agent's working memory of one model request: its answer with the tool calls
    and each call's result as the model saw it. Later turns, and a restarted backend,
    rebuild the conversation from these; the UI shows the other events instead.

        Attributes:
            after (int): The log had been read up to here when the request was made: person messages
                after it reached the model after these messages.
            messages (list[ChatMessage]):
            type_ (AgentEventMemoryType):
    """

    after: int
    messages: list[ChatMessage]
    type_: AgentEventMemoryType
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        after = self.after

        messages = []
        for messages_item_data in self.messages:
            messages_item = messages_item_data.to_dict()
            messages.append(messages_item)

        type_ = self.type_.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "after": after,
                "messages": messages,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.chat_message import ChatMessage  # noqa: PLC0415

        d = dict(src_dict)
        after = d.pop("after")

        messages = []
        _messages = d.pop("messages")
        for messages_item_data in _messages:
            messages_item = ChatMessage.from_dict(messages_item_data)

            messages.append(messages_item)

        type_ = AgentEventMemoryType(d.pop("type"))

        agent_event_memory = cls(
            after=after,
            messages=messages,
            type_=type_,
        )

        agent_event_memory.additional_properties = d
        return agent_event_memory

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
