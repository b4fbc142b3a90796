from enum import StrEnum


class ToolViewErrorKind(StrEnum):
    ERROR = "error"

    def __str__(self) -> str:
        return str(self.value)
