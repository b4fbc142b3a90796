from enum import StrEnum


class CodeOutputImageType(StrEnum):
    IMAGE = "image"

    def __str__(self) -> str:
        return str(self.value)
