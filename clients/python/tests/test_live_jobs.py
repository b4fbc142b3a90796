"""A job run with the generated Python client, end to end: `clients/test-live.sh --jobs`
starts a backend-api whose model is clients/scripted-model.py and whose sandboxes are real.

It registers an account, makes a `jobs` API key with the client, runs a job with the key,
polls it until it ends, checks its answer and files and finds fib.py in its result zip;
then the job routes' documented errors; and runs the READMEs' job examples (curl and
Python) as they are written.
"""

import io
import os
import re
import subprocess
import sys
import time
import uuid
import zipfile
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from sandpiper_client import AuthenticatedClient, Client
from sandpiper_client.api.api_keys import create_api_key, revoke_api_key
from sandpiper_client.api.auth import login, register
from sandpiper_client.api.jobs import create, get, result
from sandpiper_client.api.sessions import list_
from sandpiper_client.models import (
    ApiKeyRequest,
    ApiKeyScope,
    CreatedJob,
    Credentials,
    ErrorBody,
    JobDetail,
    JobStatus,
    NewApiKey,
    NewJobBody,
    Registration,
)

URL = os.environ.get("SANDPIPER_URL", "http://127.0.0.1:8000")
PASSWORD = "client-test-password-1"
# What clients/scripted-model.py makes the agent write, and answer.
FIB_PY = """def fib(n):
    a, b = 0, 1
    for _ in range(n):
        yield a
        a, b = b, a + b


print(*fib(20))
"""
ANSWER = "Wrote fib.py: it prints the first 20 Fibonacci numbers."
# How long a job may take to end (its sandbox is started for it: no warm pool).
WAIT_SECS = 120
ENDED = {JobStatus.SUCCEEDED, JobStatus.FAILED, JobStatus.CANCELLED}
REPO = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def key() -> Iterator[AuthenticatedClient]:
    """A `jobs` API key of a fresh account, revoked after the tests."""
    anonymous = Client(base_url=URL, timeout=httpx.Timeout(30.0))
    email = f"jobs-{uuid.uuid4().hex[:12]}@example.com"
    registered = register.sync_detailed(client=anonymous, body=Registration(email=email, password=PASSWORD))
    assert registered.status_code == 201, registered.content
    signed_in = login.sync(client=anonymous, body=Credentials(email=email, password=PASSWORD))
    account = AuthenticatedClient(base_url=URL, token=signed_in.tokens.access_token)
    made = create_api_key.sync_detailed(
        client=account, body=ApiKeyRequest(name="python jobs test", scope=ApiKeyScope.JOBS, expires_in_days=1)
    )
    assert made.status_code == 201, made.content
    assert isinstance(made.parsed, NewApiKey)
    assert made.parsed.scope == ApiKeyScope.JOBS
    yield AuthenticatedClient(base_url=URL, token=made.parsed.key, timeout=httpx.Timeout(30.0))
    assert revoke_api_key.sync_detailed(client=account, id=made.parsed.id).status_code == 204


def until_ended(client: AuthenticatedClient, job_id: str) -> JobDetail:
    deadline = time.monotonic() + WAIT_SECS
    while True:
        job = get.sync(client=client, id=job_id)
        assert isinstance(job, JobDetail), job
        if job.status in ENDED:
            return job
        assert time.monotonic() < deadline, f"the job had not ended after {WAIT_SECS} s: {job.to_dict()}"
        time.sleep(0.5)


def assert_fib_py_in(archive: bytes) -> None:
    with zipfile.ZipFile(io.BytesIO(archive)) as unzipped:
        names = [name for name in unzipped.namelist() if name.endswith("fib.py")]
        assert names, unzipped.namelist()
        assert unzipped.read(names[0]).decode() == FIB_PY


def test_a_job_writes_fib_py_in_a_sandbox_and_its_zip_holds_it(key):
    created = create.sync_detailed(
        client=key, body=NewJobBody(prompt="Write fib.py that prints Fibonacci numbers", network="offline")
    )
    assert created.status_code == 201, created.content
    assert isinstance(created.parsed, CreatedJob)

    job = until_ended(key, created.parsed.id)
    assert job.status == JobStatus.SUCCEEDED, job.to_dict()
    assert job.answer == ANSWER
    assert job.files == ["fib.py"]
    assert job.usage.prompt_tokens > 0
    assert job.started_at and job.finished_at

    archive = result.sync(client=key, id=job.id)
    assert isinstance(archive, bytes), archive
    assert_fib_py_in(archive)


def assert_error(response, status: int, code: str) -> ErrorBody:
    assert response.status_code == status, response.content
    assert isinstance(response.parsed, ErrorBody), response.content
    assert response.parsed.error.code == code
    return response.parsed


def test_job_routes_answer_bad_input_with_the_documented_status(key):
    unknown = str(uuid.uuid4())
    assert_error(get.sync_detailed(client=key, id=unknown), 404, "not_found")
    assert_error(result.sync_detailed(client=key, id=unknown), 404, "not_found")
    too_short = create.sync_detailed(client=key, body=NewJobBody(prompt="Write fib.py", timeout_secs=5))
    assert assert_error(too_short, 422, "invalid").error.field == "timeout_secs"
    # The key is for jobs only.
    assert list_.sync_detailed(client=key).status_code == 403


def code_blocks(readme: str, after: str) -> dict[str, list[str]]:
    """The fenced blocks (by language) that follow `after` in a README, up to the next
    heading, each line without its `# example…` comment."""
    text = (REPO / readme).read_text()
    start = text.index(after)
    end = text.find("\n#", start + len(after))
    blocks = re.findall(r"```(\w+)\n(.*?)```", text[start : end if end > 0 else None], re.S)
    return {language: [re.sub(r"\s+# example.*$", "", line) for line in code.splitlines()] for language, code in blocks}


@pytest.mark.parametrize("language", ["sh", "python"])
def test_the_readmes_job_examples_run_as_written(key, language, tmp_path):
    examples = code_blocks("clients/README.md", "### A job: run, wait, download")
    # The root README's three lines are the same as the clients README's.
    short = code_blocks("README.md", "**From a script**")[language]
    assert len(short) == 3
    assert short == examples[language][-3:]
    command = ["bash", "-euo", "pipefail", "-c"] if language == "sh" else [sys.executable, "-c"]
    environment = {**os.environ, "SANDPIPER_URL": URL, "SANDPIPER_API_KEY": key.token}
    subprocess.run([*command, "\n".join(examples[language])], cwd=tmp_path, env=environment, check=True, timeout=WAIT_SECS)
    assert_fib_py_in((tmp_path / "result.zip").read_bytes())
