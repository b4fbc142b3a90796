#!/usr/bin/env python3
"""Checks the import rules of docs/ARCHITECTURE.md that a reading of the sources can check.

1. No import circles: in no crate of the workspace (`crates/*/src`, `services/*/src`) do
   files import each other round a circle. A file imports another when it names an item
   of the other's module by a `crate::`, `super::` or `self::` path, in a `use` or inline
   (or in a `use` by a path from a child module); a name a `pub use` re-exports is
   followed to the file that defines it. A module naming its own submodules' items is
   not counted: it declares them (a `mod.rs` may re-export or call its children). A
   circle is a set of files each reachable from every other; each is printed with the
   imports that close it.
2. backend-api's `src/domain/` and `src/application/` name no adapter crate and no outer
   layer: of the dependencies in `services/backend-api/Cargo.toml`, only the plain ones in
   PLAIN below (and `service-kit`'s hex and SHA-256 helpers) may be named there, so a
   dependency added later is an adapter's until it is listed; `domain/` names nothing of
   `application/`, and neither names `infrastructure`, `interfaces`, `config` or
   `startup`. Test code (`tests.rs`, `tests/`, `#[cfg(test)]` modules) may use the
   embedded store and other adapters, and is not read for this rule.

  scripts/check-imports.py          check (./test.sh --quick runs it)
  scripts/check-imports.py --graph  also print every crate's file imports
"""

import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BACKEND = os.path.join(ROOT, "services", "backend-api")
# Libraries of plain data, time, encoding, hashing and constant-time comparison,
# randomness, async plumbing and logging: what a domain type or a use case may lean on.
PLAIN = set(
    "anyhow async-stream async-trait base64 bytes chrono chrono-tz croner futures hmac metrics rand serde "
    "minijinja serde_json sha2 subtle thiserror tokio tokio-stream tokio-util tool-api-contract tracing url "
    "utoipa uuid".split()
)
# `service-kit` is the services' HTTP kit; of it, the inner layers may use only these.
SERVICE_KIT_HELPERS = {"hex", "unhex", "sha256_hex"}
OUTER = ("infrastructure", "interfaces", "config", "startup")


def strip(text):
    """The text without comments and string literals (which may name anything)."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r'\br(#*)".*?"\1', '""', text, flags=re.S)
    text = re.sub(r'"(?:\\.|[^"\\])*"', '""', text)
    text = re.sub(r"'(?:\\.|[^'\\\n])'", "' '", text)
    return re.sub(r"//[^\n]*", "", text)


def without_tests(text):
    """The text without its `#[cfg(test)]` items (a stripped text, braces balanced)."""
    while True:
        m = re.search(r"#\[cfg\(test\)\]\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+\w+\s*\{", text)
        if not m:
            return text
        depth, i = 1, m.end()
        while depth and i < len(text):
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        text = text[: m.start()] + text[i:]


def module_of(src, path):
    parts = os.path.relpath(path, src)[:-3].split(os.sep)
    if parts in (["lib"], ["main"]):
        return ()
    if parts[-1] == "mod":
        parts = parts[:-1]
    return tuple(parts)


def expand(tree):
    """`a::{b, c::{d as e}}` -> ["a::b", "a::c::d"]"""
    tree = re.sub(r"\s+", " ", tree).strip()
    out = []

    def walk(prefix, s):
        s = s.strip()
        i = s.find("{")
        if i < 0:
            out.append(prefix + re.sub(r"\s+as\s+\w+$", "", s).replace(" ", ""))
            return
        head, body = s[:i].replace(" ", ""), s[i + 1 : s.rindex("}")]
        depth, start = 0, 0
        for j, ch in enumerate(body + ","):
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
            elif ch == "," and depth == 0:
                if body[start:j].strip():
                    walk(prefix + head, body[start:j])
                start = j + 1

    walk("", tree)
    return out


TOKEN = re.compile(
    r"(\bmod\s+(\w+)\s*\{)"
    r"|(\b(pub(?:\([^)]*\))?\s+)?use\s+([^;]+);)"
    r"|((?<![\w:])(?:crate|super|self)(?:::\w+)+)"
    r"|(\{)|(\})"
)


def paths(text):
    """Yields (inline modules around it, path, whether a `pub use` at the top re-exports it)."""
    stack, depth = [], 0
    for m in TOKEN.finditer(text):
        if m.group(1):
            stack.append((m.group(2), depth))
            depth += 1
        elif m.group(3):
            for p in expand(m.group(5)):
                yield tuple(s for s, _ in stack), p, bool(m.group(4)) and not stack
        elif m.group(6):
            yield tuple(s for s, _ in stack), m.group(6), False
        elif m.group(7):
            depth += 1
        elif m.group(8):
            depth -= 1
            if stack and stack[-1][1] == depth:
                stack.pop()


def absolute(module, inline, path, children):
    """A `crate::`/`super::`/`self::` path from inside `module` as segments from the root;
    in a `use`, also one that starts at a child module (`use images::image_url`)."""
    if path.startswith("::"):
        return None  # an extern crate's
    segs = path.split("::")
    if segs and not inline and segs[0] in children.get(module, ()):
        segs = ["self"] + segs
    if not segs or segs[0] not in ("crate", "super", "self"):
        return None
    base = [] if segs[0] == "crate" else list(module) + list(inline)
    if segs[0] == "crate":
        segs = segs[1:]
    while segs and segs[0] in ("super", "self"):
        if segs.pop(0) == "super":
            base = base[:-1]
    return tuple(base + segs)


def crate_imports(src):
    """The crate's files by module, and which files each one imports."""
    files = {}
    for folder, _, names in os.walk(src):
        for name in names:
            if name.endswith(".rs"):
                path = os.path.join(folder, name)
                files[module_of(src, path)] = path
    children = {}
    for module in files:
        if module:
            children.setdefault(module[:-1], set()).add(module[-1])
    reexports, used = {}, {}
    for module, path in files.items():
        with open(path, encoding="utf-8") as f:
            text = strip(f.read())
        used[module] = []
        for inline, p, public in paths(text):
            target = absolute(module, inline, p, children)
            if target is not None:
                used[module].append(target)
                if public:
                    reexports[(module, target[-1])] = target

    def resolve(target, hops=0):
        for k in range(len(target), -1, -1):
            if target[:k] in files:
                module = target[:k]
                again = reexports.get((module, target[k])) if k < len(target) else None
                if again and hops < 16 and again + target[k + 1 :] != target:
                    return resolve(again + target[k + 1 :], hops + 1)
                return module
        return None

    imports = {module: set() for module in files}
    for module, targets in used.items():
        for target in targets:
            found = resolve(target)
            # A module reaching into its own submodules is not an import: it declares them.
            if found is not None and found[: len(module)] != module:
                imports[module].add(found)
    return files, imports


def circles(imports):
    """The strongly connected sets of more than one file (Tarjan's algorithm)."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(imports[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    sys.setrecursionlimit(10_000)
    for v in sorted(imports):
        if v not in index:
            visit(v)
    return found


def check_circles(show_graph):
    failures = []
    for kind in ("crates", "services"):
        for name in sorted(os.listdir(os.path.join(ROOT, kind))):
            src = os.path.join(ROOT, kind, name, "src")
            if not os.path.isdir(src):
                continue
            files, imports = crate_imports(src)
            rel = {m: os.path.relpath(p, src) for m, p in files.items()}
            if show_graph:
                for m in sorted(imports, key=rel.get):
                    print(f"{kind}/{name}/src/{rel[m]} -> {', '.join(sorted(rel[t] for t in imports[m]))}")
            for group in circles(imports):
                lines = [f"{kind}/{name}: import circle over {len(group)} files"]
                for m in sorted(group, key=rel.get):
                    inside = sorted(rel[t] for t in imports[m] if t in group)
                    lines.append(f"  src/{rel[m]} imports {', '.join(inside)}")
                failures.append("\n".join(lines))
    return failures


def dependencies(manifest):
    """The crate names (as Rust spells them) of a manifest's [dependencies]."""
    names, section = set(), None
    with open(manifest, encoding="utf-8") as f:
        for line in f:
            header = re.match(r"\s*\[([^\]]+)\]", line)
            if header:
                section = header.group(1).strip()
            elif section == "dependencies":
                entry = re.match(r"\s*([A-Za-z0-9_-]+)\s*(?:\.workspace)?\s*=", line)
                if entry:
                    names.add(entry.group(1))
    return names


def check_layers():
    failures = []
    deps = dependencies(os.path.join(BACKEND, "Cargo.toml"))
    adapters = {d.replace("-", "_") for d in deps - PLAIN - {"service-kit"}}
    src = os.path.join(BACKEND, "src")
    for layer in ("domain", "application"):
        outer = OUTER + (("application",) if layer == "domain" else ())
        for folder, _, names in os.walk(os.path.join(src, layer)):
            if os.sep + "tests" in folder[len(src) :]:
                continue
            for name in sorted(names):
                if not name.endswith(".rs") or name == "tests.rs":
                    continue
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8") as f:
                    text = without_tests(strip(f.read()))
                named = set()
                for m in re.finditer(r"(?<![\w:])(?:::)?([a-z_][a-z0-9_]*)::(\w+)", text):
                    first, second = m.groups()
                    if first in adapters:
                        named.add(first)
                    elif first == "service_kit" and second not in SERVICE_KIT_HELPERS:
                        named.add(f"service_kit::{second}")
                    elif first == "crate" and second in outer:
                        named.add(f"crate::{second}")
                for use in re.finditer(r"\buse\s+([^;]+);", text):
                    for p in expand(use.group(1)):
                        segs = p.lstrip(":").split("::")
                        if segs[0] in adapters:
                            named.add(segs[0])
                        elif segs[0] == "crate" and len(segs) > 1 and segs[1] in outer:
                            named.add(f"crate::{segs[1]}")
                if named:
                    where = os.path.relpath(path, ROOT)
                    failures.append(f"{where}: the {layer} layer names {', '.join(sorted(named))}")
    return failures


def main():
    failures = check_circles("--graph" in sys.argv[1:]) + check_layers()
    for failure in failures:
        print(failure, file=sys.stderr)
    if failures:
        print(f"check-imports: {len(failures)} problem(s)", file=sys.stderr)
        return 1
    print("no import circles; domain/ and application/ name no adapter crate")
    return 0


if __name__ == "__main__":
    sys.exit(main())
