# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.tool_view_browser_kind import ToolViewBrowserKind
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.image_ref import ImageRef


T = TypeVar("T", bound="ToolViewBrowser")


@_attrs_define
class ToolViewBrowser:
    """The browser's page after an action, with its picture when one was stored.

    Attributes:
        kind (ToolViewBrowserKind):
        title (str):
        url (str):
        screenshot (ImageRef | None | Unset):
    """

    kind: ToolViewBrowserKind
    title: str
    url: str
    screenshot: ImageRef | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.image_ref import ImageRef  # noqa: PLC0415

        kind = self.kind.value

        title = self.title

        url = self.url

        screenshot: dict[str, Any] | None | Unset
        if isinstance(self.screenshot, Unset):
            screenshot = UNSET
        elif isinstance(self.screenshot, ImageRef):
            screenshot = self.screenshot.to_dict()
        else:
            screenshot = self.screenshot

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "kind": kind,
                "title": title,
                "url": url,
            }
        )
        if screenshot is not UNSET:
            field_dict["screenshot"] = screenshot

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.image_ref import ImageRef  # noqa: PLC0415

        d = dict(src_dict)
        kind = ToolViewBrowserKind(d.pop("kind"))

        title = d.pop("title")

        url = d.pop("url")

        def _parse_screenshot(data: object) -> ImageRef | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                screenshot_type_1 = ImageRef.from_dict(data)

                return screenshot_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ImageRef | None | Unset, data)

        screenshot = _parse_screenshot(d.pop("screenshot", UNSET))

        tool_view_browser = cls(
            kind=kind,
            title=title,
            url=url,
            screenshot=screenshot,
        )

        tool_view_browser.additional_properties = d
        return tool_view_browser

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
