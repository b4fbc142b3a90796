# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.new_attachment import NewAttachment


T = TypeVar("T", bound="NewJobBody")


@_attrs_define
class NewJobBody:
    """
    Attributes:
        prompt (str): What to do, as a person would write it in a chat.
        attachments (list[NewAttachment] | Unset): Files for the job, written to its workspace as `uploads/<name>`
            before the agent
            starts and named with the prompt: at most 20, at most 10 MiB decoded together
            (the operator's `BACKEND_JOBS__MAX_ATTACHMENT_BYTES`; 413 past it).
        model (None | str | Unset): The model to run it with: one of `GET /api/v1/models`' names (the default model
            when left out); another name is refused (422) rather than ignored.
        network (None | str | Unset): `internet` or `offline`; default: the sandbox-manager's.
        timeout_secs (int | None | Unset): How long the job may take from its start, waiting included (default 1800).
        title (None | str | Unset): The session's title; defaults to the start of the prompt.
        webhook_url (None | str | Unset): Gets the job (as `GET /jobs/{id}` shows it) when it starts waiting and when it
            ends, signed; a public address unless the operator allows private ones.
    """

    prompt: str
    attachments: list[NewAttachment] | Unset = UNSET
    model: None | str | Unset = UNSET
    network: None | str | Unset = UNSET
    timeout_secs: int | None | Unset = UNSET
    title: None | str | Unset = UNSET
    webhook_url: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        prompt = self.prompt

        attachments: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.attachments, Unset):
            attachments = []
            for attachments_item_data in self.attachments:
                attachments_item = attachments_item_data.to_dict()
                attachments.append(attachments_item)

        model: None | str | Unset
        if isinstance(self.model, Unset):
            model = UNSET
        else:
            model = self.model

        network: None | str | Unset
        if isinstance(self.network, Unset):
            network = UNSET
        else:
            network = self.network

        timeout_secs: int | None | Unset
        if isinstance(self.timeout_secs, Unset):
            timeout_secs = UNSET
        else:
            timeout_secs = self.timeout_secs

        title: None | str | Unset
        if isinstance(self.title, Unset):
            title = UNSET
        else:
            title = self.title

        webhook_url: None | str | Unset
        if isinstance(self.webhook_url, Unset):
            webhook_url = UNSET
        else:
            webhook_url = self.webhook_url

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "prompt": prompt,
            }
        )
        if attachments is not UNSET:
            field_dict["attachments"] = attachments
        if model is not UNSET:
            field_dict["model"] = model
        if network is not UNSET:
            field_dict["network"] = network
        if timeout_secs is not UNSET:
            field_dict["timeout_secs"] = timeout_secs
        if title is not UNSET:
            field_dict["title"] = title
        if webhook_url is not UNSET:
            field_dict["webhook_url"] = webhook_url

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.new_attachment import NewAttachment  # noqa: PLC0415

        d = dict(src_dict)
        prompt = d.pop("prompt")

        _attachments = d.pop("attachments", UNSET)
        attachments: list[NewAttachment] | Unset = UNSET
        if _attachments is not UNSET:
            attachments = []
            for attachments_item_data in _attachments:
                attachments_item = NewAttachment.from_dict(attachments_item_data)

                attachments.append(attachments_item)

        def _parse_model(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        model = _parse_model(d.pop("model", UNSET))

        def _parse_network(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        network = _parse_network(d.pop("network", UNSET))

        def _parse_timeout_secs(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        timeout_secs = _parse_timeout_secs(d.pop("timeout_secs", UNSET))

        def _parse_title(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        title = _parse_title(d.pop("title", UNSET))

        def _parse_webhook_url(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        webhook_url = _parse_webhook_url(d.pop("webhook_url", UNSET))

        new_job_body = cls(
            prompt=prompt,
            attachments=attachments,
            model=model,
            network=network,
            timeout_secs=timeout_secs,
            title=title,
            webhook_url=webhook_url,
        )

        new_job_body.additional_properties = d
        return new_job_body

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
