from enum import StrEnum


class AgentEventPlanType(StrEnum):
    PLAN = "plan"

    def __str__(self) -> str:
        return str(self.value)
