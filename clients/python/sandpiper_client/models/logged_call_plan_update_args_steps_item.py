# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.logged_call_plan_update_args_steps_item_status import LoggedCallPlanUpdateArgsStepsItemStatus
from ..types import UNSET, Unset

T = TypeVar("T", bound="LoggedCallPlanUpdateArgsStepsItem")


@_attrs_define
class LoggedCallPlanUpdateArgsStepsItem:
    """
    Attributes:
        description (str):
        id (str):
        status (LoggedCallPlanUpdateArgsStepsItemStatus | Unset):
    """

    description: str
    id: str
    status: LoggedCallPlanUpdateArgsStepsItemStatus | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        description = self.description

        id = self.id

        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "description": description,
                "id": id,
            }
        )
        if status is not UNSET:
            field_dict["status"] = status

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        description = d.pop("description")

        id = d.pop("id")

        _status = d.pop("status", UNSET)
        status: LoggedCallPlanUpdateArgsStepsItemStatus | Unset
        if isinstance(_status, Unset):
            status = UNSET
        else:
            status = LoggedCallPlanUpdateArgsStepsItemStatus(_status)

        logged_call_plan_update_args_steps_item = cls(
            description=description,
            id=id,
            status=status,
        )

        logged_call_plan_update_args_steps_item.additional_properties = d
        return logged_call_plan_update_args_steps_item

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
