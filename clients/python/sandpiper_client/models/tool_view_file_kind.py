from enum import StrEnum


class ToolViewFileKind(StrEnum):
    FILE = "file"

    def __str__(self) -> str:
        return str(self.value)
