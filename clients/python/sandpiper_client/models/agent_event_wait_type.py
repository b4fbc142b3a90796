from enum import StrEnum


class AgentEventWaitType(StrEnum):
    WAIT = "wait"

    def __str__(self) -> str:
        return str(self.value)
