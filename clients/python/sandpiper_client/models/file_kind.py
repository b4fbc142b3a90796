# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from enum import StrEnum


class FileKind(StrEnum):
    DIR = "dir"
    FILE = "file"
    OTHER = "other"
    SYMLINK = "symlink"

    def __str__(self) -> str:
        return str(self.value)
