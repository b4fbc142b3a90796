# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.missed_runs import MissedRuns
from ..models.session_mode import SessionMode
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.new_attachment import NewAttachment
    from ..models.new_trigger_at import NewTriggerAt
    from ..models.new_trigger_schedule import NewTriggerSchedule
    from ..models.new_trigger_webhook import NewTriggerWebhook


T = TypeVar("T", bound="AutomationEdit")


@_attrs_define
class AutomationEdit:
    """Changes to an automation; what is left out stays. `triggers` replaces them all (one
    given with its `id` stays that trigger: a webhook keeps its URL and secret).

        Attributes:
            attachments (list[NewAttachment] | None | Unset): Files added to those it has (one of the same name replaced).
            enabled (bool | None | Unset): Enabling clears a pause after failures, and the failure count.
            missed_runs (MissedRuns | None | Unset):
            model (None | str | Unset):
            name (None | str | Unset):
            network (None | str | Unset):
            prompt (None | str | Unset):
            remove_attachments (list[str] | None | Unset): Names of its files to remove.
            session (None | SessionMode | Unset):
            timeout_secs (int | None | Unset):
            triggers (list[NewTriggerAt | NewTriggerSchedule | NewTriggerWebhook] | None | Unset):
            webhook_url (None | str | Unset): As when made; the same URL keeps its secret, another gets a new one, `""`
                removes it.
    """

    attachments: list[NewAttachment] | None | Unset = UNSET
    enabled: bool | None | Unset = UNSET
    missed_runs: MissedRuns | None | Unset = UNSET
    model: None | str | Unset = UNSET
    name: None | str | Unset = UNSET
    network: None | str | Unset = UNSET
    prompt: None | str | Unset = UNSET
    remove_attachments: list[str] | None | Unset = UNSET
    session: None | SessionMode | Unset = UNSET
    timeout_secs: int | None | Unset = UNSET
    triggers: list[NewTriggerAt | NewTriggerSchedule | NewTriggerWebhook] | None | Unset = UNSET
    webhook_url: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.new_trigger_at import NewTriggerAt  # noqa: PLC0415
        from ..models.new_trigger_schedule import NewTriggerSchedule  # noqa: PLC0415

        attachments: list[dict[str, Any]] | None | Unset
        if isinstance(self.attachments, Unset):
            attachments = UNSET
        elif isinstance(self.attachments, list):
            attachments = []
            for attachments_type_0_item_data in self.attachments:
                attachments_type_0_item = attachments_type_0_item_data.to_dict()
                attachments.append(attachments_type_0_item)

        else:
            attachments = self.attachments

        enabled: bool | None | Unset
        if isinstance(self.enabled, Unset):
            enabled = UNSET
        else:
            enabled = self.enabled

        missed_runs: None | str | Unset
        if isinstance(self.missed_runs, Unset):
            missed_runs = UNSET
        elif isinstance(self.missed_runs, MissedRuns):
            missed_runs = self.missed_runs.value
        else:
            missed_runs = self.missed_runs

        model: None | str | Unset
        if isinstance(self.model, Unset):
            model = UNSET
        else:
            model = self.model

        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        network: None | str | Unset
        if isinstance(self.network, Unset):
            network = UNSET
        else:
            network = self.network

        prompt: None | str | Unset
        if isinstance(self.prompt, Unset):
            prompt = UNSET
        else:
            prompt = self.prompt

        remove_attachments: list[str] | None | Unset
        if isinstance(self.remove_attachments, Unset):
            remove_attachments = UNSET
        elif isinstance(self.remove_attachments, list):
            remove_attachments = self.remove_attachments

        else:
            remove_attachments = self.remove_attachments

        session: None | str | Unset
        if isinstance(self.session, Unset):
            session = UNSET
        elif isinstance(self.session, SessionMode):
            session = self.session.value
        else:
            session = self.session

        timeout_secs: int | None | Unset
        if isinstance(self.timeout_secs, Unset):
            timeout_secs = UNSET
        else:
            timeout_secs = self.timeout_secs

        triggers: list[dict[str, Any]] | None | Unset
        if isinstance(self.triggers, Unset):
            triggers = UNSET
        elif isinstance(self.triggers, list):
            triggers = []
            for triggers_type_0_item_data in self.triggers:
                triggers_type_0_item: dict[str, Any]
                if isinstance(triggers_type_0_item_data, NewTriggerSchedule):
                    triggers_type_0_item = triggers_type_0_item_data.to_dict()
                elif isinstance(triggers_type_0_item_data, NewTriggerAt):
                    triggers_type_0_item = triggers_type_0_item_data.to_dict()
                else:
                    triggers_type_0_item = triggers_type_0_item_data.to_dict()

                triggers.append(triggers_type_0_item)

        else:
            triggers = self.triggers

        webhook_url: None | str | Unset
        if isinstance(self.webhook_url, Unset):
            webhook_url = UNSET
        else:
            webhook_url = self.webhook_url

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if attachments is not UNSET:
            field_dict["attachments"] = attachments
        if enabled is not UNSET:
            field_dict["enabled"] = enabled
        if missed_runs is not UNSET:
            field_dict["missed_runs"] = missed_runs
        if model is not UNSET:
            field_dict["model"] = model
        if name is not UNSET:
            field_dict["name"] = name
        if network is not UNSET:
            field_dict["network"] = network
        if prompt is not UNSET:
            field_dict["prompt"] = prompt
        if remove_attachments is not UNSET:
            field_dict["remove_attachments"] = remove_attachments
        if session is not UNSET:
            field_dict["session"] = session
        if timeout_secs is not UNSET:
            field_dict["timeout_secs"] = timeout_secs
        if triggers is not UNSET:
            field_dict["triggers"] = triggers
        if webhook_url is not UNSET:
            field_dict["webhook_url"] = webhook_url

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.new_attachment import NewAttachment  # noqa: PLC0415
        from ..models.new_trigger_at import NewTriggerAt  # noqa: PLC0415
        from ..models.new_trigger_schedule import NewTriggerSchedule  # noqa: PLC0415
        from ..models.new_trigger_webhook import NewTriggerWebhook  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_attachments(data: object) -> list[NewAttachment] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                attachments_type_0 = []
                _attachments_type_0 = data
                for attachments_type_0_item_data in _attachments_type_0:
                    attachments_type_0_item = NewAttachment.from_dict(attachments_type_0_item_data)

                    attachments_type_0.append(attachments_type_0_item)

                return attachments_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[NewAttachment] | None | Unset, data)

        attachments = _parse_attachments(d.pop("attachments", UNSET))

        def _parse_enabled(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        enabled = _parse_enabled(d.pop("enabled", UNSET))

        def _parse_missed_runs(data: object) -> MissedRuns | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                missed_runs_type_1 = MissedRuns(data)

                return missed_runs_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(MissedRuns | None | Unset, data)

        missed_runs = _parse_missed_runs(d.pop("missed_runs", UNSET))

        def _parse_model(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        model = _parse_model(d.pop("model", UNSET))

        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))

        def _parse_network(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        network = _parse_network(d.pop("network", UNSET))

        def _parse_prompt(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        prompt = _parse_prompt(d.pop("prompt", UNSET))

        def _parse_remove_attachments(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                remove_attachments_type_0 = cast(list[str], data)

                return remove_attachments_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        remove_attachments = _parse_remove_attachments(d.pop("remove_attachments", UNSET))

        def _parse_session(data: object) -> None | SessionMode | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                session_type_1 = SessionMode(data)

                return session_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SessionMode | Unset, data)

        session = _parse_session(d.pop("session", UNSET))

        def _parse_timeout_secs(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        timeout_secs = _parse_timeout_secs(d.pop("timeout_secs", UNSET))

        def _parse_triggers(data: object) -> list[NewTriggerAt | NewTriggerSchedule | NewTriggerWebhook] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                triggers_type_0 = []
                _triggers_type_0 = data
                for triggers_type_0_item_data in _triggers_type_0:

                    def _parse_triggers_type_0_item(
                        data: object,
                    ) -> NewTriggerAt | NewTriggerSchedule | NewTriggerWebhook:
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

                    triggers_type_0_item = _parse_triggers_type_0_item(triggers_type_0_item_data)

                    triggers_type_0.append(triggers_type_0_item)

                return triggers_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[NewTriggerAt | NewTriggerSchedule | NewTriggerWebhook] | None | Unset, data)

        triggers = _parse_triggers(d.pop("triggers", UNSET))

        def _parse_webhook_url(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        webhook_url = _parse_webhook_url(d.pop("webhook_url", UNSET))

        automation_edit = cls(
            attachments=attachments,
            enabled=enabled,
            missed_runs=missed_runs,
            model=model,
            name=name,
            network=network,
            prompt=prompt,
            remove_attachments=remove_attachments,
            session=session,
            timeout_secs=timeout_secs,
            triggers=triggers,
            webhook_url=webhook_url,
        )

        automation_edit.additional_properties = d
        return automation_edit

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
