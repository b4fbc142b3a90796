from enum import StrEnum


class ToolStatus(StrEnum):
    CALLED = "called"
    CALLING = "calling"

    def __str__(self) -> str:
        return str(self.value)
