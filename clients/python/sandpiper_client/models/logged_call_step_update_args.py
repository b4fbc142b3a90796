# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.logged_call_step_update_args_status import LoggedCallStepUpdateArgsStatus
from ..types import UNSET, Unset

T = TypeVar("T", bound="LoggedCallStepUpdateArgs")


@_attrs_define
class LoggedCallStepUpdateArgs:
    """
    Attributes:
        status (LoggedCallStepUpdateArgsStatus):
        step_id (str):
        description (str | Unset):
    """

    status: LoggedCallStepUpdateArgsStatus
    step_id: str
    description: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        status = self.status.value

        step_id = self.step_id

        description = self.description

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "status": status,
                "step_id": step_id,
            }
        )
        if description is not UNSET:
            field_dict["description"] = description

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        status = LoggedCallStepUpdateArgsStatus(d.pop("status"))

        step_id = d.pop("step_id")

        description = d.pop("description", UNSET)

        logged_call_step_update_args = cls(
            status=status,
            step_id=step_id,
            description=description,
        )

        logged_call_step_update_args.additional_properties = d
        return logged_call_step_update_args

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
