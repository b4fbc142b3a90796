# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.kept_tool_view import KeptToolView
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    everyone: bool | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["everyone"] = everyone

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/toolbox",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | list[KeptToolView] | None:
    if response.status_code == 200:
        response_200 = []
        _response_200 = response.json()
        for response_200_item_data in _response_200:
            response_200_item = KeptToolView.from_dict(response_200_item_data)

            response_200.append(response_200_item)

        return response_200

    if response.status_code == 403:
        response_403 = ErrorBody.from_dict(response.json())

        return response_403

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[ErrorBody | list[KeptToolView]]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    everyone: bool | Unset = UNSET,
) -> Response[ErrorBody | list[KeptToolView]]:
    """Your kept tools, by name (file names and sizes, not their text); with
    `everyone=true`, every person's (admins only).

    Args:
        everyone (bool | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | list[KeptToolView]]
    """

    kwargs = _get_kwargs(
        everyone=everyone,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    everyone: bool | Unset = UNSET,
) -> ErrorBody | list[KeptToolView] | None:
    """Your kept tools, by name (file names and sizes, not their text); with
    `everyone=true`, every person's (admins only).

    Args:
        everyone (bool | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | list[KeptToolView]
    """

    return sync_detailed(
        client=client,
        everyone=everyone,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    everyone: bool | Unset = UNSET,
) -> Response[ErrorBody | list[KeptToolView]]:
    """Your kept tools, by name (file names and sizes, not their text); with
    `everyone=true`, every person's (admins only).

    Args:
        everyone (bool | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | list[KeptToolView]]
    """

    kwargs = _get_kwargs(
        everyone=everyone,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    everyone: bool | Unset = UNSET,
) -> ErrorBody | list[KeptToolView] | None:
    """Your kept tools, by name (file names and sizes, not their text); with
    `everyone=true`, every person's (admins only).

    Args:
        everyone (bool | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | list[KeptToolView]
    """

    return (
        await asyncio_detailed(
            client=client,
            everyone=everyone,
        )
    ).parsed
