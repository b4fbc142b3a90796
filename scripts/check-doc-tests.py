#!/usr/bin/env python3
"""Checks that every test the docs name in backticks exists.

docs/ARCHITECTURE.md names, under each invariant, the tests that fail when it breaks, the way
the runners print them. This finds each one in the source and fails, naming file, line and
span, for each that is not there (renamed, moved or removed), so the list cannot rot:

  `backend-api unit: domain::session::tests::foreign_ids_are_not_found`
      fn foreign_ids_are_not_found in the package's src/ file of that module path
  `tool-api integration: files::write::concurrent_writers_never_tear_a_file`
      the same in its tests/integration/
  `frontend component: tests/filePreview.test.ts > FilePreview > frames %s in a sandbox…`
      that file of frontend/, holding each quoted title
  `frontend e2e: Sandpiper in a browser > sign up, run a task, …`
      a file of frontend/e2e/ holding each quoted title

  scripts/check-doc-tests.py   (./test.sh --quick runs it)
"""

import glob
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOCUMENTS = ("docs/*.md", "README.md", "CONTRIBUTING.md", "*/README.md", "*/*/README.md")
RUST = re.compile(r"^([a-z][a-z-]*) (unit|integration): ((?:\w+::)*\w+)$")
FRONTEND = re.compile(r"^frontend (component|e2e): (.+)$")


def rust_test_exists(package, kind, path):
    """The test's module file (the longest prefix of its path that is a file) defines it."""
    roots = [os.path.join(ROOT, top, package) for top in ("services", "crates")]
    base = next((root for root in roots if os.path.isdir(root)), None)
    if base is None:
        return False
    base = os.path.join(base, "src" if kind == "unit" else "tests/integration")
    *modules, name = path.split("::")
    for end in range(len(modules), -1, -1):
        folder = os.path.join(base, *modules[:end])
        files = [folder + ".rs", os.path.join(folder, "mod.rs")] if end else [
            os.path.join(base, root) for root in ("lib.rs", "main.rs")]
        for file in files:
            if os.path.isfile(file):
                with open(file, encoding="utf-8") as text:
                    return re.search(rf"\bfn {name}\s*\(", text.read()) is not None
    return False


def frontend_test_exists(kind, title):
    parts = [part.strip() for part in title.split(" > ")]
    if kind == "component":
        file, *parts = parts
        files = [os.path.join(ROOT, "frontend", file)]
    else:
        files = glob.glob(os.path.join(ROOT, "frontend", "e2e", "*.mjs"))
    for file in filter(os.path.isfile, files):
        with open(file, encoding="utf-8") as text:
            source = text.read()
        if parts and all(re.search(r"""['"`]""" + re.escape(part) + r"""['"`]""", source) for part in parts):
            return True
    return False


def main():
    documents = sorted({path for pattern in DOCUMENTS for path in glob.glob(os.path.join(ROOT, pattern))})
    named = missing = 0
    for document in documents:
        with open(document, encoding="utf-8") as text:
            for number, line in enumerate(text, 1):
                for span in re.findall(r"`([^`\n]+)`", line):
                    rust, frontend = RUST.match(span), FRONTEND.match(span)
                    if not (rust or frontend):
                        continue
                    named += 1
                    if rust_test_exists(*rust.groups()) if rust else frontend_test_exists(*frontend.groups()):
                        continue
                    missing += 1
                    print(f"{os.path.relpath(document, ROOT)}:{number}: `{span}` is no test here")
    if missing:
        print(f"check-doc-tests: {missing} of the {named} tests the docs name do not exist", file=sys.stderr)
        return 1
    print(f"the {named} tests the docs name exist")
    return 0


if __name__ == "__main__":
    sys.exit(main())
