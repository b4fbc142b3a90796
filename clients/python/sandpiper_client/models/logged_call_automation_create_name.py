# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from enum import StrEnum


class LoggedCallAutomationCreateName(StrEnum):
    AUTOMATION_CREATE = "automation_create"

    def __str__(self) -> str:
        return str(self.value)
