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


T = TypeVar("T", bound="NewAutomation")


@_attrs_define
class NewAutomation:
    """An automation as a client sends it.

    Attributes:
        name (str):
        prompt (str): What to do, as a chat message; a template that may name the fire's payload:
            `{{ body.repository.name }}`, `{{ fired_at }}`, `{{ trigger }}`.
        triggers (list[NewTriggerAt | NewTriggerSchedule | NewTriggerWebhook]):
        attachments (list[NewAttachment] | Unset): Files each run gets in its workspace as `uploads/<name>`, as a job's
            attachments
            are: at most 20, together at most the operator's cap (the lesser of a job's and
            8 MiB; 413 past it, saying it).
        enabled (bool | None | Unset): Default true.
        missed_runs (MissedRuns | None | Unset):
        model (None | str | Unset): One of `GET /api/v1/models`' names (default: the default model).
        network (None | str | Unset): `internet` or `offline`; default: the sandbox-manager's.
        session (None | SessionMode | Unset):
        timeout_secs (int | None | Unset): Each run's time limit, as a job's (default: a job's).
        webhook_url (None | str | Unset): Gets each run's job, as `GET /api/v1/jobs/{id}` shows it, when the run starts
            waiting and when it ends, signed as a job's webhook is with the automation's one
            secret (`webhook_secret`, shown only in the answer that set the URL); a public
            address unless the operator allows private ones.
    """

    name: str
    prompt: str
    triggers: list[NewTriggerAt | NewTriggerSchedule | NewTriggerWebhook]
    attachments: list[NewAttachment] | Unset = UNSET
    enabled: bool | None | Unset = UNSET
    missed_runs: MissedRuns | None | Unset = UNSET
    model: None | str | Unset = UNSET
    network: None | str | Unset = UNSET
    session: None | SessionMode | Unset = UNSET
    timeout_secs: int | None | Unset = UNSET
    webhook_url: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.new_trigger_at import NewTriggerAt  # noqa: PLC0415
        from ..models.new_trigger_schedule import NewTriggerSchedule  # noqa: PLC0415

        name = self.name

        prompt = self.prompt

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

        attachments: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.attachments, Unset):
            attachments = []
            for attachments_item_data in self.attachments:
                attachments_item = attachments_item_data.to_dict()
                attachments.append(attachments_item)

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

        network: None | str | Unset
        if isinstance(self.network, Unset):
            network = UNSET
        else:
            network = self.network

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

        webhook_url: None | str | Unset
        if isinstance(self.webhook_url, Unset):
            webhook_url = UNSET
        else:
            webhook_url = self.webhook_url

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "name": name,
                "prompt": prompt,
                "triggers": triggers,
            }
        )
        if attachments is not UNSET:
            field_dict["attachments"] = attachments
        if enabled is not UNSET:
            field_dict["enabled"] = enabled
        if missed_runs is not UNSET:
            field_dict["missed_runs"] = missed_runs
        if model is not UNSET:
            field_dict["model"] = model
        if network is not UNSET:
            field_dict["network"] = network
        if session is not UNSET:
            field_dict["session"] = session
        if timeout_secs is not UNSET:
            field_dict["timeout_secs"] = timeout_secs
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
        name = d.pop("name")

        prompt = d.pop("prompt")

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

        _attachments = d.pop("attachments", UNSET)
        attachments: list[NewAttachment] | Unset = UNSET
        if _attachments is not UNSET:
            attachments = []
            for attachments_item_data in _attachments:
                attachments_item = NewAttachment.from_dict(attachments_item_data)

                attachments.append(attachments_item)

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

        def _parse_network(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        network = _parse_network(d.pop("network", UNSET))

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

        def _parse_webhook_url(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        webhook_url = _parse_webhook_url(d.pop("webhook_url", UNSET))

        new_automation = cls(
            name=name,
            prompt=prompt,
            triggers=triggers,
            attachments=attachments,
            enabled=enabled,
            missed_runs=missed_runs,
            model=model,
            network=network,
            session=session,
            timeout_secs=timeout_secs,
            webhook_url=webhook_url,
        )

        new_automation.additional_properties = d
        return new_automation

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
