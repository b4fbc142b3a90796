from enum import StrEnum


class ToolViewMcpKind(StrEnum):
    MCP = "mcp"

    def __str__(self) -> str:
        return str(self.value)
