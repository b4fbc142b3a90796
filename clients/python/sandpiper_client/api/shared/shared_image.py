# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...types import Response


def _get_kwargs(
    token: str,
    image: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/shared/{token}/screenshots/{image}".format(
            token=quote(str(token), safe=""),
            image=quote(str(image), safe=""),
        ),
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | list[int] | None:
    if response.status_code == 200:
        response_200 = cast(list[int], response.content)

        return response_200

    if response.status_code == 404:
        response_404 = ErrorBody.from_dict(response.json())

        return response_404

    if response.status_code == 410:
        response_410 = ErrorBody.from_dict(response.json())

        return response_410

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[ErrorBody | list[int]]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    token: str,
    image: str,
    *,
    client: AuthenticatedClient,
) -> Response[ErrorBody | list[int]]:
    """An image from a shared session (no sign-in needed).

    Args:
        token (str):
        image (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | list[int]]
    """

    kwargs = _get_kwargs(
        token=token,
        image=image,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    token: str,
    image: str,
    *,
    client: AuthenticatedClient,
) -> ErrorBody | list[int] | None:
    """An image from a shared session (no sign-in needed).

    Args:
        token (str):
        image (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | list[int]
    """

    return sync_detailed(
        token=token,
        image=image,
        client=client,
    ).parsed


async def asyncio_detailed(
    token: str,
    image: str,
    *,
    client: AuthenticatedClient,
) -> Response[ErrorBody | list[int]]:
    """An image from a shared session (no sign-in needed).

    Args:
        token (str):
        image (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | list[int]]
    """

    kwargs = _get_kwargs(
        token=token,
        image=image,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    token: str,
    image: str,
    *,
    client: AuthenticatedClient,
) -> ErrorBody | list[int] | None:
    """An image from a shared session (no sign-in needed).

    Args:
        token (str):
        image (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | list[int]
    """

    return (
        await asyncio_detailed(
            token=token,
            image=image,
            client=client,
        )
    ).parsed
