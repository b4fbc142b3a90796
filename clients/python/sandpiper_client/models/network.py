from enum import StrEnum


class Network(StrEnum):
    INTERNET = "internet"
    OFFLINE = "offline"

    def __str__(self) -> str:
        return str(self.value)
