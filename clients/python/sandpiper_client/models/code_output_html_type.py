from enum import StrEnum


class CodeOutputHtmlType(StrEnum):
    HTML = "html"

    def __str__(self) -> str:
        return str(self.value)
