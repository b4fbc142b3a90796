# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from enum import StrEnum


class FiredBy(StrEnum):
    AT = "at"
    MANUAL = "manual"
    PAUSED = "paused"
    SCHEDULE = "schedule"
    WEBHOOK = "webhook"

    def __str__(self) -> str:
        return str(self.value)
