# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.job_status import JobStatus
from ..models.network import Network
from ..types import UNSET, Unset

T = TypeVar("T", bound="CreatedJob")


@_attrs_define
class CreatedJob:
    """A job just made, with its webhook's signing key.

    Attributes:
        created_at (datetime.datetime):
        id (str):
        session_id (str): The session the job runs in (open it in the UI to watch or take over).
        status (JobStatus):
        timeout_secs (int):
        error (None | str | Unset): Why it failed.
        finished_at (datetime.datetime | None | Unset):
        network (Network | None | Unset):
        started_at (datetime.datetime | None | Unset):
        webhook_secret (None | str | Unset): The key the webhook's bodies are signed with (`X-Sandpiper-Signature:
            t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`); shown only here.
        webhook_url (None | str | Unset): Where the job's webhook goes, if it has one.
    """

    created_at: datetime.datetime
    id: str
    session_id: str
    status: JobStatus
    timeout_secs: int
    error: None | str | Unset = UNSET
    finished_at: datetime.datetime | None | Unset = UNSET
    network: Network | None | Unset = UNSET
    started_at: datetime.datetime | None | Unset = UNSET
    webhook_secret: None | str | Unset = UNSET
    webhook_url: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        id = self.id

        session_id = self.session_id

        status = self.status.value

        timeout_secs = self.timeout_secs

        error: None | str | Unset
        if isinstance(self.error, Unset):
            error = UNSET
        else:
            error = self.error

        finished_at: None | str | Unset
        if isinstance(self.finished_at, Unset):
            finished_at = UNSET
        elif isinstance(self.finished_at, datetime.datetime):
            finished_at = self.finished_at.isoformat()
        else:
            finished_at = self.finished_at

        network: None | str | Unset
        if isinstance(self.network, Unset):
            network = UNSET
        elif isinstance(self.network, Network):
            network = self.network.value
        else:
            network = self.network

        started_at: None | str | Unset
        if isinstance(self.started_at, Unset):
            started_at = UNSET
        elif isinstance(self.started_at, datetime.datetime):
            started_at = self.started_at.isoformat()
        else:
            started_at = self.started_at

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
                "created_at": created_at,
                "id": id,
                "session_id": session_id,
                "status": status,
                "timeout_secs": timeout_secs,
            }
        )
        if error is not UNSET:
            field_dict["error"] = error
        if finished_at is not UNSET:
            field_dict["finished_at"] = finished_at
        if network is not UNSET:
            field_dict["network"] = network
        if started_at is not UNSET:
            field_dict["started_at"] = started_at
        if webhook_secret is not UNSET:
            field_dict["webhook_secret"] = webhook_secret
        if webhook_url is not UNSET:
            field_dict["webhook_url"] = webhook_url

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        id = d.pop("id")

        session_id = d.pop("session_id")

        status = JobStatus(d.pop("status"))

        timeout_secs = d.pop("timeout_secs")

        def _parse_error(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        error = _parse_error(d.pop("error", UNSET))

        def _parse_finished_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                finished_at_type_0 = datetime.datetime.fromisoformat(data)

                return finished_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        finished_at = _parse_finished_at(d.pop("finished_at", UNSET))

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

        def _parse_started_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                started_at_type_0 = datetime.datetime.fromisoformat(data)

                return started_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        started_at = _parse_started_at(d.pop("started_at", UNSET))

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

        created_job = cls(
            created_at=created_at,
            id=id,
            session_id=session_id,
            status=status,
            timeout_secs=timeout_secs,
            error=error,
            finished_at=finished_at,
            network=network,
            started_at=started_at,
            webhook_secret=webhook_secret,
            webhook_url=webhook_url,
        )

        created_job.additional_properties = d
        return created_job

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
