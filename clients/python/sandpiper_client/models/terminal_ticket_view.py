# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="TerminalTicketView")


@_attrs_define
class TerminalTicketView:
    """
    Attributes:
        expires_in_secs (int):
        ticket (str):
        url (str): Where to open the WebSocket (ticket included), relative to the API's origin; add
            `&cols=…&rows=…` for the terminal's size.
    """

    expires_in_secs: int
    ticket: str
    url: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        expires_in_secs = self.expires_in_secs

        ticket = self.ticket

        url = self.url

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "expires_in_secs": expires_in_secs,
                "ticket": ticket,
                "url": url,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        expires_in_secs = d.pop("expires_in_secs")

        ticket = d.pop("ticket")

        url = d.pop("url")

        terminal_ticket_view = cls(
            expires_in_secs=expires_in_secs,
            ticket=ticket,
            url=url,
        )

        terminal_ticket_view.additional_properties = d
        return terminal_ticket_view

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
