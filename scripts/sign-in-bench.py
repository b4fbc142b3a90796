#!/usr/bin/env python3
"""Load bench of backend-api's password path: a rush of sign-ins and one of sign-ups,
against one or more release binaries side by side, printing what people got (statuses,
waits) and what the process held (RSS: start, peak, and 30 s after); then 1,000 event
streams (SSE) opened at once after a restart, each resuming after its `Last-Event-ID`.

    cargo build --release -p backend-api
    scripts/sign-in-bench.py target/release/backend-api [older-binary …] [--store shared]

`--store shared` uses MongoDB and Redis (MONGODB_URI / REDIS_URL, by default the ones
./test.sh starts on 127.0.0.1:27117 and :6479) instead of the embedded store. Each
binary gets a fresh data directory (or database and key prefix) and the default Argon2
cost. The first column repeats the figures measured when the problem was reported.
"""

import argparse
import asyncio
import re
import http.client
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor

PASSWORD = "correct horse battery staple"
ACCOUNTS = 10
ROUNDS, PER_ROUND, AT_ONCE = 3, 200, 50
SIGN_UPS = 60
SETTLE_SECS = 30
STREAMS, STREAM_PEOPLE = 1000, 50

# Reported before the fix (one backend-api, embedded store, 2 cores).
REPORTED = {
    "sign-in 200": "95/600",
    "sign-in other": "505× 429",
    "sign-in RSS start": "99",
    "sign-in RSS after rounds": "519 / 805 / 938",
    "sign-in RSS peak growth": "839",
    "sign-in RSS settled": "673 (15 s)",
    "sign-up RSS start": "22",
    "sign-up RSS peak growth": "800 (60)",
    "sign-up RSS settled": "716",
}


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_mib(pid):
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


class Peak:
    """Samples a process's RSS every 20 ms while running."""

    def __init__(self, pid):
        self.pid, self.peak, self.running = pid, rss_mib(pid), True
        self.thread = threading.Thread(target=self.sample, daemon=True)
        self.thread.start()

    def sample(self):
        while self.running:
            self.peak = max(self.peak, rss_mib(self.pid))
            time.sleep(0.02)

    def stop(self):
        self.running = False
        self.thread.join()
        return self.peak


def post(port, path, body, address, token=None):
    """(status, seconds) of one request on a fresh connection."""
    status, _, seconds = post_json(port, path, body, address, token)
    return status, seconds


def post_json(port, path, body, address, token=None):
    """(status, JSON answer or None, seconds) of one request on a fresh connection."""
    started = time.monotonic()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    headers = {"content-type": "application/json", "x-forwarded-for": address}
    if token:
        headers["authorization"] = f"Bearer {token}"
    try:
        connection.request("POST", path, json.dumps(body), headers)
        response = connection.getresponse()
        text = response.read()
        try:
            answer = json.loads(text) if text else None
        except ValueError:
            answer = None
        return response.status, answer, time.monotonic() - started
    except OSError:
        return 0, None, time.monotonic() - started
    finally:
        connection.close()


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p / 100))] if ordered else 0.0


def start_and_wait(binary, env, data, port, path):
    """Starts `binary` logging into `data`/log and waits (60 s at most) until `path` answers 200."""
    log = open(os.path.join(data, "log"), "a")
    process = subprocess.Popen([binary], env=env, stdout=log, stderr=log)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            connection.request("GET", path)
            if connection.getresponse().status == 200:
                return log, process
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"{binary} did not start; see {data}/log")


class Backend:
    def __init__(self, binary, store, like=None):
        """A fresh backend, or (`like`) a restart of an earlier one on its port and store."""
        self.binary, self.store = binary, store
        self.port = like.port if like else free_port()
        self.data = like.data if like else tempfile.mkdtemp(prefix="sign-in-bench-")
        self.name = name = like.name if like else "bench_" + uuid.uuid4().hex[:12]
        env = dict(
            os.environ,
            BACKEND_PORT=str(self.port),
            BACKEND_DATA_DIR=self.data,
            BACKEND_AGENT__ENABLED="false",
            # The bench, on loopback, is the proxy naming each client.
            BACKEND_HTTP__TRUSTED_PROXIES="127.0.0.1",
            # The benches make their many people themselves.
            BACKEND_AUTH__REGISTRATION="open",
            AUTH_MODE="password",
            RUST_LOG="warn",
        )
        for key in ("MONGODB_URI", "REDIS_URL"):
            env.pop(key, None)
        if store == "shared":
            env["MONGODB_URI"] = os.environ.get("MONGODB_URI", "mongodb://127.0.0.1:27117")
            env["REDIS_URL"] = os.environ.get("REDIS_URL", "redis://127.0.0.1:6479")
            env["MONGODB_DATABASE"] = name
            env["BACKEND_REDIS_KEY_PREFIX"] = name + ":"
        self.log, self.process = start_and_wait(binary, env, self.data, self.port, "/api/v1/auth/mode")

    def rss(self):
        return rss_mib(self.process.pid)

    def stop(self, keep=False):
        self.process.terminate()
        try:
            self.process.wait(20)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.log.close()
        if not keep:
            shutil.rmtree(self.data, ignore_errors=True)


def sign_ins(binary, store):
    backend = Backend(binary, store)
    try:
        emails = [f"person{i}@example.org" for i in range(ACCOUNTS)]
        for email in emails:
            status, _ = post(backend.port, "/api/v1/auth/register", {"email": email, "password": PASSWORD}, "10.0.0.1")
            assert status == 201, f"register {email}: {status}"
        time.sleep(2)
        start, peak, after_rounds = backend.rss(), Peak(backend.process.pid), []
        results = []
        with ThreadPoolExecutor(AT_ONCE) as pool:
            for round_ in range(ROUNDS):
                jobs = [
                    pool.submit(
                        post,
                        backend.port,
                        "/api/v1/auth/login",
                        {"email": emails[i % ACCOUNTS], "password": PASSWORD},
                        f"10.{round_}.{i // 250}.{i % 250}",
                    )
                    for i in range(PER_ROUND)
                ]
                results += [job.result() for job in jobs]
                after_rounds.append(backend.rss())
        top = peak.stop()
        time.sleep(SETTLE_SECS)
        return summary("sign-in", results, start, top, after_rounds, backend.rss())
    finally:
        backend.stop()


def sign_ups(binary, store):
    backend = Backend(binary, store)
    try:
        time.sleep(2)
        start, peak = backend.rss(), Peak(backend.process.pid)
        with ThreadPoolExecutor(SIGN_UPS) as pool:
            jobs = [
                pool.submit(
                    post,
                    backend.port,
                    "/api/v1/auth/register",
                    {"email": f"new{i}@example.org", "password": PASSWORD},
                    f"10.9.0.{i}",
                )
                for i in range(SIGN_UPS)
            ]
            results = [job.result() for job in jobs]
        top = peak.stop()
        after = backend.rss()
        time.sleep(SETTLE_SECS)
        return summary("sign-up", results, start, top, [after], backend.rss())
    finally:
        backend.stop()


async def resume(port, token, session, deadline):
    """Opens a session's event stream after event 1; (status, resumed: saw events 2 and 3)."""
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
    except OSError:
        return 0, False
    try:
        writer.write(
            f"GET /api/v1/sessions/{session}/events HTTP/1.1\r\nHost: bench\r\n"
            f"Authorization: Bearer {token}\r\nAccept: text/event-stream\r\nLast-Event-ID: 1\r\n\r\n".encode()
        )
        seen = b""
        while not re.search(rb"\nid: ?3\r?\n", seen):
            chunk = await asyncio.wait_for(reader.read(4096), deadline - time.monotonic())
            if not chunk:
                break
            seen += chunk
        status = int(seen.split(b" ", 2)[1]) if seen.startswith(b"HTTP/") else 0
        return status, bool(re.search(rb"\nid: ?2\r?\n", seen) and re.search(rb"\nid: ?3\r?\n", seen))
    except (OSError, asyncio.TimeoutError, ValueError, IndexError):
        return 0, False
    finally:
        writer.close()


def streams(binary, store):
    backend = Backend(binary, store)
    try:
        people = []
        for i in range(STREAM_PEOPLE):
            _, answer, _ = post_json(
                backend.port, "/api/v1/auth/register", {"email": f"s{i}@example.org", "password": PASSWORD}, "10.8.0.1"
            )
            token = answer["tokens"]["access_token"]
            _, session, _ = post_json(backend.port, "/api/v1/sessions", {}, "10.8.0.1", token)
            for n in range(3):
                post_json(backend.port, f"/api/v1/sessions/{session['id']}/messages", {"content": f"m{n}"}, "10.8.0.1", token)
            people.append((token, session["id"]))
        backend.stop(keep=True)
        backend = Backend(binary, store, like=backend)
        time.sleep(2)
        start, peak = backend.rss(), Peak(backend.process.pid)
        deadline = time.monotonic() + 60

        async def all_at_once():
            return await asyncio.gather(
                *(resume(backend.port, *people[i % STREAM_PEOPLE], deadline) for i in range(STREAMS))
            )

        started = time.monotonic()
        results = asyncio.run(all_at_once())
        seconds = time.monotonic() - started
        top = peak.stop()
        statuses = {}
        for status, _ in results:
            statuses[status] = statuses.get(status, 0) + 1
        return {
            "SSE streams resumed": f"{sum(1 for _, ok in results if ok)}/{STREAMS} in {seconds:.1f} s",
            "SSE statuses": ", ".join(f"{n}× {status}" for status, n in sorted(statuses.items())),
            "SSE RSS start / peak": f"{start:.0f} / {top:.0f}",
        }
    finally:
        backend.stop()


def summary(kind, results, start, peak, after_rounds, settled):
    ok = 201 if kind == "sign-up" else 200
    statuses = {}
    for status, _ in results:
        statuses[status] = statuses.get(status, 0) + 1
    waits = [seconds for _, seconds in results]
    others = ", ".join(f"{n}× {status}" for status, n in sorted(statuses.items()) if status != ok)
    return {
        f"{kind} {ok if kind == 'sign-up' else 200}": f"{statuses.get(ok, 0)}/{len(results)}",
        f"{kind} other": others or "none",
        f"{kind} wait p50 / p99 (s)": f"{percentile(waits, 50):.2f} / {percentile(waits, 99):.2f}",
        f"{kind} RSS start": f"{start:.0f}",
        f"{kind} RSS after rounds": " / ".join(f"{r:.0f}" for r in after_rounds),
        f"{kind} RSS peak growth": f"{peak - start:.0f}",
        f"{kind} RSS settled": f"{settled:.0f} ({settled - start:+.0f})",
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binaries", nargs="+", help="backend-api release binaries, compared side by side")
    parser.add_argument("--store", choices=["embedded", "shared"], default="embedded")
    parser.add_argument("--no-streams", action="store_true", help="leave out the event streams after a restart")
    args = parser.parse_args()
    columns = {}
    for binary in args.binaries:
        print(f"measuring {binary} ({args.store} store)…", file=sys.stderr)
        figures = sign_ins(binary, args.store)
        figures.update(sign_ups(binary, args.store))
        if not args.no_streams:
            figures.update(streams(binary, args.store))
        columns[binary] = figures
    rows = list(dict.fromkeys(key for figures in columns.values() for key in figures))
    names = ["reported"] + [os.path.basename(os.path.dirname(b)) + "/" + os.path.basename(b) for b in args.binaries]
    width = max(len(row) for row in rows) + 2
    print(f"RSS in MiB; {ROUNDS}×{PER_ROUND} sign-ins {AT_ONCE} at a time over {ACCOUNTS} accounts; "
          f"{SIGN_UPS} sign-ups at once; settled = {SETTLE_SECS} s after; {args.store} store")
    print("".ljust(width) + "".join(name[-22:].ljust(24) for name in names))
    for row in rows:
        cells = [REPORTED.get(row, "")] + [columns[b].get(row, "") for b in args.binaries]
        print(row.ljust(width) + "".join(cell.ljust(24) for cell in cells))
    print("targets: sign-in ≥ 99 % 200 and p99 wait ≤ 3 s; RSS peak growth ≤ 150 and settled within 50 of start;")
    print(f"         all {STREAMS} streams resume with RSS ≤ 300")


if __name__ == "__main__":
    main()
