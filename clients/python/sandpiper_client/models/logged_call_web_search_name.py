# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from enum import StrEnum


class LoggedCallWebSearchName(StrEnum):
    WEB_SEARCH = "web_search"

    def __str__(self) -> str:
        return str(self.value)
