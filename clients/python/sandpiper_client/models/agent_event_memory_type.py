from enum import StrEnum


class AgentEventMemoryType(StrEnum):
    MEMORY = "memory"

    def __str__(self) -> str:
        return str(self.value)
