# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.prices import Prices


T = TypeVar("T", bound="ModelView")


@_attrs_define
class ModelView:
    """One offered model.

    Attributes:
        context_tokens (int): The context window, in tokens.
        default (bool): The model a session or job gets when it names none.
        name (str): What a session's or a job's `model` names.
        supports_images (bool):
        supports_tools (bool): Whether it calls tools; the agent cannot work with a model that does not.
        prices (None | Prices | Unset):
    """

    context_tokens: int
    default: bool
    name: str
    supports_images: bool
    supports_tools: bool
    prices: None | Prices | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.prices import Prices  # noqa: PLC0415

        context_tokens = self.context_tokens

        default = self.default

        name = self.name

        supports_images = self.supports_images

        supports_tools = self.supports_tools

        prices: dict[str, Any] | None | Unset
        if isinstance(self.prices, Unset):
            prices = UNSET
        elif isinstance(self.prices, Prices):
            prices = self.prices.to_dict()
        else:
            prices = self.prices

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "context_tokens": context_tokens,
                "default": default,
                "name": name,
                "supports_images": supports_images,
                "supports_tools": supports_tools,
            }
        )
        if prices is not UNSET:
            field_dict["prices"] = prices

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.prices import Prices  # noqa: PLC0415

        d = dict(src_dict)
        context_tokens = d.pop("context_tokens")

        default = d.pop("default")

        name = d.pop("name")

        supports_images = d.pop("supports_images")

        supports_tools = d.pop("supports_tools")

        def _parse_prices(data: object) -> None | Prices | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                prices_type_1 = Prices.from_dict(data)

                return prices_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Prices | Unset, data)

        prices = _parse_prices(d.pop("prices", UNSET))

        model_view = cls(
            context_tokens=context_tokens,
            default=default,
            name=name,
            supports_images=supports_images,
            supports_tools=supports_tools,
            prices=prices,
        )

        model_view.additional_properties = d
        return model_view

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
