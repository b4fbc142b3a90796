from enum import StrEnum


class RegistrationMode(StrEnum):
    CLOSED = "closed"
    INVITE = "invite"
    OPEN = "open"

    def __str__(self) -> str:
        return str(self.value)
