"""E2B's streamed cells: the part of the kernel driver that answers E2B's
code-interpreter protocol (see the tool-api's `interpreter` module).

The tool-api runs this file joined in front of driver.py, as one program: `Kernel` there
takes these methods, and they use its `emit`, `ANSI`, `next_iopub`, `reply`, `silently`
and `died_how`. A streamed cell sends each output as it comes, in E2B's shapes, as
{"id": …, "event": {…}} lines, then {"id": …, "done": true}.
"""

import json
import math
import time

# Longest streamed event line; the tool-api reads lines of up to 64 MiB.
EVENT_MAX_BYTES = 48 << 20
# A display bundle's MIME types and the fields E2B's result carries them in.
RESULT_FIELDS = {
    "text/plain": "text", "text/html": "html", "text/markdown": "markdown",
    "image/svg+xml": "svg", "image/png": "png", "image/jpeg": "jpeg",
    "application/pdf": "pdf", "text/latex": "latex", "application/json": "json",
    "application/javascript": "javascript", "e2b/data": "data", "e2b/chart": "chart",
}


def result(bundle, main):
    """A display bundle as E2B's result: known MIME types in their fields, the rest extra."""
    event = {"type": "result", "is_main_result": main, "extra": {}}
    for mime, value in bundle.items():
        if mime in RESULT_FIELDS:
            # Base64 without the line breaks some formatters put in, for strict decoders.
            binary = RESULT_FIELDS[mime] in ("png", "jpeg", "pdf") and isinstance(value, str)
            event[RESULT_FIELDS[mime]] = value.replace("\n", "") if binary else value
        else:
            event["extra"][mime] = value
    text = event.get("text")
    # A string's repr shows without its quotes, as E2B's server sends it.
    if text and len(text) > 1 and text[0] == text[-1] and text[0] in "'\"":
        event["text"] = text[1:-1]
    return event


def finite(value):
    """`value` with NaN and infinities as None."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {key: finite(item) for key, item in value.items()}
    if isinstance(value, list):
        return [finite(item) for item in value]
    return value


def error(content):
    return {"type": "error", "name": content.get("ename", "Error"), "value": content.get("evalue", ""),
            "traceback": ANSI.sub("", "\n".join(content.get("traceback", [])))}


class StreamedCells:
    def stream(self, cell):
        """Runs a cell, sending each output as it comes in the shapes of E2B's protocol."""
        ident = cell["id"]

        def send(event):
            try:
                text = json.dumps(event, ensure_ascii=False, allow_nan=False)
            except ValueError:  # NaN or infinity, which JSON has not: null, as E2B's JSON has
                event = finite(event)
                text = json.dumps(event, ensure_ascii=False)
            size = len(text.encode("utf-8", "replace"))
            if size > EVENT_MAX_BYTES:
                note = f"[an output of {size >> 20} MiB was too large to send]"
                if event["type"] == "result":
                    event = {"type": "result", "is_main_result": event["is_main_result"], "text": note, "extra": {}}
                else:
                    event = dict(event, text=event["text"][: EVENT_MAX_BYTES // 8] + note)
            emit({"id": ident, "event": event})

        env = cell.get("env") or {}
        self.set_env(cell.get("base_env") or {}, env)
        msg_id = self.client.execute(cell["code"], store_history=True, allow_stdin=False, stop_on_error=False)
        errored = False
        while True:
            message = self.next_iopub(msg_id)
            if message is None:
                send({"type": "error", "name": "KernelRestarted", "value": self.died_how(), "traceback": ""})
                break
            kind, content = message["msg_type"], message["content"]
            if kind == "status" and content["execution_state"] == "idle":
                break
            if kind == "stream":
                send({"type": content["name"], "text": content["text"], "timestamp": time.time_ns()})
            elif kind in ("display_data", "execute_result"):
                send(result(content["data"], kind == "execute_result"))
            elif kind == "error" and not errored:
                errored = True
                send(error(content))
            elif kind == "execute_input":
                send({"type": "number_of_executions", "execution_count": content["execution_count"]})
        reply = self.reply(msg_id) if message is not None else None
        if reply is not None and reply.get("status") == "error" and not errored:
            send(error(reply))
        self.undo_env(env)
        emit({"id": ident, "done": True})

    def set_env(self, base, env):
        """Sets the sandbox's variables (undoing those it no longer has) and the cell's."""
        values = {key: self.launch_env.get(key) for key in self.applied_base.keys() - base.keys()}
        values.update(base)
        values.update(env)
        self.applied_base = dict(base)
        self.quietly(values)

    def undo_env(self, env):
        """Puts the cell's variables back as they were before it."""
        self.quietly({key: self.applied_base.get(key, self.launch_env.get(key)) for key in env})

    def quietly(self, values):
        """Sets (or, for None, removes) variables in the kernel, leaving no trace in it."""
        if values:
            self.silently(
                "(lambda environ, values: [environ.pop(key, None) if value is None else environ.__setitem__"
                f"(key, value) for key, value in values.items()])(__import__('os').environ, {values!r})"
            )
