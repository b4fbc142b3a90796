from enum import StrEnum


class AgentEventTitleType(StrEnum):
    TITLE = "title"

    def __str__(self) -> str:
        return str(self.value)
