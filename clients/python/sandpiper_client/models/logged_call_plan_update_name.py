# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from enum import StrEnum


class LoggedCallPlanUpdateName(StrEnum):
    PLAN_UPDATE = "plan_update"

    def __str__(self) -> str:
        return str(self.value)
