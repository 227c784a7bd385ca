#!/usr/bin/env bash
# Placement of job threads (1 rank, mpirun --bind-to none): with cpus: "1"
# (the last CPU the test may use) every job thread (named ssdc-job<i>) is
# pinned to CPU 1 while a 3 s phase runs, the rank's main thread is not,
# and the run exits 0; cpus:
# "999" (no such CPU) and numa: drive on a drive without a NUMA node
# (virtio here) run unpinned and exit 0; results.json's plan echo carries
# cpus and numa, --dry-run's plan a placement line; bad values exit 2 with
# file:line:col.  Needs 2 CPUs.
. "$(dirname "$0")/lib.sh"

[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs"
JOBS=2
mkdir -p "$T/target"

# config ID KEYS : a 3 s randread phase of JOBS jobs with KEYS
config() {
	cat >"$T/$1.yaml" <<YAML
targets:
  - path: $T/target
phases:
  - name: r
    rw: randread
    bs: 4KiB
    size: 4MiB
    jobs: $JOBS
    iodepth: 4
    direct: false
    runtime: 3s
    $2
YAML
}

# run_watch ID : runs config ID on 1 rank (mpirun binds no CPU) and, while
# it runs, writes "TID COMM CPUS" of each of the rank's threads to
# $T/ID.tasks (the last look with job threads in it) and its pid to
# $T/ID.pid; exit code in $T/ID.rc
run_watch() {
	local id=$1 mpid pid= seen=0 looks=0
	"$MPIEXEC" --oversubscribe --bind-to none -np 1 "$SC_BIN" "$T/$id.yaml" \
		--output "$T/out-$id" >"$T/$id.log" 2>&1 &
	mpid=$!
	: >"$T/$id.tasks"
	# until the run ends (a loaded machine may take long to start it)
	while [ -z "${pid:-}" ] && kill -0 "$mpid" 2>/dev/null; do
		sleep 0.05
		pid=$(pgrep -P "$mpid" -x ssdcluster | head -1) || true
	done
	while [ -n "${pid:-}" ] && [ -d /proc/"$pid"/task ]; do
		looks=$((looks + 1))
		# one look: "TID NAME CPUS" per thread (Name is its comm)
		awk '/^Name:/ {n = $2} /^Pid:/ {t = $2}
		     /^Cpus_allowed_list:/ {print t, n, $2}' /proc/"$pid"/task/*/status \
			>"$T/$id.now" 2>/dev/null || true
		# a look in which every job thread was read whole (one may end
		# while it is read)
		if [ "$(grep -cE ' ssdc-job[0-9]+ [0-9]' "$T/$id.now")" -eq $JOBS ]; then
			cp "$T/$id.now" "$T/$id.tasks"
			echo "$pid" >"$T/$id.pid"
			seen=$((seen + 1))
			[ $seen -ge 5 ] && break
		fi
		sleep 0.05
	done
	wait "$mpid" && echo 0 >"$T/$id.rc" || echo $? >"$T/$id.rc"
	echo "$id: threads seen while it ran (in $looks looks):"
	sed 's/^/    /' "$T/$id.tasks"
	[ -s "$T/$id.tasks" ] || { echo "last look:"; cat "$T/$id.now" "$T/$id.log"; }
}

# job_cpus ID : the distinct CPU lists of the job threads seen
job_cpus() { awk '$2 ~ /^ssdc-job/ {print $3}' "$T/$1.tasks" | sort -u | tr '\n' ' '; }

# plan_echo ID KEY : the plan echo's phase 0 KEY in results.json
plan_echo() {
	python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["plan"]["phases"][0][sys.argv[2]])' \
		"$T/out-$1/results.json" "$2"
}

# io_opt ID OPT : "asked unavailable why" of OPT in phase 0's io_options
io_opt() {
	python3 -c 'import json,sys
o = json.load(open(sys.argv[1]))["phases"][0].get("io_options", {}).get(sys.argv[2])
print("%d %d %s" % (o["asked_ranks"], o["unavailable_ranks"], o["why"]) if o else "none")' \
		"$T/out-$1/results.json" "$2"
}

all=$(awk '/^Cpus_allowed_list/ {print $2}' /proc/self/status)
# the last CPU this test may use (1 on a 2-CPU machine)
cpu=$(python3 -c 'import os; print(max(os.sched_getaffinity(0)))')

# 1. cpus: "$cpu": both job threads on that CPU, the main thread where it was
config pin "cpus: \"$cpu\""
run_watch pin
[ "$(cat "$T/pin.rc")" = 0 ] || { cat "$T/pin.log"; fail "cpus $cpu: exit $(cat "$T/pin.rc")"; }
[ "$(grep -c ' ssdc-job' "$T/pin.tasks")" -eq $JOBS ] || fail "cpus $cpu: job threads not seen"
[ "$(job_cpus pin)" = "$cpu " ] || fail "cpus $cpu: job threads on '$(job_cpus pin)', want $cpu"
main=$(awk -v p="$(cat "$T/pin.pid")" '$1 == p {print $3}' "$T/pin.tasks")
[ "$main" = "$all" ] || fail "cpus $cpu: the main thread moved to $main (was $all)"
[ "$(plan_echo pin cpus)" = "$cpu" ] && [ "$(plan_echo pin numa)" = none ] ||
	fail "cpus $cpu: plan echo cpus=$(plan_echo pin cpus) numa=$(plan_echo pin numa)"
echo "ok: cpus: \"$cpu\": job threads' Cpus_allowed_list $cpu, main thread $main, exit 0"

# 2. cpus: "999": no such CPU here; the run goes on, unpinned
config nocpu 'cpus: "999"'
run_watch nocpu
[ "$(cat "$T/nocpu.rc")" = 0 ] || { cat "$T/nocpu.log"; fail "cpus 999: exit $(cat "$T/nocpu.rc")"; }
[ "$(job_cpus nocpu)" = "$all " ] || fail "cpus 999: job threads on '$(job_cpus nocpu)', want $all"
case "$(io_opt nocpu cpus)" in
"1 1 none of CPUs 999 is this rank's"*) ;;
*) fail "cpus 999: io_options.cpus is '$(io_opt nocpu cpus)'" ;;
esac
[ "$(io_opt pin cpus)" = "1 0 " ] || [ "$(io_opt pin cpus)" = "1 0 None" ] ||
	fail "cpus $cpu: io_options.cpus is '$(io_opt pin cpus)', want used on 1 rank"
echo "ok: cpus: \"999\": exit 0, job threads unpinned ($all), io_options.cpus: $(io_opt nocpu cpus)"

# 3. numa: drive on this machine's disk (virtio: numa_node -1; or one node)
nodes=$(ls -d /sys/devices/system/node/node[0-9]* 2>/dev/null | wc -l)
dev=$(stat -c '%Hd:%Ld' "$T/target")
node=$(cat "$(readlink -f /sys/dev/block/"$dev")"/../../numa_node 2>/dev/null || echo -1)
if [ "$nodes" -le 1 ] || [ "$node" = -1 ]; then
	config numa 'numa: drive'
	run_watch numa
	[ "$(cat "$T/numa.rc")" = 0 ] || { cat "$T/numa.log"; fail "numa drive: exit $(cat "$T/numa.rc")"; }
	[ "$(job_cpus numa)" = "$all " ] || fail "numa drive: job threads on '$(job_cpus numa)'"
	[ "$(plan_echo numa numa)" = drive ] || fail "numa drive: plan echo $(plan_echo numa numa)"
	case "$(io_opt numa numa)" in
	"1 1 "*"NUMA node"* | "1 1 "*"one node"* | "1 1 "*"node"*) ;;
	*) fail "numa drive: io_options.numa is '$(io_opt numa numa)'" ;;
	esac
	echo "ok: numa: drive ($nodes node(s), disk $dev): exit 0, job threads unpinned, io_options.numa: $(io_opt numa numa)"
else
	echo "note: numa: drive not checked: this machine's disk has NUMA node $node"
fi

# 4. the plan printed by --dry-run says where the job threads go
config plan 'cpus: "0-1"
    numa: drive'
"$SC_BIN" "$T/plan.yaml" --dry-run >"$T/plan.log" 2>&1 || { cat "$T/plan.log"; fail "dry run"; }
grep -q 'placement: job threads of each rank on CPUs 0-1, next to the drive (numa: drive)' \
	"$T/plan.log" || { cat "$T/plan.log"; fail "no placement line in the plan"; }
echo "ok: --dry-run prints the placement line"

# 5. bad values: exit 2, file:line:col, nothing run
bad() {
	local keys=$1 want=$2 rc=0
	config bad "$keys"
	"$SC_BIN" "$T/bad.yaml" --dry-run >"$T/bad.log" 2>&1 || rc=$?
	[ $rc = 2 ] || { cat "$T/bad.log"; fail "$keys: exit $rc, want 2"; }
	grep -Eq "bad\.yaml:[0-9]+:[0-9]+: .*$want" "$T/bad.log" ||
		{ cat "$T/bad.log"; fail "$keys: no file:line:col message with '$want'"; }
	echo "ok: $keys: exit 2: $(grep -m1 'bad.yaml' "$T/bad.log")"
}
bad 'cpus: "1-"' 'is not a CPU list at "1-"'
bad 'cpus: "2,1-3"' 'lists CPU 2 twice'
bad 'cpus: 4096' 'a CPU beyond the 1024'
bad 'cpus: ""' 'empty value'
bad 'numa: drvie' 'is not a numa placement \(did you mean drive\?\)'
bad 'numa: [drive]' 'expected none or drive'
