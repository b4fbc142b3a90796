from enum import StrEnum


class McpItemImageType(StrEnum):
    IMAGE = "image"

    def __str__(self) -> str:
        return str(self.value)
