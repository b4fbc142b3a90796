# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.mcp_server_input import McpServerInput
from ...models.mcp_server_view import McpServerView
from ...types import Response


def _get_kwargs(
    name: str,
    *,
    body: McpServerInput,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/api/v1/admin/mcp/servers/{name}".format(
            name=quote(str(name), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | McpServerView | None:
    if response.status_code == 200:
        response_200 = McpServerView.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = ErrorBody.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = ErrorBody.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = ErrorBody.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = ErrorBody.from_dict(response.json())

        return response_404

    if response.status_code == 422:
        response_422 = ErrorBody.from_dict(response.json())

        return response_422

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[ErrorBody | McpServerView]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    name: str,
    *,
    client: AuthenticatedClient | Client,
    body: McpServerInput,
) -> Response[ErrorBody | McpServerView]:
    """Changes the fields given (admins only): `enabled`, and the transport's fields. In
    `headers` and `env` the keys given replace the stored set, and a key whose value is
    `null` keeps its stored value.

    Args:
        name (str):
        body (McpServerInput): A server's fields as an admin sends them: all that are needed to
            add a server, only
            those that change to edit one. In `headers` and `env`, the keys given are the new set
            and a `null` value keeps the stored value of that key.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | McpServerView]
    """

    kwargs = _get_kwargs(
        name=name,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    name: str,
    *,
    client: AuthenticatedClient | Client,
    body: McpServerInput,
) -> ErrorBody | McpServerView | None:
    """Changes the fields given (admins only): `enabled`, and the transport's fields. In
    `headers` and `env` the keys given replace the stored set, and a key whose value is
    `null` keeps its stored value.

    Args:
        name (str):
        body (McpServerInput): A server's fields as an admin sends them: all that are needed to
            add a server, only
            those that change to edit one. In `headers` and `env`, the keys given are the new set
            and a `null` value keeps the stored value of that key.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | McpServerView
    """

    return sync_detailed(
        name=name,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    name: str,
    *,
    client: AuthenticatedClient | Client,
    body: McpServerInput,
) -> Response[ErrorBody | McpServerView]:
    """Changes the fields given (admins only): `enabled`, and the transport's fields. In
    `headers` and `env` the keys given replace the stored set, and a key whose value is
    `null` keeps its stored value.

    Args:
        name (str):
        body (McpServerInput): A server's fields as an admin sends them: all that are needed to
            add a server, only
            those that change to edit one. In `headers` and `env`, the keys given are the new set
            and a `null` value keeps the stored value of that key.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | McpServerView]
    """

    kwargs = _get_kwargs(
        name=name,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    name: str,
    *,
    client: AuthenticatedClient | Client,
    body: McpServerInput,
) -> ErrorBody | McpServerView | None:
    """Changes the fields given (admins only): `enabled`, and the transport's fields. In
    `headers` and `env` the keys given replace the stored set, and a key whose value is
    `null` keeps its stored value.

    Args:
        name (str):
        body (McpServerInput): A server's fields as an admin sends them: all that are needed to
            add a server, only
            those that change to edit one. In `headers` and `env`, the keys given are the new set
            and a `null` value keeps the stored value of that key.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | McpServerView
    """

    return (
        await asyncio_detailed(
            name=name,
            client=client,
            body=body,
        )
    ).parsed
