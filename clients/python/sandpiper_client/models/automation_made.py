# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="AutomationMade")


@_attrs_define
class AutomationMade:
    """An automation the agent made for its person (`automation_create`).

    Attributes:
        id (str):
        name (str):
        next_runs (list[datetime.datetime]): Its next fire times, soonest first (empty: it will not fire).
    """

    id: str
    name: str
    next_runs: list[datetime.datetime]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        next_runs = []
        for next_runs_item_data in self.next_runs:
            next_runs_item = next_runs_item_data.isoformat()
            next_runs.append(next_runs_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "name": name,
                "next_runs": next_runs,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        next_runs = []
        _next_runs = d.pop("next_runs")
        for next_runs_item_data in _next_runs:
            next_runs_item = datetime.datetime.fromisoformat(next_runs_item_data)

            next_runs.append(next_runs_item)

        automation_made = cls(
            id=id,
            name=name,
            next_runs=next_runs,
        )

        automation_made.additional_properties = d
        return automation_made

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
