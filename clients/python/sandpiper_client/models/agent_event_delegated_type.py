# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from enum import StrEnum


class AgentEventDelegatedType(StrEnum):
    DELEGATED = "delegated"

    def __str__(self) -> str:
        return str(self.value)
