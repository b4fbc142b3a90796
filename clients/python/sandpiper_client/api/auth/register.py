# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.registration import Registration
from ...models.signed_in import SignedIn
from ...types import Response


def _get_kwargs(
    *,
    body: Registration,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/auth/register",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | SignedIn | None:
    if response.status_code == 201:
        response_201 = SignedIn.from_dict(response.json())

        return response_201

    if response.status_code == 403:
        response_403 = ErrorBody.from_dict(response.json())

        return response_403

    if response.status_code == 409:
        response_409 = ErrorBody.from_dict(response.json())

        return response_409

    if response.status_code == 422:
        response_422 = ErrorBody.from_dict(response.json())

        return response_422

    if response.status_code == 503:
        response_503 = ErrorBody.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[ErrorBody | SignedIn]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: Registration,
) -> Response[ErrorBody | SignedIn]:
    """Creates an account (`password` mode) as the registration mode allows; the first
    account is an admin, whatever the mode. Sets the refresh cookie.

    Args:
        body (Registration): A new account: in `invite` registration, with the invite's code.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | SignedIn]
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
    body: Registration,
) -> ErrorBody | SignedIn | None:
    """Creates an account (`password` mode) as the registration mode allows; the first
    account is an admin, whatever the mode. Sets the refresh cookie.

    Args:
        body (Registration): A new account: in `invite` registration, with the invite's code.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | SignedIn
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: Registration,
) -> Response[ErrorBody | SignedIn]:
    """Creates an account (`password` mode) as the registration mode allows; the first
    account is an admin, whatever the mode. Sets the refresh cookie.

    Args:
        body (Registration): A new account: in `invite` registration, with the invite's code.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | SignedIn]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: Registration,
) -> ErrorBody | SignedIn | None:
    """Creates an account (`password` mode) as the registration mode allows; the first
    account is an admin, whatever the mode. Sets the refresh cookie.

    Args:
        body (Registration): A new account: in `invite` registration, with the invite's code.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | SignedIn
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
