# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from enum import StrEnum


class LoggedCallFileWriteName(StrEnum):
    FILE_WRITE = "file_write"

    def __str__(self) -> str:
        return str(self.value)
