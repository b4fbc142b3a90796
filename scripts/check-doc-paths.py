#!/usr/bin/env python3
"""Checks that every repository path the docs name in backticks exists.

Reads docs/*.md, CONTRIBUTING.md and the hand-written READMEs (the Python client's README is
its generator's), takes each `span` outside fenced blocks that looks like a path in this
repository, and fails, naming file, line and span, for each one that names nothing here.

  scripts/check-doc-paths.py          check (./test.sh --quick runs it)
  scripts/check-doc-paths.py --list   print every span taken as a path and what it resolved to

A span looks like a path when its first word has a `/` or ends in a known extension; a
`path:line` or `path:from-to` is read as the path, a trailing `/` asks for a folder. A path
resolves from the folder of a path named before it in the same section (or any folder
above that one), the document's folder or the root: so `ports.rs` after `src/domain/`, or
`http/auth.rs` under the heading `services/tool-api`. One with a `/` that does not start
at a top-level folder may also be the tail of a path (`interfaces/http/views.rs`).
A glob or a placeholder (`deploy/kubernetes/*.yaml`, `crates/tool-api-contract/src/<area>.rs`)
must match something.

Not paths here, and skipped: URLs; absolute paths (routes such as `/api/v1/...`, paths
inside a sandbox such as `/home/sandbox/...`) and home paths (`~/...`); spans with `$`
(variables), `=` (settings), `?`, `{` or `…` (queries, routes, JSON); addresses and CIDRs;
names with a `/` that start with no folder of this repository (`anthropic/claude-sonnet-4`);
what exists only after a build or a run (IGNORED) and what lies in a sandbox or another
project (ELSEWHERE).
"""

import fnmatch
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXTENSIONS = (
    ".rs .ts .vue .py .sh .md .yaml .yml .json .toml .mjs .js .conf .txt .html .lock .example"
).split()
# Made by a build, a test run or ./dev.sh, never committed (`index.html`: the built app's).
IGNORED = ("dist/", "frontend/dist", "frontend/e2e/artifacts/", ".dev/", "target/", "index.html")
# Inside a sandbox, relative to its workspace or its root, or in another project.
ELSEWHERE = ("workspace/", "Downloads/", "uploads/", "fib.py", "mcp.json", "resolv.conf",
             "profiles/seccomp/default.json")
PLACEHOLDER = re.compile(r"<[^<>/]+>")
FENCE = re.compile(r"^\s*(```|~~~)")
SPAN = re.compile(r"`([^`\n]+)`")
LINE_SUFFIX = re.compile(r":\d+(-\d+)?$")
FOLDER_NAMES = set()  # the name of every folder in the repository, filled in by main()
ADDRESS = re.compile(r"^[\d.]+(/\d+)?$")


def documents():
    """docs/*.md, CONTRIBUTING.md and every README but the Python client's (generated)."""
    docs = sorted(name for name in os.listdir(os.path.join(ROOT, "docs")) if name.endswith(".md"))
    found = [os.path.join("docs", name) for name in docs]
    found += [name for name in ("README.md", "CONTRIBUTING.md") if os.path.exists(os.path.join(ROOT, name))]
    readmes = git("ls-files", "--cached", "--others", "--exclude-standard", "--", "*README.md")
    return found + sorted(set(readmes) - {"README.md", "clients/python/README.md"})


def git(*args):
    out = subprocess.run(["git", *args], cwd=ROOT, check=True, capture_output=True, text=True).stdout
    return [line for line in out.splitlines() if line]


def repository_paths():
    """Every file and folder in the working tree that git tracks or would track."""
    files = set()
    for path in git("ls-files", "--cached", "--others", "--exclude-standard"):
        if os.path.exists(os.path.join(ROOT, path)):
            files.add(path)
    folders = {os.path.dirname(path) for path in files}
    for folder in list(folders):
        while folder:
            folders.add(folder)
            folder = os.path.dirname(folder)
    folders.discard("")
    return files, folders


def candidate(span):
    """The path a span names, or None when it does not look like one."""
    word = span.split()[0] if span.strip() else ""
    if not word or "://" in word or word.startswith(("/", "~", "-")):
        return None
    if any(mark in word for mark in "$=?{…@") or ADDRESS.match(word):
        return None
    word = LINE_SUFFIX.sub("", word)
    if ":" in word:
        return None  # an image tag, a user:group, a key: value
    bare = word.rstrip("/")
    if not bare.strip("./"):
        return None  # `.`, `..`, `../../`
    if "/" not in word and not bare.endswith(tuple(EXTENSIONS)):
        return None
    if word.startswith(IGNORED) or word.startswith(ELSEWHERE) or "node_modules" in word:
        return None
    if "/" in word and not word.endswith("/") and not bare.endswith(tuple(EXTENSIONS)):
        first = bare.split("/")[0]
        if first not in FOLDER_NAMES and first not in (".", ".."):
            return None  # `anthropic/claude-sonnet-4`: a name with a slash, not a path here
    if ("<" in word or "*" in word) and "/" not in word:
        return None  # `mcp__<server>__<tool>`, `node-*`: names, not paths
    return word


def resolves(path, document, contexts, files, folders, top_level):
    """Where a path points: from a folder of a path named before it in the same section (or
    one above that folder), the document's folder or the root; a path with a `/` that does
    not start at a top-level folder may also be the tail of one."""
    if "<" in path or "*" in path:
        return matches_pattern(path, document, contexts, files, folders)
    folder_only = path.endswith("/")
    path = os.path.normpath(path.rstrip("/"))
    exists = (lambda p: p in folders) if folder_only else (lambda p: p in files or p in folders)
    for base in bases(document, contexts):
        full = os.path.normpath(os.path.join(base, path))
        if exists(full):
            return full
    if "/" not in path or path.split("/")[0] in top_level or path.startswith(".."):
        return None
    pool = folders if folder_only else files | folders
    matches = sorted(p for p in pool if p.endswith("/" + path))
    return matches[0] if matches else None


def bases(document, contexts):
    """The folders a relative path may start from, nearest first."""
    found = list(contexts)
    for context in contexts:
        while context:
            context = os.path.dirname(context)
            found.append(context)
    return found + [os.path.dirname(document), ""]


def matches_pattern(path, document, contexts, files, folders):
    """A pattern (`deploy/kubernetes/*.yaml`, `crates/tool-api-contract/src/<area>.rs`)
    resolves when it matches something from one of the bases, or as a tail."""
    pattern = PLACEHOLDER.sub("*", path.rstrip("/"))
    pool = folders if path.endswith("/") else files | folders
    for base in bases(document, contexts):
        full = os.path.normpath(os.path.join(base, pattern))
        if fnmatch.filter(pool, full):
            return full
    return full if fnmatch.filter(pool, "*/" + pattern) else None


def spans(document):
    """(line number, span) for every backtick span outside fenced blocks, and (line
    number, None) at each heading, where a new section starts."""
    fenced = False
    with open(os.path.join(ROOT, document), encoding="utf-8") as text:
        for number, line in enumerate(text, 1):
            if FENCE.match(line):
                fenced = not fenced
            elif not fenced:
                if line.startswith("#"):
                    yield number, None  # a new section
                for span in SPAN.findall(line):
                    yield number, span


def main():
    listing = sys.argv[1:] == ["--list"]
    files, folders = repository_paths()
    FOLDER_NAMES.update(os.path.basename(path) for path in folders)
    # `tests/` is a top-level folder and each service's too: a doc's `tests/...` may be either.
    top_level = {path for path in folders if "/" not in path} - {"tests"}
    missing = 0
    for document in documents():
        contexts = []
        for number, span in spans(document):
            path = span and candidate(span)
            if span is None:
                contexts = []
            if not path:
                continue
            found = resolves(path, document, contexts, files, folders, top_level)
            folder = found if found in folders else found and os.path.dirname(found)
            if folder in folders:
                contexts = [folder] + [c for c in contexts if c != folder]
            if listing:
                print(f"{document}:{number}: `{span}` -> {found or 'MISSING'}")
            elif found is None:
                print(f"{document}:{number}: `{span}` names no file or folder here")
            missing += found is None
    if missing:
        print(f"check-doc-paths: {missing} path(s) in the docs name nothing in the repository",
              file=sys.stderr)
        return 1
    if not listing:
        print("every path the docs name exists")
    return 0


if __name__ == "__main__":
    sys.exit(main())
