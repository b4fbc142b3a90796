# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.registration_mode import RegistrationMode

T = TypeVar("T", bound="AuthModeView")


@_attrs_define
class AuthModeView:
    """
    Attributes:
        mode (str): `password` (accounts, registration open), `local` (one configured account) or
            `none` (no sign-in).
        registration (RegistrationMode): Who may create an account with a password. The deployment's first account (its
            admin) may always be created.
    """

    mode: str
    registration: RegistrationMode
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        mode = self.mode

        registration = self.registration.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "mode": mode,
                "registration": registration,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        mode = d.pop("mode")

        registration = RegistrationMode(d.pop("registration"))

        auth_mode_view = cls(
            mode=mode,
            registration=registration,
        )

        auth_mode_view.additional_properties = d
        return auth_mode_view

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
