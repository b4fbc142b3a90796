# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.api_key_scope import ApiKeyScope
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.token_usage import TokenUsage


T = TypeVar("T", bound="NewApiKey")


@_attrs_define
class NewApiKey:
    """A new API key, with its secret: shown in this answer only.

    Attributes:
        created_at (datetime.datetime):
        id (str):
        key (str): The key itself (`sp_…`), to send as `Authorization: Bearer <key>`.
        name (str):
        prefix (str): The key's first characters after `sp_`, to tell keys apart.
        requests (int): Requests made while the key was valid and within its rate limit, whatever they
            answered.
        scope (ApiKeyScope): What a key may do.
        tokens (TokenUsage): Tokens the model provider counted (and bills).
        expires_at (datetime.datetime | None | Unset): Absent: it never expires.
        last_used_at (datetime.datetime | None | Unset): Absent: never used. Like `requests`, written every few seconds,
            so it may lag.
    """

    created_at: datetime.datetime
    id: str
    key: str
    name: str
    prefix: str
    requests: int
    scope: ApiKeyScope
    tokens: TokenUsage
    expires_at: datetime.datetime | None | Unset = UNSET
    last_used_at: datetime.datetime | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        id = self.id

        key = self.key

        name = self.name

        prefix = self.prefix

        requests = self.requests

        scope = self.scope.value

        tokens = self.tokens.to_dict()

        expires_at: None | str | Unset
        if isinstance(self.expires_at, Unset):
            expires_at = UNSET
        elif isinstance(self.expires_at, datetime.datetime):
            expires_at = self.expires_at.isoformat()
        else:
            expires_at = self.expires_at

        last_used_at: None | str | Unset
        if isinstance(self.last_used_at, Unset):
            last_used_at = UNSET
        elif isinstance(self.last_used_at, datetime.datetime):
            last_used_at = self.last_used_at.isoformat()
        else:
            last_used_at = self.last_used_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "created_at": created_at,
                "id": id,
                "key": key,
                "name": name,
                "prefix": prefix,
                "requests": requests,
                "scope": scope,
                "tokens": tokens,
            }
        )
        if expires_at is not UNSET:
            field_dict["expires_at"] = expires_at
        if last_used_at is not UNSET:
            field_dict["last_used_at"] = last_used_at

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.token_usage import TokenUsage  # noqa: PLC0415

        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        id = d.pop("id")

        key = d.pop("key")

        name = d.pop("name")

        prefix = d.pop("prefix")

        requests = d.pop("requests")

        scope = ApiKeyScope(d.pop("scope"))

        tokens = TokenUsage.from_dict(d.pop("tokens"))

        def _parse_expires_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                expires_at_type_0 = datetime.datetime.fromisoformat(data)

                return expires_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        expires_at = _parse_expires_at(d.pop("expires_at", UNSET))

        def _parse_last_used_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_used_at_type_0 = datetime.datetime.fromisoformat(data)

                return last_used_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        last_used_at = _parse_last_used_at(d.pop("last_used_at", UNSET))

        new_api_key = cls(
            created_at=created_at,
            id=id,
            key=key,
            name=name,
            prefix=prefix,
            requests=requests,
            scope=scope,
            tokens=tokens,
            expires_at=expires_at,
            last_used_at=last_used_at,
        )

        new_api_key.additional_properties = d
        return new_api_key

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
