from enum import StrEnum


class ToolViewResultKind(StrEnum):
    RESULT = "result"

    def __str__(self) -> str:
        return str(self.value)
