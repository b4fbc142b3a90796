# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from enum import StrEnum


class LoggedCallShellWriteInputName(StrEnum):
    SHELL_WRITE_INPUT = "shell_write_input"

    def __str__(self) -> str:
        return str(self.value)
