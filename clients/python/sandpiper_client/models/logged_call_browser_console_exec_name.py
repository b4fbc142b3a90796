# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from enum import StrEnum


class LoggedCallBrowserConsoleExecName(StrEnum):
    BROWSER_CONSOLE_EXEC = "browser_console_exec"

    def __str__(self) -> str:
        return str(self.value)
