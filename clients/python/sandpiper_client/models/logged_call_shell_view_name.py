# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from enum import StrEnum


class LoggedCallShellViewName(StrEnum):
    SHELL_VIEW = "shell_view"

    def __str__(self) -> str:
        return str(self.value)
