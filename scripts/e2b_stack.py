"""What scripts/e2b-bench.py and scripts/e2b-load.py share: a backend-api and a
sandbox-manager of their own (`Stack`: the manager in a namespace and networks nobody
else uses; its containers, volumes and networks, both processes and their data removed by
`stop()`, also on failure), the binaries and image they run, E2B's SDKs in the
virtual environment clients/test-live.sh uses, and the figures' formatting.

The binaries are target/release's (CARGO_TARGET_DIR honoured; `--debug`: target/debug's;
`--bin-dir DIR`: DIR's); the sandbox image is SANDBOX_TEST_IMAGE or the one
`sandbox-image/build.sh --print-tag` names (built when missing).
"""

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

spec = importlib.util.spec_from_file_location("sign_in_bench", os.path.join(ROOT, "scripts", "sign-in-bench.py"))
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)


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
                # The code pool is what E2B's code interpreter claims from; the light
                # pool's sandboxes (no volume) never serve a rented sandbox.
                "SANDBOX_MANAGER_POOL__SIZE": "0",
                "SANDBOX_MANAGER_POOL__CODE_SIZE": str(pool),
                "SANDBOX_MANAGER_SANDBOX__READY_TIMEOUT_SECS": "120",
                "SANDBOX_MANAGER_SANDBOX__INTERNET_NETWORK": self.networks[0],
                "SANDBOX_MANAGER_SANDBOX__OFFLINE_NETWORK": self.networks[1],
                # Reached as Compose reaches them, at their own addresses: no port
                # published, no userland proxy between backend-api and the sandbox.
                "SANDBOX_MANAGER_SANDBOX__ADDRESS_MODE": "bridge",
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
        """Waits until the code pool is full (its kernels started); whether it got there in
        time."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            pool = self.manager_get("/health")["code_pool"]
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
