from enum import StrEnum


class ToolViewSearchKind(StrEnum):
    SEARCH = "search"

    def __str__(self) -> str:
        return str(self.value)
