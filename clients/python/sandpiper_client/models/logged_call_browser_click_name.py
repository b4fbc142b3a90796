# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from enum import StrEnum


class LoggedCallBrowserClickName(StrEnum):
    BROWSER_CLICK = "browser_click"

    def __str__(self) -> str:
        return str(self.value)
