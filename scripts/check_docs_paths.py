#!/usr/bin/env python3
"""check_docs_paths.py -- README.md and docs/*.md name only paths the tree has.

    python3 scripts/check_docs_paths.py [ROOT]

Reads README.md and every docs/*.md under ROOT (default: this script's
repository) and prints each reference that names nothing in the tree, as
FILE:LINE: REFERENCE: WHY; exits 1 if there is one, 0 otherwise.  Checked:

- a path from the repository's top, whose first folder is one of the tree's
  top-level folders (coordinator/cluster/cluster.c, tests/unit/check.h,
  bench/agg_bench.c, configs/): that exact file or folder must exist;
- a path inside a room, whose first folder is a folder deeper in the tree
  (report/phase_rows.c, unit/worker/, cluster/): when it names a file (a
  name with an extension) or a folder (a trailing /), some file or folder
  of the tree must end with it;
- a path relative to the Markdown file (../README.md): it must stay inside
  the repository and exist;
- a Markdown link [text](target#anchor) that is not a URL: its target must
  exist, and its anchor must be a heading of the target (GitHub's slugs).

{a,b} in a path expands to each alternative and * matches any name.  build/
(what CMake makes) and dot-folders are not the tree; neither is the fake
sysfs of tests/data/sysfs as a source of room names.  Bare file names
(cluster.c) are not checked.
"""
import fnmatch
import os
import re
import sys

# A path-like word: folders and a name; not the tail of a longer path, a URL,
# a variable ($W/x) or a home path.
WORD = re.compile(r"(?<![\w/.$~{}*<>@:-])((?:[\w.*{},-]+/)+[\w.*{},-]*)")
UP = re.compile(r"(?<![\w/.])((?:\.\./)+[\w./-]+)")
LINK = re.compile(r"\]\(([^)\s]+)\)")
SKIP_DIRS = ("build", "Testing")
FAKE = "tests/data/sysfs"


def tree(root):
    """Every file and folder under root, relative, and the folder names."""
    paths, top, rooms = set(), set(), set()
    for dirpath, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if not d.startswith(".") and not d.startswith(SKIP_DIRS)]
        rel = os.path.relpath(dirpath, root)
        if rel != ".":
            paths.add(rel)
            parts = rel.split(os.sep)
            if len(parts) == 1:
                top.add(rel)
            elif not rel.startswith(FAKE):
                rooms.add(parts[-1])
        for f in files:
            paths.add(os.path.normpath(os.path.join(rel, f)))
    return paths, top, rooms


def expand(word):
    """word with each {a,b} replaced by its alternatives."""
    m = re.search(r"\{([^{}]*)\}", word)
    if not m:
        return [word]
    out = []
    for alt in m.group(1).split(","):
        out += expand(word[: m.start()] + alt + word[m.end() :])
    return out


def exists(path, paths, suffix):
    """Whether path (maybe with *) is in paths, or ends one when suffix."""
    path = path.rstrip("/")
    if "*" not in path and not suffix:
        return path in paths
    for p in paths:
        if fnmatch.fnmatchcase(p, path) or (suffix and fnmatch.fnmatchcase(p, "*/" + path)):
            return True
    return False


def slug(heading):
    s = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return s.replace(" ", "-")


def anchors(path):
    """The GitHub anchors of a Markdown file's headings."""
    out, seen, fence = set(), {}, False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("```"):
                fence = not fence
            m = None if fence else re.match(r"#{1,6}\s+(.*)", line)
            if m:
                s = slug(m.group(1))
                n = seen.get(s, 0)
                seen[s] = n + 1
                out.add(s if n == 0 else f"{s}-{n}")
    return out


def check_word(word, paths, top, rooms):
    """Why word names nothing in the tree, or None."""
    first = word.split("/")[0]
    last = word.rstrip("/").split("/")[-1]
    if first in top:
        suffix = False
    elif first in rooms and (word.endswith("/") or "." in last.strip(".")):
        suffix = True
    else:
        return None
    for w in expand(word):
        if not exists(w, paths, suffix):
            return "no such path in the tree" if not suffix else "no path in the tree ends with it"
    return None


def check_link(doc, target, root):
    if re.match(r"[a-z]+:", target):
        return None
    path, _, anchor = target.partition("#")
    full = os.path.join(root, doc)
    if path:
        full = os.path.normpath(os.path.join(root, os.path.dirname(doc), path))
    if os.path.relpath(full, root).startswith(".."):
        return "outside the repository"
    if not os.path.exists(full):
        return "no such file"
    if anchor and full.endswith(".md") and anchor not in anchors(full):
        return "no such heading"
    return None


def check_up(doc, up, root):
    full = os.path.normpath(os.path.join(root, os.path.dirname(doc), up))
    if os.path.relpath(full, root).startswith(".."):
        return "outside the repository"
    return None if os.path.exists(full) else "no such path"


def check_doc(doc, root, paths, top, rooms):
    """FILE:LINE: REFERENCE: WHY of each stale reference in doc, once a line."""
    found = {}
    with open(os.path.join(root, doc), encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            refs = [(m.group(1), check_link(doc, m.group(1), root)) for m in LINK.finditer(line)]
            for m in UP.finditer(line):
                up = m.group(1).rstrip(".,")
                refs.append((up, check_up(doc, up, root)))
            for m in WORD.finditer(line):
                word = m.group(1).rstrip(".,")
                refs.append((word, check_word(word, paths, top, rooms)))
            for ref, why in refs:
                if why and (n, ref) not in found:
                    found[(n, ref)] = f"{doc}:{n}: {ref}: {why}"
    return list(found.values())


def main(argv):
    here = os.path.join(os.path.dirname(__file__), "..")
    root = os.path.abspath(argv[1] if len(argv) > 1 else here)
    paths, top, rooms = tree(root)
    docs = ["README.md"] + sorted(
        os.path.join("docs", f) for f in os.listdir(os.path.join(root, "docs")) if f.endswith(".md")
    )
    found = []
    for doc in docs:
        if os.path.exists(os.path.join(root, doc)):
            found += check_doc(doc, root, paths, top, rooms)
    for line in found:
        print(line)
    print(f"check_docs_paths: {len(docs)} files, {len(found)} stale references")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
