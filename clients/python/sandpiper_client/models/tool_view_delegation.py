# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.tool_view_delegation_kind import ToolViewDelegationKind
from ..types import UNSET, Unset

T = TypeVar("T", bound="ToolViewDelegation")


@_attrs_define
class ToolViewDelegation:
    """A task a sub-agent did: the model it used, where it worked, its answer and the
    files it handed back into the delegating agent's sandbox.

        Attributes:
            answer (str):
            kind (ToolViewDelegationKind):
            model (str):
            own_sandbox (bool):
            files (list[str] | Unset):
    """

    answer: str
    kind: ToolViewDelegationKind
    model: str
    own_sandbox: bool
    files: list[str] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        answer = self.answer

        kind = self.kind.value

        model = self.model

        own_sandbox = self.own_sandbox

        files: list[str] | Unset = UNSET
        if not isinstance(self.files, Unset):
            files = self.files

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "answer": answer,
                "kind": kind,
                "model": model,
                "own_sandbox": own_sandbox,
            }
        )
        if files is not UNSET:
            field_dict["files"] = files

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        answer = d.pop("answer")

        kind = ToolViewDelegationKind(d.pop("kind"))

        model = d.pop("model")

        own_sandbox = d.pop("own_sandbox")

        files = cast(list[str], d.pop("files", UNSET))

        tool_view_delegation = cls(
            answer=answer,
            kind=kind,
            model=model,
            own_sandbox=own_sandbox,
            files=files,
        )

        tool_view_delegation.additional_properties = d
        return tool_view_delegation

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
