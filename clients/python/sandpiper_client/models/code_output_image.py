# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.code_output_image_type import CodeOutputImageType
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.image_ref import ImageRef


T = TypeVar("T", bound="CodeOutputImage")


@_attrs_define
class CodeOutputImage:
    """A chart: `image` once stored (`None` when it could not be), its size when known.

    Attributes:
        type_ (CodeOutputImageType):
        height (int | None | Unset):
        image (ImageRef | None | Unset):
        width (int | None | Unset):
    """

    type_: CodeOutputImageType
    height: int | None | Unset = UNSET
    image: ImageRef | None | Unset = UNSET
    width: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.image_ref import ImageRef  # noqa: PLC0415

        type_ = self.type_.value

        height: int | None | Unset
        if isinstance(self.height, Unset):
            height = UNSET
        else:
            height = self.height

        image: dict[str, Any] | None | Unset
        if isinstance(self.image, Unset):
            image = UNSET
        elif isinstance(self.image, ImageRef):
            image = self.image.to_dict()
        else:
            image = self.image

        width: int | None | Unset
        if isinstance(self.width, Unset):
            width = UNSET
        else:
            width = self.width

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
            }
        )
        if height is not UNSET:
            field_dict["height"] = height
        if image is not UNSET:
            field_dict["image"] = image
        if width is not UNSET:
            field_dict["width"] = width

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.image_ref import ImageRef  # noqa: PLC0415

        d = dict(src_dict)
        type_ = CodeOutputImageType(d.pop("type"))

        def _parse_height(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        height = _parse_height(d.pop("height", UNSET))

        def _parse_image(data: object) -> ImageRef | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                image_type_1 = ImageRef.from_dict(data)

                return image_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ImageRef | None | Unset, data)

        image = _parse_image(d.pop("image", UNSET))

        def _parse_width(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        width = _parse_width(d.pop("width", UNSET))

        code_output_image = cls(
            type_=type_,
            height=height,
            image=image,
            width=width,
        )

        code_output_image.additional_properties = d
        return code_output_image

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
