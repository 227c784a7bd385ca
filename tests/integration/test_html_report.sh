#!/usr/bin/env bash
# report.html of a 2-rank run with io, checkpoint, ingest, kvcache and
# sweep phases (and a steady-state group, an expect: threshold and a
# model: section): well-formed XML (xmllint), a section for each phase kind,
# no script and nothing fetched, and every number of its per-phase cluster
# table the one results.json holds; `ssdcluster report results.pb
# --output DIR` writes the same page again; the page is rewritten
# after every phase (read while the run's second phase still runs); and a
# run of 40 phases (20 checkpoints, each restored) shows the last 32 in
# detail, the first 8 in the phase table alone, every link of the page
# leading to a section it has.
. "$(dirname "$0")/lib.sh"

command -v xmllint >/dev/null || skip "xmllint (libxml2-utils) not installed"

mkdir -p "$T/target"
cat >"$T/all.yaml" <<YAML
targets:
  - path: $T/target
defaults:
  direct: false
phases:
  - name: w
    rw: write
    bs: 1MiB
    size: 4MiB
  - name: rr
    rw: randread
    bs: 4KiB
    iodepth: 8
    size: 4MiB
    io_size: 1MiB
    expect: {max_read_p99: 10s}
  - name: sw
    rw: randread
    bs: [4KiB, 16KiB]
    iodepth: [1, 4]
    size: 4MiB
    io_size: 512KiB
  - name: ckpt
    workload: checkpoint
    engine: emulated
    model: llama3-8b
    tp: 1
    pp: 1
    zero: 3
    checkpoints: 2
    compute_between: 0
    block_size: 1MiB
    iodepth: 4
    scale: 0.0005
    emulate: {bandwidth: 512MiB, latency: 50us}
  - name: ingest
    workload: ingest
    files: 4
    file_size: 1MiB
    sample_size: 64KiB
    batch: 4
    compute_per_batch: 5ms
    jobs: 2
    iodepth: 4
  - name: kv
    workload: kvcache
    engine: psync
    size: 8MiB
    jobs: 2
    iodepth: 1
    rate: 2000/s
    runtime: 1s
  - name: steady
    engine: emulated
    rw: write
    bs: 1MiB
    iodepth: 4
    size: 16MiB
    emulate: {bandwidth: 64MiB}
    steady_state: {metric: bw, round: 1s, window: 2, max_rounds: 2}
model:
  nodes: [4, 16]
  gpus_per_node: 2
  node_mtbf: 20000h
  overhead_target: 2%
YAML

sc_mpirun 2 "$T/all.yaml" --output "$T/out" || { cat "$T/out.log"; fail "run exited $?"; }
[ -s "$T/out/report.html" ] || fail "no report.html beside results.json"
xmllint --noout "$T/out/report.html" || fail "report.html is not well-formed XML"

# check_page HTML JSON [KIND...]: the page's checks, by python3
check_page() {
	python3 - "$@" <<'PY'
import json, re, sys
from html.parser import HTMLParser

page_path, json_path, kinds = sys.argv[1], sys.argv[2], sys.argv[3:]
page = open(page_path, encoding="utf-8").read()
r = json.load(open(json_path))
bad = []
def need(cond, what):
    if not cond:
        bad.append(what)

need("<script" not in page.lower(), "the page holds a <script")
# namespace names (SVG, XHTML) name, never fetch: anything else is a reference
ns = r'xmlns(:\w+)?="http://www\.w3\.org/(2000/svg|1999/xhtml|1999/xlink)"'
urls = sorted(set(re.findall(r"https?://[^\s\"'<>)]*", re.sub(ns, "", page))))
need(not urls, f"references other than the SVG and XHTML namespaces: {urls}")
for k in kinds:
    need(f'class="phase kind-{k}"' in page, f"no section for the {k} phase kind")
for i, p in enumerate(r["phases"]):
    need(f'id="phase-{p["index"]}"' in page, f'no section for phase {p["name"]}')

class Tables(HTMLParser):
    """The rows of the tables inside <section id="phase-table">."""
    def __init__(self):
        super().__init__()
        self.sections, self.rows, self.cell = [], [], None
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "section":
            self.sections.append(a.get("id"))
        elif "phase-table" in self.sections and tag == "tr":
            self.rows.append([])
        elif "phase-table" in self.sections and tag in ("td", "th"):
            self.cell = ""
    def handle_endtag(self, tag):
        if tag == "section":
            self.sections.pop()
        elif tag in ("td", "th") and self.cell is not None:
            self.rows[-1].append(self.cell.strip())
            self.cell = None
    def handle_data(self, d):
        if self.cell is not None:
            self.cell += d

t = Tables()
t.feed(page)
head, rows = t.rows[0], t.rows[1:]
need(head == ["phase", "kind", "rw", "status", "dir", "data (MB)", "last-done (MB/s)",
              "first-done (MB/s)", "IOPS", "mean (us)", "p50 (us)", "p99 (us)", "p99.99 (us)",
              "errors"], f"phase table header: {head}")
kind_of = [p.get("workload") for p in r["plan"]["phases"]]
want = []
for p in r["phases"]:
    c = p["cluster"]
    lat = c["latency_ns"]
    dirs = [d for d in ("read", "write") if lat[d]["count"]] or ["-"]
    for j, d in enumerate(dirs):
        row = [p["name"]]
        if j == 0:
            row += [kind_of[p["index"]], p["rw"], p["status"], d,
                    "%.3f" % (c["total_bytes"] / 1e6),
                    "%.1f" % (c["lastdone_bw_bytes_per_s"] / 1e6),
                    "%.1f" % (c["firstdone_bw_bytes_per_s"] / 1e6),
                    "%.0f" % c["iops"]]
        else:
            row += ["", "", "", d, "", "", "", ""]
        if d == "-":
            row += ["-"] * 4
        else:
            l = lat[d]
            # a percentile too few samples support is null: "n/a"
            row += ["%.1f" % (l["mean"] / 1e3)] + ["n/a" if l[k] is None else "%.1f" % (l[k] / 1e3)
                                                  for k in ("p50", "p99", "p99.99")]
        row += [str(c["errors"]) if j == 0 else ""]
        want.append(row)
need(len(rows) == len(want), f"{len(rows)} rows in the phase table, want {len(want)}")
for got, w in zip(rows, want):
    need(got == w, f"phase table row\n   got {got}\n  want {w}")
numbers = sum(1 for row in rows for x in row if re.fullmatch(r"-?\d+(\.\d+)?", x))
if bad:
    print("FAIL:", *bad, sep="\n  ")
    sys.exit(1)
print(f"ok: {page_path}: {len(rows)} rows, {numbers} numbers equal results.json's")
PY
}

check_page "$T/out/report.html" "$T/out/results.json" io checkpoint ingest kvcache ||
	fail "report.html"
for s in summary drives verdict checkpoints sweeps steady-state model endurance; do
	grep -q "id=\"$s\"" "$T/out/report.html" || fail "no $s section"
done
grep -q "<td>rr</td><td>max_read_p99</td><td>cluster</td>.*<strong>PASS</strong>" \
	"$T/out/report.html" || fail "the verdict table has no PASS row for rr's max_read_p99"

# the same page from results.pb alone
"$SC_BIN" report "$T/out/results.pb" --output "$T/again" >"$T/report.log" 2>&1 ||
	{ cat "$T/report.log"; fail "ssdcluster report"; }
xmllint --noout "$T/again/report.html" || fail "rebuilt report.html is not well-formed XML"
cmp "$T/out/report.html" "$T/again/report.html" || fail "report rebuilt a different report.html"
echo "ok: ssdcluster report --output rebuilt the same report.html"

# Rewritten after every phase: while the second phase (idle, 60 s) runs,
# report.html holds the first phase and not the second; the run is then
# interrupted and the page holds both, the second marked interrupted.
cat >"$T/two.yaml" <<YAML
targets:
  - path: $T/target
phases:
  - name: first
    rw: write
    bs: 1MiB
    size: 2MiB
    direct: false
  - name: wait
    idle: 60s
YAML
# The interrupt must come once the idle phase has begun, which nothing
# shows from outside: it is sent a second, then 2 and 4 s, after the first
# phase's report.html appeared, until the run says it cut phase wait (under
# ASan beside a busy machine it once came before the phase began).
for attempt in 1 2 3; do
	rm -rf "$T/two"
	"$MPIEXEC" --oversubscribe -np 2 "$SC_BIN" "$T/two.yaml" --output "$T/two" >"$T/two.log" 2>&1 &
	pid=$!
	for _ in $(seq 600); do
		[ -e "$T/two/report.html" ] && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	[ -e "$T/two/report.html" ] || { kill -INT "$pid" 2>/dev/null || true; cat "$T/two.log"; fail "no report.html after the first phase"; }
	cp "$T/two/report.html" "$T/mid.html"
	cp "$T/two/results.json" "$T/mid-index.json"
	cp "$T/two/results.pb" "$T/mid.pb"
	sleep $((1 << (attempt - 1)))
	kill -INT "$pid" 2>/dev/null || true
	wait "$pid" || true
	grep -q "phase wait interrupted" "$T/two.log" && break
	echo "note: attempt $attempt: the interrupt came before phase wait began; again, later"
done
grep -q "phase wait interrupted" "$T/two.log" || { cat "$T/two.log"; fail "the run never said it cut phase wait"; }
xmllint --noout "$T/mid.html" || fail "report.html after the first phase is not well-formed XML"
# while the run goes, results.json is an index: its phases in results.json.part
python3 - "$T/mid-index.json" <<'PY' || fail "results.json after the first phase"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["phases"] is None and r["phases_file"] == "results.json.part", r.get("phases_file")
assert r["phases_omitted"] == 1, r["phases_omitted"]
PY
"$SC_BIN" report "$T/mid.pb" --output "$T/mid" >/dev/null || fail "report of results.pb after the first phase"
python3 - "$T/mid/results.json" <<'PY' || fail "results.json of results.pb after the first phase"
import json, sys
names = [p["name"] for p in json.load(open(sys.argv[1]))["phases"]]
assert names == ["first"], names
PY
check_page "$T/mid.html" "$T/mid/results.json" io || fail "report.html after the first phase"
grep -q 'kind-idle' "$T/mid.html" && fail "report.html after the first phase shows the second"
grep -q 'kind-idle' "$T/two/report.html" || fail "report.html after the interrupt lacks the cut phase"
check_page "$T/two/report.html" "$T/two/results.json" io idle || fail "report.html after the interrupt"

# Bounded: 40 phases, the last 32 in detail
fixture ckpt_cells.yaml TARGET="$T/target" CKPTS=20 >"$T/cells.yaml"
"$MPIEXEC" --oversubscribe -np 1 "$SC_BIN" "$T/cells.yaml" --output "$T/cells" -q >"$T/cells.log" 2>&1 ||
	{ cat "$T/cells.log"; fail "the 40-phase run"; }
xmllint --noout "$T/cells/report.html" || fail "the 40-phase report.html is not well-formed XML"
python3 - "$T/cells/report.html" <<'PY' || fail "the 40-phase report.html"
import re, sys
page = open(sys.argv[1]).read()
sections = re.findall(r'<section class="phase kind-checkpoint" id="phase-(\d+)">', page)
assert sections == [str(i) for i in range(8, 40)], sections
assert 'id="phase-0">' in page and "The first 8 of the 40 phases" in page, "no note of the earlier phases"
ids = set(re.findall(r' id="([^"]+)"', page))
links = re.findall(r'href="#([^"]+)"', page)
assert links and all(l in ids for l in links), [l for l in links if l not in ids]
rows = re.findall(r'<td>(?:<a href="#phase-\d+">)?ckpt\[(?:ckpt|restore)=\d+\]', page)
assert len(rows) >= 40, len(rows)
print(f"ok: 40 phases, {len(sections)} in detail, {len(links)} links all inside the page")
PY
# each phase's section was rendered once during the run and kept
"$SC_BIN" report "$T/cells/results.pb" --output "$T/cells-again" >/dev/null ||
	fail "report of the 40-phase results.pb"
cmp "$T/cells/report.html" "$T/cells-again/report.html" ||
	fail "the 40-phase report.html, its sections kept across the run, differs from report's"
echo PASS
