# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.rotated_secret import RotatedSecret
from ...types import Response


def _get_kwargs(
    id: str,
    trigger_id: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/automations/{id}/triggers/{trigger_id}/rotate".format(
            id=quote(str(id), safe=""),
            trigger_id=quote(str(trigger_id), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | RotatedSecret | None:
    if response.status_code == 200:
        response_200 = RotatedSecret.from_dict(response.json())

        return response_200

    if response.status_code == 404:
        response_404 = ErrorBody.from_dict(response.json())

        return response_404

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[ErrorBody | RotatedSecret]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: str,
    trigger_id: str,
    *,
    client: AuthenticatedClient | Client,
) -> Response[ErrorBody | RotatedSecret]:
    """A new signing secret for a webhook trigger; the old one is still taken until
    `previous_valid_until`, so senders can move to the new one without losing deliveries.

    Args:
        id (str):
        trigger_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | RotatedSecret]
    """

    kwargs = _get_kwargs(
        id=id,
        trigger_id=trigger_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    trigger_id: str,
    *,
    client: AuthenticatedClient | Client,
) -> ErrorBody | RotatedSecret | None:
    """A new signing secret for a webhook trigger; the old one is still taken until
    `previous_valid_until`, so senders can move to the new one without losing deliveries.

    Args:
        id (str):
        trigger_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | RotatedSecret
    """

    return sync_detailed(
        id=id,
        trigger_id=trigger_id,
        client=client,
    ).parsed


async def asyncio_detailed(
    id: str,
    trigger_id: str,
    *,
    client: AuthenticatedClient | Client,
) -> Response[ErrorBody | RotatedSecret]:
    """A new signing secret for a webhook trigger; the old one is still taken until
    `previous_valid_until`, so senders can move to the new one without losing deliveries.

    Args:
        id (str):
        trigger_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | RotatedSecret]
    """

    kwargs = _get_kwargs(
        id=id,
        trigger_id=trigger_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    trigger_id: str,
    *,
    client: AuthenticatedClient | Client,
) -> ErrorBody | RotatedSecret | None:
    """A new signing secret for a webhook trigger; the old one is still taken until
    `previous_valid_until`, so senders can move to the new one without losing deliveries.

    Args:
        id (str):
        trigger_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | RotatedSecret
    """

    return (
        await asyncio_detailed(
            id=id,
            trigger_id=trigger_id,
            client=client,
        )
    ).parsed
