# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from enum import StrEnum


class LoggedCallMessageAskUserName(StrEnum):
    MESSAGE_ASK_USER = "message_ask_user"

    def __str__(self) -> str:
        return str(self.value)
