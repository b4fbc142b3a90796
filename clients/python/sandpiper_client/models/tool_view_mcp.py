# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.tool_view_mcp_kind import ToolViewMcpKind

if TYPE_CHECKING:
    from ..models.mcp_item_image import McpItemImage
    from ..models.mcp_item_resource import McpItemResource
    from ..models.mcp_item_text import McpItemText


T = TypeVar("T", bound="ToolViewMcp")


@_attrs_define
class ToolViewMcp:
    """An MCP tool's result, images inline.

    Attributes:
        content (list[McpItemImage | McpItemResource | McpItemText]):
        is_error (bool):
        kind (ToolViewMcpKind):
        server (str):
        tool (str):
    """

    content: list[McpItemImage | McpItemResource | McpItemText]
    is_error: bool
    kind: ToolViewMcpKind
    server: str
    tool: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.mcp_item_image import McpItemImage  # noqa: PLC0415
        from ..models.mcp_item_text import McpItemText  # noqa: PLC0415

        content = []
        for content_item_data in self.content:
            content_item: dict[str, Any]
            if isinstance(content_item_data, McpItemText):
                content_item = content_item_data.to_dict()
            elif isinstance(content_item_data, McpItemImage):
                content_item = content_item_data.to_dict()
            else:
                content_item = content_item_data.to_dict()

            content.append(content_item)

        is_error = self.is_error

        kind = self.kind.value

        server = self.server

        tool = self.tool

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "content": content,
                "is_error": is_error,
                "kind": kind,
                "server": server,
                "tool": tool,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.mcp_item_image import McpItemImage  # noqa: PLC0415
        from ..models.mcp_item_resource import McpItemResource  # noqa: PLC0415
        from ..models.mcp_item_text import McpItemText  # noqa: PLC0415

        d = dict(src_dict)
        content = []
        _content = d.pop("content")
        for content_item_data in _content:

            def _parse_content_item(data: object) -> McpItemImage | McpItemResource | McpItemText:
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_mcp_item_type_0 = McpItemText.from_dict(data)

                    return componentsschemas_mcp_item_type_0
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_mcp_item_type_1 = McpItemImage.from_dict(data)

                    return componentsschemas_mcp_item_type_1
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_mcp_item_type_2 = McpItemResource.from_dict(data)

                return componentsschemas_mcp_item_type_2

            content_item = _parse_content_item(content_item_data)

            content.append(content_item)

        is_error = d.pop("is_error")

        kind = ToolViewMcpKind(d.pop("kind"))

        server = d.pop("server")

        tool = d.pop("tool")

        tool_view_mcp = cls(
            content=content,
            is_error=is_error,
            kind=kind,
            server=server,
            tool=tool,
        )

        tool_view_mcp.additional_properties = d
        return tool_view_mcp

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
