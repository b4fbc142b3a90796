# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from enum import StrEnum


class LoggedCallBrowserScrollName(StrEnum):
    BROWSER_SCROLL = "browser_scroll"

    def __str__(self) -> str:
        return str(self.value)
