from enum import StrEnum


class ApiKeyScope(StrEnum):
    FULL = "full"
    JOBS = "jobs"

    def __str__(self) -> str:
        return str(self.value)
