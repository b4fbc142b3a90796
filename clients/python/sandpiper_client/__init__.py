# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
"""A client library for accessing Sandpiper API"""

from .client import AuthenticatedClient, Client

__all__ = (
    "AuthenticatedClient",
    "Client",
)
