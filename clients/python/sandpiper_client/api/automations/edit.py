# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.automation_edit import AutomationEdit
from ...models.automation_view import AutomationView
from ...models.error_body import ErrorBody
from ...types import Response


def _get_kwargs(
    id: str,
    *,
    body: AutomationEdit,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/api/v1/automations/{id}".format(
            id=quote(str(id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> AutomationView | ErrorBody | None:
    if response.status_code == 200:
        response_200 = AutomationView.from_dict(response.json())

        return response_200

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
) -> Response[AutomationView | ErrorBody]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    body: AutomationEdit,
) -> Response[AutomationView | ErrorBody]:
    """Changes an automation (what is left out stays; `triggers` replaces them all, one
    given with its `id` staying that trigger; `attachments` adds files,
    `remove_attachments` removes them). Enabling one that paused itself clears its
    failures.

    Args:
        id (str):
        body (AutomationEdit): Changes to an automation; what is left out stays. `triggers`
            replaces them all (one
            given with its `id` stays that trigger: a webhook keeps its URL and secret).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AutomationView | ErrorBody]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    body: AutomationEdit,
) -> AutomationView | ErrorBody | None:
    """Changes an automation (what is left out stays; `triggers` replaces them all, one
    given with its `id` staying that trigger; `attachments` adds files,
    `remove_attachments` removes them). Enabling one that paused itself clears its
    failures.

    Args:
        id (str):
        body (AutomationEdit): Changes to an automation; what is left out stays. `triggers`
            replaces them all (one
            given with its `id` stays that trigger: a webhook keeps its URL and secret).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AutomationView | ErrorBody
    """

    return sync_detailed(
        id=id,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    body: AutomationEdit,
) -> Response[AutomationView | ErrorBody]:
    """Changes an automation (what is left out stays; `triggers` replaces them all, one
    given with its `id` staying that trigger; `attachments` adds files,
    `remove_attachments` removes them). Enabling one that paused itself clears its
    failures.

    Args:
        id (str):
        body (AutomationEdit): Changes to an automation; what is left out stays. `triggers`
            replaces them all (one
            given with its `id` stays that trigger: a webhook keeps its URL and secret).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AutomationView | ErrorBody]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    body: AutomationEdit,
) -> AutomationView | ErrorBody | None:
    """Changes an automation (what is left out stays; `triggers` replaces them all, one
    given with its `id` staying that trigger; `attachments` adds files,
    `remove_attachments` removes them). Enabling one that paused itself clears its
    failures.

    Args:
        id (str):
        body (AutomationEdit): Changes to an automation; what is left out stays. `triggers`
            replaces them all (one
            given with its `id` stays that trigger: a webhook keeps its URL and secret).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AutomationView | ErrorBody
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            body=body,
        )
    ).parsed
