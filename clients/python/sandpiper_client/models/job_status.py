# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from enum import StrEnum


class JobStatus(StrEnum):
    CANCELLED = "cancelled"
    FAILED = "failed"
    QUEUED = "queued"
    RUNNING = "running"
    SUCCEEDED = "succeeded"
    WAITING = "waiting"

    def __str__(self) -> str:
        return str(self.value)
