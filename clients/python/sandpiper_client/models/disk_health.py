# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="DiskHealth")


@_attrs_define
class DiskHealth:
    """
    Attributes:
        status (str): `ok`; `low` below `BACKEND_DATA_DIR_LOW_SPACE_MB` free; `full` once a write failed
            for want of space, until space is freed and the store opens again by itself.
        free_mb (int | None | Unset): Free space in MiB, when the disk answers.
    """

    status: str
    free_mb: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        status = self.status

        free_mb: int | None | Unset
        if isinstance(self.free_mb, Unset):
            free_mb = UNSET
        else:
            free_mb = self.free_mb

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "status": status,
            }
        )
        if free_mb is not UNSET:
            field_dict["free_mb"] = free_mb

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        status = d.pop("status")

        def _parse_free_mb(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        free_mb = _parse_free_mb(d.pop("free_mb", UNSET))

        disk_health = cls(
            status=status,
            free_mb=free_mb,
        )

        disk_health.additional_properties = d
        return disk_health

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
