from enum import StrEnum


class AgentEventDoneType(StrEnum):
    DONE = "done"

    def __str__(self) -> str:
        return str(self.value)
