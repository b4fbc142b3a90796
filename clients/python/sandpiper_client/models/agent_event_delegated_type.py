from enum import StrEnum


class AgentEventDelegatedType(StrEnum):
    DELEGATED = "delegated"

    def __str__(self) -> str:
        return str(self.value)
