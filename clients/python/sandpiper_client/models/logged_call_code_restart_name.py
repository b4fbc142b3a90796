# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from enum import StrEnum


class LoggedCallCodeRestartName(StrEnum):
    CODE_RESTART = "code_restart"

    def __str__(self) -> str:
        return str(self.value)
