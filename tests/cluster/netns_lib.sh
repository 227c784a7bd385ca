# netns_lib.sh -- several "hosts" on this machine for the cluster tests.
#
# Each host is a network namespace (sc-schostN) joined to the bridge scbr0 by
# a veth pair, with an address on SC_CL_SUBNET, lo up, a line in /etc/hosts,
# and its own UTS hostname (schostN) set by the rsh agent that Open MPI uses
# instead of ssh.  Traffic only ever goes to these namespaces, to the bridge's
# own address in the root namespace (mpirun <-> orted control) or to loopback.
# Every host sees its own target directory at the same path, $SC_CL_TARGET
# (backed by $SC_CL_NODES/schostN), as every node of a cluster has /mnt/nvme0.
#
#   . "$(dirname "$0")/netns_lib.sh" # skips (exit 77) where namespaces cannot be made
#   hosts_up 3                      # schost1..schost3
#   sc_hostfile "$T/hosts" 4 4 4    # slots per host
#   sc_cluster_mpirun "$T/hosts" 12 CONFIG --output DIR
#
# Everything is torn down on exit, on failure and on INT/TERM; leftovers of a
# crashed earlier run (same name prefixes, same /etc/hosts tag) are removed
# before anything is created.  A lock keeps two runs of these tests apart.
# SC_CL_KEEP_TMP=1 keeps the temp folder $T (configs, results, files) for a
# look afterwards; SC_CL_MPIRUN_TIMEOUT (default 50 s) bounds each mpirun.
set -euo pipefail

: "${SC_BIN:?SC_BIN must name the ssdcluster binary}"
MPIEXEC=${MPIEXEC:-mpirun}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# The command line below decides the transports; drop any inherited choice.
unset OMPI_MCA_btl OMPI_MCA_btl_tcp_if_include OMPI_MCA_oob_tcp_if_include \
	OMPI_MCA_btl_tcp_if_exclude OMPI_MCA_oob_tcp_if_exclude OMPI_MCA_plm_rsh_agent

SC_CL_SUBNET=10.231.77.0/24
SC_CL_NET=10.231.77         # host N is $SC_CL_NET.$((10 + N)), the bridge .1
SC_CL_BRIDGE=scbr0
SC_CL_HOST=schost           # host names schost1..schostN
SC_CL_NS=sc-schost          # namespaces sc-schost1..
SC_CL_VETH=scv-schost       # root-side veth ends scv-schost1..
SC_CL_TAG="# ssdcluster-tests-cluster"   # marks our /etc/hosts lines
SC_CL_LOCK=${SC_CL_LOCK:-/run/lock/ssdcluster-tests-cluster.lock}
SC_CL_MPIRUN_TIMEOUT=${SC_CL_MPIRUN_TIMEOUT:-50}   # seconds per mpirun

export SC_CL_NHOSTS=0        # hosts up now
SC_CL_MPIRUN_PID=
SC_CL_UP=0

skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }

# --- can this machine do it at all? ------------------------------------------
[ "$(id -u)" -eq 0 ] || skip "network namespaces need root (uid is $(id -u))"
for c in ip unshare python3 flock timeout "$MPIEXEC"; do
	command -v "$c" >/dev/null 2>&1 || skip "$c not found"
done
case $("$MPIEXEC" --version 2>&1 || true) in
*"Open MPI"* | *OpenRTE* | *open-mpi.org*) ;;
*) skip "$MPIEXEC is not Open MPI (the rsh agent and --mca options are Open MPI's)" ;;
esac
[ -x "$SC_BIN" ] || fail "SC_BIN=$SC_BIN is not an executable"
ip netns list >/dev/null 2>&1 || skip "'ip netns' does not work here: $(ip netns list 2>&1 | head -1)"
unshare --uts true 2>/dev/null || skip "unshare --uts fails: $(unshare --uts true 2>&1 | head -1)"

T=

# --- teardown ---------------------------------------------------------------

# Kills what still runs inside our namespaces (every such process was started
# by these tests), by pid.
_sc_cl_kill_ns_pids() {
	local ns=$1 pids
	pids=$(ip netns pids "$ns" 2>/dev/null | tr '\n' ' ') || true
	[ -n "${pids// /}" ] || return 0
	# shellcheck disable=SC2086 # a list of pids
	kill -TERM $pids 2>/dev/null || true
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		pids=$(ip netns pids "$ns" 2>/dev/null | tr '\n' ' ') || true
		[ -n "${pids// /}" ] || return 0
		sleep 0.2
	done
	# shellcheck disable=SC2086
	kill -KILL $pids 2>/dev/null || true
}

# Removes our lines from /etc/hosts, rewriting the file in place (it may be a
# bind mount, so no rename).
_sc_cl_hosts_clean() {
	grep -qF -- "$SC_CL_TAG" /etc/hosts 2>/dev/null || return 0
	local tmp
	tmp=$(mktemp)
	grep -vF -- "$SC_CL_TAG" /etc/hosts >"$tmp" || true
	cat "$tmp" >/etc/hosts
	rm -f "$tmp"
}

# Removes every namespace, link, bridge and hosts line with our names: those of
# this run and any left by an earlier run that was killed.
hosts_down() {
	local ns link
	for ns in $(ip netns list 2>/dev/null | awk '{print $1}' | grep "^${SC_CL_NS}[0-9]*\$"); do
		_sc_cl_kill_ns_pids "$ns"
		ip netns del "$ns" 2>/dev/null || true
	done
	for link in $(ip -o link show 2>/dev/null | awk -F': ' '{print $2}' | sed 's/@.*//' |
		grep "^${SC_CL_VETH}[0-9]*\$"); do
		ip link del "$link" 2>/dev/null || true
	done
	if ip link show "$SC_CL_BRIDGE" >/dev/null 2>&1; then
		ip link del "$SC_CL_BRIDGE" 2>/dev/null || true
	fi
	_sc_cl_hosts_clean
	SC_CL_NHOSTS=0
	SC_CL_UP=0
}

_sc_cl_cleanup() {
	local rc=$?
	trap - EXIT INT TERM
	set +e
	if [ -n "$SC_CL_MPIRUN_PID" ] && kill -0 "$SC_CL_MPIRUN_PID" 2>/dev/null; then
		kill -TERM "$SC_CL_MPIRUN_PID" 2>/dev/null
		for _ in 1 2 3 4 5 6 7 8 9 10; do
			kill -0 "$SC_CL_MPIRUN_PID" 2>/dev/null || break
			sleep 0.3
		done
		kill -KILL "$SC_CL_MPIRUN_PID" 2>/dev/null
	fi
	[ "$SC_CL_UP" = 1 ] && hosts_down
	# Directories made inside the namespaces are plain files of $T.
	if [ -n "$T" ]; then
		if [ -n "${SC_CL_KEEP_TMP:-}" ]; then echo "kept $T"; else rm -rf "$T"; fi
	fi
	exit "$rc"
}
trap _sc_cl_cleanup EXIT
# Say so on the test's own stderr, even when a redirection is active.
exec {SC_CL_STDERR}>&2
trap 'echo "interrupted: tearing down" >&$SC_CL_STDERR; exit 130' INT
trap 'echo "terminated: tearing down" >&$SC_CL_STDERR; exit 143' TERM

# One run of these tests at a time on this machine: they share the names.
# (mpirun does not inherit fd 9, so an orphan cannot hold the lock.)
exec 9>"$SC_CL_LOCK"
flock -w 200 9 || fail "another run of the cluster tests holds $SC_CL_LOCK"

T=$(mktemp -d "${TMPDIR:-/tmp}/sc-cl.XXXXXX")
chmod 755 "$T"
# Temp folders of earlier runs that were killed (they hold our agent script).
for d in "${TMPDIR:-/tmp}"/sc-cl.*; do
	if [ "$d" != "$T" ] && [ -f "$d/sc-rsh-agent" ]; then rm -rf "$d"; fi
done

# --- the rsh agent ----------------------------------------------------------
# Open MPI calls: AGENT [-options] HOST COMMAND...  It runs COMMAND in the
# host's namespace with the host's name; any other host is refused, so
# nothing is ever started outside our namespaces.
SC_CL_AGENT=$T/sc-rsh-agent
SC_CL_TARGET=$T/target      # every host's own directory, at the same path
SC_CL_NODES=$T/node         # ... which is $T/node/schostN seen from here
mkdir -p "$SC_CL_TARGET" "$SC_CL_NODES"
cat >"$SC_CL_AGENT" <<AGENT
#!/bin/sh
while [ \$# -gt 0 ]; do
	case \$1 in -*) shift ;; *) break ;; esac
done
host=\$1
shift
case \$host in
${SC_CL_HOST}[0-9]|${SC_CL_HOST}[0-9][0-9]) ;;
*) echo "sc-rsh-agent: refusing host '\$host' (only $SC_CL_HOST<N>)" >&2; exit 1 ;;
esac
# Each host sees its own directory at $SC_CL_TARGET (a bind mount inside the
# mount namespace that ip netns exec makes; it never shows outside).
exec ip netns exec "$SC_CL_NS\${host#$SC_CL_HOST}" unshare --uts sh -c \\
	"hostname \$host && mount --bind '$SC_CL_NODES/\$host' '$SC_CL_TARGET' && \$*"
AGENT
chmod 755 "$SC_CL_AGENT"

# --- bring-up ---------------------------------------------------------------

# hosts_up N : hosts schost1..schostN on the bridge, reachable by name.
hosts_up() {
	local n=$1 i ns ip
	if [ "$n" -lt 1 ] || [ "$n" -gt 20 ]; then fail "hosts_up: 1..20 hosts, not $n"; fi
	hosts_down # leftovers of a crashed run
	# The subnet must be unused here, or we would route someone's traffic.
	if ip -4 -o addr show | grep -v " $SC_CL_BRIDGE " | grep -q " inet $SC_CL_NET\."; then
		skip "$SC_CL_SUBNET is already used on this machine: $(ip -4 -o addr show | grep " inet $SC_CL_NET\.")"
	fi
	if ip -4 route show | grep -q "^$SC_CL_NET\."; then
		skip "a route for $SC_CL_SUBNET exists already: $(ip -4 route show | grep "^$SC_CL_NET\.")"
	fi
	SC_CL_UP=1
	if ! ip link add "$SC_CL_BRIDGE" type bridge 2>"$T/ip.err"; then
		skip "cannot create a bridge: $(cat "$T/ip.err")"
	fi
	ip addr add "$SC_CL_NET.1/24" dev "$SC_CL_BRIDGE"
	ip link set "$SC_CL_BRIDGE" up
	for ((i = 1; i <= n; i++)); do
		ns=$SC_CL_NS$i
		ip=$SC_CL_NET.$((10 + i))
		if ! ip netns add "$ns" 2>"$T/ip.err"; then
			[ "$i" -eq 1 ] && skip "cannot create a network namespace: $(cat "$T/ip.err")"
			fail "ip netns add $ns: $(cat "$T/ip.err")"
		fi
		if ! ip link add "$SC_CL_VETH$i" type veth peer name eth0 netns "$ns" 2>"$T/ip.err"; then
			[ "$i" -eq 1 ] && skip "cannot create a veth pair: $(cat "$T/ip.err")"
			fail "veth for $ns: $(cat "$T/ip.err")"
		fi
		ip link set "$SC_CL_VETH$i" master "$SC_CL_BRIDGE"
		ip link set "$SC_CL_VETH$i" up
		ip -n "$ns" link set lo up
		ip -n "$ns" addr add "$ip/24" dev eth0
		ip -n "$ns" link set eth0 up
		echo "$ip $SC_CL_HOST$i $SC_CL_TAG" >>/etc/hosts
		mkdir -p "$SC_CL_NODES/$SC_CL_HOST$i"
	done
	SC_CL_NHOSTS=$n
	# Wait until each host answers (veth/bridge ports take a moment to forward).
	for ((i = 1; i <= n; i++)); do
		_sc_cl_wait_reachable "$i" || fail "$SC_CL_HOST$i ($SC_CL_NET.$((10 + i))) unreachable from the bridge"
	done
}

# Reachability without ping: a TCP connect from the root namespace to a port
# nobody listens on in the namespace is refused (reachable) rather than
# timing out.  Bash's /dev/tcp, so nothing else is needed.
_sc_cl_wait_reachable() {
	local i=$1 ip=$SC_CL_NET.$((10 + $1)) k out
	for ((k = 0; k < 50; k++)); do
		out=$(timeout 1 bash -c "exec 3<>/dev/tcp/$ip/9" 2>&1) && return 0
		case $out in *refused*) return 0 ;; esac
		sleep 0.1
	done
	return 1
}

# sc_hostfile FILE SLOTS1 SLOTS2 ... : schost1 slots=SLOTS1, ...
sc_hostfile() {
	local f=$1 i=1 s
	shift
	: >"$f"
	for s in "$@"; do
		echo "$SC_CL_HOST$i slots=$s" >>"$f"
		i=$((i + 1))
	done
}

# sc_cluster_mpirun HOSTFILE NP ARGS... : runs $SC_BIN ARGS on NP ranks across
# the namespace hosts; returns mpirun's exit status (124 after
# SC_CL_MPIRUN_TIMEOUT seconds).  Interruptible: the trap kills it by pid.
sc_cluster_mpirun() {
	local hf=$1 np=$2
	shift 2
	sc_cluster_mpirun_cmd "$hf" "$np" "$SC_BIN" "$@"
}

# sc_cluster_mpirun_cmd HOSTFILE NP PROGRAM ARGS... : the same for any program.
sc_cluster_mpirun_cmd() {
	local hf=$1 np=$2 rc=0
	shift 2
	timeout -k 5 "$SC_CL_MPIRUN_TIMEOUT" "$MPIEXEC" --allow-run-as-root --oversubscribe \
		--hostfile "$hf" -np "$np" \
		--mca plm_rsh_agent "$SC_CL_AGENT" \
		--mca btl tcp,self \
		--mca btl_tcp_if_include "$SC_CL_SUBNET" \
		--mca oob_tcp_if_include "$SC_CL_SUBNET" \
		--mca plm_rsh_no_tree_spawn 1 \
		"$@" </dev/null 9>&- &
	SC_CL_MPIRUN_PID=$!
	wait "$SC_CL_MPIRUN_PID" || rc=$?
	SC_CL_MPIRUN_PID=
	[ "$rc" -eq 124 ] && echo "mpirun timed out after ${SC_CL_MPIRUN_TIMEOUT}s" >&2
	return "$rc"
}

# sc_cl_two_phases FILE : a small, fast config on every host's own target:
# seqwrite moves 2 jobs x 2 MiB a rank, randread 2 jobs x 1 MiB, with
# io_uring and O_DIRECT; keep: false leaves no files.
sc_cl_two_phases() {
	cat >"$1" <<YAML
targets:
  - path: $SC_CL_TARGET
    capacity: 1GiB
    keep: false
defaults:
  engine: io_uring
  direct: true
phases:
  - name: seqwrite
    rw: write
    bs: 256KiB
    iodepth: 4
    jobs: 2
    size: 2MiB
    io_size: 2MiB
  - name: randread
    rw: randread
    bs: 4KiB
    iodepth: 8
    jobs: 2
    size: 2MiB
    io_size: 1MiB
YAML
}

# count_entries DIR : number of entries under DIR (0 if it does not exist)
count_entries() { [ -e "$1" ] && find "$1" -mindepth 1 | wc -l || echo 0; }
