# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from enum import StrEnum


class DesktopState(StrEnum):
    DISABLED = "disabled"
    NO_SANDBOX = "no_sandbox"
    RUNNING = "running"
    STARTING = "starting"
    STOPPED = "stopped"

    def __str__(self) -> str:
        return str(self.value)
