"""A sandbox's life through E2B's SDK: created, found, listed by its metadata (newest
first, paged, filtered by start and template), told to live longer, paused and resumed
with its files, killed; its time running out (or a timeout of 0) ends it, or pauses it
when asked to; and no one else reaches it."""

import time
from datetime import datetime, timedelta, timezone

import httpx
import pytest
from e2b import Sandbox, SandboxQuery, SandboxState
from e2b.exceptions import AuthenticationException, NotFoundException, SandboxException

from conftest import BASE, person_key


def test_a_sandbox_is_made_found_listed_extended_and_killed(key: str) -> None:
    sandbox = Sandbox.create(api_key=key, metadata={"suite": "lifecycle", "run": "1"}, timeout=60)
    try:
        assert sandbox.is_running()
        info = sandbox.get_info()
        assert info.sandbox_id == sandbox.sandbox_id
        assert info.template_id == "base"
        assert info.metadata == {"suite": "lifecycle", "run": "1"}
        assert info.state.value == "running"
        assert info.cpu_count >= 1 and info.memory_mb >= 128, info
        first_end = info.end_at

        listed = Sandbox.list(api_key=key, query=SandboxQuery(metadata={"suite": "lifecycle"})).next_items()
        assert [s.sandbox_id for s in listed] == [sandbox.sandbox_id]
        other_run = Sandbox.list(api_key=key, query=SandboxQuery(metadata={"suite": "other"})).next_items()
        assert other_run == []

        sandbox.set_timeout(600)
        assert sandbox.get_info().end_at > first_end

        [metrics] = sandbox.get_metrics()
        assert metrics.cpu_count >= 1 and 0 <= metrics.cpu_used_pct <= 100, metrics
        assert 0 < metrics.mem_used < metrics.mem_total, metrics
        assert metrics.disk_total > 0, metrics
        an_hour_ago = datetime.now(timezone.utc) - timedelta(hours=1)
        assert sandbox.get_metrics(start=an_hour_ago, end=an_hour_ago + timedelta(minutes=30)) == []
        assert len(sandbox.get_metrics(start=an_hour_ago, end=datetime.now(timezone.utc))) == 1

        again = Sandbox.connect(sandbox.sandbox_id, api_key=key)
        assert again.commands.run("echo connected").stdout == "connected\n"
    finally:
        assert sandbox.kill() is True
    assert not sandbox.is_running()
    with pytest.raises(NotFoundException):
        Sandbox.get_info(sandbox.sandbox_id, api_key=key)
    assert Sandbox.kill(sandbox.sandbox_id, api_key=key) is False


def test_a_listing_is_newest_first_paged_and_filtered(key: str) -> None:
    """As E2B lists: newest first unless `order="asc"`, the next token following on in
    either order, and `started_after` and `template` filtering."""
    made = [Sandbox.create(api_key=key, metadata={"suite": "paging"}, timeout=60) for _ in range(3)]
    ids = [s.sandbox_id for s in made]

    def pages(query: SandboxQuery, **options: str) -> list[str]:
        paginator = Sandbox.list(api_key=key, query=query, limit=2, **options)
        seen: list[str] = []
        while paginator.has_next:
            seen.extend(s.sandbox_id for s in paginator.next_items())
        return seen

    try:
        suite = SandboxQuery(metadata={"suite": "paging"})
        assert pages(suite) == ids[::-1]
        assert pages(suite, order="desc") == ids[::-1]
        assert pages(suite, order="asc") == ids
        second = made[1].get_info().started_at
        later = SandboxQuery(metadata={"suite": "paging"}, started_after=second)
        assert pages(later) == ids[:0:-1], "started at or after the second"
        assert pages(later, order="asc") == ids[1:]
        for template, expected in [("base", ids[::-1]), ("code-interpreter-v1", []), ("unknown-template", [])]:
            query = SandboxQuery(metadata={"suite": "paging"}, template=template)
            assert pages(query) == expected, template
    finally:
        for sandbox in made:
            sandbox.kill()


def test_a_timeout_of_zero_ends_it_or_pauses_it_at_once(key: str) -> None:
    ended = Sandbox.create(api_key=key, timeout=60)
    ended.set_timeout(0)
    assert not ended.is_running(), "ended before set_timeout returned"
    with pytest.raises(NotFoundException):
        Sandbox.get_info(ended.sandbox_id, api_key=key)

    paused = Sandbox.create(api_key=key, timeout=60, lifecycle={"on_timeout": "pause"})
    try:
        paused.set_timeout(0)
        assert Sandbox.get_info(paused.sandbox_id, api_key=key).state == SandboxState.PAUSED
        assert not paused.is_running()
    finally:
        paused.kill()


def test_its_time_running_out_ends_it(key: str) -> None:
    # Time enough for the first call on a loaded machine, then 3 s left.
    sandbox = Sandbox.create(api_key=key, timeout=120)
    assert sandbox.commands.run("echo alive").stdout == "alive\n"
    sandbox.set_timeout(3)
    deadline = time.monotonic() + 60
    while sandbox.is_running():
        assert time.monotonic() < deadline, "the sandbox outlived its timeout by a minute"
        time.sleep(0.5)
    with pytest.raises(NotFoundException):
        Sandbox.get_info(sandbox.sandbox_id, api_key=key)


def test_another_person_never_reaches_it(sandbox: Sandbox) -> None:
    stranger = person_key()
    with pytest.raises(NotFoundException):
        Sandbox.connect(sandbox.sandbox_id, api_key=stranger)
    with pytest.raises(NotFoundException):
        Sandbox.get_info(sandbox.sandbox_id, api_key=stranger)
    assert Sandbox.kill(sandbox.sandbox_id, api_key=stranger) is False
    assert Sandbox.list(api_key=stranger).next_items() == []
    # Its data plane takes only its own access token, whoever asks.
    url = f"{BASE}/e2b/sandbox/filesystem.Filesystem/Stat"
    for token in [None, "00" * 32, "not hex"]:
        headers = {"E2b-Sandbox-Id": sandbox.sandbox_id, "E2b-Sandbox-Port": "49983"}
        if token:
            headers["X-Access-Token"] = token
        refused = httpx.post(url, json={"path": "/etc"}, headers=headers)
        assert refused.status_code == 401, refused.text
    assert sandbox.is_running(), "the owner's sandbox is untouched"


def test_made_up_keys_and_keys_of_other_scopes_are_refused() -> None:
    with pytest.raises(AuthenticationException):
        Sandbox.create(api_key="e2b_" + "0" * 40)
    for scope in ["jobs", "full"]:
        other = person_key(scope)
        # The SDK refuses a key not shaped e2b_<hex> itself; unchecked, the server says 403.
        with pytest.raises(SandboxException, match="403.*scope `sandboxes`"):
            Sandbox.list(api_key=other, validate_api_key=False).next_items()


def listed(key: str, suite: str, state: SandboxState) -> list[str]:
    """The ids of the person's sandboxes of `suite` in `state`."""
    query = SandboxQuery(metadata={"suite": suite}, state=[state])
    return [s.sandbox_id for s in Sandbox.list(api_key=key, query=query).next_items()]


def test_a_paused_sandbox_keeps_its_files_and_connect_resumes_it(key: str) -> None:
    sandbox = Sandbox.create(api_key=key, timeout=120, envs={"KEPT": "yes"}, metadata={"suite": "pause"})
    try:
        sandbox.files.write("/home/user/notes.txt", "kept across a pause")
        sandbox.commands.run("sleep 600", background=True)
        assert sandbox.pause() is True
        assert Sandbox.pause(sandbox.sandbox_id, api_key=key) is False, "paused already"
        assert not sandbox.is_running()
        assert Sandbox.get_info(sandbox.sandbox_id, api_key=key).state == SandboxState.PAUSED
        assert listed(key, "pause", SandboxState.PAUSED) == [sandbox.sandbox_id]
        assert listed(key, "pause", SandboxState.RUNNING) == []

        resumed = Sandbox.connect(sandbox.sandbox_id, api_key=key, timeout=120)
        assert resumed.get_info().state == SandboxState.RUNNING
        # The files and the variables come back; processes do not (no memory is kept).
        assert resumed.files.read("/home/user/notes.txt") == "kept across a pause"
        assert resumed.commands.run("echo $KEPT").stdout == "yes\n"
        assert "sleep 600" not in resumed.commands.run("ps -eo args").stdout
    finally:
        sandbox.kill()
    with pytest.raises(NotFoundException):
        Sandbox.connect(sandbox.sandbox_id, api_key=key)


def test_its_time_running_out_pauses_it_when_asked_to(key: str) -> None:
    sandbox = Sandbox.create(api_key=key, timeout=120, lifecycle={"on_timeout": "pause"})
    try:
        sandbox.files.write("/home/user/notes.txt", "kept")
        sandbox.set_timeout(3)
        deadline = time.monotonic() + 60
        while Sandbox.get_info(sandbox.sandbox_id, api_key=key).state != SandboxState.PAUSED:
            assert time.monotonic() < deadline, "not paused a minute after its time"
            time.sleep(0.5)
        resumed = Sandbox.connect(sandbox.sandbox_id, api_key=key, timeout=60)
        assert resumed.files.read("/home/user/notes.txt") == "kept"
    finally:
        sandbox.kill()


def test_what_is_not_offered_says_so(key: str) -> None:
    with pytest.raises(SandboxException, match="no template"):
        Sandbox.create("ubuntu-22", api_key=key)
