# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="LoggedCallDelegateArgs")


@_attrs_define
class LoggedCallDelegateArgs:
    """
    Attributes:
        task (str): Everything the sub-agent needs to know: it sees nothing of this conversation.
        model (None | str | Unset): One of the models listed in your instructions; the deployment's implementer model
            when left out.
        own_sandbox (bool | Unset): Give the sub-agent a sandbox of its own (a fresh machine) instead of working in
            yours; it is removed when the sub-agent ends.
        return_files (list[str] | Unset): Files of the sub-agent's sandbox to copy into yours, at the same paths, when
            it
            ends; only with `own_sandbox`. Paths relative to the workspace (`out/report.md`),
            at most 20, regular files of at most 100 MiB each.
    """

    task: str
    model: None | str | Unset = UNSET
    own_sandbox: bool | Unset = UNSET
    return_files: list[str] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        task = self.task

        model: None | str | Unset
        if isinstance(self.model, Unset):
            model = UNSET
        else:
            model = self.model

        own_sandbox = self.own_sandbox

        return_files: list[str] | Unset = UNSET
        if not isinstance(self.return_files, Unset):
            return_files = self.return_files

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "task": task,
            }
        )
        if model is not UNSET:
            field_dict["model"] = model
        if own_sandbox is not UNSET:
            field_dict["own_sandbox"] = own_sandbox
        if return_files is not UNSET:
            field_dict["return_files"] = return_files

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        task = d.pop("task")

        def _parse_model(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        model = _parse_model(d.pop("model", UNSET))

        own_sandbox = d.pop("own_sandbox", UNSET)

        return_files = cast(list[str], d.pop("return_files", UNSET))

        logged_call_delegate_args = cls(
            task=task,
            model=model,
            own_sandbox=own_sandbox,
            return_files=return_files,
        )

        return logged_call_delegate_args
