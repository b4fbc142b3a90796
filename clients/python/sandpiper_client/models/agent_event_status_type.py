from enum import StrEnum


class AgentEventStatusType(StrEnum):
    STATUS = "status"

    def __str__(self) -> str:
        return str(self.value)
