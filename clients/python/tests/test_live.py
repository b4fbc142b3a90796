"""The generated Python client against a running backend-api (clients/test-live.sh starts one).

    SANDPIPER_URL=http://127.0.0.1:8000 pytest clients/python/tests

With SANDPIPER_EMAIL and SANDPIPER_PASSWORD it signs in as that account; without them it
registers a fresh one (the deployment must allow registration). Every test runs once per
way of authenticating in `AUTHENTICATORS`: the password sign-in's access token (JWT) and a
personal API key made with it. The refresh cookie is tested once, with httpx's cookie jar.
"""

import json
import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import httpx
import pytest

from sandpiper_client import AuthenticatedClient, Client
from sandpiper_client.api.api_keys import create_api_key, revoke_api_key
from sandpiper_client.api.auth import login, logout, me, refresh, register
from sandpiper_client.api.sessions import create, get, list_, post_message
from sandpiper_client.models import (
    AccessToken,
    AgentEventMessage,
    ApiKeyRequest,
    CookieRequest,
    Credentials,
    ErrorBody,
    NewApiKey,
    NewMessage,
    NewSession,
    Registration,
    SessionPage,
    SessionView,
    SignedIn,
    StoredEvent,
)

URL = os.environ.get("SANDPIPER_URL", "http://127.0.0.1:8000")
PASSWORD = "client-test-password-1"


def anonymous() -> Client:
    return Client(base_url=URL, timeout=httpx.Timeout(30.0))


def new_account() -> tuple[str, str]:
    """Registers a fresh account; skips when the deployment does not allow it."""
    email = f"client-{uuid.uuid4().hex[:12]}@example.com"
    response = register.sync_detailed(client=anonymous(), body=Registration(email=email, password=PASSWORD))
    if response.status_code == 403:
        pytest.skip(f"registration is refused here: {response.content!r}")
    assert response.status_code == 201, response.content
    return email, PASSWORD


def password_sign_in(email: str, password: str) -> AuthenticatedClient:
    response = login.sync_detailed(client=anonymous(), body=Credentials(email=email, password=password))
    assert response.status_code == 200, response.content
    assert isinstance(response.parsed, SignedIn)
    assert response.parsed.user.email == email
    return AuthenticatedClient(base_url=URL, token=response.parsed.tokens.access_token, timeout=httpx.Timeout(30.0))


@contextmanager
def signed_in_with_password(email: str, password: str) -> Iterator[AuthenticatedClient]:
    yield password_sign_in(email, password)


@contextmanager
def with_an_api_key(email: str, password: str) -> Iterator[AuthenticatedClient]:
    """A personal API key made for the test, revoked after it."""
    signed_in = password_sign_in(email, password)
    name = f"python client test {uuid.uuid4().hex[:8]}"
    response = create_api_key.sync_detailed(client=signed_in, body=ApiKeyRequest(name=name, expires_in_days=1))
    assert response.status_code == 201, response.content
    assert isinstance(response.parsed, NewApiKey)
    assert response.parsed.key.startswith("sp_")
    yield AuthenticatedClient(base_url=URL, token=response.parsed.key, timeout=httpx.Timeout(30.0))
    assert revoke_api_key.sync_detailed(client=signed_in, id=response.parsed.id).status_code == 204


# The ways a test's client acts as the account; every test runs with each.
AUTHENTICATORS = {"jwt": signed_in_with_password, "api_key": with_an_api_key}


@pytest.fixture(scope="module")
def account() -> tuple[str, str]:
    if os.environ.get("SANDPIPER_EMAIL"):
        return os.environ["SANDPIPER_EMAIL"], os.environ["SANDPIPER_PASSWORD"]
    return new_account()


@pytest.fixture(scope="module", params=sorted(AUTHENTICATORS))
def client(request, account) -> Iterator[AuthenticatedClient]:
    with AUTHENTICATORS[request.param](*account) as authenticated:
        yield authenticated


def first_event(client: AuthenticatedClient, session_id: str) -> StoredEvent:
    """The first event of the session's SSE stream (stored events are replayed, then it stays open)."""
    path = f"/api/v1/sessions/{session_id}/events"
    with client.get_httpx_client().stream("GET", path, params={"after": 0}, timeout=10.0) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        for line in response.iter_lines():
            if line.startswith("data:"):
                return StoredEvent.from_dict(json.loads(line.removeprefix("data:")))
    raise AssertionError("the event stream ended without an event")


def assert_error(response, status: int, code: str) -> None:
    assert response.status_code == status, response.content
    assert isinstance(response.parsed, ErrorBody), response.content
    assert response.parsed.error.code == code
    assert response.parsed.error.message


def test_the_account_is_the_one_signed_in(client, account):
    who = me.sync_detailed(client=client)
    assert who.status_code == 200
    assert who.parsed.email == account[0]


def test_a_session_lists_takes_a_message_and_replays_it_as_an_event(client):
    title = f"Python client {uuid.uuid4().hex[:8]}"
    session = create.sync(client=client, body=NewSession(title=title))
    assert isinstance(session, SessionView)
    assert session.title == title

    page = list_.sync(client=client, limit=100)
    assert isinstance(page, SessionPage)
    assert session.id in [listed.id for listed in page.sessions]

    stored = post_message.sync(client=client, id=session.id, body=NewMessage(content="hello from Python"))
    assert isinstance(stored, StoredEvent)
    assert stored.session_id == session.id
    assert stored.seq == 1
    assert isinstance(stored.event, AgentEventMessage)
    assert stored.event.content == "hello from Python"

    replayed = first_event(client, session.id)
    assert replayed.seq == 1
    assert isinstance(replayed.event, AgentEventMessage)
    assert replayed.event.content == "hello from Python"

    again = get.sync(client=client, id=session.id)
    assert isinstance(again, SessionView)
    assert again.last_seq >= 1


def test_an_unknown_session_is_404_with_the_json_error_body(client):
    assert_error(get.sync_detailed(client=client, id=str(uuid.uuid4())), 404, "not_found")
    message = post_message.sync_detailed(client=client, id=str(uuid.uuid4()), body=NewMessage(content="hi"))
    assert_error(message, 404, "not_found")
    events = client.get_httpx_client().get(f"/api/v1/sessions/{uuid.uuid4()}/events")
    assert events.status_code == 404
    assert events.json()["error"]["code"] == "not_found"


def test_another_persons_session_is_404(client):
    session = create.sync(client=client, body=NewSession(title="Not yours"))
    assert isinstance(session, SessionView)
    stranger = password_sign_in(*new_account())
    assert_error(get.sync_detailed(client=stranger, id=session.id), 404, "not_found")


def test_bad_input_gets_the_documented_status(client):
    too_long = create.sync_detailed(client=client, body=NewSession(title="x" * 201))
    assert_error(too_long, 422, "invalid")

    session = create.sync(client=client, body=NewSession(title="Big message"))
    oversized = post_message.sync_detailed(client=client, id=session.id, body=NewMessage(content="x" * (100 * 1024 + 1)))
    assert_error(oversized, 413, "payload_too_large")

    forged = AuthenticatedClient(base_url=URL, token="not-a-token")
    assert_error(me.sync_detailed(client=forged), 401, "unauthorized")


def test_the_refresh_token_comes_as_a_cookie_the_jar_sends_back(account):
    """The client's cookie jar holds the refresh cookie: refresh rotates it, logout ends it."""
    anon = anonymous()
    signed_in = login.sync_detailed(client=anon, body=Credentials(email=account[0], password=account[1]))
    assert signed_in.status_code == 200, signed_in.content
    assert isinstance(signed_in.parsed, SignedIn)
    assert "refresh_token" not in signed_in.content.decode()
    # The same jar from here on, with the access token.
    jar = AuthenticatedClient(base_url=URL, token=signed_in.parsed.tokens.access_token, timeout=httpx.Timeout(30.0))
    jar.get_httpx_client().cookies = anon.get_httpx_client().cookies
    cookies = jar.get_httpx_client().cookies
    first = cookies.get("sandpiper_refresh", path="/api/v1/auth/refresh")
    assert first and first not in signed_in.content.decode()

    refreshed = refresh.sync_detailed(client=jar, body=CookieRequest())
    assert refreshed.status_code == 200, refreshed.content
    assert isinstance(refreshed.parsed, AccessToken)
    second = cookies.get("sandpiper_refresh", path="/api/v1/auth/refresh")
    assert second and second != first

    jar.get_httpx_client().headers["Authorization"] = f"Bearer {refreshed.parsed.access_token}"
    assert logout.sync_detailed(client=jar, body=CookieRequest()).status_code == 204
    # The jar dropped the cleared cookie; the revoked one, sent again, is refused.
    assert cookies.get("sandpiper_refresh", path="/api/v1/auth/refresh") is None
    again = anon.get_httpx_client().post(
        "/api/v1/auth/refresh", json={}, headers={"cookie": f"sandpiper_refresh={second}"}
    )
    assert again.status_code == 401
    assert "invalid or expired" in again.json()["error"]["message"]
