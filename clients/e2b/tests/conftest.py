"""E2B's official SDKs against Sandpiper: `clients/test-live.sh --e2b` starts a backend-api
and a sandbox-manager and sets E2B_API_URL and E2B_SANDBOX_URL to them (SANDPIPER_URL is
the backend-api). Each test file's people register and make their own `sandboxes` keys,
as a person would in Settings → API keys, and pass them to the SDK as `api_key`."""

import os
import uuid
from collections.abc import Iterator

import httpx
import pytest
from e2b import Sandbox

BASE = os.environ["SANDPIPER_URL"]
PASSWORD = "correct horse battery staple"
# A registration hashes the password, which takes seconds on a loaded machine (the suites
# run side by side): httpx's own 5 s limit is not a statement about Sandpiper.
TIMEOUT = 60


def person_key(scope: str = "sandboxes") -> str:
    """Registers a new person and makes an API key of `scope` for them; its secret."""
    email = f"e2b-{uuid.uuid4().hex[:12]}@example.org"
    registered = httpx.post(f"{BASE}/api/v1/auth/register", json={"email": email, "password": PASSWORD}, timeout=TIMEOUT)
    assert registered.status_code == 201, registered.text
    token = registered.json()["tokens"]["access_token"]
    made = httpx.post(
        f"{BASE}/api/v1/api-keys",
        json={"name": "e2b sdk", "scope": scope},
        headers={"Authorization": f"Bearer {token}"},
        timeout=TIMEOUT,
    )
    assert made.status_code == 201, made.text
    return made.json()["key"]


@pytest.fixture(scope="session")
def key() -> str:
    return person_key()


@pytest.fixture
def sandbox(key: str) -> Iterator[Sandbox]:
    made = Sandbox.create(api_key=key, timeout=120)
    try:
        yield made
    finally:
        made.kill()
