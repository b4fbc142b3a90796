from enum import StrEnum


class AgentEventErrorType(StrEnum):
    ERROR = "error"

    def __str__(self) -> str:
        return str(self.value)
