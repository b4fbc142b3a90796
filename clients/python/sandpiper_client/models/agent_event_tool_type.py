from enum import StrEnum


class AgentEventToolType(StrEnum):
    TOOL = "tool"

    def __str__(self) -> str:
        return str(self.value)
