from enum import StrEnum


class McpItemTextType(StrEnum):
    TEXT = "text"

    def __str__(self) -> str:
        return str(self.value)
