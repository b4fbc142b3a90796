from enum import StrEnum


class CodeOutputTextType(StrEnum):
    TEXT = "text"

    def __str__(self) -> str:
        return str(self.value)
