# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.created_job import CreatedJob
from ...models.error_body import ErrorBody
from ...models.new_job_body import NewJobBody
from ...types import Response


def _get_kwargs(
    *,
    body: NewJobBody,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/jobs",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> CreatedJob | ErrorBody | None:
    if response.status_code == 201:
        response_201 = CreatedJob.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = ErrorBody.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = ErrorBody.from_dict(response.json())

        return response_401

    if response.status_code == 413:
        response_413 = ErrorBody.from_dict(response.json())

        return response_413

    if response.status_code == 422:
        response_422 = ErrorBody.from_dict(response.json())

        return response_422

    if response.status_code == 429:
        response_429 = ErrorBody.from_dict(response.json())

        return response_429

    if response.status_code == 503:
        response_503 = ErrorBody.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[CreatedJob | ErrorBody]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: NewJobBody,
) -> Response[CreatedJob | ErrorBody]:
    """Runs a prompt as a job: a new session the agent works in without a chat window. It
    starts at once, or waits as `queued` while the caller's other jobs run. A caller with
    as many jobs queued as allowed gets 429; during a burst of creations a request waits
    for a turn a few seconds, then gets 503 (both with `Retry-After`).

    Args:
        body (NewJobBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CreatedJob | ErrorBody]
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
    body: NewJobBody,
) -> CreatedJob | ErrorBody | None:
    """Runs a prompt as a job: a new session the agent works in without a chat window. It
    starts at once, or waits as `queued` while the caller's other jobs run. A caller with
    as many jobs queued as allowed gets 429; during a burst of creations a request waits
    for a turn a few seconds, then gets 503 (both with `Retry-After`).

    Args:
        body (NewJobBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CreatedJob | ErrorBody
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: NewJobBody,
) -> Response[CreatedJob | ErrorBody]:
    """Runs a prompt as a job: a new session the agent works in without a chat window. It
    starts at once, or waits as `queued` while the caller's other jobs run. A caller with
    as many jobs queued as allowed gets 429; during a burst of creations a request waits
    for a turn a few seconds, then gets 503 (both with `Retry-After`).

    Args:
        body (NewJobBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CreatedJob | ErrorBody]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: NewJobBody,
) -> CreatedJob | ErrorBody | None:
    """Runs a prompt as a job: a new session the agent works in without a chat window. It
    starts at once, or waits as `queued` while the caller's other jobs run. A caller with
    as many jobs queued as allowed gets 429; during a burst of creations a request waits
    for a turn a few seconds, then gets 503 (both with `Retry-After`).

    Args:
        body (NewJobBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CreatedJob | ErrorBody
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
