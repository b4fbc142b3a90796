# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from enum import StrEnum


class LoggedCallShellKillName(StrEnum):
    SHELL_KILL = "shell_kill"

    def __str__(self) -> str:
        return str(self.value)
