# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.file_entry import FileEntry
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    *,
    body: list[int],
    path: str,
    overwrite: bool | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    params: dict[str, Any] = {}

    params["path"] = path

    params["overwrite"] = overwrite

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/api/v1/sessions/{id}/files/upload".format(
            id=quote(str(id), safe=""),
        ),
        "params": params,
    }

    _kwargs["content"] = body.payload
    headers["Content-Type"] = "application/octet-stream"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | FileEntry | None:
    if response.status_code == 201:
        response_201 = FileEntry.from_dict(response.json())

        return response_201

    if response.status_code == 409:
        response_409 = ErrorBody.from_dict(response.json())

        return response_409

    if response.status_code == 413:
        response_413 = ErrorBody.from_dict(response.json())

        return response_413

    if response.status_code == 507:
        response_507 = ErrorBody.from_dict(response.json())

        return response_507

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[ErrorBody | FileEntry]:
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
    body: list[int],
    path: str,
    overwrite: bool | Unset = UNSET,
) -> Response[ErrorBody | FileEntry]:
    """Stores the request body (streamed) as a file.

    Args:
        id (str):
        path (str):
        overwrite (bool | Unset):
        body (list[int]):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | FileEntry]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
        path=path,
        overwrite=overwrite,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    body: list[int],
    path: str,
    overwrite: bool | Unset = UNSET,
) -> ErrorBody | FileEntry | None:
    """Stores the request body (streamed) as a file.

    Args:
        id (str):
        path (str):
        overwrite (bool | Unset):
        body (list[int]):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | FileEntry
    """

    return sync_detailed(
        id=id,
        client=client,
        body=body,
        path=path,
        overwrite=overwrite,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    body: list[int],
    path: str,
    overwrite: bool | Unset = UNSET,
) -> Response[ErrorBody | FileEntry]:
    """Stores the request body (streamed) as a file.

    Args:
        id (str):
        path (str):
        overwrite (bool | Unset):
        body (list[int]):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | FileEntry]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
        path=path,
        overwrite=overwrite,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    body: list[int],
    path: str,
    overwrite: bool | Unset = UNSET,
) -> ErrorBody | FileEntry | None:
    """Stores the request body (streamed) as a file.

    Args:
        id (str):
        path (str):
        overwrite (bool | Unset):
        body (list[int]):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | FileEntry
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            body=body,
            path=path,
            overwrite=overwrite,
        )
    ).parsed
