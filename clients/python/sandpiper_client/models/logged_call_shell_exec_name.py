# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from enum import StrEnum


class LoggedCallShellExecName(StrEnum):
    SHELL_EXEC = "shell_exec"

    def __str__(self) -> str:
        return str(self.value)
