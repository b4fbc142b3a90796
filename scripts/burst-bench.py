#!/usr/bin/env python3
"""Load bench of backend-api's other bursts: many file uploads at once into one session's
sandbox, many job creations at once (each with an attachment) by a few people, and a
full queue of jobs with large attachments listed again and again and across a restart,
against one or more release binaries side by side, printing what the callers got
(statuses, p50 / p99 answer time) and what backend-api held (RSS: start, peak, 30 s after).

    cargo build --release -p backend-api
    scripts/burst-bench.py target/release/backend-api [older-binary …] \
        --manager target/release/sandbox-manager [--store shared]

A sandbox-manager (the given binary, no warm pool, in a namespace and networks of its own,
everything removed at the end) makes the sandboxes: the uploads' session's, and those of
the jobs that start (the agent is off, so a started job waits for its run and keeps its
sandbox). `--store shared` and the rest as in scripts/sign-in-bench.py, whose helpers
this uses. A backend-api whose RSS passes the guard is killed and shown as such, so an
unbounded one cannot take the machine with it.
"""

import argparse
import base64
import http.client
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import time
import uuid
from concurrent.futures import ThreadPoolExecutor

spec = importlib.util.spec_from_file_location("sign_in_bench", os.path.join(os.path.dirname(__file__), "sign-in-bench.py"))
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)

UPLOADS, UPLOAD_MIB = 50, 4
JOB_PEOPLE, JOBS_EACH, ATTACHMENT_MIB = 4, 50, 2
# The queue: people each with one job running (the agent is off: it keeps its sandbox)
# and QUEUED_EACH queued, each with a QUEUED_MIB attachment; listed LISTINGS times each.
QUEUE_PEOPLE, QUEUED_EACH, QUEUED_MIB, LISTINGS = 6, 10, 10, 20
SETTLE_SECS = bench.SETTLE_SECS
GUARD_MIB = 3072


class Manager:
    """A sandbox-manager of the bench's own, on a namespace and networks nobody else uses."""

    def __init__(self, binary, image):
        self.namespace = "bench" + uuid.uuid4().hex[:8]
        self.networks = [f"sandpiper-{self.namespace}-internet", f"sandpiper-{self.namespace}-offline"]
        self.port, self.token = bench.free_port(), uuid.uuid4().hex
        self.data = tempfile.mkdtemp(prefix="burst-bench-manager-")
        env = {key: os.environ[key] for key in ("PATH", "HOME", "DOCKER_HOST") if key in os.environ}
        env.update(
            RUST_LOG="warn",
            SANDBOX_MANAGER_TOKEN=self.token,
            SANDBOX_MANAGER_PORT=str(self.port),
            SANDBOX_MANAGER_DATA_DIR=self.data,
            SANDBOX_MANAGER_NAMESPACE=self.namespace,
            SANDBOX_MANAGER_POOL__SIZE="0",
            SANDBOX_MANAGER_SANDBOX__READY_TIMEOUT_SECS="120",
            SANDBOX_MANAGER_QUOTA__PER_OWNER="10",
            SANDBOX_MANAGER_SANDBOX__INTERNET_NETWORK=self.networks[0],
            SANDBOX_MANAGER_SANDBOX__OFFLINE_NETWORK=self.networks[1],
            SANDBOX_IMAGE=image,
        )
        self.log, self.process = bench.start_and_wait(binary, env, self.data, self.port, "/health")

    def backend_env(self):
        return {"SANDBOX_MANAGER_URL": f"http://127.0.0.1:{self.port}", "SANDBOX_MANAGER_TOKEN": self.token}

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(20)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.log.close()
        label = f"label=org.sandpiper.manager={self.namespace}"
        for kind in ("container", "volume"):
            flag = ["-a"] if kind == "container" else []
            ids = subprocess.run(["docker", kind, "ls", *flag, "-q", "--filter", label], capture_output=True, text=True).stdout.split()
            if ids:
                subprocess.run(["docker", kind, "rm", "-f", *ids], capture_output=True)
        subprocess.run(["docker", "network", "rm", *self.networks], capture_output=True)


class Guarded(bench.Peak):
    """RSS peak, killing the process should it pass the guard."""

    def sample(self):
        while self.running:
            self.peak = max(self.peak, bench.rss_mib(self.pid))
            if self.peak > GUARD_MIB:
                os.kill(self.pid, 9)
                self.running = False
            time.sleep(0.02)


def request(port, method, path, body, token, content_type):
    """(status, JSON answer or None, retry-after header, seconds) on a fresh connection."""
    started = time.monotonic()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
    headers = {"content-type": content_type, "authorization": f"Bearer {token}"}
    try:
        connection.request(method, path, body, headers)
        response = connection.getresponse()
        text = response.read()
        try:
            answer = json.loads(text) if text else None
        except ValueError:
            answer = None
        return response.status, answer, response.getheader("retry-after"), time.monotonic() - started
    except OSError:
        return 0, None, None, time.monotonic() - started
    finally:
        connection.close()


def person(backend, name):
    _, answer, _ = bench.post_json(backend.port, "/api/v1/auth/register", {"email": f"{name}@example.org", "password": bench.PASSWORD}, "10.7.0.1")
    return answer["tokens"]["access_token"]


def measure(backend, calls):
    """Runs the calls all at once; (results, RSS start, peak, 30 s later)."""
    time.sleep(2)
    start, peak = backend.rss(), Guarded(backend.process.pid)
    with ThreadPoolExecutor(len(calls)) as pool:
        results = [job.result() for job in [pool.submit(call) for call in calls]]
    top = peak.stop()
    if backend.process.poll() is not None:
        return results, start, top, None
    time.sleep(SETTLE_SECS)
    return results, start, top, backend.rss()


def uploads(binary, store, manager):
    backend = bench.Backend(binary, store)
    try:
        token = person(backend, "uploader")
        _, session, _ = bench.post_json(backend.port, "/api/v1/sessions", {}, "10.7.0.1", token)
        files = f"/api/v1/sessions/{session['id']}/files"
        status, _, _, _ = request(backend.port, "GET", files, None, token, "application/json")
        assert status == 200, f"the session's sandbox did not start: {status}"
        body = os.urandom(UPLOAD_MIB * 1024 * 1024)
        calls = [
            (lambda i=i: request(backend.port, "PUT", f"{files}/upload?path=burst/{i}.bin", body, token, "application/octet-stream"))
            for i in range(UPLOADS)
        ]
        return summary("upload", 201, *measure(backend, calls))
    finally:
        backend.stop()


def job_creations(binary, store, manager):
    backend = bench.Backend(binary, store)
    try:
        tokens = [person(backend, f"jobs{i}") for i in range(JOB_PEOPLE)]
        content = base64.b64encode(os.urandom(ATTACHMENT_MIB * 1024 * 1024)).decode()
        body = json.dumps({"prompt": "Summarise the attached file", "attachments": [{"name": "data.bin", "content_base64": content}]})
        calls = [
            (lambda t=tokens[i % JOB_PEOPLE]: request(backend.port, "POST", "/api/v1/jobs", body, t, "application/json"))
            for i in range(JOB_PEOPLE * JOBS_EACH)
        ]
        return summary("job", 201, *measure(backend, calls))
    finally:
        backend.stop()


def queued_jobs(binary, store, manager):
    """60 queued jobs with 10 MiB each: RSS while they are made, listed, and after a restart."""
    os.environ["BACKEND_JOBS__MAX_RUNNING_PER_PERSON"] = "1"
    backend = bench.Backend(binary, store)
    try:
        tokens = [person(backend, f"queue{i}") for i in range(QUEUE_PEOPLE)]
        content = base64.b64encode(os.urandom(QUEUED_MIB * 1024 * 1024)).decode()
        body = json.dumps({"prompt": "Summarise the attached file", "attachments": [{"name": "data.bin", "content_base64": content}]})
        time.sleep(2)
        start, peak = backend.rss(), Guarded(backend.process.pid)
        made = 0
        for token in tokens:
            for _ in range(QUEUED_EACH + 1):
                status, _, _, _ = request(backend.port, "POST", "/api/v1/jobs", body, token, "application/json")
                made += status == 201
        made_peak = peak.stop()
        time.sleep(SETTLE_SECS)
        after_made = backend.rss()

        def list_all(backend):
            peak = Guarded(backend.process.pid)
            for _ in range(LISTINGS):
                for token in tokens:
                    status, answer, _, _ = request(backend.port, "GET", "/api/v1/jobs?limit=100", None, token, "application/json")
                    assert status == 200 and len(answer["jobs"]) == QUEUED_EACH + 1, f"listing: {status}"
            return peak.stop()

        listed_peak = list_all(backend)
        backend.stop(keep=True)
        backend = bench.Backend(binary, store, like=backend)
        time.sleep(2)
        restarted = backend.rss()
        restarted_peak = list_all(backend)
        queued = sum(
            1
            for token in tokens
            for job in request(backend.port, "GET", "/api/v1/jobs?status=queued&limit=100", None, token, "application/json")[1]["jobs"]
        )
        return {
            "queue: jobs made / still queued": f"{made}/{QUEUE_PEOPLE * (QUEUED_EACH + 1)}, {queued} queued",
            "queue RSS start → peak making → 30 s later": f"{start:.0f} → {made_peak:.0f} → {after_made:.0f}",
            f"queue RSS peak over {LISTINGS * QUEUE_PEOPLE} listings": f"{listed_peak:.0f}",
            "queue RSS restarted → peak listing again": f"{restarted:.0f} → {restarted_peak:.0f}",
        }
    finally:
        os.environ.pop("BACKEND_JOBS__MAX_RUNNING_PER_PERSON", None)
        backend.stop()


def summary(kind, ok, results, start, peak, settled):
    statuses = {}
    for status, answer, retry_after, _ in results:
        key = str(status)
        if status not in (ok, 0):
            code = ((answer or {}).get("error") or {}).get("code", "no JSON error")
            key += f" ({code}, Retry-After {retry_after or 'none'})"
        statuses[key] = statuses.get(key, 0) + 1
    waits = [seconds for *_, seconds in results]
    return {
        f"{kind} {ok}": f"{statuses.pop(str(ok), 0)}/{len(results)}",
        f"{kind} other": ", ".join(f"{n}× {status}" for status, n in sorted(statuses.items())) or "none",
        f"{kind} p50 / p99 (s)": f"{bench.percentile(waits, 50):.2f} / {bench.percentile(waits, 99):.2f}",
        f"{kind} RSS start → peak": f"{start:.0f} → {peak:.0f}" + (f" (killed > {GUARD_MIB})" if settled is None else ""),
        f"{kind} RSS {SETTLE_SECS} s later": "—" if settled is None else f"{settled:.0f} ({settled - start:+.0f})",
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binaries", nargs="+", help="backend-api release binaries, compared side by side")
    parser.add_argument("--manager", required=True, help="a sandbox-manager binary")
    parser.add_argument("--image", default=os.environ.get("SANDBOX_TEST_IMAGE", "sandpiper-sandbox:latest"))
    parser.add_argument("--store", choices=["embedded", "shared"], default="embedded")
    parser.add_argument("--only", choices=["uploads", "jobs", "queue"], help="one of the three bursts")
    parser.add_argument("--attachment-mib", type=int, default=ATTACHMENT_MIB, help="each job's attachment")
    args = parser.parse_args()
    globals()["ATTACHMENT_MIB"] = args.attachment_mib
    manager = Manager(args.manager, args.image)
    os.environ.update(manager.backend_env())
    columns = {}
    try:
        for binary in args.binaries:
            print(f"measuring {binary} ({args.store} store)…", file=sys.stderr)
            figures = {}
            if args.only in (None, "uploads"):
                figures.update(uploads(binary, args.store, manager))
            if args.only in (None, "jobs"):
                figures.update(job_creations(binary, args.store, manager))
            if args.only in (None, "queue"):
                figures.update(queued_jobs(binary, args.store, manager))
            columns[binary] = figures
    finally:
        manager.stop()
    rows = list(dict.fromkeys(key for figures in columns.values() for key in figures))
    names = [os.path.basename(os.path.dirname(b)) + "/" + os.path.basename(b) for b in args.binaries]
    width = max(len(row) for row in rows) + 2
    print(f"RSS in MiB; {UPLOADS} uploads of {UPLOAD_MIB} MiB at once into one session; "
          f"{JOB_PEOPLE}×{JOBS_EACH} jobs at once, each with a {ATTACHMENT_MIB} MiB attachment; "
          f"{QUEUE_PEOPLE}×{QUEUED_EACH + 1} jobs one by one, each with {QUEUED_MIB} MiB; {args.store} store")
    print("".ljust(width) + "".join(name[-38:].ljust(40) for name in names))
    for row in rows:
        print(row.ljust(width) + "".join(columns[b].get(row, "").ljust(40) for b in args.binaries))


if __name__ == "__main__":
    main()
