# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
"""Contains endpoint functions for accessing the API"""
