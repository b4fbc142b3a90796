# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from enum import StrEnum


class LoggedCallMessageNotifyUserName(StrEnum):
    MESSAGE_NOTIFY_USER = "message_notify_user"

    def __str__(self) -> str:
        return str(self.value)
