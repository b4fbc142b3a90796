# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.session_status import SessionStatus
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.model_usage import ModelUsage
    from ..models.token_usage import TokenUsage


T = TypeVar("T", bound="SessionView")


@_attrs_define
class SessionView:
    """
    Attributes:
        created_at (datetime.datetime):
        id (str):
        last_seq (int): Sequence number of the last event (0: none yet).
        status (SessionStatus):
        title (str):
        unread_count (int): Assistant messages the owner has not read.
        updated_at (datetime.datetime):
        usage (TokenUsage): Tokens the model provider counted (and bills).
        usage_by_model (list[ModelUsage]): `usage` by the model that used the tokens, in the order first used, with
            their
            cost where the model has prices.
        last_message_preview (None | str | Unset): The start of the last message.
        model (None | str | Unset): The model the session's next turn asks (absent: the default one).
        share_expires_at (datetime.datetime | None | Unset): When the replay link stops working (absent: it works until
            revoked). A link
            whose time has passed is refused; sharing again makes a new one.
        share_token (None | str | Unset): Present while the session is shared: the replay link's token.
    """

    created_at: datetime.datetime
    id: str
    last_seq: int
    status: SessionStatus
    title: str
    unread_count: int
    updated_at: datetime.datetime
    usage: TokenUsage
    usage_by_model: list[ModelUsage]
    last_message_preview: None | str | Unset = UNSET
    model: None | str | Unset = UNSET
    share_expires_at: datetime.datetime | None | Unset = UNSET
    share_token: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        id = self.id

        last_seq = self.last_seq

        status = self.status.value

        title = self.title

        unread_count = self.unread_count

        updated_at = self.updated_at.isoformat()

        usage = self.usage.to_dict()

        usage_by_model = []
        for usage_by_model_item_data in self.usage_by_model:
            usage_by_model_item = usage_by_model_item_data.to_dict()
            usage_by_model.append(usage_by_model_item)

        last_message_preview: None | str | Unset
        if isinstance(self.last_message_preview, Unset):
            last_message_preview = UNSET
        else:
            last_message_preview = self.last_message_preview

        model: None | str | Unset
        if isinstance(self.model, Unset):
            model = UNSET
        else:
            model = self.model

        share_expires_at: None | str | Unset
        if isinstance(self.share_expires_at, Unset):
            share_expires_at = UNSET
        elif isinstance(self.share_expires_at, datetime.datetime):
            share_expires_at = self.share_expires_at.isoformat()
        else:
            share_expires_at = self.share_expires_at

        share_token: None | str | Unset
        if isinstance(self.share_token, Unset):
            share_token = UNSET
        else:
            share_token = self.share_token

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "created_at": created_at,
                "id": id,
                "last_seq": last_seq,
                "status": status,
                "title": title,
                "unread_count": unread_count,
                "updated_at": updated_at,
                "usage": usage,
                "usage_by_model": usage_by_model,
            }
        )
        if last_message_preview is not UNSET:
            field_dict["last_message_preview"] = last_message_preview
        if model is not UNSET:
            field_dict["model"] = model
        if share_expires_at is not UNSET:
            field_dict["share_expires_at"] = share_expires_at
        if share_token is not UNSET:
            field_dict["share_token"] = share_token

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.model_usage import ModelUsage  # noqa: PLC0415
        from ..models.token_usage import TokenUsage  # noqa: PLC0415

        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        id = d.pop("id")

        last_seq = d.pop("last_seq")

        status = SessionStatus(d.pop("status"))

        title = d.pop("title")

        unread_count = d.pop("unread_count")

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        usage = TokenUsage.from_dict(d.pop("usage"))

        usage_by_model = []
        _usage_by_model = d.pop("usage_by_model")
        for usage_by_model_item_data in _usage_by_model:
            usage_by_model_item = ModelUsage.from_dict(usage_by_model_item_data)

            usage_by_model.append(usage_by_model_item)

        def _parse_last_message_preview(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        last_message_preview = _parse_last_message_preview(d.pop("last_message_preview", UNSET))

        def _parse_model(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        model = _parse_model(d.pop("model", UNSET))

        def _parse_share_expires_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                share_expires_at_type_0 = datetime.datetime.fromisoformat(data)

                return share_expires_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        share_expires_at = _parse_share_expires_at(d.pop("share_expires_at", UNSET))

        def _parse_share_token(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        share_token = _parse_share_token(d.pop("share_token", UNSET))

        session_view = cls(
            created_at=created_at,
            id=id,
            last_seq=last_seq,
            status=status,
            title=title,
            unread_count=unread_count,
            updated_at=updated_at,
            usage=usage,
            usage_by_model=usage_by_model,
            last_message_preview=last_message_preview,
            model=model,
            share_expires_at=share_expires_at,
            share_token=share_token,
        )

        session_view.additional_properties = d
        return session_view

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
