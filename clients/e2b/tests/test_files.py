"""Files through E2B's SDK (envd's filesystem service and its /files route over the
one-host data plane): written and read back as text and bytes, several at once, listed,
stat'ed, renamed, removed, folders made, and a folder watched."""

import time

import httpx
import pytest
from e2b import FileType, Sandbox
from e2b.exceptions import NotFoundException

from conftest import TIMEOUT


def test_files_are_written_read_listed_moved_and_removed(sandbox: Sandbox) -> None:
    info = sandbox.files.write("notes/hello.txt", "hello, world\n")
    assert info.path.endswith("/notes/hello.txt") and info.name == "hello.txt"
    assert sandbox.files.read("notes/hello.txt") == "hello, world\n"
    payload = bytes(range(256)) * 64
    sandbox.files.write("/tmp/blob.bin", payload)
    assert bytes(sandbox.files.read("/tmp/blob.bin", format="bytes")) == payload

    sandbox.files.write_files([
        {"path": "notes/a.txt", "data": "a"},
        {"path": "notes/b.txt", "data": b"b"},
    ])
    listed = {entry.name: entry for entry in sandbox.files.list("notes")}
    assert set(listed) == {"hello.txt", "a.txt", "b.txt"}
    assert listed["a.txt"].type == FileType.FILE and listed["a.txt"].size == 1

    assert sandbox.files.make_dir("notes/sub") is True
    assert sandbox.files.make_dir("notes/sub") is False, "it was there already"
    assert sandbox.files.get_info("notes/sub").type == FileType.DIR
    moved = sandbox.files.rename("notes/a.txt", "notes/sub/a.txt")
    assert moved.path.endswith("/notes/sub/a.txt")
    assert not sandbox.files.exists("notes/a.txt")
    assert sandbox.files.exists("notes/sub/a.txt")
    sandbox.files.remove("notes/sub")
    assert not sandbox.files.exists("notes/sub/a.txt")
    with pytest.raises(NotFoundException):
        sandbox.files.read("notes/sub/a.txt")

    # What the files API wrote, the shell sees.
    assert sandbox.commands.run("cat ~/notes/hello.txt").stdout == "hello, world\n"


def test_a_watched_folder_reports_what_happens_in_it(sandbox: Sandbox) -> None:
    sandbox.files.make_dir("watched")
    handle = sandbox.files.watch_dir("watched")
    try:
        sandbox.files.write("watched/new.txt", "x")
        sandbox.commands.run("rm ~/watched/new.txt")
        deadline = time.monotonic() + 20
        seen: list[tuple[str, str]] = []
        while not any(kind == "remove" for kind, _ in seen):
            assert time.monotonic() < deadline, seen
            seen += [(event.type.value, event.name) for event in handle.get_new_events()]
            time.sleep(0.2)
        assert ("create", "new.txt") in seen or ("write", "new.txt") in seen, seen
    finally:
        handle.stop()


def test_signed_links_open_one_file_without_headers_and_nothing_else(sandbox: Sandbox) -> None:
    """`download_url`/`upload_url` carry no sandbox id through the one host: the link's
    signature finds its sandbox. Anyone holding the link may use it, for that file and
    operation only, until it expires."""
    sandbox.files.write("shared/report.txt", "quarterly figures\n")
    link = sandbox.download_url("shared/report.txt")
    fetched = httpx.get(link, timeout=TIMEOUT)
    assert fetched.status_code == 200, fetched.text
    assert fetched.text == "quarterly figures\n"
    assert fetched.headers["cache-control"] == "no-store", "no cache serves it once expired"

    upload = sandbox.upload_url("shared/incoming.txt", use_signature_expiration=120)
    sent = httpx.post(upload, files={"file": ("incoming.txt", b"from a browser\n")}, timeout=TIMEOUT)
    assert sent.status_code == 200, sent.text
    assert sandbox.files.read("shared/incoming.txt") == "from a browser\n"

    # The same signature does not open another file, nor write where it reads.
    other = link.replace("report.txt", "incoming.txt")
    assert httpx.get(other, timeout=TIMEOUT).status_code == 401
    assert httpx.post(link, files={"file": ("x", b"x")}, timeout=TIMEOUT).status_code == 401
    expired = sandbox.download_url("shared/report.txt", use_signature_expiration=-60)
    refused = httpx.get(expired, timeout=TIMEOUT)
    # In E2B's words, which its own SDK tests compare whole.
    assert refused.status_code == 401, refused.text
    assert refused.json() == {"code": 401, "message": "signature is already expired"}
    assert sandbox.files.read("shared/report.txt") == "quarterly figures\n"


def test_a_signed_link_opens_only_its_own_sandbox_while_it_runs(key: str, sandbox: Sandbox) -> None:
    other = Sandbox.create(api_key=key, timeout=120)
    try:
        other.files.write("shared/report.txt", "the other's\n")
        link = other.download_url("shared/report.txt")
        assert httpx.get(link, timeout=TIMEOUT).text == "the other's\n"
        # Pointed at another sandbox, the signature is not that sandbox's.
        aimed = httpx.get(link, headers={"E2b-Sandbox-Id": sandbox.sandbox_id}, timeout=TIMEOUT)
        assert aimed.status_code == 401, aimed.text
    finally:
        other.kill()
    # Refused as a link no running sandbox signed (401), or as a sandbox that has ended
    # (502, as E2B's proxy answers), by whichever list of running sandboxes it meets.
    ended = httpx.get(link, timeout=TIMEOUT)
    assert ended.status_code in (401, 502), ended.text
