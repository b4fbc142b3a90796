from enum import StrEnum


class ToolViewCodeKind(StrEnum):
    CODE = "code"

    def __str__(self) -> str:
        return str(self.value)
