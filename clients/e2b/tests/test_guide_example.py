"""The E2B guide's example (docs/e2b.md, which the README links) runs as written, with the
variables it names set as it says."""

import os
import re
import subprocess
import sys
from pathlib import Path

from conftest import BASE

REPO = Path(__file__).resolve().parents[3]
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def guide_blocks() -> dict[str, str]:
    """The code blocks of the guide's opening, before its first section, by language."""
    text = (REPO / "docs" / "e2b.md").read_text()
    end = text.find("\n## ")
    return dict(re.findall(r"```(\w+)\n(.*?)```", text[: end if end >= 0 else len(text)], re.S))


def test_the_guides_example_draws_its_chart(key: str, tmp_path: Path) -> None:
    blocks = guide_blocks()
    variables = dict(re.findall(r"export (E2B_\w+)=(\S+)", blocks["sh"]))
    assert set(variables) == {"E2B_API_KEY", "E2B_API_URL", "E2B_SANDBOX_URL"}
    assert variables["E2B_API_URL"].endswith("/e2b") and variables["E2B_SANDBOX_URL"].endswith("/e2b/sandbox")
    environment = {
        **os.environ,
        "E2B_API_KEY": key,
        "E2B_API_URL": f"{BASE}/e2b",
        "E2B_SANDBOX_URL": f"{BASE}/e2b/sandbox",
    }
    done = subprocess.run(
        [sys.executable, "-c", blocks["python"]], cwd=tmp_path, env=environment, capture_output=True, text=True, timeout=180
    )
    assert done.returncode == 0, done.stderr
    assert "mean" in done.stdout, done.stdout
    assert (tmp_path / "chart.png").read_bytes().startswith(PNG_MAGIC)
