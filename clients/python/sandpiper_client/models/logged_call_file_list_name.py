# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from enum import StrEnum


class LoggedCallFileListName(StrEnum):
    FILE_LIST = "file_list"

    def __str__(self) -> str:
        return str(self.value)
