# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from enum import StrEnum


class LoggedCallToolRegisterName(StrEnum):
    TOOL_REGISTER = "tool_register"

    def __str__(self) -> str:
        return str(self.value)
