# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.fired_by import FiredBy
from ..types import UNSET, Unset

T = TypeVar("T", bound="RunView")


@_attrs_define
class RunView:
    """One entry of the history.

    Attributes:
        fired_at (datetime.datetime):
        status (str): The job's status (`queued`, `running`, `waiting`, `succeeded`, `failed`,
            `cancelled`); `skipped` when nothing ran; `paused` for the entry saying the
            automation paused itself.
        trigger (FiredBy): What fired a run.
        error (None | str | Unset): Why the run's job failed.
        job_id (None | str | Unset): The run's job (`GET /api/v1/jobs/{id}`); absent when nothing ran.
        note (None | str | Unset): Why nothing ran, or what else happened (a missed time run on recovery).
        session_id (None | str | Unset): The job's session, to open its chat.
        trigger_id (None | str | Unset):
    """

    fired_at: datetime.datetime
    status: str
    trigger: FiredBy
    error: None | str | Unset = UNSET
    job_id: None | str | Unset = UNSET
    note: None | str | Unset = UNSET
    session_id: None | str | Unset = UNSET
    trigger_id: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        fired_at = self.fired_at.isoformat()

        status = self.status

        trigger = self.trigger.value

        error: None | str | Unset
        if isinstance(self.error, Unset):
            error = UNSET
        else:
            error = self.error

        job_id: None | str | Unset
        if isinstance(self.job_id, Unset):
            job_id = UNSET
        else:
            job_id = self.job_id

        note: None | str | Unset
        if isinstance(self.note, Unset):
            note = UNSET
        else:
            note = self.note

        session_id: None | str | Unset
        if isinstance(self.session_id, Unset):
            session_id = UNSET
        else:
            session_id = self.session_id

        trigger_id: None | str | Unset
        if isinstance(self.trigger_id, Unset):
            trigger_id = UNSET
        else:
            trigger_id = self.trigger_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "fired_at": fired_at,
                "status": status,
                "trigger": trigger,
            }
        )
        if error is not UNSET:
            field_dict["error"] = error
        if job_id is not UNSET:
            field_dict["job_id"] = job_id
        if note is not UNSET:
            field_dict["note"] = note
        if session_id is not UNSET:
            field_dict["session_id"] = session_id
        if trigger_id is not UNSET:
            field_dict["trigger_id"] = trigger_id

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        fired_at = datetime.datetime.fromisoformat(d.pop("fired_at"))

        status = d.pop("status")

        trigger = FiredBy(d.pop("trigger"))

        def _parse_error(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        error = _parse_error(d.pop("error", UNSET))

        def _parse_job_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        job_id = _parse_job_id(d.pop("job_id", UNSET))

        def _parse_note(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        note = _parse_note(d.pop("note", UNSET))

        def _parse_session_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        session_id = _parse_session_id(d.pop("session_id", UNSET))

        def _parse_trigger_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        trigger_id = _parse_trigger_id(d.pop("trigger_id", UNSET))

        run_view = cls(
            fired_at=fired_at,
            status=status,
            trigger=trigger,
            error=error,
            job_id=job_id,
            note=note,
            session_id=session_id,
            trigger_id=trigger_id,
        )

        run_view.additional_properties = d
        return run_view

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
