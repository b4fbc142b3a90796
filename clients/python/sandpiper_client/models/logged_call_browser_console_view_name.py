# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from enum import StrEnum


class LoggedCallBrowserConsoleViewName(StrEnum):
    BROWSER_CONSOLE_VIEW = "browser_console_view"

    def __str__(self) -> str:
        return str(self.value)
