# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.missed_runs import MissedRuns
from ..models.network import Network
from ..models.session_mode import SessionMode
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.file_view import FileView
    from ..models.run_view import RunView
    from ..models.trigger_view import TriggerView


T = TypeVar("T", bound="AutomationView")


@_attrs_define
class AutomationView:
    """
    Attributes:
        attachments (list[FileView]): The files each run gets in its workspace's `uploads/`.
        created_at (datetime.datetime):
        enabled (bool):
        failures (int): Runs failed in a row.
        id (str):
        missed_runs (MissedRuns): What happens to a fire time that passed while no replica ran: one run on recovery
            (however many were missed), or none; either is recorded in the history.
        name (str):
        next_runs (list[datetime.datetime]): Its time triggers' next 5 fire times, enabled or not.
        prompt (str):
        session (SessionMode): Where the runs work: a new session each, or one session every run continues.
        triggers (list[TriggerView]):
        last_run (None | RunView | Unset):
        model (None | str | Unset):
        network (Network | None | Unset):
        next_fire (datetime.datetime | None | Unset): When it fires next (absent when disabled or no time trigger fires
            again).
        paused_reason (None | str | Unset): Why it paused itself, until enabled again.
        session_id (None | str | Unset): The session a persistent automation's runs continue, once the first made it.
        timeout_secs (int | None | Unset):
        webhook_secret (None | str | Unset): The key those bodies are signed with: only in the answer that set the URL.
        webhook_url (None | str | Unset): Where each run's job is sent when it waits and when it ends.
    """

    attachments: list[FileView]
    created_at: datetime.datetime
    enabled: bool
    failures: int
    id: str
    missed_runs: MissedRuns
    name: str
    next_runs: list[datetime.datetime]
    prompt: str
    session: SessionMode
    triggers: list[TriggerView]
    last_run: None | RunView | Unset = UNSET
    model: None | str | Unset = UNSET
    network: Network | None | Unset = UNSET
    next_fire: datetime.datetime | None | Unset = UNSET
    paused_reason: None | str | Unset = UNSET
    session_id: None | str | Unset = UNSET
    timeout_secs: int | None | Unset = UNSET
    webhook_secret: None | str | Unset = UNSET
    webhook_url: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.run_view import RunView  # noqa: PLC0415

        attachments = []
        for attachments_item_data in self.attachments:
            attachments_item = attachments_item_data.to_dict()
            attachments.append(attachments_item)

        created_at = self.created_at.isoformat()

        enabled = self.enabled

        failures = self.failures

        id = self.id

        missed_runs = self.missed_runs.value

        name = self.name

        next_runs = []
        for next_runs_item_data in self.next_runs:
            next_runs_item = next_runs_item_data.isoformat()
            next_runs.append(next_runs_item)

        prompt = self.prompt

        session = self.session.value

        triggers = []
        for triggers_item_data in self.triggers:
            triggers_item = triggers_item_data.to_dict()
            triggers.append(triggers_item)

        last_run: dict[str, Any] | None | Unset
        if isinstance(self.last_run, Unset):
            last_run = UNSET
        elif isinstance(self.last_run, RunView):
            last_run = self.last_run.to_dict()
        else:
            last_run = self.last_run

        model: None | str | Unset
        if isinstance(self.model, Unset):
            model = UNSET
        else:
            model = self.model

        network: None | str | Unset
        if isinstance(self.network, Unset):
            network = UNSET
        elif isinstance(self.network, Network):
            network = self.network.value
        else:
            network = self.network

        next_fire: None | str | Unset
        if isinstance(self.next_fire, Unset):
            next_fire = UNSET
        elif isinstance(self.next_fire, datetime.datetime):
            next_fire = self.next_fire.isoformat()
        else:
            next_fire = self.next_fire

        paused_reason: None | str | Unset
        if isinstance(self.paused_reason, Unset):
            paused_reason = UNSET
        else:
            paused_reason = self.paused_reason

        session_id: None | str | Unset
        if isinstance(self.session_id, Unset):
            session_id = UNSET
        else:
            session_id = self.session_id

        timeout_secs: int | None | Unset
        if isinstance(self.timeout_secs, Unset):
            timeout_secs = UNSET
        else:
            timeout_secs = self.timeout_secs

        webhook_secret: None | str | Unset
        if isinstance(self.webhook_secret, Unset):
            webhook_secret = UNSET
        else:
            webhook_secret = self.webhook_secret

        webhook_url: None | str | Unset
        if isinstance(self.webhook_url, Unset):
            webhook_url = UNSET
        else:
            webhook_url = self.webhook_url

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "attachments": attachments,
                "created_at": created_at,
                "enabled": enabled,
                "failures": failures,
                "id": id,
                "missed_runs": missed_runs,
                "name": name,
                "next_runs": next_runs,
                "prompt": prompt,
                "session": session,
                "triggers": triggers,
            }
        )
        if last_run is not UNSET:
            field_dict["last_run"] = last_run
        if model is not UNSET:
            field_dict["model"] = model
        if network is not UNSET:
            field_dict["network"] = network
        if next_fire is not UNSET:
            field_dict["next_fire"] = next_fire
        if paused_reason is not UNSET:
            field_dict["paused_reason"] = paused_reason
        if session_id is not UNSET:
            field_dict["session_id"] = session_id
        if timeout_secs is not UNSET:
            field_dict["timeout_secs"] = timeout_secs
        if webhook_secret is not UNSET:
            field_dict["webhook_secret"] = webhook_secret
        if webhook_url is not UNSET:
            field_dict["webhook_url"] = webhook_url

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.file_view import FileView  # noqa: PLC0415
        from ..models.run_view import RunView  # noqa: PLC0415
        from ..models.trigger_view import TriggerView  # noqa: PLC0415

        d = dict(src_dict)
        attachments = []
        _attachments = d.pop("attachments")
        for attachments_item_data in _attachments:
            attachments_item = FileView.from_dict(attachments_item_data)

            attachments.append(attachments_item)

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        enabled = d.pop("enabled")

        failures = d.pop("failures")

        id = d.pop("id")

        missed_runs = MissedRuns(d.pop("missed_runs"))

        name = d.pop("name")

        next_runs = []
        _next_runs = d.pop("next_runs")
        for next_runs_item_data in _next_runs:
            next_runs_item = datetime.datetime.fromisoformat(next_runs_item_data)

            next_runs.append(next_runs_item)

        prompt = d.pop("prompt")

        session = SessionMode(d.pop("session"))

        triggers = []
        _triggers = d.pop("triggers")
        for triggers_item_data in _triggers:
            triggers_item = TriggerView.from_dict(triggers_item_data)

            triggers.append(triggers_item)

        def _parse_last_run(data: object) -> None | RunView | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                last_run_type_1 = RunView.from_dict(data)

                return last_run_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | RunView | Unset, data)

        last_run = _parse_last_run(d.pop("last_run", UNSET))

        def _parse_model(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        model = _parse_model(d.pop("model", UNSET))

        def _parse_network(data: object) -> Network | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                network_type_1 = Network(data)

                return network_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Network | None | Unset, data)

        network = _parse_network(d.pop("network", UNSET))

        def _parse_next_fire(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                next_fire_type_0 = datetime.datetime.fromisoformat(data)

                return next_fire_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        next_fire = _parse_next_fire(d.pop("next_fire", UNSET))

        def _parse_paused_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        paused_reason = _parse_paused_reason(d.pop("paused_reason", UNSET))

        def _parse_session_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        session_id = _parse_session_id(d.pop("session_id", UNSET))

        def _parse_timeout_secs(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        timeout_secs = _parse_timeout_secs(d.pop("timeout_secs", UNSET))

        def _parse_webhook_secret(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        webhook_secret = _parse_webhook_secret(d.pop("webhook_secret", UNSET))

        def _parse_webhook_url(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        webhook_url = _parse_webhook_url(d.pop("webhook_url", UNSET))

        automation_view = cls(
            attachments=attachments,
            created_at=created_at,
            enabled=enabled,
            failures=failures,
            id=id,
            missed_runs=missed_runs,
            name=name,
            next_runs=next_runs,
            prompt=prompt,
            session=session,
            triggers=triggers,
            last_run=last_run,
            model=model,
            network=network,
            next_fire=next_fire,
            paused_reason=paused_reason,
            session_id=session_id,
            timeout_secs=timeout_secs,
            webhook_secret=webhook_secret,
            webhook_url=webhook_url,
        )

        automation_view.additional_properties = d
        return automation_view

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
