#!/usr/bin/env python3
"""Checks the documentation's intra-repository references (run by `make test`).

For README.md, Docs/*.md and every other README.md / *.md under Datasets/
and Examples/: every markdown link to a local file must point to a file or
directory that exists, a `#anchor` into a markdown file must name one of its
headings (GitHub's slug rule), and every path written as Sources/…, Tests/…,
Benchmarks/…, Datasets/…, Docs/…, Examples/… or Reports/… must exist, taken
from the repository root or from the document's own directory. Nothing
may point out of the repository: a link that leaves it, or a `../` path
in backquotes that does, is a problem (a clone has only the repository).
Not checked: paths under Reports/ other than the committed Reports/default
and Reports/paper (outputs a command would create) and paths inside
```swift blocks (code of a researcher's own package). Standard library only; prints each problem as file:line and exits
1 if there is one.
"""
import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
PATH = re.compile(r"(?<![\w/.$-])((?:Sources|Tests|Benchmarks|Datasets|Docs|Examples|Reports)/[\w./+-]*)")
OUTSIDE = re.compile(r"`(\.\./[^`\s]*)`")
COMMITTED_REPORTS = ("Reports/default", "Reports/paper")


def outside(full):
    return os.path.relpath(full, ROOT).startswith("..")


def documents():
    docs = ["README.md"] + sorted("Docs/" + f for f in os.listdir(os.path.join(ROOT, "Docs")) if f.endswith(".md"))
    for top in ("Datasets", "Examples"):
        for d, subdirs, files in os.walk(os.path.join(ROOT, top)):
            subdirs[:] = sorted(s for s in subdirs if not s.startswith("."))
            docs += sorted(os.path.relpath(os.path.join(d, f), ROOT) for f in files if f.endswith(".md"))
    return docs


def slug(heading):
    s = re.sub(r"[`*_]", "", heading.strip().lower())
    s = re.sub(r"[^\w\- ]", "", s)
    return s.replace(" ", "-")


def anchors(path, cache={}):
    if path not in cache:
        with open(path, encoding="utf-8") as f:
            cache[path] = {slug(h) for h in re.findall(r"^#+ (.*)$", f.read(), re.M)}
    return cache[path]


def main():
    problems = []
    for doc in documents():
        base = os.path.dirname(os.path.join(ROOT, doc))
        with open(os.path.join(ROOT, doc), encoding="utf-8") as f:
            lines = f.read().splitlines()
        fence = None
        for n, line in enumerate(lines, 1):
            if line.lstrip().startswith("```"):
                fence = None if fence is not None else line.strip()[3:]
                continue
            for m in LINK.finditer(line):
                target = m.group(1)
                if re.match(r"^[a-z]+:", target):
                    continue
                path, _, frag = target.partition("#")
                full = os.path.normpath(os.path.join(base, path)) if path else os.path.join(ROOT, doc)
                if outside(full):
                    problems.append(f"{doc}:{n}: link out of the repository: {target}")
                elif not os.path.exists(full):
                    problems.append(f"{doc}:{n}: link to a missing file: {target}")
                elif frag and full.endswith(".md") and frag not in anchors(full):
                    problems.append(f"{doc}:{n}: no heading for the anchor: {target}")
            for m in PATH.finditer(line):
                p = m.group(1).rstrip(".,:;")
                if "*" in p or "<" in p or fence == "swift":
                    continue
                if p.startswith("Reports/") and not p.startswith(COMMITTED_REPORTS):
                    continue
                if not any(os.path.exists(os.path.join(b, p)) for b in (ROOT, base)):
                    problems.append(f"{doc}:{n}: no such path: {p}")
            if fence != "swift":
                for m in OUTSIDE.finditer(line):
                    # Read from the document's directory, or from the root
                    # when it names nothing from there.
                    here = os.path.normpath(os.path.join(base, m.group(1)))
                    if outside(here) or (not os.path.exists(here)
                                         and outside(os.path.normpath(os.path.join(ROOT, m.group(1))))):
                        problems.append(f"{doc}:{n}: path out of the repository: {m.group(1)}")
    for p in problems:
        print(p)
    print(f"check-links: {len(documents())} documents, {len(problems)} problems", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
