#!/usr/bin/env python3
"""Bench of the E2B-compatible API with E2B's own SDKs (e2b, e2b-code-interpreter, pinned in
clients/e2b/requirements.txt) as the client, against a backend-api and a sandbox-manager
(warm pool of 4) of its own, printing the figures beside the targets of the E2B issue and
those of E2B's own code-interpreter server measured on the same kind of machine:

- `Sandbox.create()` → the first `run_code("1+1")` result (p50 / p95; each sandbox
  killed after, the pool refilled before the next round);
- `run_code("1+1")` round trips in one sandbox, three ways taken in turn: the SDK through
  backend-api, the same request by hand through backend-api, and straight to the
  sandbox's tool-api (`/e2b/code/execute` with its own token): the last two differ by
  what the relay costs;
- `commands.run("echo hi")` through backend-api;
- a pandas + matplotlib cell drawing a PNG;
- the memory of one sandbox left idle after its first cell (`docker stats`, and the
  processes' RSS: tool-api, the kernel and its driver).

    cargo build --release -p backend-api -p sandbox-manager
    scripts/e2b-bench.py [--debug] [--rounds 20] [--cells 100]

The binaries are target/release's (CARGO_TARGET_DIR honoured; `--debug`: target/debug's;
`--bin-dir DIR`: DIR's); the sandbox image is SANDBOX_TEST_IMAGE or the one
`sandbox-image/build.sh --print-tag` names (built when missing). The manager runs in a
namespace and networks of its own; its containers, volumes and networks, the processes
and their data are removed at the end, also on failure or Ctrl-C. Without the SDKs
importable it runs itself again in the virtual environment clients/test-live.sh uses.
`scripts/e2b-load.py` uses this file's `Stack`.
"""

import argparse
import http.client
import importlib.util
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REQUIREMENTS = "clients/e2b/requirements.txt"
PASSWORD = "correct horse battery staple"
ENVD_PORT, CODE_PORT = "49983", "49999"

spec = importlib.util.spec_from_file_location("sign_in_bench", os.path.join(ROOT, "scripts", "sign-in-bench.py"))
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)

# What the issue asks and what e2b.md measured for E2B's own server (2 cores, warm kernel).
PLOT_CELL = """\
import numpy as np, pandas as pd, matplotlib.pyplot as plt
frame = pd.DataFrame({"x": np.arange(200), "y": np.random.default_rng(1).normal(size=200).cumsum()})
frame.plot(x="x", y="y", title=str(frame["y"].mean()))
plt.show()
"""


def with_the_sdks():
    """Runs this script again in the SDKs' virtual environment when they are not importable."""
    try:
        import e2b_code_interpreter  # noqa: F401
        import httpx  # noqa: F401
    except ImportError:
        made = subprocess.run(
            ["bash", "-c", f'log() {{ echo "==> $*" >&2; }}; die() {{ echo "$*" >&2; exit 1; }}; '
             f'. scripts/prerequisites.sh; need_pip_venv e2b-venv {REQUIREMENTS}'],
            cwd=ROOT, stdout=subprocess.PIPE, text=True,
        )
        if made.returncode != 0:
            sys.exit("the E2B SDKs are not installed and their virtual environment could not be made")
        python = os.path.join(made.stdout.strip(), "bin", "python3")
        os.execv(python, [python, os.path.abspath(sys.argv[0]), *sys.argv[1:]])


def binaries(args):
    """(backend-api, sandbox-manager) paths as the arguments choose them."""
    folder = args.bin_dir or os.path.join(
        os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target")), "debug" if args.debug else "release"
    )
    found = [os.path.join(folder, name) for name in ("backend-api", "sandbox-manager")]
    for path in found:
        if not os.access(path, os.X_OK):
            profile = "" if args.debug else " --release"
            sys.exit(f"{path} is missing: run `cargo build{profile} -p backend-api -p sandbox-manager` first")
    return found


def sandbox_image():
    image = os.environ.get("SANDBOX_TEST_IMAGE")
    if image:
        return image
    built = subprocess.run([os.path.join(ROOT, "sandbox-image", "build.sh"), "--print-tag"], stdout=subprocess.PIPE, text=True)
    if built.returncode != 0:
        sys.exit("sandbox-image/build.sh --print-tag failed")
    return built.stdout.strip()


def add_stack_arguments(parser):
    parser.add_argument("--debug", action="store_true", help="target/debug's binaries instead of target/release's")
    parser.add_argument("--bin-dir", help="the folder holding backend-api and sandbox-manager")


def call(port, method, path, body=None, headers=None):
    """(status, JSON answer or None, headers by lower-case name) on a fresh connection to 127.0.0.1:`port`."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    try:
        connection.request(method, path, json.dumps(body) if body is not None else None,
                           {"content-type": "application/json", **(headers or {})})
        response = connection.getresponse()
        text = response.read()
        try:
            answer = json.loads(text) if text else None
        except ValueError:
            answer = None
        return response.status, answer, {name.lower(): value for name, value in response.getheaders()}
    finally:
        connection.close()


class Stack:
    """A sandbox-manager and a backend-api of their own; `stop()` removes all they made.

    `manager_env` and `backend_env` add to their settings (quotas, rate limits, the pool)."""

    def __init__(self, args, pool, manager_env=None, backend_env=None):
        self.backend_binary, manager_binary = binaries(args)
        self.image = sandbox_image()
        self.work = tempfile.mkdtemp(prefix="e2b-bench-")
        self.namespace = "e2bbench" + uuid.uuid4().hex[:8]
        self.networks = [f"sandpiper-{self.namespace}-internet", f"sandpiper-{self.namespace}-offline"]
        self.pool = pool
        self.processes = []
        self.manager_port, self.manager_token = bench.free_port(), uuid.uuid4().hex
        try:
            self.manager = self.start(manager_binary, "sandbox-manager", self.manager_port, "/health", {
                "SANDBOX_MANAGER_TOKEN": self.manager_token,
                "SANDBOX_MANAGER_PORT": str(self.manager_port),
                "SANDBOX_MANAGER_DATA_DIR": os.path.join(self.work, "manager"),
                "SANDBOX_MANAGER_NAMESPACE": self.namespace,
                "SANDBOX_MANAGER_POOL__SIZE": str(pool),
                "SANDBOX_MANAGER_SANDBOX__READY_TIMEOUT_SECS": "120",
                "SANDBOX_MANAGER_SANDBOX__INTERNET_NETWORK": self.networks[0],
                "SANDBOX_MANAGER_SANDBOX__OFFLINE_NETWORK": self.networks[1],
                "SANDBOX_IMAGE": self.image,
                **(manager_env or {}),
            })
            self.start_backend(backend_env)
        except BaseException:
            self.stop(failed=True)
            raise

    def start(self, binary, name, port, ready_path, settings):
        """Starts `binary` with only `settings` (and PATH, HOME, DOCKER_HOST) and waits for it."""
        folder = os.path.join(self.work, f"{name}-{len(self.processes)}")
        os.makedirs(folder)
        env = {key: os.environ[key] for key in ("PATH", "HOME", "DOCKER_HOST") if key in os.environ}
        env.update(RUST_LOG="warn", **settings)
        log, process = bench.start_and_wait(binary, env, folder, port, ready_path)
        self.processes.append((name, process, log, folder))
        return process

    def start_backend(self, extra=None):
        """A fresh backend-api (new port, empty store) on this manager; the previous one is stopped."""
        for name, process, log, _ in self.processes:
            if name == "backend-api" and process.poll() is None:
                process.terminate()
                process.wait(20)
        self.port = bench.free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        data = os.path.join(self.work, f"backend-data-{self.port}")
        self.start(self.backend_binary, "backend-api", self.port, "/ready", {
            "BACKEND_ENVIRONMENT": "development",
            "BACKEND_HOST": "127.0.0.1",
            "BACKEND_PORT": str(self.port),
            "BACKEND_DATA_DIR": data,
            "BACKEND_AUTH__MODE": "password",
            "BACKEND_AUTH__REGISTRATION": "open",
            "BACKEND_AGENT__ENABLED": "false",
            "SANDBOX_MANAGER_URL": f"http://127.0.0.1:{self.manager_port}",
            "SANDBOX_MANAGER_TOKEN": self.manager_token,
            **(extra or {}),
        })
        os.environ["E2B_API_URL"] = f"{self.url}/e2b"
        os.environ["E2B_SANDBOX_URL"] = f"{self.url}/e2b/sandbox"

    def person_key(self):
        """A new person's `sandboxes` key, as Settings → API keys makes it."""
        email = f"bench-{uuid.uuid4().hex[:12]}@example.org"
        status, answer, _ = call(self.port, "POST", "/api/v1/auth/register", {"email": email, "password": PASSWORD})
        assert status == 201, f"register: {status} {answer}"
        token = answer["tokens"]["access_token"]
        status, answer, _ = call(self.port, "POST", "/api/v1/api-keys", {"name": "bench", "scope": "sandboxes"},
                                 {"authorization": f"Bearer {token}"})
        assert status == 201, f"api key: {status} {answer}"
        return answer["key"]

    def manager_get(self, path):
        status, answer, _ = call(self.manager_port, "GET", path, headers={"authorization": f"Bearer {self.manager_token}"})
        assert status == 200, f"sandbox-manager {path}: {status} {answer}"
        return answer

    def wait_for_pool(self, seconds=120):
        """Waits until the warm pool is full; whether it got there in time."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            pool = self.manager_get("/health")["pool"]
            if pool["ready"] >= pool["target"]:
                return True
            time.sleep(0.2)
        return False

    def sandbox_record(self, e2b_id):
        """The manager's sandbox for an E2B sandbox (its session), or None."""
        found = self.manager_get(f"/v1/sandboxes?session_id={e2b_id}")["sandboxes"]
        return found[0] if found else None

    def engine_objects(self, kind):
        """Ids and labels of this namespace's containers or volumes."""
        label = f"label=org.sandpiper.manager={self.namespace}"
        listing = ["docker", "ps", "-a", "--no-trunc"] if kind == "container" else ["docker", "volume", "ls"]
        listed = subprocess.run([*listing, "--filter", label, "--format", "{{json .}}"], capture_output=True, text=True, check=True)
        objects = []
        for line in listed.stdout.splitlines():
            item = json.loads(line)
            labels = dict(pair.split("=", 1) for pair in item.get("Labels", "").split(",") if "=" in pair)
            objects.append((item.get("ID") or item.get("Name"), labels))
        return objects

    def backend_statuses(self):
        """`{(route, status): count}` from backend-api's /metrics."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        connection.request("GET", "/metrics")
        text = connection.getresponse().read().decode()
        connection.close()
        counts = {}
        for line in text.splitlines():
            if line.startswith("http_requests_total{"):
                labels, value = line[len("http_requests_total{"):].rsplit("} ", 1)
                fields = dict(part.split("=", 1) for part in labels.split('",') if "=" in part)
                route, status = fields.get("route", "").strip('"'), fields.get("status", "").strip('"')
                counts[(route, status)] = counts.get((route, status), 0) + int(float(value))
        return counts

    def stop(self, failed=False):
        for name, process, log, folder in reversed(self.processes):
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(30)
                except subprocess.TimeoutExpired:
                    process.kill()
            log.close()
            if failed:
                with open(os.path.join(folder, "log")) as text:
                    print(f"\n---- {name} log ----\n" + "".join(text.readlines()[-40:]), file=sys.stderr)
        label = f"label=org.sandpiper.manager={self.namespace}"
        containers = subprocess.run(["docker", "ps", "-aq", "--filter", label], capture_output=True, text=True).stdout.split()
        if containers:
            subprocess.run(["docker", "rm", "-f", "-v", *containers], capture_output=True)
        volumes = subprocess.run(["docker", "volume", "ls", "-q", "--filter", label], capture_output=True, text=True).stdout.split()
        if volumes:
            subprocess.run(["docker", "volume", "rm", "-f", *volumes], capture_output=True)
        subprocess.run(["docker", "network", "rm", *self.networks], capture_output=True)
        shutil.rmtree(self.work, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, kind, *_):
        self.stop(failed=kind is not None)


def stop_on_signals():
    """SIGTERM and SIGHUP unwind like Ctrl-C, so what was started is removed."""
    def interrupt(number, _frame):
        raise KeyboardInterrupt(f"signal {number}")
    for number in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(number, interrupt)


def load_now():
    return "load average {:.2f} / {:.2f} / {:.2f} (1 / 5 / 15 min)".format(*os.getloadavg())


def ms(values, p):
    return f"{bench.percentile(values, p) * 1000:.1f}"


def p50_p95(values):
    return f"{ms(values, 50)} / {ms(values, 95)} ms" if values else "—"


def timed(work):
    started = time.perf_counter()
    answer = work()
    return time.perf_counter() - started, answer


def create_to_first_result(stack, key, rounds):
    """Per round: (create, first cell, both) seconds; the pool is full before each."""
    from e2b_code_interpreter import Sandbox

    results, cold = [], 0
    for _ in range(rounds):
        cold += not stack.wait_for_pool()
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
        self.relayed = httpx.Client(base_url=f"{stack.url}/e2b/sandbox", timeout=60, headers={
            "E2b-Sandbox-Id": sandbox.sandbox_id,
            "E2b-Sandbox-Port": CODE_PORT,
            "X-Access-Token": sandbox._envd_access_token,
        })

    @staticmethod
    def run(client, path):
        text = None
        with client.stream("POST", path, json=Cells.BODY) as response:
            assert response.status_code == 200, f"{path}: {response.status_code}"
            for line in response.iter_lines():
                message = json.loads(line) if line else {}
                if message.get("type") == "result":
                    text = message.get("text")
        assert text == "2", f"{path}: 1+1 gave {text!r}"

    def sdk(self):
        assert self.sandbox.run_code("1+1").text == "2"

    def by_hand_relayed(self):
        self.run(self.relayed, "/execute")

    def by_hand_direct(self):
        self.run(self.direct, "/e2b/code/execute")


def round_trips(cells, sandbox, count):
    ways = {"sdk": cells.sdk, "relayed": cells.by_hand_relayed, "direct": cells.by_hand_direct,
            "echo": lambda: sandbox.commands.run("echo hi")}
    for way in ways.values():
        for _ in range(5):
            way()
    times = {name: [] for name in ways}
    for _ in range(count):
        for name, way in ways.items():
            times[name].append(timed(way)[0])
    return times


def plot_cells(sandbox, count):
    def draw():
        execution = sandbox.run_code(PLOT_CELL)
        assert execution.error is None, execution.error
        assert any(result.png for result in execution.results), "the cell drew no PNG"
    for _ in range(3):
        draw()
    return [timed(draw)[0] for _ in range(count)]


def idle_memory(label):
    """(docker stats usage, {process: RSS MiB}) of the container labelled `label`."""
    container = subprocess.run(["docker", "ps", "-q", "--filter", f"label={label}"], capture_output=True, text=True).stdout.split()[0]
    usage = subprocess.run(["docker", "stats", "--no-stream", "--format", "{{.MemUsage}}", container],
                           capture_output=True, text=True).stdout.strip().split(" / ")[0]
    top = subprocess.run(["docker", "top", container, "-eo", "pid,rss,args"], capture_output=True, text=True).stdout.splitlines()[1:]
    processes = {}
    for line in top:
        _, rss, command = line.split(None, 2)
        print(f"  {int(rss) / 1024:6.1f} MiB  {command[:120]}", file=sys.stderr)
        name = os.path.basename(command.split()[0])
        processes[name] = processes.get(name, 0) + int(rss) / 1024
    return usage, processes


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_stack_arguments(parser)
    parser.add_argument("--pool", type=int, default=4, help="warm pool size (4)")
    parser.add_argument("--rounds", type=int, default=20, help="create → first result rounds (20)")
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
            plots = plot_cells(sandbox, args.plots)
        finally:
            sandbox.kill()
        statuses = stack.backend_statuses()
    load_after = load_now()

    relay = [relayed - direct for relayed, direct in zip(trips["relayed"], trips["direct"])]
    rows = [
        ("create → first run_code(\"1+1\") result, warm pool", "p50 ≤ 60 ms", "cold start 2.52 s (E2B cloud ≈ 0.5 s)",
         p50_p95([both for *_, both in firsts]) + (f" ({cold} rounds without a full pool)" if cold else "")),
        ("  of which Sandbox.create()", "", "", p50_p95([create for create, *_ in firsts])),
        ("  of which the first run_code", "", "", p50_p95([first for _, first, _ in firsts])),
        ("run_code(\"1+1\"), SDK via backend-api", "", "48.0 / 51.6 ms", p50_p95(trips["sdk"])),
        ("the same cell by hand via backend-api", "", "", p50_p95(trips["relayed"])),
        ("the same cell straight to tool-api", "", "tool-api 5.71 / 7.67 ms", p50_p95(trips["direct"])),
        ("  the relay's cost (via − straight, per pair)", "", "", p50_p95(relay)),
        ("commands.run(\"echo hi\") via backend-api", "p50 ≤ 5 ms", "", p50_p95(trips["echo"])),
        ("pandas + matplotlib PNG cell", "p50 ≤ 79.8 ms", "79.8 / 137.8 ms", p50_p95(plots)),
        ("idle sandbox after a first cell (docker stats)", "≤ 100 MiB", "225 MiB (server + kernel)", usage),
        ("  RSS by process", "", "", ", ".join(f"{name} {mib:.0f} MiB" for name, mib in sorted(processes.items()))),
    ]
    errors = sum(n for (route, status), n in statuses.items() if status.startswith("5"))
    widths = [max(len(row[i]) for row in rows) + 2 for i in range(3)]
    print(f"\nE2B SDKs against Sandpiper ({os.path.basename(os.path.dirname(stack.backend_binary))} binaries, "
          f"warm pool {args.pool}, image {stack.image}); {args.rounds} creations, {args.cells} round trips of each "
          f"kind taken in turn, {args.plots} plot cells")
    print("figure".ljust(widths[0]) + "target".ljust(widths[1]) + "E2B's server (e2b.md)".ljust(widths[2]) + "measured")
    for row in rows:
        print("".join(cell.ljust(width) for cell, width in zip(row, widths)) + row[3])
    print(f"backend-api 5xx answers: {errors}; before: {load_before}; after: {load_after}")
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
