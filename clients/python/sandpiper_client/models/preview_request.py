# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.new_trigger_at import NewTriggerAt
    from ..models.new_trigger_schedule import NewTriggerSchedule
    from ..models.new_trigger_webhook import NewTriggerWebhook


T = TypeVar("T", bound="PreviewRequest")


@_attrs_define
class PreviewRequest:
    """
    Attributes:
        triggers (list[NewTriggerAt | NewTriggerSchedule | NewTriggerWebhook]):
    """

    triggers: list[NewTriggerAt | NewTriggerSchedule | NewTriggerWebhook]

    def to_dict(self) -> dict[str, Any]:
        from ..models.new_trigger_at import NewTriggerAt  # noqa: PLC0415
        from ..models.new_trigger_schedule import NewTriggerSchedule  # noqa: PLC0415

        triggers = []
        for triggers_item_data in self.triggers:
            triggers_item: dict[str, Any]
            if isinstance(triggers_item_data, NewTriggerSchedule):
                triggers_item = triggers_item_data.to_dict()
            elif isinstance(triggers_item_data, NewTriggerAt):
                triggers_item = triggers_item_data.to_dict()
            else:
                triggers_item = triggers_item_data.to_dict()

            triggers.append(triggers_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "triggers": triggers,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.new_trigger_at import NewTriggerAt  # noqa: PLC0415
        from ..models.new_trigger_schedule import NewTriggerSchedule  # noqa: PLC0415
        from ..models.new_trigger_webhook import NewTriggerWebhook  # noqa: PLC0415

        d = dict(src_dict)
        triggers = []
        _triggers = d.pop("triggers")
        for triggers_item_data in _triggers:

            def _parse_triggers_item(data: object) -> NewTriggerAt | NewTriggerSchedule | NewTriggerWebhook:
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_new_trigger_type_0 = NewTriggerSchedule.from_dict(data)

                    return componentsschemas_new_trigger_type_0
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_new_trigger_type_1 = NewTriggerAt.from_dict(data)

                    return componentsschemas_new_trigger_type_1
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_new_trigger_type_2 = NewTriggerWebhook.from_dict(data)

                return componentsschemas_new_trigger_type_2

            triggers_item = _parse_triggers_item(triggers_item_data)

            triggers.append(triggers_item)

        preview_request = cls(
            triggers=triggers,
        )

        return preview_request
