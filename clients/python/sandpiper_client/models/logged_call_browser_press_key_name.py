# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from enum import StrEnum


class LoggedCallBrowserPressKeyName(StrEnum):
    BROWSER_PRESS_KEY = "browser_press_key"

    def __str__(self) -> str:
        return str(self.value)
