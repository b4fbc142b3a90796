"""Files through E2B's SDK (envd's filesystem service and its /files route over the
one-host data plane): written and read back as text and bytes, several at once, listed,
stat'ed, renamed, removed, folders made, and a folder watched."""

import time

import pytest
from e2b import FileType, Sandbox
from e2b.exceptions import NotFoundException


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
