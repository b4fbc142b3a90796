# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from enum import StrEnum


class MissedRuns(StrEnum):
    RUN_ONCE = "run_once"
    SKIP = "skip"

    def __str__(self) -> str:
        return str(self.value)
