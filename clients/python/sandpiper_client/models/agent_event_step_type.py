from enum import StrEnum


class AgentEventStepType(StrEnum):
    STEP = "step"

    def __str__(self) -> str:
        return str(self.value)
