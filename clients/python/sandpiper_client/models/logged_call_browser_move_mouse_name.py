# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from enum import StrEnum


class LoggedCallBrowserMoveMouseName(StrEnum):
    BROWSER_MOVE_MOUSE = "browser_move_mouse"

    def __str__(self) -> str:
        return str(self.value)
