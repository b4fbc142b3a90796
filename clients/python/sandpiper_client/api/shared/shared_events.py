# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.shared_event import SharedEvent
from ...types import UNSET, Response, Unset


def _get_kwargs(
    token: str,
    *,
    after: int | Unset = UNSET,
    limit: int | None | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["after"] = after

    json_limit: int | None | Unset
    if isinstance(limit, Unset):
        json_limit = UNSET
    else:
        json_limit = limit
    params["limit"] = json_limit

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/shared/{token}/events".format(
            token=quote(str(token), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | list[SharedEvent] | None:
    if response.status_code == 200:
        response_200 = []
        _response_200 = response.json()
        for response_200_item_data in _response_200:
            response_200_item = SharedEvent.from_dict(response_200_item_data)

            response_200.append(response_200_item)

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
) -> Response[ErrorBody | list[SharedEvent]]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    token: str,
    *,
    client: AuthenticatedClient,
    after: int | Unset = UNSET,
    limit: int | None | Unset = UNSET,
) -> Response[ErrorBody | list[SharedEvent]]:
    """What the replay of a shared session shows, a page at a time (no sign-in needed):
    messages, the plan, tool calls with their views, questions and errors — never the
    model's working memory, token counts or status changes. A page shorter than `limit`
    is the last.

    Args:
        token (str):
        after (int | Unset):
        limit (int | None | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | list[SharedEvent]]
    """

    kwargs = _get_kwargs(
        token=token,
        after=after,
        limit=limit,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    token: str,
    *,
    client: AuthenticatedClient,
    after: int | Unset = UNSET,
    limit: int | None | Unset = UNSET,
) -> ErrorBody | list[SharedEvent] | None:
    """What the replay of a shared session shows, a page at a time (no sign-in needed):
    messages, the plan, tool calls with their views, questions and errors — never the
    model's working memory, token counts or status changes. A page shorter than `limit`
    is the last.

    Args:
        token (str):
        after (int | Unset):
        limit (int | None | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | list[SharedEvent]
    """

    return sync_detailed(
        token=token,
        client=client,
        after=after,
        limit=limit,
    ).parsed


async def asyncio_detailed(
    token: str,
    *,
    client: AuthenticatedClient,
    after: int | Unset = UNSET,
    limit: int | None | Unset = UNSET,
) -> Response[ErrorBody | list[SharedEvent]]:
    """What the replay of a shared session shows, a page at a time (no sign-in needed):
    messages, the plan, tool calls with their views, questions and errors — never the
    model's working memory, token counts or status changes. A page shorter than `limit`
    is the last.

    Args:
        token (str):
        after (int | Unset):
        limit (int | None | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | list[SharedEvent]]
    """

    kwargs = _get_kwargs(
        token=token,
        after=after,
        limit=limit,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    token: str,
    *,
    client: AuthenticatedClient,
    after: int | Unset = UNSET,
    limit: int | None | Unset = UNSET,
) -> ErrorBody | list[SharedEvent] | None:
    """What the replay of a shared session shows, a page at a time (no sign-in needed):
    messages, the plan, tool calls with their views, questions and errors — never the
    model's working memory, token counts or status changes. A page shorter than `limit`
    is the last.

    Args:
        token (str):
        after (int | Unset):
        limit (int | None | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | list[SharedEvent]
    """

    return (
        await asyncio_detailed(
            token=token,
            client=client,
            after=after,
            limit=limit,
        )
    ).parsed
