from enum import StrEnum


class McpItemResourceType(StrEnum):
    RESOURCE = "resource"

    def __str__(self) -> str:
        return str(self.value)
