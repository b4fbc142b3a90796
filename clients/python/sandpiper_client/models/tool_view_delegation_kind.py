from enum import StrEnum


class ToolViewDelegationKind(StrEnum):
    DELEGATION = "delegation"

    def __str__(self) -> str:
        return str(self.value)
