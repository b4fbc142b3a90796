# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from enum import StrEnum


class LoggedCallCodeRunName(StrEnum):
    CODE_RUN = "code_run"

    def __str__(self) -> str:
        return str(self.value)
