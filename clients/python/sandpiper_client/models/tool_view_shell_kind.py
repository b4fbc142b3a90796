from enum import StrEnum


class ToolViewShellKind(StrEnum):
    SHELL = "shell"

    def __str__(self) -> str:
        return str(self.value)
