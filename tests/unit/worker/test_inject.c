/* test_inject.c -- the fault-injecting engine wrapper.
 *
 * every N fails exactly the reads and writes number N, 2N, ... (fsyncs pass
 * and do not count), across engine instances that share one state; failed
 * I/Os never reach the file; a probability is seeded (same seed, same
 * failures) and near its rate; failed I/Os hold their slot until reaped;
 * create refuses what it cannot wrap; reap_until follows the inner engine.
 * Over null and psync always, over io_uring when the kernel allows it.
 *
 * Exit 0 pass, 1 fail.
 */
#include "engine/engine.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

#define BLOCK	  4096u
#define DEPTH	  8u
#define NIOS	  5000u /* I/Os per every-N pass */
#define EVERY	  1000u
#define PPM_NIOS  100000u
#define PPM_RATE  250000u /* 25% */
#define SEED_A	  11u
#define SEED_B	  12u
#define FILE_BLKS 32u

struct rig {
	const struct sc_engine_ops *inner;
	int fd;
	struct iovec buf;
	struct sc_io ios[DEPTH];
	struct sc_inject_state st;
	struct sc_engine_conf conf;
};

static void rig_init(struct rig *g, const struct sc_engine_ops *inner, int fd, void *mem)
{
	memset(g, 0, sizeof(*g));
	g->inner = inner;
	g->fd = fd;
	g->buf = (struct iovec){.iov_base = mem, .iov_len = BLOCK};
	g->st = (struct sc_inject_state){.inner = inner, .every = EVERY, .errno_val = EIO};
	g->conf = (struct sc_engine_conf){.depth = DEPTH, .fds = &g->fd, .nfds = 1,
					  .bufs = &g->buf, .nbufs = 1, .inject = &g->st};
}

/* Runs n I/Os (number seq0 + k has offset (k % FILE_BLKS) * BLOCK, the op
 * op, and an fsync after every fsync_every of them when nonzero) through
 * one wrapper instance, as a job does.  failed[seq] is set for every I/O
 * that came back with -EIO; any other result must be the full length. */
static void run_ios(struct rig *g, uint32_t seq0, uint32_t n, uint8_t op, uint32_t fsync_every,
		    bool *failed, uint32_t *nfsync_ok)
{
	struct sc_engine *e = NULL;
	struct sc_io *done[DEPTH];
	uint32_t free_slots[DEPTH], nfree = DEPTH, next = 0, completed = 0, since = 0;
	uint32_t seq_of[DEPTH];
	int rc = sc_engine_inject.create(&e, &g->conf);

	if (rc) {
		FAIL("create over %s: %s", g->inner->name, strerror(-rc));
		return;
	}
	for (uint32_t i = 0; i < DEPTH; i++)
		free_slots[i] = i;
	while (completed < n) {
		while (nfree && next < n) {
			uint32_t s = free_slots[nfree - 1];
			struct sc_io *io = &g->ios[s];
			bool fs = fsync_every && since == fsync_every;

			memset(io, 0, sizeof(*io));
			io->op = fs ? SC_OP_FSYNC : op;
			io->len = fs ? 0 : BLOCK;
			io->offset = fs ? 0 : (uint64_t)(next % FILE_BLKS) * BLOCK;
			io->res = INT32_MIN;
			rc = sc_engine_inject.queue(e, io);
			if (rc) {
				FAIL("queue: %s", strerror(-rc));
				goto out;
			}
			nfree--;
			seq_of[s] = fs ? UINT32_MAX : seq0 + next;
			if (fs) {
				since = 0;
			} else {
				next++;
				since++;
			}
		}
		rc = sc_engine_inject.submit(e);
		if (rc < 0) {
			FAIL("submit: %s", strerror(-rc));
			goto out;
		}
		rc = sc_engine_inject.reap(e, done, DEPTH, 1);
		if (rc <= 0) {
			FAIL("reap gave %d", rc);
			goto out;
		}
		for (int i = 0; i < rc; i++) {
			uint32_t s = (uint32_t)(done[i] - g->ios), seq = seq_of[s];

			free_slots[nfree++] = s;
			if (seq == UINT32_MAX) {
				CHECK(done[i]->res == 0, "fsync res %d", done[i]->res);
				++*nfsync_ok;
				continue;
			}
			completed++;
			if (done[i]->res == -EIO)
				failed[seq] = true;
			else
				CHECK(done[i]->res == (int32_t)BLOCK, "I/O %u res %d", seq,
				      done[i]->res);
		}
	}
out:
	sc_engine_inject.destroy(e);
}

/* Exactly I/Os N, 2N, ... fail, counted 1-based in queue order. */
static void check_every(const bool *failed, uint32_t n, uint64_t every, const char *what)
{
	uint32_t nfailed = 0;

	for (uint32_t seq = 0; seq < n; seq++) {
		bool want = (seq + 1) % every == 0;

		nfailed += failed[seq];
		if (failed[seq] != want)
			FAIL("%s: I/O number %u %s", what, seq + 1,
			     want ? "did not fail" : "failed, but should not");
	}
	CHECK(nfailed == n / every, "%s: %u failed, want %llu", what, nfailed,
	      (unsigned long long)(n / every));
}

static void test_every(const struct sc_engine_ops *inner, int fd, void *mem)
{
	struct rig g;
	bool *failed = xcalloc(2 * NIOS, sizeof(*failed));
	uint32_t nfsync = 0;

	check_context = inner->name;
	rig_init(&g, inner, fd, mem);
	run_ios(&g, 0, NIOS, SC_OP_WRITE, 0, failed, &nfsync);
	check_every(failed, NIOS, EVERY, "writes");
	CHECK(g.st.queued == NIOS, "state counted %llu reads and writes, want %u",
	      (unsigned long long)g.st.queued, NIOS);

	/* a second instance on the same state goes on counting (a checkpoint
	 * job makes one per file), and fsyncs neither fail nor count */
	memset(failed, 0, 2 * NIOS * sizeof(*failed));
	g.st.queued = 0;
	run_ios(&g, 0, NIOS / 2 + 7, SC_OP_READ, 3, failed, &nfsync);
	run_ios(&g, NIOS / 2 + 7, NIOS - (NIOS / 2 + 7), SC_OP_READ, 3, failed, &nfsync);
	check_every(failed, NIOS, EVERY, "reads in two instances, fsyncs among them");
	CHECK(nfsync > NIOS / 4, "only %u fsyncs passed", nfsync);
	free(failed);
	check_context = NULL;
}

/* Failed writes never reach the file: their blocks keep what was there. */
static void test_not_sent(int fd, void *mem)
{
	struct rig g;
	bool failed[FILE_BLKS] = {false};
	char *back = xcalloc(FILE_BLKS, BLOCK);
	uint32_t nfsync = 0, nfailed = 0;

	CHECK(ftruncate(fd, 0) == 0 && ftruncate(fd, (off_t)FILE_BLKS * BLOCK) == 0, "truncate");
	memset(mem, 0x5a, BLOCK);
	rig_init(&g, &sc_engine_psync, fd, mem);
	g.st.every = 4;
	run_ios(&g, 0, FILE_BLKS, SC_OP_WRITE, 0, failed, &nfsync);
	CHECK(pread(fd, back, (size_t)FILE_BLKS * BLOCK, 0) == (ssize_t)FILE_BLKS * BLOCK,
	      "read back");
	for (uint32_t b = 0; b < FILE_BLKS; b++) {
		char want = failed[b] ? 0 : 0x5a;

		nfailed += failed[b];
		for (uint32_t k = 0; k < BLOCK; k++) {
			if (back[(size_t)b * BLOCK + k] != want) {
				FAIL("block %u (%s) byte %u is 0x%02x, want 0x%02x", b,
				     failed[b] ? "failed" : "written", k,
				     (unsigned char)back[(size_t)b * BLOCK + k],
				     (unsigned char)want);
				break;
			}
		}
	}
	CHECK(nfailed == FILE_BLKS / 4, "%u of %u writes failed, want %u", nfailed, FILE_BLKS,
	      FILE_BLKS / 4);
	free(back);
}

/* ppm draws from the seeded rng: the same seed gives the same failures,
 * another seed others, and the count is near the rate. */
static uint32_t run_ppm(uint64_t seed, uint32_t ppm, bool *failed)
{
	struct sc_io_spec io = {.seed = seed};
	struct rig g;
	uint32_t nfsync = 0, n = 0;
	char mem[BLOCK];

	rig_init(&g, &sc_engine_null, -1, mem);
	g.st.every = 0;
	g.st.ppm = ppm;
	g.st.errno_val = EIO;
	sc_pattern_init(&g.st.rng, &io, 0, 0);
	memset(failed, 0, PPM_NIOS * sizeof(*failed));
	run_ios(&g, 0, PPM_NIOS, SC_OP_READ, 0, failed, &nfsync);
	for (uint32_t i = 0; i < PPM_NIOS; i++)
		n += failed[i];
	return n;
}

static void test_probability(void)
{
	bool *a = xcalloc(PPM_NIOS, sizeof(*a)), *b = xcalloc(PPM_NIOS, sizeof(*b));
	uint32_t na = run_ppm(SEED_A, PPM_RATE, a), nb;
	/* 25% of 100000: mean 25000, sd 137; 10 sd either way */
	uint32_t lo = PPM_NIOS / 4 - 1370, hi = PPM_NIOS / 4 + 1370;

	CHECK(na >= lo && na <= hi, "p = 0.25: %u of %u failed", na, PPM_NIOS);
	bool *a2 = xcalloc(PPM_NIOS, sizeof(*a2));
	uint32_t na2 = run_ppm(SEED_A, PPM_RATE, a2);
	CHECK(na2 == na && !memcmp(a, a2, PPM_NIOS * sizeof(*a)),
	      "same seed, other failures (%u vs %u)", na, na2);
	nb = run_ppm(SEED_B, PPM_RATE, b);
	CHECK(memcmp(a, b, PPM_NIOS * sizeof(*a)) != 0, "another seed, the same failures");
	CHECK(nb >= lo && nb <= hi, "p = 0.25, seed B: %u failed", nb);
	CHECK(run_ppm(SEED_A, 1000000u, a) == PPM_NIOS, "p = 1: every I/O fails");
	CHECK(run_ppm(SEED_A, 1u, a) < 20, "p = 1e-6: at most a few of 1e5 fail");
	free(a);
	free(a2);
	free(b);
}

/* Failed I/Os hold a slot until reaped; the depth covers both kinds. */
static void test_depth(void)
{
	struct rig g;
	struct sc_engine *e = NULL;
	struct sc_io *done[DEPTH], extra = {.op = SC_OP_READ, .len = BLOCK};
	char mem[BLOCK];
	int n;

	rig_init(&g, &sc_engine_null, -1, mem);
	g.st.every = 2; /* half fail, half pass through */
	if (sc_engine_inject.create(&e, &g.conf)) {
		FAIL("create");
		return;
	}
	for (uint32_t i = 0; i < DEPTH; i++) {
		g.ios[i] = (struct sc_io){.op = SC_OP_READ, .len = BLOCK};
		CHECK(sc_engine_inject.queue(e, &g.ios[i]) == 0, "queue %u", i);
	}
	CHECK(sc_engine_inject.queue(e, &extra) == -EBUSY, "queue past depth is -EBUSY");
	CHECK(g.st.queued == DEPTH, "a refused I/O is not counted: %llu",
	      (unsigned long long)g.st.queued);
	CHECK(sc_engine_inject.submit(e) == (int)DEPTH, "submit counts both kinds");
	n = sc_engine_inject.reap(e, done, 3, 0);
	CHECK(n == 3, "reap max 3 gave %d", n);
	CHECK(sc_engine_inject.queue(e, &extra) == 0, "a slot is free after reap");
	CHECK(sc_engine_inject.submit(e) == 1, "submit one");
	n = sc_engine_inject.reap(e, done, DEPTH, DEPTH);
	CHECK(n == (int)DEPTH - 2, "the rest: %d", n);
	CHECK(sc_engine_inject.reap(e, done, DEPTH, 0) == 0, "nothing left");
	/* an invalid I/O is refused as the inner engine refuses it, uncounted */
	extra = (struct sc_io){.op = SC_OP_READ, .len = BLOCK, .file = 1};
	CHECK(sc_engine_inject.queue(e, &extra) == -EINVAL, "bad file index is -EINVAL");
	CHECK(g.st.queued == DEPTH + 1, "an invalid I/O is not counted");
	CHECK(sc_engine_inject.reap_until(e, done, DEPTH, 0) == -EOPNOTSUPP,
	      "null has no reap_until: -EOPNOTSUPP");
	sc_engine_inject.destroy(e);
}

static void test_create_refuses(void)
{
	struct rig g;
	struct sc_engine *e = NULL;
	char mem[BLOCK];

	rig_init(&g, &sc_engine_null, -1, mem);
	g.conf.inject = NULL;
	CHECK(sc_engine_inject.create(&e, &g.conf) == -EINVAL && !e, "no state");
	rig_init(&g, &sc_engine_null, -1, mem);
	g.st.inner = NULL;
	CHECK(sc_engine_inject.create(&e, &g.conf) == -EINVAL && !e, "no inner engine");
	g.st.inner = &sc_engine_inject;
	CHECK(sc_engine_inject.create(&e, &g.conf) == -EINVAL && !e, "wrapping itself");
	g.st.inner = &sc_engine_null;
	g.st.errno_val = 0;
	CHECK(sc_engine_inject.create(&e, &g.conf) == -EINVAL && !e, "errno 0");
	g.st.errno_val = EIO;
	g.conf.depth = 0;
	CHECK(sc_engine_inject.create(&e, &g.conf) == -EINVAL && !e, "depth 0");
}

/* Over io_uring, reap_until hands back failed I/Os at once, then waits on
 * the ring for the rest. */
static void test_uring(int fd, void *mem)
{
	struct rig g;
	struct sc_engine *e = NULL;
	struct sc_io *done[DEPTH];
	uint32_t got = 0, nfailed = 0;
	int rc;

	rig_init(&g, &sc_engine_uring, fd, mem);
	g.st.every = 3;
	rc = sc_engine_inject.create(&e, &g.conf);
	if (rc) {
		printf("io_uring not available (%s): its pass skipped\n", strerror(-rc));
		return;
	}
	for (uint32_t i = 0; i < 6; i++) {
		g.ios[i] = (struct sc_io){.op = SC_OP_READ, .len = BLOCK,
					  .offset = (uint64_t)i * BLOCK, .res = INT32_MIN};
		CHECK(sc_engine_inject.queue(e, &g.ios[i]) == 0, "queue %u", i);
	}
	CHECK(sc_engine_inject.submit(e) == 6, "submit 6");
	while (got < 6) {
		rc = sc_engine_inject.reap_until(e, done, DEPTH, UINT64_MAX);
		if (rc <= 0) {
			FAIL("reap_until gave %d", rc);
			break;
		}
		for (int i = 0; i < rc; i++) {
			nfailed += done[i]->res == -EIO;
			CHECK(done[i]->res == -EIO || done[i]->res == (int32_t)BLOCK,
			      "io_uring: res %d", done[i]->res);
		}
		got += (uint32_t)rc;
	}
	CHECK(nfailed == 2 && g.ios[0].res == (int32_t)BLOCK && g.ios[2].res == -EIO &&
		  g.ios[5].res == -EIO,
	      "io_uring: I/Os 3 and 6 fail, %u failed", nfailed);
	sc_engine_inject.destroy(e);
}

int main(void)
{
	char dir[PATH_MAX], path[PATH_MAX + 16];
	void *mem = NULL;
	int fd;

	check_mkdtemp(dir, sizeof(dir), "sc-inject");
	snprintf(path, sizeof(path), "%s/f.dat", dir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || ftruncate(fd, (off_t)FILE_BLKS * BLOCK) != 0 ||
	    posix_memalign(&mem, BLOCK, BLOCK)) {
		perror(path);
		return 1;
	}
	memset(mem, 0, BLOCK);
	test_every(&sc_engine_null, fd, mem);
	test_every(&sc_engine_psync, fd, mem);
	test_not_sent(fd, mem);
	test_probability();
	test_depth();
	test_create_refuses();
	test_uring(fd, mem);
	close(fd);
	free(mem);
	check_rmtree(dir);
	return check_exit("test_inject");
}
