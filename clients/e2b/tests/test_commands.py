"""Commands and terminals through E2B's SDK (envd's process service over the one-host
data plane): output, exit codes, environment, working directory, background commands,
their stdin and their end, a timeout that ends a command, and a PTY."""

import asyncio
import time

import pytest
from e2b import AsyncSandbox, CommandExitException, PtySize, Sandbox, TimeoutException


def test_a_command_answers_with_its_output_and_exit_code(sandbox: Sandbox) -> None:
    done = sandbox.commands.run("echo out; echo err >&2; exit 0")
    assert (done.stdout, done.stderr, done.exit_code) == ("out\n", "err\n", 0)
    with pytest.raises(CommandExitException) as failed:
        sandbox.commands.run("echo partial; exit 3")
    assert failed.value.exit_code == 3
    assert failed.value.stdout == "partial\n"
    streamed: list[str] = []
    sandbox.commands.run("for i in 1 2 3; do echo $i; done", on_stdout=streamed.append)
    assert "".join(streamed) == "1\n2\n3\n"
    # `python`, as programs written for E2B's sandboxes call it.
    assert sandbox.commands.run("python -c 'print(6 * 7)'").stdout == "42\n"


def test_a_command_past_its_timeout_is_ended_with_it(key: str) -> None:
    with Sandbox.create(api_key=key, timeout=60) as sandbox:
        with pytest.raises(TimeoutException):
            sandbox.commands.run("sleep 30 # outlived", timeout=2)
        # Ended with its request's time (`Connect-Timeout-Ms`), not only given up on.
        deadline = time.monotonic() + 20
        while "outlived" in sandbox.commands.run("ps -eo args").stdout:
            assert time.monotonic() < deadline, "the command outlived its timeout"
            time.sleep(0.2)

        # The async SDK leaves the deadline to the sandbox, which ends the stream with it.
        async def run_past_its_timeout() -> None:
            same = await AsyncSandbox.connect(sandbox.sandbox_id, api_key=key)
            with pytest.raises(TimeoutException):
                await same.commands.run("sleep 30", timeout=2)

        asyncio.run(run_past_its_timeout())


def test_environment_working_directory_and_the_sandboxes_variables(key: str) -> None:
    sandbox = Sandbox.create(api_key=key, envs={"FROM_CREATE": "made"}, timeout=60)
    try:
        sandbox.commands.run("mkdir -p /tmp/work")
        done = sandbox.commands.run(
            'echo "$FROM_CREATE $ONLY_HERE $(pwd)"', envs={"ONLY_HERE": "here"}, cwd="/tmp/work"
        )
        assert done.stdout == "made here /tmp/work\n"
        assert sandbox.commands.run("echo $HOME").stdout.strip().startswith("/home/")
    finally:
        sandbox.kill()


def test_a_background_command_takes_stdin_is_listed_and_killed(sandbox: Sandbox) -> None:
    reader = sandbox.commands.run("read line; echo got:$line", background=True, stdin=True)
    sandbox.commands.send_stdin(reader.pid, "hello\n")
    assert reader.wait().stdout == "got:hello\n"

    sleeper = sandbox.commands.run("sleep 600", background=True)
    assert sleeper.pid in [p.pid for p in sandbox.commands.list()]
    assert sandbox.commands.kill(sleeper.pid) is True
    with pytest.raises(CommandExitException):
        sleeper.wait()
    assert sleeper.pid not in [p.pid for p in sandbox.commands.list()]


def test_a_pty_echoes_what_is_typed_and_takes_a_new_size(sandbox: Sandbox) -> None:
    terminal = sandbox.pty.create(size=PtySize(rows=24, cols=80))
    sandbox.pty.send_stdin(terminal.pid, b"echo pty-$((40+2))\n")
    sandbox.pty.resize(terminal.pid, PtySize(rows=30, cols=100))
    sandbox.pty.send_stdin(terminal.pid, b"stty size; exit\n")
    seen = bytearray()
    terminal.wait(on_pty=seen.extend)
    assert b"pty-42" in seen, bytes(seen)
    assert b"30 100" in seen, bytes(seen)
