# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from enum import StrEnum


class LoggedCallBrowserSelectName(StrEnum):
    BROWSER_SELECT = "browser_select"

    def __str__(self) -> str:
        return str(self.value)
