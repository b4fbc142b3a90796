# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.logged_call_true_args import LoggedCallTrueArgs


T = TypeVar("T", bound="LoggedCallTrue")


@_attrs_define
class LoggedCallTrue:
    """A call whose arguments have no type here (MCP tools) or did not fit theirs, as the model wrote them.

    Attributes:
        args (LoggedCallTrueArgs):
        name (str):
        written (bool):
    """

    args: LoggedCallTrueArgs
    name: str
    written: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        args = self.args.to_dict()

        name = self.name

        written = self.written

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "args": args,
                "name": name,
                "written": written,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.logged_call_true_args import LoggedCallTrueArgs  # noqa: PLC0415

        d = dict(src_dict)
        args = LoggedCallTrueArgs.from_dict(d.pop("args"))

        name = d.pop("name")

        written = d.pop("written")

        logged_call_true = cls(
            args=args,
            name=name,
            written=written,
        )

        logged_call_true.additional_properties = d
        return logged_call_true

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
