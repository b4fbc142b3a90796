# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="PublishTool")


@_attrs_define
class PublishTool:
    """
    Attributes:
        kept_at (datetime.datetime): The `kept_at` of the kept tool whose code you read (from `GET
            /api/v1/toolbox/{id}`): publishing is refused (409) when its owner kept it anew
            since, so what is published is what you read.
    """

    kept_at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        kept_at = self.kept_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "kept_at": kept_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        kept_at = datetime.datetime.fromisoformat(d.pop("kept_at"))

        publish_tool = cls(
            kept_at=kept_at,
        )

        return publish_tool
