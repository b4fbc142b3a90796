# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from enum import StrEnum


class LoggedCallFileReadName(StrEnum):
    FILE_READ = "file_read"

    def __str__(self) -> str:
        return str(self.value)
