# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.access_token import AccessToken
    from ..models.user_view import UserView


T = TypeVar("T", bound="SignedIn")


@_attrs_define
class SignedIn:
    """A signed-in user and their access token (the refresh token is in the
    `sandpiper_refresh` cookie the same answer sets).

        Attributes:
            tokens (AccessToken): The access token of a sign-in. Its refresh token is never in a body: the answer sets
                it as an `HttpOnly` cookie that only `/auth/refresh` and `/auth/logout` receive.
            user (UserView):
    """

    tokens: AccessToken
    user: UserView
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        tokens = self.tokens.to_dict()

        user = self.user.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "tokens": tokens,
                "user": user,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.access_token import AccessToken  # noqa: PLC0415
        from ..models.user_view import UserView  # noqa: PLC0415

        d = dict(src_dict)
        tokens = AccessToken.from_dict(d.pop("tokens"))

        user = UserView.from_dict(d.pop("user"))

        signed_in = cls(
            tokens=tokens,
            user=user,
        )

        signed_in.additional_properties = d
        return signed_in

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
