# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from enum import StrEnum


class LoggedCallSetTitleName(StrEnum):
    SET_TITLE = "set_title"

    def __str__(self) -> str:
        return str(self.value)
