# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.keep_tool import KeepTool
from ...models.kept_tool_view import KeptToolView
from ...types import Response


def _get_kwargs(
    *,
    body: KeepTool,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/toolbox",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | KeptToolView | None:
    if response.status_code == 201:
        response_201 = KeptToolView.from_dict(response.json())

        return response_201

    if response.status_code == 404:
        response_404 = ErrorBody.from_dict(response.json())

        return response_404

    if response.status_code == 409:
        response_409 = ErrorBody.from_dict(response.json())

        return response_409

    if response.status_code == 413:
        response_413 = ErrorBody.from_dict(response.json())

        return response_413

    if response.status_code == 422:
        response_422 = ErrorBody.from_dict(response.json())

        return response_422

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[ErrorBody | KeptToolView]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: KeepTool,
) -> Response[ErrorBody | KeptToolView]:
    """Keeps a tool the agent registered in one of your chats: its command, its tools and
    its files (the folder holding the script the command names, inside the sandbox's
    home; the script alone when that is the home or the workspace). Keeping one of a
    name you keep already replaces it (and withdraws its publication).

    Args:
        body (KeepTool):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | KeptToolView]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    body: KeepTool,
) -> ErrorBody | KeptToolView | None:
    """Keeps a tool the agent registered in one of your chats: its command, its tools and
    its files (the folder holding the script the command names, inside the sandbox's
    home; the script alone when that is the home or the workspace). Keeping one of a
    name you keep already replaces it (and withdraws its publication).

    Args:
        body (KeepTool):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | KeptToolView
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: KeepTool,
) -> Response[ErrorBody | KeptToolView]:
    """Keeps a tool the agent registered in one of your chats: its command, its tools and
    its files (the folder holding the script the command names, inside the sandbox's
    home; the script alone when that is the home or the workspace). Keeping one of a
    name you keep already replaces it (and withdraws its publication).

    Args:
        body (KeepTool):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | KeptToolView]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: KeepTool,
) -> ErrorBody | KeptToolView | None:
    """Keeps a tool the agent registered in one of your chats: its command, its tools and
    its files (the folder holding the script the command names, inside the sandbox's
    home; the script alone when that is the home or the workspace). Keeping one of a
    name you keep already replaces it (and withdraws its publication).

    Args:
        body (KeepTool):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | KeptToolView
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
