from enum import StrEnum


class ToolViewBrowserKind(StrEnum):
    BROWSER = "browser"

    def __str__(self) -> str:
        return str(self.value)
