# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="LoggedCallAutomationCreateArgs")


@_attrs_define
class LoggedCallAutomationCreateArgs:
    """What the agent's `automation_create` tool takes: a time-triggered automation for its
    person (webhooks are made in the app).

        Attributes:
            name (str): A few words naming it.
            prompt (str): What to do at each run, as the person would ask it; each run starts a new chat
                that sees only this.
            at (None | str | Unset): Instead of (or besides) `cron`: once, at this RFC 3339 time.
            cron (None | str | Unset): A cron expression: 5 fields (minute hour day month weekday), e.g. `0 9 * * MON`.
            timezone (None | str | Unset): The IANA time zone the cron is read in (the person's, if known); default UTC.
    """

    name: str
    prompt: str
    at: None | str | Unset = UNSET
    cron: None | str | Unset = UNSET
    timezone: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        prompt = self.prompt

        at: None | str | Unset
        if isinstance(self.at, Unset):
            at = UNSET
        else:
            at = self.at

        cron: None | str | Unset
        if isinstance(self.cron, Unset):
            cron = UNSET
        else:
            cron = self.cron

        timezone: None | str | Unset
        if isinstance(self.timezone, Unset):
            timezone = UNSET
        else:
            timezone = self.timezone

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "prompt": prompt,
            }
        )
        if at is not UNSET:
            field_dict["at"] = at
        if cron is not UNSET:
            field_dict["cron"] = cron
        if timezone is not UNSET:
            field_dict["timezone"] = timezone

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        prompt = d.pop("prompt")

        def _parse_at(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        at = _parse_at(d.pop("at", UNSET))

        def _parse_cron(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        cron = _parse_cron(d.pop("cron", UNSET))

        def _parse_timezone(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        timezone = _parse_timezone(d.pop("timezone", UNSET))

        logged_call_automation_create_args = cls(
            name=name,
            prompt=prompt,
            at=at,
            cron=cron,
            timezone=timezone,
        )

        return logged_call_automation_create_args
