"""The tool-api's bridge to one Jupyter kernel.

The tool-api starts this program once per sandbox and keeps it: it holds an IPython kernel
through jupyter_client (the reference client of Jupyter's messaging protocol) and turns
the messages of each cell into one bounded answer. Its first argument is a JSON object of
limits; cells arrive on stdin and answers leave on stdout, one JSON object per line:

    {"start": true}                   ->  the kernel starts (the driver has imported its
                                          libraries by then: it is isolated from the
                                          home, the kernel is not, so the tool-api sends
                                          this once the sandbox's network rules are in)
    {"id": 1, "code": "..."}          ->  {"id": 1, "result": {...}}
    {"id": 2, "code": "...", "stream": true, "env": {...}, "base_env": {...}}
                                      ->  {"id": 2, "event": {...}} for each output as it
                                          comes (E2B's shapes), then {"id": 2, "done": true}
    at start and after a restart      ->  {"event": "ready", "kernel_pid": 123}

A streamed cell (streamed.py, which the tool-api joins in front of this file) runs with
`base_env` (the sandbox's variables, kept until they change) and `env` (its own, undone
after it) set in the kernel's os.environ. Every kernel started learns E2B's extra result
fields (formats.py, passed in SANDPIPER_KERNEL_FORMATS).

The tool-api interrupts a cell by sending SIGINT to the kernel's process group itself, so
a running cell needs no command of its own; a cell's answer may then come after a later
cell was sent, which is why answers carry the cell's id. To start afresh, the tool-api
ends this program and starts another. A kernel that dies during a cell is restarted here
and the cell's answer says so.
"""

import base64
import collections
import io
import json
import os
import re
import sys

from jupyter_client.kernelspec import KernelSpec, KernelSpecManager
from jupyter_client.manager import KernelManager

LIMITS = json.loads(sys.argv[1])
# E2B's extra result fields for the kernel (formats.py), taken out so that the kernel does
# not inherit them.
FORMATS = os.environ.pop("SANDPIPER_KERNEL_FORMATS")
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
# How often a waiting driver checks that the kernel is still alive.
POLL_SECONDS = 0.5
# How long the kernel's reply may trail the end of the cell's output.
REPLY_SECONDS = 5


def emit(message):
    # A cell can write text that is not valid Unicode (lone surrogates from undecodable
    # bytes): it becomes "?" here, so that every answer is valid UTF-8 JSON.
    line = json.dumps(message, ensure_ascii=False) + "\n"
    sys.stdout.buffer.write(line.encode("utf-8", "replace"))
    sys.stdout.flush()


class Stream:
    """One output stream: its head up to the limit, then only its last lines."""

    def __init__(self, limit):
        self.limit = limit
        self.head = io.StringIO()
        self.size = 0
        self.tail = collections.deque(maxlen=LIMITS["stream_tail_lines"])
        self.cut = 0
        self.partial = ""

    def write(self, text):
        room = self.limit - self.size
        if room > 0:
            self.head.write(text[:room])
            self.size += min(room, len(text))
            text = text[room:]
        if not text:
            return
        self.cut += len(text)
        lines = (self.partial + text).split("\n")
        self.partial = lines.pop()
        self.tail.extend(lines)

    def text(self):
        if not self.cut:
            return self.head.getvalue()
        tail = "\n".join(list(self.tail) + [self.partial])
        kept = min(len(tail), self.cut)
        tail = tail[-kept:]
        marker = f"\n[… {self.cut - kept} characters cut …]\n"
        return self.head.getvalue() + marker + tail


def image(data):
    """A PNG output: scaled down when over the size limits, or refused with a reason."""
    from PIL import Image

    raw = base64.b64decode(data)
    with Image.open(io.BytesIO(raw)) as picture:
        width, height = picture.size
        largest = LIMITS["image_max_side"]
        if max(width, height) > largest or len(raw) > LIMITS["image_max_bytes"]:
            scale = min(1.0, largest / max(width, height))
            smaller = picture.convert("RGBA").resize(
                (max(1, int(width * scale)), max(1, int(height * scale)))
            )
            buffer = io.BytesIO()
            smaller.save(buffer, "PNG", optimize=True)
            raw = buffer.getvalue()
            width, height = smaller.size
    if len(raw) > LIMITS["image_max_bytes"]:
        return None
    return {"data": base64.b64encode(raw).decode(), "width": width, "height": height}


def rich(bundle):
    """The parts of a display bundle a person and a model are shown, each within limits."""
    output = {"plain": bundle.get("text/plain")}
    notes = []
    if "image/png" in bundle:
        try:
            output["png"] = image(bundle["image/png"])
        except Exception as err:  # a broken image costs the picture, not the cell
            notes.append(f"an image that could not be read ({err})")
        if output.get("png") is None and not notes:
            notes.append("an image too large to show")
    for key, mime, what in (("svg", "image/svg+xml", "an SVG image"), ("html", "text/html", "an HTML table")):
        text = bundle.get(mime)
        if text is None:
            continue
        if len(text) <= LIMITS[f"{key}_max_bytes"]:
            output[key] = text
        else:
            notes.append(f"{what} too large to show")
    if notes:
        output["plain"] = "; ".join(notes) if output["plain"] is None else output["plain"]
    return output


def traceback(lines):
    text = ANSI.sub("", "\n".join(lines))
    limit = LIMITS["traceback_max_chars"]
    return text if len(text) <= limit else "[…]\n" + text[-limit:]


class PythonOnly(KernelSpecManager):
    """The one kernel this driver runs, this Python's ipykernel. Left to look "python3" up
    itself, jupyter_client asks ipykernel for its spec, which loads IPython, its debugger
    and completer into this process: twice the driver's memory (66 MiB against 33)."""

    def get_kernel_spec(self, kernel_name):
        argv = [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"]
        return KernelSpec(argv=argv, display_name="Python 3", language="python", resource_dir="")


class Kernel(StreamedCells):
    def __init__(self):
        env = dict(os.environ)
        # Figures appear as outputs without the cell saving them.
        env["MPLBACKEND"] = "module://matplotlib_inline.backend_inline"
        # The debugger's start-up warning would fill the tool-api's log at every start.
        env["PYDEVD_DISABLE_FILE_VALIDATION"] = "1"
        # The environment a variable is put back to once a cell's own value is undone.
        self.launch_env = env
        self.applied_base = {}
        self.manager = KernelManager(kernel_name="python3", kernel_spec_manager=PythonOnly())
        self.manager.start_kernel(env=env, cwd=os.getcwd())
        self.client = self.manager.client()
        self.client.start_channels()
        self.ready()

    def ready(self):
        """Waits for the kernel, teaches it E2B's extra result fields and says it is ready."""
        self.client.wait_for_ready(timeout=LIMITS["start_timeout_secs"])
        self.silently(FORMATS)
        emit({"event": "ready", "kernel_pid": self.manager.provisioner.pid})

    def restart(self):
        self.applied_base = {}
        self.manager.restart_kernel(now=True)
        self.ready()

    def execute(self, code):
        stdout = Stream(LIMITS["stream_max_chars"])
        stderr = Stream(LIMITS["stream_max_chars"])
        outputs, dropped, error, count = [], 0, None, None
        # Cells come one at a time; with stop_on_error the kernel would abort a cell sent
        # right after a failed one, answering it with no output at all.
        msg_id = self.client.execute(code, store_history=True, allow_stdin=False, stop_on_error=False)
        while True:
            message = self.next_iopub(msg_id)
            if message is None:
                return self.died(stdout, stderr, outputs)
            kind, content = message["msg_type"], message["content"]
            if kind == "status" and content["execution_state"] == "idle":
                break
            if kind == "stream":
                (stdout if content["name"] == "stdout" else stderr).write(content["text"])
            elif kind in ("display_data", "execute_result"):
                if len(outputs) < LIMITS["max_outputs"]:
                    outputs.append(rich(content["data"]))
                else:
                    dropped += 1
                count = content.get("execution_count", count)
            elif kind == "error":
                error = {
                    "name": content["ename"],
                    "value": content["evalue"],
                    "traceback": traceback(content["traceback"]),
                }
            elif kind == "clear_output":
                outputs.clear()
            elif kind == "execute_input":
                count = content.get("execution_count", count)
        reply = self.reply(msg_id)
        if reply is not None:
            count = reply.get("execution_count", count)
            if reply.get("status") == "error" and error is None:
                error = {"name": reply.get("ename", "Error"), "value": reply.get("evalue", ""),
                         "traceback": traceback(reply.get("traceback", []))}
            elif reply.get("status") == "aborted":
                error = {"name": "Aborted", "value": "the kernel did not run the cell", "traceback": ""}
        return {
            "execution_count": count,
            "stdout": stdout.text(),
            "stderr": stderr.text(),
            "outputs": outputs,
            "outputs_dropped": dropped,
            "error": error,
            "kernel_restarted": None,
        }

    def next_iopub(self, msg_id):
        """The cell's next message, or None when the kernel died waiting for it."""
        while True:
            try:
                message = self.client.get_iopub_msg(timeout=POLL_SECONDS)
            except Exception:  # queue.Empty: nothing yet
                if not self.manager.is_alive():
                    return None
                continue
            if message.get("parent_header", {}).get("msg_id") == msg_id:
                return message

    def reply(self, msg_id):
        while True:
            try:
                message = self.client.get_shell_msg(timeout=REPLY_SECONDS)
            except Exception:
                return None
            if message.get("parent_header", {}).get("msg_id") == msg_id:
                return message["content"]

    def silently(self, code):
        """Runs code in the kernel with no output, history or count, and waits for its end."""
        msg_id = self.client.execute(code, silent=True, store_history=False, allow_stdin=False)
        while (message := self.next_iopub(msg_id)) is not None:
            if message["msg_type"] == "status" and message["content"]["execution_state"] == "idle":
                self.reply(msg_id)
                return

    def died_how(self):
        """Why the kernel ended, once it has been restarted."""
        code = self.manager.provisioner.process.returncode if self.manager.provisioner else None
        how = f"was killed by signal {-code}" if code is not None and code < 0 else f"exited ({code})"
        if code == -9:
            how += ", most likely for using more memory than the sandbox allows"
        self.restart()
        return f"The kernel {how}; it was restarted and its variables are gone."

    def died(self, stdout, stderr, outputs):
        how = self.died_how()
        return {
            "execution_count": None,
            "stdout": stdout.text(),
            "stderr": stderr.text(),
            "outputs": outputs,
            "outputs_dropped": 0,
            "error": None,
            "kernel_restarted": how,
        }


def main():
    if not sys.stdin.readline():
        return
    kernel = Kernel()
    for line in sys.stdin:
        cell = json.loads(line)
        if cell.get("stream"):
            kernel.stream(cell)
        else:
            emit({"id": cell["id"], "result": kernel.execute(cell["code"])})
    kernel.manager.shutdown_kernel(now=True)


main()
