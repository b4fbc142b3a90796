# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from enum import StrEnum


class McpTransportKind(StrEnum):
    HTTP = "http"
    STDIO = "stdio"

    def __str__(self) -> str:
        return str(self.value)
