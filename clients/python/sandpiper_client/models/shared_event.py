# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.agent_event_delegated import AgentEventDelegated
    from ..models.agent_event_done import AgentEventDone
    from ..models.agent_event_error import AgentEventError
    from ..models.agent_event_memory import AgentEventMemory
    from ..models.agent_event_message import AgentEventMessage
    from ..models.agent_event_plan import AgentEventPlan
    from ..models.agent_event_status import AgentEventStatus
    from ..models.agent_event_step import AgentEventStep
    from ..models.agent_event_title import AgentEventTitle
    from ..models.agent_event_tool import AgentEventTool
    from ..models.agent_event_usage import AgentEventUsage
    from ..models.agent_event_wait import AgentEventWait


T = TypeVar("T", bound="SharedEvent")


@_attrs_define
class SharedEvent:
    """An event of a shared session as its replay shows it.

    Attributes:
        event (AgentEventDelegated | AgentEventDone | AgentEventError | AgentEventMemory | AgentEventMessage |
            AgentEventPlan | AgentEventStatus | AgentEventStep | AgentEventTitle | AgentEventTool | AgentEventUsage |
            AgentEventWait):
        seq (int): Increasing, with gaps where the log holds what a replay does not show; pass the
            last one as `after` for the next page.
    """

    event: (
        AgentEventDelegated
        | AgentEventDone
        | AgentEventError
        | AgentEventMemory
        | AgentEventMessage
        | AgentEventPlan
        | AgentEventStatus
        | AgentEventStep
        | AgentEventTitle
        | AgentEventTool
        | AgentEventUsage
        | AgentEventWait
    )
    seq: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.agent_event_delegated import AgentEventDelegated  # noqa: PLC0415
        from ..models.agent_event_done import AgentEventDone  # noqa: PLC0415
        from ..models.agent_event_error import AgentEventError  # noqa: PLC0415
        from ..models.agent_event_message import AgentEventMessage  # noqa: PLC0415
        from ..models.agent_event_plan import AgentEventPlan  # noqa: PLC0415
        from ..models.agent_event_status import AgentEventStatus  # noqa: PLC0415
        from ..models.agent_event_step import AgentEventStep  # noqa: PLC0415
        from ..models.agent_event_title import AgentEventTitle  # noqa: PLC0415
        from ..models.agent_event_tool import AgentEventTool  # noqa: PLC0415
        from ..models.agent_event_usage import AgentEventUsage  # noqa: PLC0415
        from ..models.agent_event_wait import AgentEventWait  # noqa: PLC0415

        event: dict[str, Any]
        if isinstance(self.event, AgentEventMessage):
            event = self.event.to_dict()
        elif isinstance(self.event, AgentEventPlan):
            event = self.event.to_dict()
        elif isinstance(self.event, AgentEventStep):
            event = self.event.to_dict()
        elif isinstance(self.event, AgentEventTool):
            event = self.event.to_dict()
        elif isinstance(self.event, AgentEventTitle):
            event = self.event.to_dict()
        elif isinstance(self.event, AgentEventWait):
            event = self.event.to_dict()
        elif isinstance(self.event, AgentEventDone):
            event = self.event.to_dict()
        elif isinstance(self.event, AgentEventError):
            event = self.event.to_dict()
        elif isinstance(self.event, AgentEventStatus):
            event = self.event.to_dict()
        elif isinstance(self.event, AgentEventUsage):
            event = self.event.to_dict()
        elif isinstance(self.event, AgentEventDelegated):
            event = self.event.to_dict()
        else:
            event = self.event.to_dict()

        seq = self.seq

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "event": event,
                "seq": seq,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.agent_event_delegated import AgentEventDelegated  # noqa: PLC0415
        from ..models.agent_event_done import AgentEventDone  # noqa: PLC0415
        from ..models.agent_event_error import AgentEventError  # noqa: PLC0415
        from ..models.agent_event_memory import AgentEventMemory  # noqa: PLC0415
        from ..models.agent_event_message import AgentEventMessage  # noqa: PLC0415
        from ..models.agent_event_plan import AgentEventPlan  # noqa: PLC0415
        from ..models.agent_event_status import AgentEventStatus  # noqa: PLC0415
        from ..models.agent_event_step import AgentEventStep  # noqa: PLC0415
        from ..models.agent_event_title import AgentEventTitle  # noqa: PLC0415
        from ..models.agent_event_tool import AgentEventTool  # noqa: PLC0415
        from ..models.agent_event_usage import AgentEventUsage  # noqa: PLC0415
        from ..models.agent_event_wait import AgentEventWait  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_event(
            data: object,
        ) -> (
            AgentEventDelegated
            | AgentEventDone
            | AgentEventError
            | AgentEventMemory
            | AgentEventMessage
            | AgentEventPlan
            | AgentEventStatus
            | AgentEventStep
            | AgentEventTitle
            | AgentEventTool
            | AgentEventUsage
            | AgentEventWait
        ):
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_agent_event_type_0 = AgentEventMessage.from_dict(data)

                return componentsschemas_agent_event_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_agent_event_type_1 = AgentEventPlan.from_dict(data)

                return componentsschemas_agent_event_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_agent_event_type_2 = AgentEventStep.from_dict(data)

                return componentsschemas_agent_event_type_2
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_agent_event_type_3 = AgentEventTool.from_dict(data)

                return componentsschemas_agent_event_type_3
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_agent_event_type_4 = AgentEventTitle.from_dict(data)

                return componentsschemas_agent_event_type_4
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_agent_event_type_5 = AgentEventWait.from_dict(data)

                return componentsschemas_agent_event_type_5
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_agent_event_type_6 = AgentEventDone.from_dict(data)

                return componentsschemas_agent_event_type_6
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_agent_event_type_7 = AgentEventError.from_dict(data)

                return componentsschemas_agent_event_type_7
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_agent_event_type_8 = AgentEventStatus.from_dict(data)

                return componentsschemas_agent_event_type_8
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_agent_event_type_9 = AgentEventUsage.from_dict(data)

                return componentsschemas_agent_event_type_9
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_agent_event_type_10 = AgentEventDelegated.from_dict(data)

                return componentsschemas_agent_event_type_10
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            componentsschemas_agent_event_type_11 = AgentEventMemory.from_dict(data)

            return componentsschemas_agent_event_type_11

        event = _parse_event(d.pop("event"))

        seq = d.pop("seq")

        shared_event = cls(
            event=event,
            seq=seq,
        )

        shared_event.additional_properties = d
        return shared_event

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
