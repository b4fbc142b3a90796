# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from enum import StrEnum


class RegistrationMode(StrEnum):
    CLOSED = "closed"
    INVITE = "invite"
    OPEN = "open"

    def __str__(self) -> str:
        return str(self.value)
