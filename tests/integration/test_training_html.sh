#!/usr/bin/env bash
# report.html of a training phase (test_training_run.sh's run: 3 ranks,
# engine emulated, rank 1 on a throttled target, here over 6 epochs):
# the page is well-formed XML; its MLPerf table gives results.json's
# figures; AU has a bar per rank and per host whose value is the rank's AU
# in results.json and the mean of the host's ranks', a bar marked "below"
# exactly when results.json puts it under the phase's threshold (the slow
# rank among them: with the step barrier every rank waits for it), and a
# dashed threshold line at 90 on the chart's axis; samples/s over time is
# a line whose points, read back through the chart's axes, add up (each
# point's rate x the time it covers) to the samples results.json counts,
# with MLPerf's mean drawn at results.json's figure; the printed line
# counts the accelerators and hosts below.  Read from the page's
# pixels and tick labels: nothing here repeats the page's own arithmetic.
. "$(dirname "$0")/lib.sh"

command -v xmllint >/dev/null || skip "xmllint (libxml2-utils) not installed"

fixture training_slow_rank.yaml FAST="$T/fast" SLOW="$T/slow" EPOCHS=6 >"$T/t.yaml"

sc_mpirun 3 "$T/t.yaml" --output "$T/out" || { cat "$T/out.log"; fail "run exited $?"; }
xmllint --noout "$T/out/report.html" || fail "report.html is not well-formed XML"
python3 - "$T/out/report.html" "$T/out/results.json" "$T/out.log" <<'PY'
import json, re, sys
import xml.etree.ElementTree as ET

page, r = sys.argv[1], json.load(open(sys.argv[2]))
ph = r["phases"][0]
t, m = ph["training"], ph["training"]["mlperf"]
bad = 0
def need(cond, what):
    global bad
    if not cond:
        print("FAIL:", what); bad += 1

def tag(e):
    return e.tag.rsplit("}", 1)[-1]

def text(e):
    return "".join(e.itertext())

root = ET.fromstring(re.sub(r"<!DOCTYPE[^>]*>", "", open(page, encoding="utf-8").read()))
section = next(s for s in root.iter() if tag(s) == "section" and s.get("id") == "phase-0")
svgs = {}
for s in section.iter():
    if tag(s) == "svg":
        svgs[text(next(c for c in s if tag(c) == "title"))] = s

def chart(part):
    hits = [s for k, s in svgs.items() if part in k]
    need(len(hits) == 1, f"one chart titled '...{part}...': {sorted(svgs)}")
    return hits[0] if hits else None

def axis(svg, cls):
    """pixel = a + b x value, fitted to the ticks of class cls"""
    pts = []
    for e in svg.iter():
        if tag(e) == "text" and e.get("class") == cls:
            try:
                v = float(text(e))
            except ValueError:
                continue
            pts.append((v, float(e.get("x")) if cls == "xtick" else float(e.get("y")) - 4))
    pts = pts[:-1] if cls == "xtick" else pts  # the last x label may be pulled in
    n = len(pts)
    mv, mp = sum(v for v, _ in pts) / n, sum(p for _, p in pts) / n
    b = sum((v - mv) * (p - mp) for v, p in pts) / sum((v - mv) ** 2 for v, _ in pts)
    return mp - b * mv, b

def close(a, b, rel=0.005, abs_=1e-9):
    return abs(a - b) <= rel * abs(b) + abs_

# the MLPerf table: results.json's figures, rounded as printed
rows = {}
for tr in section.iter():
    if tag(tr) == "tr":
        cells = [text(c).strip() for c in tr if tag(c) == "td"]
        if len(cells) == 2:
            rows[cells[0]] = cells[1]
need(float(rows.get("train_au_mean_percentage (%)", "nan")) == round(m["train_au_mean_percentage"], 2),
     f"train_au_mean_percentage {rows.get('train_au_mean_percentage (%)')} vs {m['train_au_mean_percentage']}")
need(rows.get("train_au_meet_expectation", "").startswith(m["train_au_meet_expectation"] + " "),
     f"meet expectation {rows.get('train_au_meet_expectation')}")
need(float(rows.get("train_throughput_mean_samples_per_second (samples/s)", "nan")) ==
     round(m["train_throughput_mean_samples_per_second"], 2), "samples/s in the table")
need(float(rows.get("train_io_mean_MB_per_second (MiB/s: samples/s x record, as DLIO)", "nan")) ==
     round(m["train_io_mean_MB_per_second"], 3), "MB/s in the table")
need(rows.get("num_accelerators (number)") == "3" and rows.get("num_hosts (number)") == "1",
     "3 accelerators on 1 host in the table")

def bars(svg):
    """{label: (value, marked)} in order, and the threshold's x value"""
    out, value = {}, None
    for e in svg:
        if tag(e) != "text" or e.get("class"):
            continue
        s = text(e).replace("\xa0", " ").strip()
        if e.get("text-anchor") == "end":
            marked = s.endswith(" (below)")
            out[s[: -len(" (below)")] if marked else s] = (value, marked)
        elif s.endswith(" %"):
            value = float(s[:-2])
    lines = [e for e in svg.iter() if tag(e) == "line" and e.get("class") == "threshold"]
    need(len(lines) == 1, "one threshold line")
    a, b = axis(svg, "xtick")
    x = float(lines[0].get("x1")) if lines else float("nan")
    need(lines and lines[0].get("stroke-dasharray"), "the threshold line is dashed")
    return out, (x - a) / b

thr = 100 * t["au_threshold"]
ranks = {x["rank"]: x for x in ph["ranks"]}
au = {x["rank"]: x["au"] for x in t["ranks"]}
svg = chart("accelerator utilisation per accelerator")
if svg is not None:
    got, at = bars(svg)
    print("accelerators:", got, "threshold at", round(at, 2))
    need(abs(at - thr) < 0.5, f"threshold line at {at:.2f} on the axis, want {thr}")
    need(len(got) == 3, f"3 accelerator bars: {list(got)}")
    # one accelerator a rank: its bar is named after the rank
    for k, v in au.items():
        label = f"rank {k} ({ranks[k]['host']})"
        need(label in got, f"a bar for {label}")
        if label in got:
            need(close(got[label][0], 100 * v), f"{label}: {got[label][0]} % vs {100 * v:.3f}")
            need(got[label][1] == (v < t["au_threshold"]), f"{label} marked below: {got[label][1]}")
    need(got.get("rank 1 (" + ranks[1]["host"] + ")", (0, False))[1],
         "the slow rank's bar marked below")
svg = chart("accelerator utilisation per host")
if svg is not None:
    got, at = bars(svg)
    print("hosts:", got)
    need(abs(at - thr) < 0.5, f"host chart: threshold line at {at:.2f}, want {thr}")
    hosts = sorted({x["host"] for x in ph["ranks"]})
    need(sorted(got) == hosts, f"a bar per host: {sorted(got)} vs {hosts}")
    for h in hosts:
        mean = sum(au[k] for k in au if ranks[k]["host"] == h) / sum(ranks[k]["host"] == h for k in au)
        if h in got:
            need(close(got[h][0], 100 * mean), f"host {h}: {got[h][0]} % vs its ranks' mean {100 * mean:.3f}")
            need(got[h][1] == (mean < t["au_threshold"]), f"host {h} marked below: {got[h][1]}")

# samples/s over time: read back through the axes, it holds the run's samples
svg = chart("samples/s over time")
if svg is not None:
    ax, bx = axis(svg, "xtick")
    ay, by = axis(svg, "ytick")
    paths = [e for e in svg.iter() if tag(e) == "path" and " L" in (e.get("d") or "")]
    line = [p for p in paths if not p.get("stroke-dasharray")]
    ref = [p for p in paths if p.get("stroke-dasharray")]
    need(len(line) == 1 and len(ref) == 1, f"one cluster line and one dashed mean: {len(line)}, {len(ref)}")
    pts = [((float(x) - ax) / bx, (float(y) - ay) / by)
           for x, y in re.findall(r"([-\d.]+) ([-\d.]+)", line[0].get("d"))] if line else []
    print("samples/s:", [(round(x, 2), round(y, 1)) for x, y in pts])
    end_s = (ph["cluster"]["lastdone_ns"] - ph["measure_start_ns"]) / 1e9
    need(len(pts) >= 3, f"a point a second over {end_s:.2f} s: {len(pts)}")
    need(all(y > 0 for _, y in pts), "every second read samples")
    held, prev = 0.0, 0.0
    for x, y in pts:
        held += y * (x - prev)
        prev = x
    # a last second under a quarter second is left out: its samples are not held
    left = max(0.0, end_s - prev) * max(y for _, y in pts)
    print(f"held {held:.1f} of {t['samples']} samples; up to {left:.1f} in a last second left out")
    need(t["samples"] - left - 0.03 * t["samples"] <= held <= 1.03 * t["samples"],
         f"the line holds {held:.1f} samples, results.json counts {t['samples']}")
    need(abs(prev - end_s) < 0.3, f"the line ends at {prev:.2f} s, the phase at {end_s:.2f} s")
    if ref:
        ry = [(float(y) - ay) / by for _, y in re.findall(r"([-\d.]+) ([-\d.]+)", ref[0].get("d"))]
        want = m["train_throughput_mean_samples_per_second"]
        need(all(abs(y - want) <= 0.02 * want + 1 for y in ry), f"the dashed mean at {ry}, want {want:.1f}")
notes = " ".join(text(p) for p in section.iter() if tag(p) == "p")
need(f"/ {t['samples']} samples = 64.0 KiB" in notes,
     "the caption says how samples/s is derived: bytes read / the samples counted")
# the printed line counts the same accelerators and hosts below
want = f"{t['accelerators_below_threshold']} below; {t['hosts_below_threshold']} of {m['num_hosts']} hosts below): BELOW"
need(want in open(sys.argv[3]).read(), f"the printed line says '{want}'")
need(t["accelerators_below_threshold"] == sum(v < t["au_threshold"] for v in au.values()) and
     t["hosts_below_threshold"] == 1, "results.json counts the ranks and the host below")
sys.exit(1 if bad else 0)
PY
echo PASS
