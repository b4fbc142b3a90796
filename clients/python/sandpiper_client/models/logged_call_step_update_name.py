# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from enum import StrEnum


class LoggedCallStepUpdateName(StrEnum):
    STEP_UPDATE = "step_update"

    def __str__(self) -> str:
        return str(self.value)
