# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.delivery_answer import DeliveryAnswer
from ...models.error_body import ErrorBody
from ...types import UNSET, Response, Unset


def _get_kwargs(
    trigger_id: str,
    *,
    body: Any,
    x_sandpiper_signature: None | str | Unset = UNSET,
    x_hub_signature_256: None | str | Unset = UNSET,
    idempotency_key: None | str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_sandpiper_signature, Unset):
        headers["X-Sandpiper-Signature"] = x_sandpiper_signature

    if not isinstance(x_hub_signature_256, Unset):
        headers["X-Hub-Signature-256"] = x_hub_signature_256

    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/hooks/{trigger_id}".format(
            trigger_id=quote(str(trigger_id), safe=""),
        ),
    }

    _kwargs["json"] = body

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> DeliveryAnswer | ErrorBody | None:
    if response.status_code == 200:
        response_200 = DeliveryAnswer.from_dict(response.json())

        return response_200

    if response.status_code == 202:
        response_202 = DeliveryAnswer.from_dict(response.json())

        return response_202

    if response.status_code == 400:
        response_400 = ErrorBody.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = ErrorBody.from_dict(response.json())

        return response_401

    if response.status_code == 404:
        response_404 = ErrorBody.from_dict(response.json())

        return response_404

    if response.status_code == 413:
        response_413 = ErrorBody.from_dict(response.json())

        return response_413

    if response.status_code == 503:
        response_503 = ErrorBody.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[DeliveryAnswer | ErrorBody]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    trigger_id: str,
    *,
    client: AuthenticatedClient,
    body: Any,
    x_sandpiper_signature: None | str | Unset = UNSET,
    x_hub_signature_256: None | str | Unset = UNSET,
    idempotency_key: None | str | Unset = UNSET,
) -> Response[DeliveryAnswer | ErrorBody]:
    """Fires the automation whose webhook trigger this is. `202` with the run's job; `200`
    for a delivery taken before (the same signature, the same value of the trigger's key,
    or a repeated `Idempotency-Key`: the earlier job, no second run) or one that runs
    nothing (the filter did not match, the automation is paused). Unsigned, badly signed
    or signed at a time more than the tolerance (5 minutes) from the clock: `401`,
    larger than allowed: `413`, broken off: `400`; nothing runs. An unknown
    trigger is `404` before any of the body is read; so is `503` (with `Retry-After`) when
    too many deliveries wait to be read.

    Args:
        trigger_id (str):
        x_sandpiper_signature (None | str | Unset):
        x_hub_signature_256 (None | str | Unset):
        idempotency_key (None | str | Unset):
        body (Any):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DeliveryAnswer | ErrorBody]
    """

    kwargs = _get_kwargs(
        trigger_id=trigger_id,
        body=body,
        x_sandpiper_signature=x_sandpiper_signature,
        x_hub_signature_256=x_hub_signature_256,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    trigger_id: str,
    *,
    client: AuthenticatedClient,
    body: Any,
    x_sandpiper_signature: None | str | Unset = UNSET,
    x_hub_signature_256: None | str | Unset = UNSET,
    idempotency_key: None | str | Unset = UNSET,
) -> DeliveryAnswer | ErrorBody | None:
    """Fires the automation whose webhook trigger this is. `202` with the run's job; `200`
    for a delivery taken before (the same signature, the same value of the trigger's key,
    or a repeated `Idempotency-Key`: the earlier job, no second run) or one that runs
    nothing (the filter did not match, the automation is paused). Unsigned, badly signed
    or signed at a time more than the tolerance (5 minutes) from the clock: `401`,
    larger than allowed: `413`, broken off: `400`; nothing runs. An unknown
    trigger is `404` before any of the body is read; so is `503` (with `Retry-After`) when
    too many deliveries wait to be read.

    Args:
        trigger_id (str):
        x_sandpiper_signature (None | str | Unset):
        x_hub_signature_256 (None | str | Unset):
        idempotency_key (None | str | Unset):
        body (Any):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DeliveryAnswer | ErrorBody
    """

    return sync_detailed(
        trigger_id=trigger_id,
        client=client,
        body=body,
        x_sandpiper_signature=x_sandpiper_signature,
        x_hub_signature_256=x_hub_signature_256,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    trigger_id: str,
    *,
    client: AuthenticatedClient,
    body: Any,
    x_sandpiper_signature: None | str | Unset = UNSET,
    x_hub_signature_256: None | str | Unset = UNSET,
    idempotency_key: None | str | Unset = UNSET,
) -> Response[DeliveryAnswer | ErrorBody]:
    """Fires the automation whose webhook trigger this is. `202` with the run's job; `200`
    for a delivery taken before (the same signature, the same value of the trigger's key,
    or a repeated `Idempotency-Key`: the earlier job, no second run) or one that runs
    nothing (the filter did not match, the automation is paused). Unsigned, badly signed
    or signed at a time more than the tolerance (5 minutes) from the clock: `401`,
    larger than allowed: `413`, broken off: `400`; nothing runs. An unknown
    trigger is `404` before any of the body is read; so is `503` (with `Retry-After`) when
    too many deliveries wait to be read.

    Args:
        trigger_id (str):
        x_sandpiper_signature (None | str | Unset):
        x_hub_signature_256 (None | str | Unset):
        idempotency_key (None | str | Unset):
        body (Any):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DeliveryAnswer | ErrorBody]
    """

    kwargs = _get_kwargs(
        trigger_id=trigger_id,
        body=body,
        x_sandpiper_signature=x_sandpiper_signature,
        x_hub_signature_256=x_hub_signature_256,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    trigger_id: str,
    *,
    client: AuthenticatedClient,
    body: Any,
    x_sandpiper_signature: None | str | Unset = UNSET,
    x_hub_signature_256: None | str | Unset = UNSET,
    idempotency_key: None | str | Unset = UNSET,
) -> DeliveryAnswer | ErrorBody | None:
    """Fires the automation whose webhook trigger this is. `202` with the run's job; `200`
    for a delivery taken before (the same signature, the same value of the trigger's key,
    or a repeated `Idempotency-Key`: the earlier job, no second run) or one that runs
    nothing (the filter did not match, the automation is paused). Unsigned, badly signed
    or signed at a time more than the tolerance (5 minutes) from the clock: `401`,
    larger than allowed: `413`, broken off: `400`; nothing runs. An unknown
    trigger is `404` before any of the body is read; so is `503` (with `Retry-After`) when
    too many deliveries wait to be read.

    Args:
        trigger_id (str):
        x_sandpiper_signature (None | str | Unset):
        x_hub_signature_256 (None | str | Unset):
        idempotency_key (None | str | Unset):
        body (Any):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DeliveryAnswer | ErrorBody
    """

    return (
        await asyncio_detailed(
            trigger_id=trigger_id,
            client=client,
            body=body,
            x_sandpiper_signature=x_sandpiper_signature,
            x_hub_signature_256=x_hub_signature_256,
            idempotency_key=idempotency_key,
        )
    ).parsed
