#!/usr/bin/env python3
"""Bench of backend-api's automations, printing two figures:

1. due time → the run's first event: automations with one-shot `at` times a few seconds
   ahead fire; for each, the time from its due time to the first event of its run's
   session (the prompt, stored) — p50 and p99;
2. the scheduler at idle: backend-api's CPU (user + system, share of one core) over a
   window with no automation, then with 1,000 enabled ones (daily crons) that do not
   fire in the window.

    cargo build --release -p backend-api
    scripts/automations-bench.py target/release/backend-api [--store shared]

The model is a scripted OpenAI-compatible server in this script (each answer one word),
so the runs end at once and need no sandbox. `--store shared` and the rest as in
scripts/sign-in-bench.py, whose helpers this uses.
"""

import argparse
import http.client
import importlib.util
import json
import os
import threading
import time
from datetime import datetime, timedelta, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

spec = importlib.util.spec_from_file_location("sign_in_bench", os.path.join(os.path.dirname(__file__), "sign-in-bench.py"))
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)

FIRES = 20
IDLE_AUTOMATIONS = 1000
IDLE_WINDOW_SECS = 30


class Model(BaseHTTPRequestHandler):
    """Answers every chat completion with one streamed word."""

    def do_POST(self):
        self.rfile.read(int(self.headers.get("content-length", 0)))
        chunks = [
            {"choices": [{"index": 0, "delta": {"role": "assistant", "content": "Done."}, "finish_reason": None}]},
            {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}],
             "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}},
        ]
        body = "".join(f"data: {json.dumps(c)}\n\n" for c in chunks) + "data: [DONE]\n\n"
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body.encode())

    def log_message(self, *args):
        pass


def call(port, method, path, token, body=None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    headers = {"authorization": f"Bearer {token}", "content-type": "application/json"}
    connection.request(method, path, json.dumps(body) if body is not None else None, headers)
    response = connection.getresponse()
    text = response.read()
    connection.close()
    if response.status >= 300:
        raise RuntimeError(f"{method} {path}: {response.status} {text[:300]!r}")
    return json.loads(text) if text else None


def first_event_at(port, token, session):
    """The time of the session's first stored event, read from its event stream."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    connection.request("GET", f"/api/v1/sessions/{session}/events", headers={"authorization": f"Bearer {token}"})
    response = connection.getresponse()
    while True:
        line = response.readline().decode()
        if line.startswith("data:"):
            connection.close()
            return parse(json.loads(line[5:])["at"])


def parse(at):
    return datetime.fromisoformat(at.replace("Z", "+00:00"))


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cpu_share(pid, seconds):
    start, began = cpu_seconds(pid), time.monotonic()
    time.sleep(seconds)
    return (cpu_seconds(pid) - start) / (time.monotonic() - began) * 100


def register(port):
    status, answer, _ = bench.post_json(
        port, "/api/v1/auth/register", {"email": "bench@example.org", "password": bench.PASSWORD}, "10.0.0.1"
    )
    if status != 201:
        raise RuntimeError(f"register: {status} {answer}")
    return answer["tokens"]["access_token"]


def latencies(port, token):
    due = datetime.now(timezone.utc) + timedelta(seconds=3)
    made = []
    for i in range(FIRES):
        at = (due + timedelta(milliseconds=250 * i)).isoformat()
        created = call(port, "POST", "/api/v1/automations", token,
                       {"name": f"bench {i}", "prompt": "Say done", "triggers": [{"type": "at", "at": at}]})
        made.append(created["id"])
    results = []
    deadline = time.monotonic() + 120
    for automation in made:
        while True:
            runs = call(port, "GET", f"/api/v1/automations/{automation}/runs", token)["runs"]
            if runs and runs[0].get("session_id"):
                break
            if time.monotonic() > deadline:
                raise RuntimeError(f"automation {automation} never ran: {runs}")
            time.sleep(0.2)
        run = runs[0]
        results.append((first_event_at(port, token, run["session_id"]) - parse(run["fired_at"])).total_seconds())
    for automation in made:
        call(port, "DELETE", f"/api/v1/automations/{automation}", token)
    return results


class Backend:
    """backend-api on a port and data directory of its own, with the agent on (runs answer
    through the scripted model) and the given store."""

    def __init__(self, binary, store, model_port):
        import shutil
        import tempfile
        import uuid

        self.port, self.data = bench.free_port(), tempfile.mkdtemp(prefix="automations-bench-")
        self.cleanup = lambda: shutil.rmtree(self.data, ignore_errors=True)
        env = {key: value for key, value in os.environ.items() if key not in ("MONGODB_URI", "REDIS_URL")}
        env.update(
            BACKEND_PORT=str(self.port),
            BACKEND_DATA_DIR=self.data,
            BACKEND_AUTH__REGISTRATION="open",
            BACKEND_HTTP__TRUSTED_PROXIES="127.0.0.1",
            AUTH_MODE="password",
            LLM_BASE_URL=f"http://127.0.0.1:{model_port}/v1",
            LLM_MODEL="bench",
            LLM_API_KEY="bench",
            RUST_LOG="warn",
            # The idle figure's automations are one person's: past the default cap.
            BACKEND_AUTOMATIONS__MAX_PER_PERSON=str(IDLE_AUTOMATIONS),
        )
        if store == "shared":
            name = "bench_" + uuid.uuid4().hex[:12]
            env["MONGODB_URI"] = os.environ.get("MONGODB_URI", "mongodb://127.0.0.1:27117")
            env["REDIS_URL"] = os.environ.get("REDIS_URL", "redis://127.0.0.1:6479")
            env["MONGODB_DATABASE"] = name
            env["BACKEND_REDIS_KEY_PREFIX"] = name + ":"
        self.log, self.process = bench.start_and_wait(binary, env, self.data, self.port, "/api/v1/auth/mode")

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(20)
        except Exception:
            self.process.kill()
        self.log.close()
        self.cleanup()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binary")
    parser.add_argument("--store", choices=["embedded", "shared"], default="embedded")
    args = parser.parse_args()

    model = ThreadingHTTPServer(("127.0.0.1", 0), Model)
    threading.Thread(target=model.serve_forever, daemon=True).start()
    backend = Backend(args.binary, args.store, model.server_port)
    try:
        token = register(backend.port)
        seconds = latencies(backend.port, token)
        print(f"due time -> run's first event over {len(seconds)} fires: "
              f"p50 {bench.percentile(seconds, 50) * 1000:.0f} ms, p99 {bench.percentile(seconds, 99) * 1000:.0f} ms")
        time.sleep(5)
        idle = cpu_share(backend.process.pid, IDLE_WINDOW_SECS)
        print(f"backend-api CPU at idle, no automations: {idle:.2f} % of a core over {IDLE_WINDOW_SECS} s")
        for i in range(IDLE_AUTOMATIONS):
            call(backend.port, "POST", "/api/v1/automations", token,
                 {"name": f"idle {i}", "prompt": "Later", "triggers": [{"type": "schedule", "cron": f"{i % 60} 3 * * *"}]})
        time.sleep(5)
        busy = cpu_share(backend.process.pid, IDLE_WINDOW_SECS)
        print(f"backend-api CPU at idle, {IDLE_AUTOMATIONS} enabled automations: {busy:.2f} % of a core "
              f"over {IDLE_WINDOW_SECS} s (RSS {bench.rss_mib(backend.process.pid):.0f} MiB)")
    finally:
        backend.stop()
        model.shutdown()


if __name__ == "__main__":
    main()
