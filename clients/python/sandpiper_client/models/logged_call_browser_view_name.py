# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from enum import StrEnum


class LoggedCallBrowserViewName(StrEnum):
    BROWSER_VIEW = "browser_view"

    def __str__(self) -> str:
        return str(self.value)
