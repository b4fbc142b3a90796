#!/usr/bin/env python3
"""A scripted model for the clients' live job tests: an OpenAI-compatible chat-completions
server (POST /v1/chat/completions, streamed as Server-Sent Events) that plays one fixed
script, whatever it is asked:

  1. to the person's message: a `file_write` tool call writing `fib.py` (FIB_PY below),
     its id, name and arguments split into `tool_calls` deltas as providers send them;
  2. to the tool's answer: the final text ANSWER.

Each step is chosen by the last message, so any number of jobs may run at once. Before
answering it checks the request as a provider would, and what backend-api must send: the
key, `stream: true` with usage, a system message, `file_write` among the `tools` in the
function shape, a person's message about fib.py, and a tool message answering the call
with the written path inside the block that marks it untrusted. A request that fails a
check is answered `400` with the reason (backend-api does not retry that, so the job
fails saying why), and the reason is logged.

    python3 clients/scripted-model.py [--port 0] [--api-key KEY]

prints its base URL (for `LLM_BASE_URL`) on the first line of its output, then serves
until stopped. Standard library only.
"""

import argparse
import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MODEL = "scripted"
PATH = "fib.py"
FIB_PY = """def fib(n):
    a, b = 0, 1
    for _ in range(n):
        yield a
        a, b = b, a + b


print(*fib(20))
"""
ANSWER = "Wrote fib.py: it prints the first 20 Fibonacci numbers."
CALL_ID = "call_file_write_0"


class Refused(Exception):
    """The request is not what backend-api should send; the message says why."""


def check(body: dict) -> list:
    """The request's messages, after checking it is well-formed and complete."""
    if body.get("model") != MODEL:
        raise Refused(f"model is {body.get('model')!r}, not {MODEL!r}")
    if body.get("stream") is not True or body.get("stream_options") != {"include_usage": True}:
        raise Refused("the request is not streamed with usage (stream, stream_options.include_usage)")
    tools = body.get("tools") or []
    for tool in tools:
        function = tool.get("function") or {}
        if tool.get("type") != "function" or not function.get("name") or not isinstance(function.get("parameters"), dict):
            raise Refused(f"a tool is not {{type: function, function: {{name, parameters}}}}: {tool!r}")
    names = {tool["function"]["name"] for tool in tools}
    if "file_write" not in names:
        raise Refused(f"file_write is not among the tools: {sorted(names)}")
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        raise Refused("no messages")
    if messages[0].get("role") != "system" or not messages[0].get("content"):
        raise Refused("the first message is not the system prompt")
    people = [m for m in messages if m.get("role") == "user"]
    if not people or PATH not in str(people[-1].get("content")):
        raise Refused(f"no message from the person asks for {PATH}")
    return messages


def next_step(messages: list) -> dict:
    """The delta(s) that answer the conversation so far."""
    last = messages[-1]
    if last.get("role") == "user":
        return {"call": {"path": PATH, "content": FIB_PY}}
    if last.get("role") == "tool":
        calls = [c for m in messages if m.get("role") == "assistant" for c in m.get("tool_calls") or []]
        call = calls[-1] if calls else {}
        function = call.get("function") or {}
        if call.get("id") != CALL_ID or call.get("type") != "function" or function.get("name") != "file_write":
            raise Refused(f"the assistant message before the tool's answer does not hold the call: {call!r}")
        if json.loads(function.get("arguments") or "null") != {"path": PATH, "content": FIB_PY}:
            raise Refused(f"the call's arguments came back changed: {function.get('arguments')!r}")
        if last.get("tool_call_id") != CALL_ID:
            raise Refused(f"the tool message answers {last.get('tool_call_id')!r}, not {CALL_ID!r}")
        try:
            written = json.loads(untrusted(last.get("content") or ""))
        except ValueError:
            raise Refused(f"file_write did not write: {last.get('content')!r}") from None
        if not isinstance(written, dict) or not str(written.get("path", "")).endswith(PATH):
            raise Refused(f"file_write's answer names no {PATH}: {last.get('content')!r}")
        return {"text": ANSWER}
    raise Refused(f"the last message is from {last.get('role')!r}, not the person or a tool")


def untrusted(content: str) -> str:
    """What a tool returned, from inside the block backend-api marks it untrusted with
    (`<untrusted-output id="…">` … the same closing tag with the same id)."""
    opening = '<untrusted-output id="'
    if not content.startswith(opening):
        raise Refused(f"the tool's answer is not marked untrusted: {content!r}")
    block_id, _, rest = content[len(opening):].partition('">\n')
    closing = f'\n</untrusted-output id="{block_id}">'
    if not block_id or not rest.endswith(closing):
        raise Refused(f"the tool's answer's untrusted block is not closed with its id: {content!r}")
    return rest[: -len(closing)]


def chunk(delta: dict) -> dict:
    return {"object": "chat.completion.chunk", "model": MODEL, "choices": [{"index": 0, "delta": delta}]}


def stream(step: dict) -> list:
    """The SSE events of one answer, as a provider streams it."""
    if "text" in step:
        text = step["text"]
        half = len(text) // 2
        events = [chunk({"role": "assistant", "content": text[:half]}), chunk({"content": text[half:]})]
    else:
        arguments = json.dumps(step["call"])
        third = len(arguments) // 3
        events = [
            chunk({"role": "assistant", "tool_calls": [{"index": 0, "id": CALL_ID, "type": "function", "function": {"name": "file_write", "arguments": ""}}]}),
            *(
                chunk({"tool_calls": [{"index": 0, "function": {"arguments": part}}]})
                for part in (arguments[:third], arguments[third : 2 * third], arguments[2 * third :])
            ),
        ]
    events.append({"object": "chat.completion.chunk", "choices": [], "usage": {"prompt_tokens": 120, "completion_tokens": 30}})
    return [f"data: {json.dumps(event)}\n\n" for event in events] + ["data: [DONE]\n\n"]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    api_key = ""

    def refuse(self, status: int, message: str) -> None:
        print(f"scripted-model: refused: {message}", file=sys.stderr, flush=True)
        body = json.dumps({"error": {"message": f"scripted model: {message}", "type": "invalid_request_error"}}).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self) -> None:
        length = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(length)
        if self.path.rstrip("/") != "/v1/chat/completions":
            return self.refuse(404, f"no route {self.path}")
        if self.headers.get("authorization") != f"Bearer {self.api_key}":
            return self.refuse(401, "the API key is missing or wrong")
        try:
            step = next_step(check(json.loads(raw)))
        except ValueError as err:
            return self.refuse(400, f"the body is not JSON: {err}")
        except Refused as err:
            return self.refuse(400, str(err))
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("cache-control", "no-cache")
        self.send_header("transfer-encoding", "chunked")
        self.end_headers()
        for event in stream(step):
            data = event.encode()
            self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
            self.wfile.flush()
        self.wfile.write(b"0\r\n\r\n")

    def log_message(self, format: str, *args) -> None:  # noqa: A002 (the base class's name)
        print(f"scripted-model: {format % args}", file=sys.stderr, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--api-key", default="scripted-key")
    args = parser.parse_args()
    Handler.api_key = args.api_key
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    print(f"http://127.0.0.1:{server.server_address[1]}/v1", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
