# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="RotatedSecret")


@_attrs_define
class RotatedSecret:
    """
    Attributes:
        id (str):
        previous_valid_until (datetime.datetime): Until when the secret it replaced is still taken beside it (the
            rotation's grace,
            `AUTOMATIONS__ROTATION_GRACE_SECS`); after, only the new one.
        secret (str): The new signing secret, shown only here.
        url (str):
    """

    id: str
    previous_valid_until: datetime.datetime
    secret: str
    url: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        previous_valid_until = self.previous_valid_until.isoformat()

        secret = self.secret

        url = self.url

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "previous_valid_until": previous_valid_until,
                "secret": secret,
                "url": url,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        previous_valid_until = datetime.datetime.fromisoformat(d.pop("previous_valid_until"))

        secret = d.pop("secret")

        url = d.pop("url")

        rotated_secret = cls(
            id=id,
            previous_valid_until=previous_valid_until,
            secret=secret,
            url=url,
        )

        rotated_secret.additional_properties = d
        return rotated_secret

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
