/* test_placement.c -- CPU lists (ranges, commas, bad syntax, out of
 * range, duplicates), the NUMA node of a drive on the fake sysfs trees of
 * tests/data/sysfs (partition, dm members on two nodes, md with a virtio
 * member, hidden NVMe path, multipath head and loop without a node), a
 * node's CPUs, and what a phase's placement decides from the CPUs a rank
 * may use.
 *
 * Exit 0 pass, 1 fail.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "check.h"
#include "placement.h"

static char sysfs[4096];

/* s parsed and formatted back: the canonical list, or "ERR" and rc. */
static const char *round_trip(const char *s, int *rc, char *buf, size_t len)
{
	char err[160];
	cpu_set_t set;

	*rc = sc_placement_parse_cpulist(s, &set, err, sizeof(err));
	if (*rc)
		return snprintf(buf, len, "ERR %s", err), buf;
	return sc_placement_format(&set, buf, len);
}

static void test_cpulist(void)
{
	static const struct {
		const char *in, *out;
	} ok[] = {
	    {"0", "0"},		{"1", "1"},   {"0-3,8", "0-3,8"},
	    {"8,0-3", "0-3,8"}, {"3-3", "3"}, {"0,2,4-6,7", "0,2,4-7"},
	    {"1023", "1023"},
	};
	static const char *const bad[] = {
	    "", "a", "1-", "-1", "3-1", "1,,2", "1,", " 1", "1 ", "1:2", "0x1", "1-2-3", "+1",
	};
	char buf[256];
	int rc;

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		const char *got = round_trip(ok[i].in, &rc, buf, sizeof(buf));

		CHECK(rc == 0 && !strcmp(got, ok[i].out), "\"%s\": want %s, got %s (%d)", ok[i].in,
		      ok[i].out, got, rc);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *got = round_trip(bad[i], &rc, buf, sizeof(buf));

		CHECK(rc == -EINVAL, "\"%s\" is not a CPU list, got %s (%d)", bad[i], got, rc);
	}
	round_trip("0-3,2", &rc, buf, sizeof(buf));
	CHECK(rc == -EINVAL && strstr(buf, "CPU 2 twice"), "overlap: %s", buf);
	round_trip("5,5", &rc, buf, sizeof(buf));
	CHECK(rc == -EINVAL && strstr(buf, "CPU 5 twice"), "duplicate: %s", buf);
	round_trip("1024", &rc, buf, sizeof(buf));
	CHECK(rc == -ERANGE && strstr(buf, "1024"), "1024 is beyond a set: %s", buf);
	round_trip("0-99999999999999999999", &rc, buf, sizeof(buf));
	CHECK(rc == -ERANGE, "a number past 2^64: %d", rc);
	round_trip("1,x", &rc, buf, sizeof(buf));
	CHECK(rc == -EINVAL && strstr(buf, "at \"x\""), "the message points at the bad item: %s",
	      buf);
}

/* The node behind dev on the fake tree, and why when none. */
static int node_of(unsigned maj, unsigned min, char *why, size_t len)
{
	return sc_placement_dev_node(sysfs, makedev(maj, min), why, len);
}

static void test_drive_node(void)
{
	char why[256];
	int n;

	n = node_of(259, 0, why, sizeof(why));
	CHECK(n == 0, "nvme0n1: its PCI function's node 0, got %d (%s)", n, why);
	n = node_of(259, 1, why, sizeof(why));
	CHECK(n == 0, "nvme0n1p1: the whole namespace's node 0, got %d (%s)", n, why);
	n = node_of(259, 9, why, sizeof(why));
	CHECK(n == 1, "nvme4c5n1: controller nvme5's PCI function, node 1, got %d (%s)", n, why);
	n = node_of(253, 0, why, sizeof(why));
	CHECK(n == -1 && strstr(why, "NUMA nodes") && strstr(why, "nvme1n1") &&
		  strstr(why, "nvme2n1"),
	      "dm-0 over node 1 and node 0: unknown, got %d (%s)", n, why);
	n = node_of(9, 0, why, sizeof(why));
	CHECK(n == -1 && !strcmp(why, "vda has no NUMA node (numa_node -1)"),
	      "md0 with a virtio member, got %d (%s)", n, why);
	n = node_of(254, 1, why, sizeof(why));
	CHECK(n == -1 && !strcmp(why, "vda has no NUMA node (numa_node -1)"),
	      "vda1: the disk's, got %d (%s)", n, why);
	n = node_of(7, 0, why, sizeof(why));
	CHECK(n == -1 && !strcmp(why, "loop0 has no NUMA node (a virtual device)"),
	      "loop0, got %d (%s)", n, why);
	n = node_of(259, 4, why, sizeof(why));
	CHECK(n == -1 && strstr(why, "nvme4n1 has no NUMA node"),
	      "a multipath head is virtual, got %d (%s)", n, why);
	n = node_of(8, 0, why, sizeof(why));
	CHECK(n == -1 && strstr(why, "8:0 is not in"), "an unknown device, got %d (%s)", n, why);
}

static void test_node_cpus(void)
{
	char why[256], buf[64];
	cpu_set_t set;
	int nn = 0, rc;

	rc = sc_placement_node_cpus(sysfs, 1, &set, &nn, why, sizeof(why));
	CHECK(rc == 0 && !strcmp(sc_placement_format(&set, buf, sizeof(buf)), "4-7,12"),
	      "node 1: 4-7,12, got %d %s", rc, buf);
	CHECK(nn == 3, "three nodes, got %d", nn);
	rc = sc_placement_node_cpus(sysfs, 2, &set, &nn, why, sizeof(why));
	CHECK(rc == -ENOENT && !strcmp(why, "NUMA node 2 has no CPUs"), "memory only: %d %s", rc,
	      why);
	rc = sc_placement_node_cpus(sysfs, 5, &set, &nn, why, sizeof(why));
	CHECK(rc == -ENOENT && strstr(why, "node 5"), "no node 5: %d %s", rc, why);
}

/* cpus asked on a rank that may use `allowed`: what it pins to. */
static void decide(const char *cpus, const char *allowed, struct sc_placement *pl,
		   struct sc_io_opts *o)
{
	struct sc_io_spec io = {0};
	char err[160];
	cpu_set_t a;

	snprintf(io.cpus, sizeof(io.cpus), "%s", cpus);
	if (sc_placement_parse_cpulist(allowed, &a, err, sizeof(err)))
		FAIL("allowed %s: %s", allowed, err);
	sc_io_opts_init(o);
	sc_placement_decide(sysfs, &io, "/", &a, pl, o);
}

static void test_decide(void)
{
	struct sc_placement pl;
	struct sc_io_opts o;
	struct sc_io_spec none = {0};
	char buf[64];
	cpu_set_t a;

	decide("1", "0-1", &pl, &o);
	CHECK(pl.pin && !strcmp(sc_placement_format(&pl.cpus, buf, sizeof(buf)), "1"),
	      "cpus 1 of 0-1: pinned to 1, got %d %s", pl.pin, buf);
	CHECK(o.asked == 1u << SC_IO_OPT_CPUS && !o.unavailable, "asked, available: %s", o.note);
	CHECK(pl.mem_node == -1, "no memory binding without numa");
	sc_io_opts_destroy(&o);

	decide("1-3", "0-1", &pl, &o);
	CHECK(pl.pin && !strcmp(sc_placement_format(&pl.cpus, buf, sizeof(buf)), "1"),
	      "cpus 1-3 of 0-1: the rest, 1, got %d %s", pl.pin, buf);
	CHECK(o.unavailable == 1u << SC_IO_OPT_CPUS &&
		  !strcmp(o.note, "cpus: CPUs 2-3 are not this rank's (it may use 0-1); job "
				  "threads on 1"),
	      "the left-out CPUs said: %s", o.note);
	sc_io_opts_destroy(&o);

	decide("1,5", "0-1", &pl, &o);
	CHECK(!strcmp(o.note, "cpus: CPU 5 is not this rank's (it may use 0-1); job threads on 1"),
	      "one CPU left out: %s", o.note);
	sc_io_opts_destroy(&o);

	decide("999", "0-1", &pl, &o);
	CHECK(!pl.pin, "no CPU left: not pinned");
	CHECK(o.unavailable == 1u << SC_IO_OPT_CPUS &&
		  !strcmp(o.note, "cpus: none of CPUs 999 is this rank's (it may use 0-1); job "
				  "threads not pinned"),
	      "unavailable: %s", o.note);
	sc_io_opts_destroy(&o);

	CPU_ZERO(&a);
	sc_io_opts_init(&o);
	sc_placement_decide(sysfs, &none, "/", &a, &pl, &o);
	CHECK(!pl.pin && pl.mem_node == -1 && !o.asked, "nothing asked: nothing done");
	CHECK(sc_placement_pin(&pl) == 0 && sc_placement_bind(&pl, buf, sizeof(buf)) == 0,
	      "pin and bind do nothing");
	sc_io_opts_destroy(&o);
}

/* Pinning the calling thread, and binding to node 0 where there is one. */
static void test_pin_bind(void)
{
	struct sc_placement pl = {.pin = true, .mem_node = 0};
	cpu_set_t before, now;
	void *mem;

	if (sched_getaffinity(0, sizeof(before), &before))
		return FAIL("sched_getaffinity: %s", strerror(errno));
	CPU_ZERO(&pl.cpus);
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &before)) {
			CPU_SET(c, &pl.cpus);
			break;
		}
	CHECK(sc_placement_pin(&pl) == 0, "pin to the first allowed CPU");
	CHECK(sched_getaffinity(0, sizeof(now), &now) == 0 && CPU_EQUAL(&now, &pl.cpus),
	      "the thread's CPUs are the one pinned to");
	sched_setaffinity(0, sizeof(before), &before);
	if (posix_memalign(&mem, 4096, 8192))
		return FAIL("no memory");
	int rc = sc_placement_bind(&pl, mem, 8192);

	CHECK(rc == 0 || rc == -ENOSYS, "mbind to node 0: %s", strerror(-rc));
	free(mem);
}

int main(void)
{
	const char *src = getenv("SC_SOURCE_DIR");

	if (!src) {
		fprintf(stderr, "test_placement: SC_SOURCE_DIR is not set (run it with ctest)\n");
		return 1;
	}
	snprintf(sysfs, sizeof(sysfs), "%s/tests/data/sysfs", src);
	test_cpulist();
	test_drive_node();
	test_node_cpus();
	test_decide();
	test_pin_bind();
	return check_exit("test_placement");
}
