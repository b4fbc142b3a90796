#!/usr/bin/env python3
"""Checks that the docs people read first stay short enough to be read.

The root README says what Sandpiper is, how to start, configure and operate it, and
links the rest: detail belongs in docs/ and the services' READMEs. Each document below
has a ceiling in lines; one past it fails, naming it, its length and where its detail
goes.

  scripts/check-doc-lengths.py   (./test.sh --quick runs it)
"""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# (document, most lines, where what does not fit goes)
CEILINGS = [
    ("README.md", 250, "docs/ (e2b.md, SECURITY.md, TESTING.md) or a service's README"),
]


def main():
    failed = False
    for name, most, elsewhere in CEILINGS:
        with open(os.path.join(ROOT, name), encoding="utf-8") as document:
            lines = sum(1 for _ in document)
        if lines > most:
            print(f"{name}: {lines} lines, over its {most}; move detail to {elsewhere}")
            failed = True
    if failed:
        return 1
    print(f"{len(CEILINGS)} document(s) within their length")
    return 0


if __name__ == "__main__":
    sys.exit(main())
