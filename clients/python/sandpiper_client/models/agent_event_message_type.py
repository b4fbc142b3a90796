from enum import StrEnum


class AgentEventMessageType(StrEnum):
    MESSAGE = "message"

    def __str__(self) -> str:
        return str(self.value)
