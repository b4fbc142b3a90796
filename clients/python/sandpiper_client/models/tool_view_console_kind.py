# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from enum import StrEnum


class ToolViewConsoleKind(StrEnum):
    CONSOLE = "console"

    def __str__(self) -> str:
        return str(self.value)
