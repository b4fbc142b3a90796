#!/usr/bin/env python3
"""Bench of the E2B-compatible API with E2B's own SDKs (e2b, e2b-code-interpreter, pinned in
clients/e2b/requirements.txt) as the client, against a backend-api and a sandbox-manager
of its own, printing the figures beside the targets of the E2B issue and
those of E2B's own code-interpreter server (its `template/server`: FastAPI in front of
Jupyter Server, warm kernel) measured on a 2-core machine like ours:

- `Sandbox.create()` → the first `run_code("1+1")` result (p50 / p95; each sandbox
  killed after; with `--pool N` the manager keeps a code pool of N, sandboxes with a
  home volume and their kernel started, and it is full again before each round);
- `pause()`, and `Sandbox.connect()` of the paused sandbox → its first `run_code`
  result, with the file written before the pause read back;
- `run_code("1+1")` round trips in one sandbox, three ways taken in turn: the SDK through
  backend-api, the same request by hand through backend-api, and straight to the
  sandbox's tool-api (`/e2b/code/execute` with its own token): the last two differ by
  what the relay costs;
- `commands.run("echo hi")` through backend-api, beside what bounds it from below on the
  machine: the SDK alone against a local server that answers at once, and the login
  shell started inside the sandbox with no HTTP at all;
- a pandas + matplotlib cell drawing a PNG, through the SDK and straight to the tool-api;
- the memory of one sandbox left idle after its first cell (`docker stats`, and the
  processes' RSS: tool-api, the kernel and its driver).

    cargo build --release -p backend-api -p sandbox-manager
    scripts/e2b-bench.py [--debug] [--rounds 20] [--cells 100]

The binaries are target/release's (`--debug`: target/debug's; `--bin-dir DIR`: DIR's);
the sandbox image is SANDBOX_TEST_IMAGE or the one `sandbox-image/build.sh --print-tag`
names. The manager runs in a namespace and networks of its own; its containers, volumes
and networks, the processes and their data are removed at the end, also on failure or
Ctrl-C (scripts/e2b_stack.py). Without the SDKs importable it runs itself again in the
virtual environment clients/test-live.sh uses.
"""

import argparse
import json
import os
import socket
import subprocess
import sys
import threading
import time

from e2b_stack import Stack, add_stack_arguments, load_now, p50_p95, stop_on_signals, with_the_sdks

CODE_PORT = "49999"

# A chart as E2B's users draw them: a pandas frame plotted with matplotlib, shown as a PNG.
PLOT_CELL = """\
import numpy as np, pandas as pd, matplotlib.pyplot as plt
frame = pd.DataFrame({"x": np.arange(200), "y": np.random.default_rng(1).normal(size=200).cumsum()})
frame.plot(x="x", y="y", title=str(frame["y"].mean()))
plt.show()
"""


def timed(work):
    started = time.perf_counter()
    answer = work()
    return time.perf_counter() - started, answer


def create_to_first_result(stack, key, rounds):
    """Per round: (create, first cell, both) seconds; the pool (if any) is full before
    each."""
    from e2b_code_interpreter import Sandbox

    results, cold = [], 0
    for _ in range(rounds):
        cold += stack.pool > 0 and not stack.wait_for_pool()
        started = time.perf_counter()
        sandbox = Sandbox.create(api_key=key, timeout=120)
        created = time.perf_counter()
        try:
            execution = sandbox.run_code("1+1")
            done = time.perf_counter()
            assert execution.text == "2", f"1+1 gave {execution.text!r} ({execution.error})"
        finally:
            sandbox.kill()
        results.append((created - started, done - created, done - started))
    return results, cold


def pause_and_resume(key, rounds):
    """Per round: (pause, connect, first cell after) seconds, in one sandbox whose file
    must come back each time."""
    from e2b_code_interpreter import Sandbox

    sandbox = Sandbox.create(api_key=key, timeout=300)
    results = []
    try:
        sandbox.files.write("/home/user/kept.txt", "kept")
        for _ in range(rounds):
            paused, _ = timed(sandbox.pause)
            connected, resumed = timed(lambda: Sandbox.connect(sandbox.sandbox_id, api_key=key, timeout=300))
            first, execution = timed(lambda: resumed.run_code("open('/home/user/kept.txt').read()"))
            assert execution.text == "kept", f"the file came back as {execution.text!r} ({execution.error})"
            results.append((paused, connected, first))
    finally:
        sandbox.kill()
    return results


class Cells:
    """The same `1+1` cell three ways in one sandbox: SDK via backend-api, by hand via
    backend-api, by hand straight to the tool-api."""

    BODY = {"code": "1+1", "context_id": None, "language": None, "env_vars": None}

    def __init__(self, stack, sandbox):
        import httpx

        record = stack.sandbox_record(sandbox.sandbox_id)
        self.sandbox = sandbox
        self.container_label = f"org.sandpiper.sandbox={record['id']}"
        tool_api = record["tool_api"]
        self.direct = httpx.Client(base_url=tool_api["url"], headers={"authorization": f"Bearer {tool_api['token']}"}, timeout=60)
        self.envd = httpx.Client(base_url=f"{tool_api['url']}/e2b/envd", timeout=60, headers={
            "authorization": f"Bearer {tool_api['token']}",
            "content-type": "application/connect+json",
        })
        self.relayed = httpx.Client(base_url=f"{stack.url}/e2b/sandbox", timeout=60, headers={
            "E2b-Sandbox-Id": sandbox.sandbox_id,
            "E2b-Sandbox-Port": CODE_PORT,
            "X-Access-Token": sandbox._envd_access_token,
        })

    @staticmethod
    def run(client, path, code="1+1"):
        """The cell's messages, by hand."""
        with client.stream("POST", path, json={**Cells.BODY, "code": code}) as response:
            assert response.status_code == 200, f"{path}: {response.status_code}"
            return [json.loads(line) for line in response.iter_lines() if line]

    @staticmethod
    def result_text(messages):
        texts = [message.get("text") for message in messages if message.get("type") == "result"]
        assert texts == ["2"], f"1+1 gave {messages}"

    def sdk(self):
        assert self.sandbox.run_code("1+1").text == "2"

    def by_hand_relayed(self):
        self.result_text(self.run(self.relayed, "/execute"))

    def by_hand_direct(self):
        self.result_text(self.run(self.direct, "/e2b/code/execute"))

    def start_direct(self, cmd, *args):
        """envd's process.Process/Start by hand, straight to the tool-api: its output."""
        message = json.dumps({"process": {"cmd": cmd, "args": list(args)}, "stdin": False}).encode()
        envelope = b"\0" + len(message).to_bytes(4, "big") + message
        response = self.envd.post("/process.Process/Start", content=envelope)
        assert response.status_code == 200, f"Start: {response.status_code}"
        body, frames = response.content, []
        while body:
            flags, size = body[0], int.from_bytes(body[1:5], "big")
            frames.append((flags, json.loads(body[5:5 + size])))
            body = body[5 + size:]
        assert frames and frames[-1] == (2, {}), f"Start ended with {frames[-1:]}"
        assert "aGkK" in json.dumps(frames), f"no 'hi' in {frames}"  # base64 of "hi\n"

    def plot_sdk(self):
        execution = self.sandbox.run_code(PLOT_CELL)
        assert execution.error is None, execution.error
        assert any(result.png for result in execution.results), "the cell drew no PNG"

    def plot_direct(self):
        messages = self.run(self.direct, "/e2b/code/execute", PLOT_CELL)
        assert any(message.get("png") for message in messages), f"the cell drew no PNG: {str(messages)[:300]}"


def alternated(ways, warmups, count):
    """Each way run `warmups` times, then `count` rounds taking the ways in turn: their
    times by name, so the machine's noise falls on all of them alike."""
    for way in ways.values():
        for _ in range(warmups):
            way()
    times = {name: [] for name in ways}
    for _ in range(count):
        for name, way in ways.items():
            times[name].append(timed(way)[0])
    return times


def round_trips(cells, sandbox, count):
    return alternated({"sdk": cells.sdk, "relayed": cells.by_hand_relayed, "direct": cells.by_hand_direct,
                       "echo": lambda: sandbox.commands.run("echo hi"),
                       "login shell": lambda: cells.start_direct("/bin/bash", "-l", "-c", "echo hi"),
                       "no shell": lambda: cells.start_direct("/bin/echo", "hi")}, 5, count)


def plot_cells(cells, count):
    return alternated({"sdk": cells.plot_sdk, "direct": cells.plot_direct}, 3, count)


# The login shell E2B's SDK starts each command in, started `count` times by Python inside
# the sandbox: the process's own cost there, with no HTTP; prints the p50 in ms.
SHELL_STARTS = """\
import statistics, subprocess, sys, time
times = []
for _ in range(int(sys.argv[1])):
    started = time.perf_counter()
    subprocess.run(["/bin/bash", "-l", "-c", "echo hi"], stdin=subprocess.DEVNULL, capture_output=True, check=True)
    times.append(time.perf_counter() - started)
print(statistics.median(times) * 1000)
"""


def shell_start_inside(sandbox, count):
    """p50 ms of the login shell started inside the sandbox, no HTTP."""
    sandbox.files.write("/tmp/shell_starts.py", SHELL_STARTS)
    return float(sandbox.commands.run(f"python3 /tmp/shell_starts.py {count}").stdout)


class AnsweringAtOnce:
    """A local server answering envd's `process.Process/Start` at once (start, the output,
    the end) on kept-alive connections: what the SDK's own side of `commands.run` costs."""

    EVENTS = [{"event": {"start": {"pid": 1}}}, {"event": {"data": {"stdout": "aGkK"}}},
              {"event": {"end": {"exitCode": 0, "exited": True, "status": "exit status 0"}}}]

    def __init__(self):
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        frames = [self.envelope(0, event) for event in self.EVENTS] + [self.envelope(2, {})]
        self.answer = (b"HTTP/1.1 200 OK\r\ncontent-type: application/connect+json\r\ntransfer-encoding: chunked\r\n\r\n"
                       + b"".join(b"%x\r\n%s\r\n" % (len(frame), frame) for frame in frames) + b"0\r\n\r\n")
        threading.Thread(target=self.accept, daemon=True).start()

    @staticmethod
    def envelope(flags, message):
        payload = json.dumps(message).encode()
        return bytes([flags]) + len(payload).to_bytes(4, "big") + payload

    def accept(self):
        while True:
            connection, _ = self.listener.accept()
            threading.Thread(target=self.serve, args=(connection,), daemon=True).start()

    def serve(self, connection):
        """Reads each request (its head, then a chunked or sized body) and answers it."""
        connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        pending = b""
        with connection:
            while True:
                while b"\r\n\r\n" not in pending:
                    received = connection.recv(65536)
                    if not received:
                        return
                    pending += received
                head, pending = pending.split(b"\r\n\r\n", 1)
                head = head.lower()
                if b"transfer-encoding: chunked" in head:
                    while b"0\r\n\r\n" not in pending:
                        pending += connection.recv(65536)
                    pending = pending.split(b"0\r\n\r\n", 1)[1]
                else:
                    length = int(head.split(b"content-length:")[1].split(b"\r\n")[0]) if b"content-length:" in head else 0
                    while len(pending) < length:
                        pending += connection.recv(65536)
                    pending = pending[length:]
                connection.sendall(self.answer)

    def commands(self, sandbox):
        """The SDK's `commands` as `sandbox` has them (its envd version), pointed here."""
        import httpx
        from e2b.connection_config import ConnectionConfig
        from e2b.sandbox_sync.commands.command import Commands

        config = ConnectionConfig(api_key="e2b_" + "0" * 40)
        return Commands(self.url, config, sandbox._envd_version, httpx.Client())


def sdk_alone(sandbox, count):
    """`commands.run("echo hi")` against a server that answers at once: seconds each."""
    commands = AnsweringAtOnce().commands(sandbox)
    return alternated({"sdk alone": lambda: commands.run("echo hi")}, 5, count)["sdk alone"]


def process_name(command):
    if "ipykernel" in command:
        return "kernel"
    if "SANDPIPER_KERNEL_DRIVER" in command or "driver.py" in command:
        return "kernel driver"
    return os.path.basename(command.split()[0])


def idle_memory(label):
    """(docker stats usage, {process: (PSS, RSS) MiB}) of the container labelled `label`.

    PSS shares a page among the processes mapping it (the kernel and its driver share
    Python's), so the processes' PSS add up; their RSS do not."""
    container = subprocess.run(["docker", "ps", "-q", "--filter", f"label={label}"], capture_output=True, text=True).stdout.split()[0]
    usage = subprocess.run(["docker", "stats", "--no-stream", "--format", "{{.MemUsage}}", container],
                           capture_output=True, text=True).stdout.strip().split(" / ")[0]
    top = subprocess.run(["docker", "top", container, "-eo", "pid,rss,args"], capture_output=True, text=True).stdout.splitlines()[1:]
    processes = {}
    for line in top:
        pid, rss, command = line.split(None, 2)
        try:
            with open(f"/proc/{pid}/smaps_rollup") as rollup:
                pss = next(int(row.split()[1]) for row in rollup if row.startswith("Pss:"))
        except (OSError, StopIteration):  # not this host's process (a remote engine)
            pss = int(rss)
        name = process_name(command)
        old_pss, old_rss = processes.get(name, (0, 0))
        processes[name] = (old_pss + pss / 1024, old_rss + int(rss) / 1024)
    return usage, processes


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_stack_arguments(parser)
    parser.add_argument("--pool", type=int, default=0, help="code pool size (0): sandboxes with a volume and a started kernel")
    parser.add_argument("--rounds", type=int, default=20, help="create → first result rounds (20)")
    parser.add_argument("--pauses", type=int, default=10, help="pause → connect rounds (10; 0: skip)")
    parser.add_argument("--cells", type=int, default=100, help="round trips of each kind (100)")
    parser.add_argument("--plots", type=int, default=20, help="plot cells (20)")
    args = parser.parse_args()
    with_the_sdks()
    stop_on_signals()
    from e2b_code_interpreter import Sandbox

    load_before = load_now()
    print(f"starting a backend-api and a sandbox-manager (pool {args.pool}); {load_before}", file=sys.stderr)
    with Stack(args, args.pool) as stack:
        key = stack.person_key()
        print(f"create → first result, {args.rounds} rounds…", file=sys.stderr)
        firsts, cold = create_to_first_result(stack, key, args.rounds)
        print(f"pause → connect, {args.pauses} rounds…", file=sys.stderr)
        pauses = pause_and_resume(key, args.pauses) if args.pauses else []
        if stack.pool:
            stack.wait_for_pool()
        sandbox = Sandbox.create(api_key=key, timeout=600)
        try:
            sandbox.run_code("1+1")
            cells = Cells(stack, sandbox)
            time.sleep(5)
            usage, processes = idle_memory(cells.container_label)
            print(f"round trips, {args.cells} of each…", file=sys.stderr)
            trips = round_trips(cells, sandbox, args.cells)
            print(f"plot cells, {args.plots}…", file=sys.stderr)
            plots = plot_cells(cells, args.plots)
            print("the login shell inside the sandbox, and the SDK alone…", file=sys.stderr)
            shell_inside = shell_start_inside(sandbox, args.cells)
            alone = sdk_alone(sandbox, args.cells)
        finally:
            sandbox.kill()
        statuses = stack.backend_statuses()
    load_after = load_now()

    relay = [relayed - direct for relayed, direct in zip(trips["relayed"], trips["direct"])]
    rows = [
        (f"create → first run_code(\"1+1\") result, pool {args.pool}", "p50 ≤ 60 ms", "cold start 2.52 s (E2B cloud ≈ 0.5 s)",
         p50_p95([both for *_, both in firsts]) + (f" ({cold} rounds without a full pool)" if cold else "")),
        ("  of which Sandbox.create()", "", "", p50_p95([create for create, *_ in firsts])),
        ("  of which the first run_code", "", "", p50_p95([first for _, first, _ in firsts])),
        ("pause()", "", "", p50_p95([paused for paused, *_ in pauses]) if pauses else "skipped"),
        ("connect() of a paused sandbox → first run_code", "", "", p50_p95([c + f for _, c, f in pauses]) if pauses else "skipped"),
        ("  of which connect()", "", "", p50_p95([c for _, c, _ in pauses]) if pauses else "skipped"),
        ("run_code(\"1+1\"), SDK via backend-api", "", "48.0 / 51.6 ms", p50_p95(trips["sdk"])),
        ("the same cell by hand via backend-api", "", "", p50_p95(trips["relayed"])),
        ("the same cell straight to tool-api", "", "tool-api 5.71 / 7.67 ms", p50_p95(trips["direct"])),
        ("  the relay's cost (via − straight, per pair)", "", "", p50_p95(relay)),
        ("commands.run(\"echo hi\") via backend-api", "p50 ≤ 5 ms", "", p50_p95(trips["echo"])),
        ("  its Start (bash -l -c) straight to tool-api", "", "", p50_p95(trips["login shell"])),
        ("  /bin/echo hi without a shell, straight", "", "", p50_p95(trips["no shell"])),
        ("  the login shell started inside the sandbox, no HTTP", "", "", f"{shell_inside:.1f} ms (p50)"),
        ("  the SDK alone, a local server answering at once", "", "", p50_p95(alone)),
        ("pandas + matplotlib PNG cell, SDK via backend-api", "p50 ≤ 79.8 ms", "79.8 / 137.8 ms", p50_p95(plots["sdk"])),
        ("the same cell straight to tool-api", "", "tool-api 93.6 / 132.4 ms", p50_p95(plots["direct"])),
        ("  the SDK's and relay's part (per pair)", "", "", p50_p95([a - b for a, b in zip(plots["sdk"], plots["direct"])])),
        ("idle sandbox after a first cell (docker stats)", "≤ 100 MiB", "225 MiB (tool-api then: 148)", usage),
        ("  PSS (RSS) by process", "", "", ", ".join(
            f"{name} {pss:.0f} ({rss:.0f})" for name, (pss, rss) in sorted(processes.items())) + " MiB"),
        ("  PSS of all processes", "", "", f"{sum(pss for pss, _ in processes.values()):.0f} MiB"),
    ]
    errors = sum(n for (route, status), n in statuses.items() if status.startswith("5"))
    widths = [max(len(row[i]) for row in rows) + 2 for i in range(3)]
    print(f"\nE2B SDKs against Sandpiper ({os.path.basename(os.path.dirname(stack.backend_binary))} binaries, "
          f"code pool {args.pool}, image {stack.image}); {args.rounds} creations, {args.cells} round trips of each "
          f"kind taken in turn, {args.plots} plot cells")
    print("figure".ljust(widths[0]) + "target".ljust(widths[1]) + "E2B's own server".ljust(widths[2]) + "measured")
    for row in rows:
        print("".join(cell.ljust(width) for cell, width in zip(row, widths)) + row[3])
    print(f"backend-api 5xx answers: {errors}; before: {load_before}; after: {load_after}")
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
