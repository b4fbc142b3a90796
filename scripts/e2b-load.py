#!/usr/bin/env python3
"""Load check of the E2B-compatible API with E2B's own SDKs as the clients, against a
backend-api and a sandbox-manager of its own (quotas raised to let 20 sandboxes live at
once), in two phases:

1. 20 SDK clients at once (threads), each `Sandbox.create()` → `run_code` →
   `files.write` / `files.read` → `kill()`, 3 rounds: every step must succeed (the SDK's
   own retries off, so a 429 or 5xx it would have retried counts too), and afterwards no
   sandbox of theirs may be left: not in `GET /e2b/v2/sandboxes`, not in the manager's
   list, no container or volume of theirs on the engine (waited for up to 30 s).
2. A fresh backend-api whose keys may make 10 requests a minute
   (`BACKEND_API_KEYS__REQUESTS_PER_MINUTE`): 20 clients create at once; those over the
   limit must get the SDK's `RateLimitException` (429), nobody a 5xx; a plain request
   over the limit must carry `Retry-After` and E2B's `{code, message}`. The sandboxes that
   were made are killed (waiting for the next minute when the kill itself is refused)
   and must be gone afterwards too.

backend-api's own `/metrics` must show no 5xx answer in either phase. It prints the steps'
p50 / p95 and what each phase counted, and exits non-zero when any check fails.

    cargo build --release -p backend-api -p sandbox-manager
    scripts/e2b-load.py [--debug] [--clients 20] [--rounds 3] [--requests-per-minute 10]

Binaries, image and clean-up as for scripts/e2b-bench.py (scripts/e2b_stack.py).
"""

import argparse
import os
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import e2b_stack

SETTLE_SECS = 30
STEPS = ("create", "run_code", "files.write", "files.read", "kill")


class Phase:
    """What one phase's clients did: step times, errors, the sandboxes they made."""

    def __init__(self):
        self.lock = threading.Lock()
        self.times = {step: [] for step in STEPS}
        self.errors = []
        self.sandboxes = {}  # E2B id → the manager's sandbox id
        self.outcomes = {}

    def step(self, name, work):
        started = time.perf_counter()
        answer = work()
        with self.lock:
            self.times[name].append(time.perf_counter() - started)
        return answer

    def count(self, outcome):
        with self.lock:
            self.outcomes[outcome] = self.outcomes.get(outcome, 0) + 1

    def fail(self, where, err):
        with self.lock:
            self.errors.append(f"{where}: {type(err).__name__}: {str(err)[:200]}")


def one_client(stack, key, phase, name):
    """create → run_code → files.write/read → kill, each step timed; errors recorded."""
    from e2b_code_interpreter import Sandbox

    try:
        sandbox = phase.step("create", lambda: Sandbox.create(api_key=key, timeout=300, request_timeout=180, retries=0))
    except Exception as err:  # noqa: BLE001 — every failure is counted and shown
        return phase.fail(f"{name} create", err)
    try:
        record = stack.sandbox_record(sandbox.sandbox_id)
        with phase.lock:
            phase.sandboxes[sandbox.sandbox_id] = record and record["id"]
        execution = phase.step("run_code", lambda: sandbox.run_code("x = 6 * 7\nx"))
        assert execution.error is None and execution.text == "42", f"6 * 7 gave {execution.text!r} ({execution.error})"
        content = f"{name} was here\n" * 1000
        path = f"/home/user/{name}.txt"
        phase.step("files.write", lambda: sandbox.files.write(path, content))
        read = phase.step("files.read", lambda: sandbox.files.read(path))
        assert read == content, f"read back {len(read)} characters of {len(content)}"
    except Exception as err:  # noqa: BLE001
        phase.fail(f"{name}", err)
    try:
        phase.step("kill", sandbox.kill)
    except Exception as err:  # noqa: BLE001
        phase.fail(f"{name} kill", err)


def leftovers(stack, key, rented):
    """What is left of the `rented` sandboxes ({E2B id: manager id}), waiting up to SETTLE_SECS."""
    deadline = time.monotonic() + SETTLE_SECS
    while True:
        status, answer, headers = e2b_stack.call(stack.port, "GET", "/e2b/v2/sandboxes?limit=100", headers={"x-api-key": key})
        if status == 429:  # the key's minute is used up: the listing waits for the next
            wait = int(headers.get("retry-after", "60")) + 1
            deadline += wait
            time.sleep(wait)
            continue
        listed = [item["sandboxID"] for item in answer] if status == 200 else [f"(list answered {status})"]
        managed = [e2b_id for e2b_id in rented if stack.sandbox_record(e2b_id)]
        manager_ids = {manager_id for manager_id in rented.values() if manager_id}
        containers = [ident for ident, labels in stack.engine_objects("container")
                      if labels.get("org.sandpiper.sandbox") in manager_ids or labels.get("org.sandpiper.session") in rented]
        # A home volume's key is its session's id (a cold start) or `_` and the id of the
        # pool sandbox it was claimed with.
        home_keys = set(rented) | {f"_{manager_id}" for manager_id in manager_ids}
        volumes = [ident for ident, labels in stack.engine_objects("volume")
                   if labels.get("org.sandpiper.home", labels.get("org.sandpiper.session")) in home_keys]
        left = {"listed by /e2b": listed, "in the manager": managed, "containers": containers, "volumes": volumes}
        if not any(left.values()) or time.monotonic() > deadline:
            return {kind: items for kind, items in left.items() if items}
        time.sleep(1)


def server_errors(stack):
    return {f"{route} {status}": n for (route, status), n in stack.backend_statuses().items() if status.startswith("5")}


def load_phase(stack, clients, rounds):
    key = stack.person_key()
    phase, walls = Phase(), []
    for round_ in range(rounds):
        stack.wait_for_pool()
        started = time.perf_counter()
        with ThreadPoolExecutor(clients) as pool:
            for job in [pool.submit(one_client, stack, key, phase, f"r{round_}c{i}") for i in range(clients)]:
                job.result()
        walls.append(time.perf_counter() - started)
        print(f"  round {round_ + 1}: {time.perf_counter() - started:.1f} s, errors so far {len(phase.errors)}", file=sys.stderr)
    return phase, walls, leftovers(stack, key, phase.sandboxes), server_errors(stack)


def kill_waiting_for_the_limit(sandbox):
    """Kills `sandbox`, waiting for the next minute's window while the key is over its limit."""
    from e2b.exceptions import RateLimitException

    for _ in range(3):
        try:
            return sandbox.kill()
        except RateLimitException:
            time.sleep(61 - time.time() % 60)
    sandbox.kill()


def rate_limit_phase(stack, clients, per_minute):
    from e2b.exceptions import RateLimitException, SandboxException
    from e2b_code_interpreter import Sandbox

    stack.start_backend({"BACKEND_API_KEYS__REQUESTS_PER_MINUTE": str(per_minute)})
    key = stack.person_key()
    phase, made, plain = Phase(), [], []

    def over_the_limit():
        """A plain request made when a creation was just refused: the key is over its limit
        in this minute's window (the burst's creations may well outlast it)."""
        status, answer, headers = e2b_stack.call(stack.port, "GET", "/e2b/v2/sandboxes", headers={"x-api-key": key})
        return (status, answer, headers.get("retry-after"))

    def client(i):
        try:
            sandbox = Sandbox.create(api_key=key, timeout=300, request_timeout=180, retries=0)
        except RateLimitException:
            with phase.lock:
                if not plain:
                    plain.append(over_the_limit())
            return phase.count("RateLimitException (429)")
        except SandboxException as err:
            phase.count(f"{type(err).__name__} {getattr(err, 'status_code', '')}".strip())
            return phase.fail(f"c{i} create", err)
        except Exception as err:  # noqa: BLE001
            phase.count(type(err).__name__)
            return phase.fail(f"c{i} create", err)
        phase.count("created")
        record = stack.sandbox_record(sandbox.sandbox_id)
        with phase.lock:
            phase.sandboxes[sandbox.sandbox_id] = record and record["id"]
            made.append(sandbox)
        try:
            assert sandbox.run_code("1+1").text == "2"
        except Exception as err:  # noqa: BLE001
            phase.fail(f"c{i} run_code", err)

    # Not across a minute's turn, which would open a new window in the middle of the burst.
    if time.time() % 60 > 50:
        time.sleep(61 - time.time() % 60)
    with ThreadPoolExecutor(clients) as pool:
        list(pool.map(client, range(clients)))
    for sandbox in made:
        try:
            kill_waiting_for_the_limit(sandbox)
        except Exception as err:  # noqa: BLE001
            phase.fail(f"{sandbox.sandbox_id} kill", err)
    # None refused: the check below names it.
    plain = plain[0] if plain else (None, None, None)
    return phase, plain, leftovers(stack, key, phase.sandboxes), server_errors(stack)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    e2b_stack.add_stack_arguments(parser)
    parser.add_argument("--clients", type=int, default=20, help="SDK clients at once (20)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of the load phase (3)")
    parser.add_argument("--pool", type=int, default=4, help="code pool size (4): sandboxes with a volume and a started kernel")
    parser.add_argument("--memory-mb", type=int, default=6144, help="the manager's memory budget for the sandboxes (6144)")
    parser.add_argument("--requests-per-minute", type=int, default=10, help="each key's limit in the second phase (10)")
    args = parser.parse_args()
    e2b_stack.with_the_sdks()
    e2b_stack.stop_on_signals()

    load_before = e2b_stack.load_now()
    print(f"{args.clients} clients × {args.rounds} rounds; {load_before}", file=sys.stderr)
    quotas = {
        "SANDBOX_MANAGER_QUOTA__PER_OWNER": str(args.clients),
        "SANDBOX_MANAGER_QUOTA__GLOBAL": str(args.clients),
        "SANDBOX_MANAGER_QUOTA__MEMORY_MB": str(args.memory_mb),
    }
    with e2b_stack.Stack(args, args.pool, manager_env=quotas) as stack:
        load, walls, load_left, load_5xx = load_phase(stack, args.clients, args.rounds)
        print(f"rate limit of {args.requests_per_minute} a minute…", file=sys.stderr)
        limited, plain, limited_left, limited_5xx = rate_limit_phase(stack, args.clients, args.requests_per_minute)
    load_after = e2b_stack.load_now()

    checks = [
        (f"load: {args.clients} × {args.rounds} runs without an error", not load.errors, f"{len(load.errors)} errors"),
        ("load: nothing left behind", not load_left, str(load_left or "none")),
        ("load: no 5xx from backend-api", not load_5xx, str(load_5xx or "none")),
        ("limit: some creations refused with RateLimitException", limited.outcomes.get("RateLimitException (429)", 0) > 0,
         ", ".join(f"{n}× {outcome}" for outcome, n in sorted(limited.outcomes.items()))),
        ("limit: nothing but 429 refused, no other error", not limited.errors, f"{len(limited.errors)} errors"),
        ("limit: a plain request over it: 429, Retry-After, {code, message}",
         plain[0] == 429 and plain[2] is not None and isinstance(plain[1], dict) and plain[1].get("code") == 429 and plain[1].get("message"),
         f"{plain[0]}, Retry-After {plain[2]}, {plain[1]}"),
        ("limit: nothing left behind", not limited_left, str(limited_left or "none")),
        ("limit: no 5xx from backend-api", not limited_5xx, str(limited_5xx or "none")),
    ]
    print(f"\nE2B SDKs, {args.clients} clients at once × {args.rounds} rounds "
          f"({os.path.basename(os.path.dirname(stack.backend_binary))} binaries, code pool {args.pool}, image {stack.image})")
    print("rounds' wall time: " + ", ".join(f"{wall:.1f} s" for wall in walls))
    for step in STEPS:
        print(f"  {step:<12} p50 / p95 {e2b_stack.p50_p95(load.times[step])} ({len(load.times[step])})")
    for error in load.errors[:20] + limited.errors[:20]:
        print(f"  error: {error}")
    width = max(len(name) for name, *_ in checks) + 2
    for name, passed, detail in checks:
        print(f"{'ok  ' if passed else 'FAIL'} {name.ljust(width)}{detail}")
    print(f"before: {load_before}; after: {load_after}")
    sys.exit(0 if all(passed for _, passed, _ in checks) else 1)


if __name__ == "__main__":
    main()
