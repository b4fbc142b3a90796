from enum import StrEnum


class AgentEventUsageType(StrEnum):
    USAGE = "usage"

    def __str__(self) -> str:
        return str(self.value)
