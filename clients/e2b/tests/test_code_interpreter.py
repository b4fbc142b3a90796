"""Code through E2B's code interpreter SDK (`run_code` over the one-host data plane, on
the sandbox's Jupyter kernel): values, printed output, a pandas table as HTML, a
matplotlib chart as a PNG, errors, state kept between cells and per context, and the
sandbox's variables."""

import base64
import time

import pytest
from e2b.exceptions import TimeoutException
from e2b_code_interpreter import Sandbox

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def test_run_code_gives_values_output_tables_charts_and_errors(key: str) -> None:
    sandbox = Sandbox.create(api_key=key, timeout=120, envs={"FROM_CREATE": "made"})
    try:
        assert sandbox.get_info().template_id == "code-interpreter-v1"
        two = sandbox.run_code("1+1")
        assert two.text == "2" and two.error is None

        printed = sandbox.run_code("import sys\nprint('out')\nprint('err', file=sys.stderr)")
        assert printed.logs.stdout == ["out\n"]
        assert printed.logs.stderr == ["err\n"]

        sandbox.run_code("x = 41")
        assert sandbox.run_code("x + 1").text == "42", "state is kept between cells"

        table = sandbox.run_code("import pandas as pd\npd.DataFrame({'a': [1, 2], 'b': [3, 4]})")
        assert "<table" in table.results[0].html

        chart = sandbox.run_code(
            "import matplotlib.pyplot as plt\n"
            "plt.plot([1, 2, 3], [4, 1, 9])\n"
            "plt.title('three points')\n"
            "plt.show()"
        )
        pngs = [r.png for r in chart.results if r.png]
        assert pngs, chart
        assert base64.b64decode(pngs[0]).startswith(PNG_MAGIC)

        failed = sandbox.run_code("1/0")
        assert failed.error is not None
        assert failed.error.name == "ZeroDivisionError"
        assert "division by zero" in failed.error.value

        env = sandbox.run_code("import os\nos.environ.get('FROM_CREATE'), os.environ.get('PER_CALL')", envs={"PER_CALL": "call"})
        assert env.text == "('made', 'call')"
        after = sandbox.run_code("os.environ.get('PER_CALL')")
        assert after.text is None or after.text == "None", "a call's variables end with the call"
    finally:
        sandbox.kill()


def test_contexts_keep_their_own_state(key: str) -> None:
    sandbox = Sandbox.create(api_key=key, timeout=120)
    try:
        first = sandbox.create_code_context()
        second = sandbox.create_code_context()
        sandbox.run_code("owner = 'first'", context=first)
        sandbox.run_code("owner = 'second'", context=second)
        # A string's value shows without its quotes, as E2B's own server sends it.
        assert sandbox.run_code("owner", context=first).text == "first"
        assert sandbox.run_code("owner", context=second).text == "second"
        assert {c.id for c in sandbox.list_code_contexts()} >= {first.id, second.id}
        sandbox.restart_code_context(first)
        assert sandbox.run_code("owner", context=first).error.name == "NameError"
        sandbox.remove_code_context(second)
        assert second.id not in {c.id for c in sandbox.list_code_contexts()}
    finally:
        sandbox.kill()


def test_a_cell_the_client_gives_up_on_is_interrupted_through_the_relay(key: str) -> None:
    sandbox = Sandbox.create(api_key=key, timeout=120)
    try:
        sandbox.run_code("state = 'kept'")
        with pytest.raises(TimeoutException):
            sandbox.run_code("import time\ntime.sleep(600)", timeout=2)
        # The hang-up reached the kernel: the next cell runs at once, with the state kept.
        started = time.monotonic()
        assert sandbox.run_code("state").text == "kept"
        assert time.monotonic() - started < 30, "the next cell waited for the abandoned one"
    finally:
        sandbox.kill()
