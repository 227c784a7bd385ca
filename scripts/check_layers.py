#!/usr/bin/env python3
"""check_layers.py -- the source tree's architecture, checked: no cycle of C
files that call each other (a function defined in B and called in A is an
edge A -> B), no cycle of files that include each other, and no include
against the rooms' one-way order (worker below proto below coordinator;
in coordinator, analysis knows nothing of model, report and config, and
model nothing of report and config); and no two code files (.c, .h, .sh, .py)
of one name.  Prints each finding; exit 1 when
there is one, 0 when none.

    python3 scripts/check_layers.py [SOURCE_DIR]
"""
import os
import re
import sys

ROOT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
ROOMS = ["worker", "proto", "coordinator"]
# (room prefix, include prefixes it must not use)
FORBIDDEN = [
    ("worker/", ["coordinator/", "proto/"]),
    ("proto/", ["coordinator/"]),
    ("coordinator/analysis/", ["coordinator/model/", "coordinator/report/", "coordinator/config/"]),
    ("coordinator/model/", ["coordinator/report/", "coordinator/config/"]),
]


def sources():
    out = []
    for room in ROOMS:
        for r, _, fs in os.walk(os.path.join(ROOT, room)):
            out += [os.path.relpath(os.path.join(r, f), ROOT) for f in fs if f.endswith((".c", ".h"))]
    return sorted(out)


def sccs(graph):
    """Tarjan's strongly connected components of more than one node."""
    sys.setrecursionlimit(100000)
    idx, low, stack, on, res, n = {}, {}, [], set(), [], [0]

    def visit(v):
        idx[v] = low[v] = n[0]
        n[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in idx:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], idx[w])
        if low[v] == idx[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                res.append(sorted(comp))

    for v in sorted(graph):
        if v not in idx:
            visit(v)
    return res


def text(path):
    return re.sub(r"/\*.*?\*/", "", open(os.path.join(ROOT, path)).read(), flags=re.S)


def main():
    files = sources()
    known = set(files)
    findings = []

    def resolve(src, inc):
        for base in [os.path.dirname(src)] + ROOMS:
            p = os.path.normpath(os.path.join(base, inc))
            if p in known:
                return p
        return None

    includes = {}
    for f in files:
        includes[f] = set()
        for inc in re.findall(r'#include "([^"]+)"', text(f)):
            p = resolve(f, inc)
            if p and p != f:
                includes[f].add(p)
    for f, incs in includes.items():
        for room, bad in FORBIDDEN:
            if f.startswith(room):
                findings += [f"{f} includes {p}: against the rooms' order" for p in sorted(incs)
                             if any(p.startswith(b) for b in bad)]
    findings += ["include cycle: " + " ".join(c) for c in sccs(includes)]
    # every code file's name unique in the tree, so a name says one thing
    by_name = {}
    for top in ROOMS + ["tests", "scripts", "bench"]:
        for r, _, fs in os.walk(os.path.join(ROOT, top)):
            for f in fs:
                if f.endswith((".c", ".h", ".sh", ".py")):
                    path = os.path.relpath(os.path.join(r, f), ROOT)
                    by_name.setdefault(f, []).append(path)
    findings += [f"{n}: one name, {len(fs)} files: " + " ".join(fs)
                 for n, fs in sorted(by_name.items()) if len(fs) > 1]

    defs, calls = {}, {}
    for f in files:
        if not f.endswith(".c"):
            continue
        s = text(f)
        for m in re.finditer(r"^(?!static)[a-z][^;()=]*?\b(sc_\w+)\s*\([^;]*?\)\s*\{", s, flags=re.M | re.S):
            defs.setdefault(m.group(1), f)
        calls[f] = set(re.findall(r"\b(sc_\w+)\s*\(", s))
    graph = {f: {defs[c] for c in cs if c in defs and defs[c] != f} for f, cs in calls.items()}
    for comp in sccs(graph):
        edges = [f"{a} -> {defs[c]} ({c})" for a in comp for c in sorted(calls[a])
                 if c in defs and defs[c] in comp and defs[c] != a]
        findings.append("call cycle: " + " ".join(comp) + "\n    " + "\n    ".join(edges))
    for line in findings:
        print(line)
    print(f"check_layers: {len(files)} files, {len(findings)} finding(s)")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
