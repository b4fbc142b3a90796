# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
"""Contains methods for accessing the API"""
