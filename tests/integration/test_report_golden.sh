#!/usr/bin/env bash
# Every formatter against known output: `ssdcluster report` on the results
# files kept in tests/data/report_golden/ (an io sweep with thresholds and
# outliers on 4 emulated ranks; a checkpoint with restore, ingest, kvcache
# and a model: section on 2; fills, a write cliff and steady-state rounds
# on 1) writes results.json, results.pb, the CSV files, report.html and the
# printed text byte for byte as expected.sha256 holds (made by main's
# binary before the figures object: the formatters only format).  A
# formatter that changes on purpose: run this script with REGEN=1 and
# commit the new expected.sha256 with the change, saying why.
. "$(dirname "$0")/lib.sh"

G="$SC_SOURCE_DIR/tests/data/report_golden"
files="phases.csv ranks.csv report.html results.json results.pb sweep.csv timeseries.csv"
: >"$T/got.sha256"
for pb in "$G"/*.pb; do
	n=$(basename "$pb" .pb)
	out="$T/$n"
	rc=0
	"$SC_BIN" report "$pb" --output "$out" >"$T/$n.txt" 2>&1 || rc=$?
	[ "$rc" -eq 0 ] || [ "$rc" -eq 3 ] || { cat "$T/$n.txt"; fail "$n: report exit $rc"; }
	for f in $files; do
		echo "$(sha256sum <"$out/$f" | cut -c1-64)  $n/$f" >>"$T/got.sha256"
	done
	echo "$(sed "s#$out#OUT#" "$T/$n.txt" | sha256sum | cut -c1-64)  $n/text.txt" >>"$T/got.sha256"
done
if [ "${REGEN:-0}" = 1 ]; then
	cp "$T/got.sha256" "$G/expected.sha256"
	echo "expected.sha256 written"
	exit 0
fi
diff "$G/expected.sha256" "$T/got.sha256" || fail "report output differs from tests/data/report_golden/expected.sha256 (the lines above)"
echo "PASS: $(wc -l <"$G/expected.sha256") outputs byte for byte"
