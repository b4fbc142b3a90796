# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.disk_health import DiskHealth


T = TypeVar("T", bound="Health")


@_attrs_define
class Health:
    """
    Attributes:
        status (str): `ok`, or `degraded` while the data directory's disk is full (writes answer `507`).
        version (str):
        disk (DiskHealth | None | Unset):
    """

    status: str
    version: str
    disk: DiskHealth | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.disk_health import DiskHealth  # noqa: PLC0415

        status = self.status

        version = self.version

        disk: dict[str, Any] | None | Unset
        if isinstance(self.disk, Unset):
            disk = UNSET
        elif isinstance(self.disk, DiskHealth):
            disk = self.disk.to_dict()
        else:
            disk = self.disk

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "status": status,
                "version": version,
            }
        )
        if disk is not UNSET:
            field_dict["disk"] = disk

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.disk_health import DiskHealth  # noqa: PLC0415

        d = dict(src_dict)
        status = d.pop("status")

        version = d.pop("version")

        def _parse_disk(data: object) -> DiskHealth | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                disk_type_1 = DiskHealth.from_dict(data)

                return disk_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DiskHealth | None | Unset, data)

        disk = _parse_disk(d.pop("disk", UNSET))

        health = cls(
            status=status,
            version=version,
            disk=disk,
        )

        health.additional_properties = d
        return health

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
