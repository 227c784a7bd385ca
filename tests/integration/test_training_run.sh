#!/usr/bin/env bash
# workload training on 3 ranks, one of them on a slow drive: every rank
# does the same steps (DLIO's floor(files x samples per file / batch /
# accelerators) per epoch), waits at the step barrier, and reports MLPerf's
# figures; AU is each epoch's steps without the first (as DLIO), so the
# fast ranks' AU falls to the slow rank's closed form.
#
# Two targets on this node: ranks 0 and 2 get `fast`, rank 1 `slow` (a
# node's targets are shared round-robin).  engine: emulated (no files),
# 1 ms per read; `slow` is throttled to 2560 KiB/s: a batch of 4 samples of
# 64 KiB (record 64 KiB, stdev 0: 256^2 B), read by the one reader a sample
# at a time, takes 4 x 64 KiB / 2560 KiB/s = 100 ms.  With prefetch_size 1
# (DLIO: one batch ahead per reader) the reader reads the next batch while
# the step computes (30 ms): the slow rank's step takes 100 ms at least,
# its AU is at most 30 / 100 = 0.30; a fast rank alone would read a batch
# in 4 ms, AU 30 / 34.  72 files, batch 4, 3 ranks: 6 steps per epoch, 2
# epochs: 12 steps each, AU over 10.  Tolerances hold beside two busy
# loops (a busy machine lowers every AU; none can pass the closed form).
. "$(dirname "$0")/lib.sh"

fixture training_slow_rank.yaml FAST="$T/fast" SLOW="$T/slow" EPOCHS=2 >"$T/t.yaml"

"$SC_BIN" "$T/t.yaml" --dry-run >"$T/dry.log" 2>&1 || { cat "$T/dry.log"; fail "dry run exited $?"; }
sc_mpirun 3 "$T/t.yaml" --output "$T/out" || { cat "$T/out.log"; fail "run exited $?"; }
cat "$T/out.log"
grep -q "train: 3 accelerators on 1 hosts, .* samples/s, AU .*: BELOW the 90% threshold" "$T/out.log" ||
	fail "the summary line: 3 accelerators, AU below the threshold"
python3 - "$T/out/results.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
t = r["phases"][0]["training"]
m = t["mlperf"]
bad = 0
def need(cond, what):
    global bad
    if not cond:
        print("FAIL:", what); bad += 1

closed = 0.030 / (4 * 65536 / (2560 * 1024))      # 0.30
ranks = {x["rank"]: x for x in t["ranks"]}
print({k: (v["steps"], round(v["au"], 4), round(v["barrier_wait_ns"] / 1e6)) for k, v in ranks.items()})
need(sorted(ranks) == [0, 1, 2], "a row per rank")
need(all(v["steps"] == 12 for v in ranks.values()), f"12 steps each: {[v['steps'] for v in ranks.values()]}")
need(t["samples"] == 3 * 12 * 4, f'{t["samples"]} samples, want 3 x 12 x 4')
need(ranks[1]["au"] <= closed * 1.05, f'the slow rank\'s AU {ranks[1]["au"]:.4f} above the closed form {closed:.4f}')
need(ranks[1]["au"] >= closed * 0.5, f'the slow rank\'s AU {ranks[1]["au"]:.4f} far below {closed:.4f}')
for k in (0, 2):
    need(ranks[k]["au"] <= closed * 1.15, f'fast rank {k}: AU {ranks[k]["au"]:.4f} above {closed:.4f} + 15%: no barrier?')
    need(ranks[k]["barrier_wait_ns"] > ranks[1]["barrier_wait_ns"], f"fast rank {k} waits at the barrier longer than the slow one")
need(m["num_accelerators"] == 3 and m["num_hosts"] == 1, "3 accelerators on 1 host")
need(m["num_files_train"] == 72 and m["epochs"] == 2, "files and epochs echoed")
need(m["benchmark"] is None and m["accelerator"] is None, "a custom workload names none")
au = sum(v["au"] for v in ranks.values()) / 3
need(abs(m["train_au_mean_percentage"] - 100 * au) < 1e-6, "train_au_mean_percentage is the ranks' mean")
need(m["train_au_meet_expectation"] == "fail", "AU below 90%: fail")
# samples/s: each rank's 10 AU steps x 4 samples over its AU wall time, summed;
# the step is the slow rank's (>= 100 ms): at most 3 x 40 samples/s
need(0 < m["train_throughput_mean_samples_per_second"] <= 3 * 4 / 0.100 * 1.02,
     f'{m["train_throughput_mean_samples_per_second"]:.1f} samples/s')
need(abs(m["train_io_mean_MB_per_second"] - m["train_throughput_mean_samples_per_second"] * 65536 / 2**20) < 1e-6,
     "train_io_mean_MB_per_second is samples/s x the record in MiB, as DLIO")
# DLIO's data_size_per_host: 3 accelerators x 72 / 3 samples x 64 KiB,
# 4.5 MiB, far below any host's memory, read buffered: potential caching
need(abs(m["data_size_per_host_GB"] - 3 * 24 * 65536 / 2**30) < 1e-12,
     f'data_size_per_host_GB {m["data_size_per_host_GB"]}')
need(m["potential_caching"] == [1] and t["nodes"][0]["potential_caching"] is True,
     f'potential caching {m["potential_caching"]}')
sys.exit(1 if bad else 0)
PY
grep -q "train: potential caching on 1 of 1 hosts: a host's share of the dataset (4.50 MiB) fits in its memory" "$T/out.log" ||
	fail "the potential caching line"
# O_DIRECT reads: no page cache, no potential caching
sc_mpirun 1 "$T/t.yaml" --set phases.0.direct=true --set phases.0.epochs=1 --output "$T/od" ||
	{ cat "$T/out.log"; fail "the O_DIRECT run exited $?"; }
python3 -c 'import json,sys; m=json.load(open(sys.argv[1]))["phases"][0]["training"]["mlperf"]; assert m["potential_caching"] == [0], m' \
	"$T/od/results.json" || fail "O_DIRECT reads still flagged as potential caching"
! grep -q "potential caching" "$T/out.log" || fail "the O_DIRECT run prints potential caching"


# An attacker's symlink where a dataset file goes: refused, its target kept.
echo precious >"$T/victim"
cat >"$T/a.yaml" <<YAML
targets:
  - path: $T/atk
phases:
  - name: train
    workload: training
    files: 4
    samples_per_file: 1
    record_size: 64KiB
    batch: 1
    jobs: 1
    computation_time: 0s
    epochs: 1
    au: 0.5
YAML
d="$T/atk/ssdcluster-datasets/train-4x1x65536B-sd0-seed1"
mkdir -p "$d" && ln -s "$T/victim" "$d/file_0.dat"
if sc_mpirun 1 "$T/a.yaml" --output "$T/aout"; then fail "a symlinked dataset file was written through"; fi
grep -q "file_0.dat: cannot create dataset file: it is a symbolic link" "$T/out.log" ||
	{ cat "$T/out.log"; fail "the symlink's refusal not said"; }
[ "$(cat "$T/victim")" = precious ] || fail "the symlink's target was changed"
echo PASS
