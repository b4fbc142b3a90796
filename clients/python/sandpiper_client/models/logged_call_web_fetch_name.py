# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from enum import StrEnum


class LoggedCallWebFetchName(StrEnum):
    WEB_FETCH = "web_fetch"

    def __str__(self) -> str:
        return str(self.value)
