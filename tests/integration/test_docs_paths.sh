#!/usr/bin/env bash
# test_docs_paths.sh -- README.md and docs/*.md name only paths the tree has
# (issue 25): a repository path (coordinator/cluster/cluster.c,
# tests/unit/check.h), a path inside a room (report/phase_rows.c), a path
# relative to the page (../README.md) and a Markdown link with its anchor
# (scripts/check_docs_paths.py says which).  Before it, docs/layout.md
# pointed at ../shared/DESIGN.md and docs/results.md at bench/agg_bench.
. "$(dirname "$0")/lib.sh"

python3 "$SC_SOURCE_DIR/scripts/check_docs_paths.py" "$SC_SOURCE_DIR" || fail "stale paths in the docs (above)"

# The check itself finds a stale path of each kind in a copy of the docs.
mkdir -p "$T/tree/docs" "$T/tree/coordinator/report" "$T/tree/tests/unit"
echo "# README" >"$T/tree/README.md"
touch "$T/tree/coordinator/report/phase_rows.c" "$T/tree/tests/unit/check.h"
cat >"$T/tree/docs/x.md" <<'MD'
# X
Good: coordinator/report/phase_rows.c, report/phase_rows.c, tests/unit/,
[the README](../README.md), [X](#x); stale: tests/{unit,data}/
Stale: coordinator/phase_rows.c, report/files.c, [a link](y.md),
[an anchor](#nope), ../shared/DESIGN.md, [up](../../x.md).
MD
python3 "$SC_SOURCE_DIR/scripts/check_docs_paths.py" "$T/tree" >"$T/check.out" && fail "a stale copy passed"
cat "$T/check.out"
for want in 'docs/x.md:3: tests/{unit,data}/' 'docs/x.md:4: coordinator/phase_rows.c' \
	'docs/x.md:4: report/files.c' 'docs/x.md:4: y.md' 'docs/x.md:5: #nope' \
	'docs/x.md:5: ../shared/DESIGN.md: no such path' \
	'docs/x.md:5: ../../x.md: outside the repository'; do
	grep -qF "$want" "$T/check.out" || fail "not found: $want"
done
[ "$(grep -c '^docs/x.md' "$T/check.out")" = 7 ] || fail "a good path reported as stale, or one twice"
grep -q '^README' "$T/check.out" && fail "a good README reported"
echo PASS
