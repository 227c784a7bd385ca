/* test_engines.c -- io_uring, psync and null engines on an O_DIRECT temp file.
 *
 * Every engine writes a stamped pattern at depth 8, fsyncs, reads it back
 * and is checked byte for byte (through the engine and with plain pread);
 * null must report full completions and leave file and buffers alone.
 * Then the edges a job relies on: -EBUSY at depth, reads at and past EOF,
 * a write to a read-only fd failing through reap, polling without waiting,
 * destroy with I/Os in flight, and reap_until's deadline against a
 * completion (on a pipe, where a read waits for a writer).  io_uring also runs with a file and with
 * a buffer the kernel refuses to register, to cover the plain fallback.
 * With fds_change, a descriptor the caller swaps between I/Os takes the
 * next ones (a checkpoint's next file on the same engine), and each
 * io_uring instance counts as one ring set up.
 *
 * Exit 0 pass, 1 fail, 77 skip (no O_DIRECT, or io_uring not available).
 */
#include "engine/engine.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

#define BLOCK	      4096u /* bytes per I/O and O_DIRECT alignment */
#define NBLOCKS	      64u   /* blocks in the test file */
#define DEPTH	      8u    /* engine depth for the data passes */
#define SMALL_DEPTH   3u    /* not a power of two: the ring is larger */
#define FILE_BYTES    ((uint64_t)NBLOCKS * BLOCK)
#define FAR_OFFSET    (1ull << 30)   /* well past the end of the file */
#define POLL_LIMIT_NS 10000000000ull /* a non-waiting reap loop gives up */
#define SEED_ENGINE   0x5eed0001c0ffeeull
#define SEED_BEFORE   0x0defaced0badull /* what null must leave in place */
#define FILL_BYTE     0xa5

/* bufs[] layout */
#define BUF_SRC 0u	      /* NBLOCKS write sources */
#define BUF_DST NBLOCKS	      /* NBLOCKS read targets */
#define BUF_BIG (2 * NBLOCKS) /* 2 blocks, for the read across EOF */
#define NBUFS	(2 * NBLOCKS + 1)

enum variant {
	PLAIN,	  /* everything registers (when the kernel allows) */
	BAD_FILE, /* an fd the kernel cannot register: raw fds */
	BAD_BUF,  /* a zero-length buffer: no fixed buffers */
};

static const char *const variant_names[] = {
    [PLAIN] = "",
    [BAD_FILE] = " (unregisterable file: raw fds)",
    [BAD_BUF] = " (unregisterable buffer: plain read/write)",
};

struct fixture {
	const struct sc_engine_ops *ops;
	const char *label;
	enum variant variant;
	bool is_null;
	char path[PATH_MAX];
	int fds[3]; /* read-write, read-only, maybe a bogus one */
	uint32_t nfds;
	struct iovec bufs[NBUFS + 1];
	uint32_t nbufs;
	char *mem;   /* backs every buffer */
	char *check; /* FILE_BYTES for plain pread */
	struct sc_io ios[NBLOCKS];
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Block i of a seeded pattern: every 8-byte word differs within the file
 * and between seeds. */
static void stamp(char *block, uint64_t seed, uint32_t i)
{
	uint64_t *w = (uint64_t *)(void *)block;

	for (uint32_t k = 0; k < BLOCK / sizeof(*w); k++)
		w[k] = (seed ^ ((uint64_t)i << 32)) + k * 0x9e3779b97f4a7c15ull;
}

static bool pattern_ok(const char *data, uint64_t seed, uint32_t nblocks, uint32_t *bad)
{
	char want[BLOCK];

	for (uint32_t i = 0; i < nblocks; i++) {
		stamp(want, seed, i);
		if (memcmp(data + (size_t)i * BLOCK, want, BLOCK)) {
			*bad = i;
			return false;
		}
	}
	return true;
}

static bool all_bytes(const char *p, size_t n, int c)
{
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)p[i] != (unsigned char)c)
			return false;
	return true;
}

/* The whole file through the O_DIRECT fd, without the engine. */
static bool file_matches(struct fixture *f, uint64_t seed)
{
	uint32_t bad = 0;
	ssize_t n = pread(f->fds[0], f->check, FILE_BYTES, 0);

	if (n != (ssize_t)FILE_BYTES) {
		FAIL("pread of the file gave %zd, want %llu", n, (unsigned long long)FILE_BYTES);
		return false;
	}
	if (!pattern_ok(f->check, seed, NBLOCKS, &bad)) {
		FAIL("file block %u differs from the pattern (plain pread)", bad);
		return false;
	}
	return true;
}

/* Runs n I/Os through the engine, queueing until -EBUSY, then submit and
 * reap at least one, as a job does (in one submit_reap call when handover
 * and the engine has one).  Checks each comes back once with
 * res == want_res.  Returns false when the engine misbehaved. */
static bool run_all(struct fixture *f, struct sc_engine *e, struct sc_io *ios, uint32_t n,
		    int32_t want_res, bool handover)
{
	struct sc_io *done[DEPTH];
	bool seen[NBLOCKS] = {false};
	uint32_t next = 0, completed = 0, inflight = 0;

	while (completed < n) {
		int ret;

		while (next < n) {
			ret = f->ops->queue(e, &ios[next]);
			if (ret == -EBUSY) {
				CHECK(inflight == DEPTH, "-EBUSY with %u of %u in use", inflight,
				      DEPTH);
				break;
			}
			if (ret) {
				FAIL("queue: %s", strerror(-ret));
				return false;
			}
			next++;
			inflight++;
		}
		CHECK(inflight <= DEPTH, "%u I/Os accepted at depth %u", inflight, DEPTH);
		if (handover && f->ops->submit_reap) {
			ret = f->ops->submit_reap(e, done, DEPTH, 1);
			if (ret <= 0) {
				FAIL("submit_reap with min_wait 1 gave %d", ret);
				return false;
			}
		} else {
			ret = f->ops->submit(e);
			if (ret < 0) {
				FAIL("submit: %s", strerror(-ret));
				return false;
			}
			ret = f->ops->reap(e, done, DEPTH, 1);
			if (ret <= 0) {
				FAIL("reap with min_wait 1 gave %d", ret);
				return false;
			}
		}
		for (int i = 0; i < ret; i++) {
			ptrdiff_t k = done[i] - ios;

			if (k < 0 || k >= (ptrdiff_t)n || seen[k]) {
				FAIL("reap returned a pointer it was not given");
				return false;
			}
			seen[k] = true;
			CHECK(done[i]->res == want_res, "I/O %td (offset %llu) res %d, want %d", k,
			      (unsigned long long)done[i]->offset, done[i]->res, want_res);
		}
		completed += (uint32_t)ret;
		inflight -= (uint32_t)ret;
	}
	return true;
}

static void set_io(struct sc_io *io, uint8_t op, uint16_t file, uint32_t buf, uint64_t offset,
		   uint32_t len)
{
	memset(io, 0, sizeof(*io));
	io->op = op;
	io->file = file;
	io->buf = buf;
	io->offset = offset;
	io->len = len;
	io->res = INT32_MIN; /* never a real result */
}

static int make_engine(struct fixture *f, struct sc_engine **e, uint32_t depth)
{
	struct sc_engine_conf conf = {
	    .depth = depth,
	    .fds = f->fds,
	    .nfds = f->nfds,
	    .bufs = f->bufs,
	    .nbufs = f->nbufs,
	};
	int ret = f->ops->create(e, &conf);

	if (ret)
		FAIL("create at depth %u: %s", depth, strerror(-ret));
	return ret;
}

/* Registered files and buffers of the one io_uring instance in this process,
 * from /proc/self/fdinfo.  False when that cannot be read. */
static bool ring_registered(uint32_t *files, uint32_t *bufs)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;
	bool found = false;

	if (!d)
		return false;
	while (!found && (de = readdir(d))) {
		char lpath[PATH_MAX], target[64], line[256];
		ssize_t n;
		FILE *fi;

		snprintf(lpath, sizeof(lpath), "/proc/self/fd/%s", de->d_name);
		n = readlink(lpath, target, sizeof(target) - 1);
		if (n < 0)
			continue;
		target[n] = '\0';
		if (strcmp(target, "anon_inode:[io_uring]"))
			continue;
		snprintf(lpath, sizeof(lpath), "/proc/self/fdinfo/%s", de->d_name);
		fi = fopen(lpath, "r");
		if (!fi)
			continue;
		int have = 0;
		while (fgets(line, sizeof(line), fi)) {
			have += sscanf(line, "UserFiles: %u", files) == 1;
			have += sscanf(line, "UserBufs: %u", bufs) == 1;
		}
		fclose(fi);
		found = have == 2;
	}
	closedir(d);
	return found;
}

/* Write, fsync, read back, compare. */
static void check_data(struct fixture *f)
{
	struct sc_engine *e = NULL;
	struct sc_io *done[1];
	struct sc_io sync;
	uint32_t bad = 0;
	struct stat st;

	if (make_engine(f, &e, DEPTH))
		return;
	if (f->ops == &sc_engine_uring) {
		uint32_t rf = 0, rb = 0;

		if (ring_registered(&rf, &rb)) {
			printf("  %s%s: %u file(s), %u buffer(s) registered\n", f->label,
			       variant_names[f->variant], rf, rb);
			CHECK(f->variant != BAD_FILE || rf == 0, "a bad fd table registered");
			CHECK(f->variant != BAD_BUF || rb == 0, "a bad buffer table registered");
		}
	}

	for (uint32_t i = 0; i < NBLOCKS; i++) {
		stamp(f->bufs[BUF_SRC + i].iov_base, SEED_ENGINE, i);
		set_io(&f->ios[i], SC_OP_WRITE, 0, BUF_SRC + i, (uint64_t)i * BLOCK, BLOCK);
	}
	/* io_uring submits and waits in one call as the I/O loop does; the
	 * read-back below goes the two-step way */
	CHECK(f->ops != &sc_engine_uring || f->ops->submit_reap, "io_uring has no submit_reap");
	if (!run_all(f, e, f->ios, NBLOCKS, BLOCK, true))
		goto out;

	set_io(&sync, SC_OP_FSYNC, 0, 0, 0, 0);
	CHECK(f->ops->queue(e, &sync) == 0, "queue fsync");
	CHECK(f->ops->submit(e) == 1, "submit fsync");
	CHECK(f->ops->reap(e, done, 1, 1) == 1 && done[0] == &sync && sync.res == 0,
	      "fsync completion: res %d", sync.res);

	/* Read back in reverse order into poisoned buffers. */
	for (uint32_t i = 0; i < NBLOCKS; i++) {
		uint32_t b = NBLOCKS - 1 - i;

		memset(f->bufs[BUF_DST + b].iov_base, FILL_BYTE, BLOCK);
		set_io(&f->ios[i], SC_OP_READ, 0, BUF_DST + b, (uint64_t)b * BLOCK, BLOCK);
	}
	if (!run_all(f, e, f->ios, NBLOCKS, BLOCK, false))
		goto out;

	CHECK(fstat(f->fds[0], &st) == 0 && (uint64_t)st.st_size == FILE_BYTES,
	      "file size %lld, want %llu", (long long)st.st_size, (unsigned long long)FILE_BYTES);
	if (f->is_null) {
		for (uint32_t i = 0; i < NBLOCKS; i++)
			if (!all_bytes(f->bufs[BUF_DST + i].iov_base, BLOCK, FILL_BYTE)) {
				FAIL("null read changed buffer %u", i);
				break;
			}
		file_matches(f, SEED_BEFORE);
	} else {
		for (uint32_t i = 0; i < NBLOCKS; i++)
			if (memcmp(f->bufs[BUF_DST + i].iov_base, f->bufs[BUF_SRC + i].iov_base,
				   BLOCK)) {
				FAIL("block %u read back through the engine differs", i);
				break;
			}
		CHECK(pattern_ok(f->mem + (size_t)BUF_DST * BLOCK, SEED_ENGINE, NBLOCKS, &bad),
		      "read-back block %u is not the pattern", bad);
		file_matches(f, SEED_ENGINE);
	}
out:
	f->ops->destroy(e);
}

/* One write of block 0 (seed's pattern) through e; true when it came back
 * whole. */
static bool write_block0(struct fixture *f, struct sc_engine *e, uint64_t seed)
{
	struct sc_io *done[1];

	stamp(f->bufs[BUF_SRC].iov_base, seed, 0);
	set_io(&f->ios[0], SC_OP_WRITE, 0, BUF_SRC, 0, BLOCK);
	return f->ops->queue(e, &f->ios[0]) == 0 && f->ops->submit(e) == 1 &&
	       f->ops->reap(e, done, 1, 1) == 1 && f->ios[0].res == (int32_t)BLOCK;
}

/* fds_change: the caller swaps the descriptor between I/Os, and the next
 * write goes to the new file (io_uring registers none); an io_uring
 * engine is one ring more in sc_engine_uring_rings, the others none. */
static void check_file_change(struct fixture *f)
{
	char path2[PATH_MAX + 8];
	int fds[1] = {f->fds[0]};
	struct sc_engine_conf conf = {.depth = 1, .fds = fds, .nfds = 1, .bufs = f->bufs,
				      .nbufs = f->nbufs, .fds_change = true};
	uint64_t rings = sc_engine_uring_rings();
	struct sc_engine *e = NULL;
	char *got = f->check;
	uint32_t bad = 0;
	int fd2;

	snprintf(path2, sizeof(path2), "%s.2", f->path);
	fd2 = open(path2, O_RDWR | O_CREAT | O_EXCL | O_DIRECT | O_CLOEXEC, 0600);
	if (fd2 < 0) {
		FAIL("%s: %s", path2, strerror(errno));
		return;
	}
	if (f->ops->create(&e, &conf)) {
		FAIL("create with fds_change");
		goto out_close;
	}
	rings = sc_engine_uring_rings() - rings;
	CHECK(rings == (f->ops == &sc_engine_uring), "%llu ring(s) set up by one engine",
	      (unsigned long long)rings);
	if (f->ops == &sc_engine_uring) {
		uint32_t rf = 1, rb = 0;

		CHECK(!ring_registered(&rf, &rb) || rf == 0, "%u file(s) registered", rf);
	}
	CHECK(write_block0(f, e, SEED_ENGINE), "write to the first file");
	fds[0] = fd2;
	CHECK(write_block0(f, e, SEED_BEFORE), "write to the second file");
	f->ops->destroy(e);
	if (f->is_null)
		goto out_close;
	CHECK(pread(f->fds[0], got, BLOCK, 0) == BLOCK && pattern_ok(got, SEED_ENGINE, 1, &bad),
	      "the first file holds the first write");
	CHECK(pread(fd2, got, BLOCK, 0) == BLOCK && pattern_ok(got, SEED_BEFORE, 1, &bad),
	      "the second file holds the second write");
out_close:
	close(fd2);
	unlink(path2);
}

/* -EBUSY at depth (3, while the ring has 4 entries), min_wait larger than
 * what is returned, and slots freed only by reap. */
static void check_depth(struct fixture *f)
{
	struct sc_engine *e = NULL;
	struct sc_io *done[DEPTH];
	struct sc_io *ios = f->ios;
	int ret;

	if (make_engine(f, &e, SMALL_DEPTH))
		return;
	for (uint32_t i = 0; i < 5; i++)
		set_io(&ios[i], SC_OP_READ, 0, BUF_DST + i, (uint64_t)i * BLOCK, BLOCK);
	for (uint32_t i = 0; i < SMALL_DEPTH; i++)
		CHECK(f->ops->queue(e, &ios[i]) == 0, "queue %u of %u", i, SMALL_DEPTH);
	ret = f->ops->queue(e, &ios[3]);
	CHECK(ret == -EBUSY, "queue beyond depth %u gave %d, want -EBUSY", SMALL_DEPTH, ret);
	ret = f->ops->submit(e);
	CHECK(ret == (int)SMALL_DEPTH, "submit gave %d, want %u", ret, SMALL_DEPTH);
	ret = f->ops->queue(e, &ios[3]);
	CHECK(ret == -EBUSY, "queue with depth in flight gave %d, want -EBUSY", ret);

	ret = f->ops->reap(e, done, 1, SMALL_DEPTH);
	CHECK(ret == 1, "reap max 1 min_wait %u gave %d, want 1", SMALL_DEPTH, ret);
	CHECK(f->ops->queue(e, &ios[3]) == 0, "queue after reaping one");
	ret = f->ops->queue(e, &ios[4]);
	CHECK(ret == -EBUSY, "queue at depth again gave %d, want -EBUSY", ret);
	/* all three first I/Os completed before: two still to collect */
	ret = f->ops->reap(e, done, DEPTH, 0);
	CHECK(ret == 2, "reap without waiting gave %d, want the 2 completed", ret);
	ret = f->ops->submit(e);
	CHECK(ret == 1, "second submit gave %d, want 1", ret);
	/* min_wait above what is in flight must not hang */
	ret = f->ops->reap(e, done, DEPTH, DEPTH);
	CHECK(ret == 1 && done[0] == &ios[3], "last reap gave %d", ret);
	ret = f->ops->reap(e, done, DEPTH, 0);
	CHECK(ret == 0, "reap of an idle engine gave %d", ret);
	ret = f->ops->submit(e);
	CHECK(ret == 0, "submit of nothing gave %d", ret);
	for (uint32_t i = 0; i < 4; i++)
		CHECK(ios[i].res == (int32_t)BLOCK, "depth I/O %u res %d", i, ios[i].res);
	f->ops->destroy(e);
}

/* Errors come back through reap; bad requests are refused at queue. */
static void check_errors(struct fixture *f)
{
	struct sc_engine *e = NULL;
	static char sentinel;
	struct sc_engine *untouched = (struct sc_engine *)(void *)&sentinel;
	struct sc_engine_conf zero = {.depth = 0, .fds = f->fds, .nfds = 1};
	struct sc_io *done[DEPTH];
	struct sc_io *ios = f->ios;
	char want[BLOCK];
	int ret, n = 0;

	ret = f->ops->create(&untouched, &zero);
	CHECK(ret == -EINVAL && untouched == (struct sc_engine *)(void *)&sentinel,
	      "create at depth 0 gave %d (or touched *out)", ret);
	if (make_engine(f, &e, DEPTH))
		return;

	memset(f->bufs[BUF_BIG].iov_base, FILL_BYTE, 2 * BLOCK);
	stamp(f->bufs[BUF_SRC].iov_base, SEED_ENGINE ^ 1, 0); /* must not land */
	set_io(&ios[0], SC_OP_WRITE, 1, BUF_SRC, 0, BLOCK);   /* fd opened O_RDONLY */
	set_io(&ios[1], SC_OP_READ, 0, BUF_DST, FILE_BYTES, BLOCK);
	set_io(&ios[2], SC_OP_READ, 0, BUF_BIG, FILE_BYTES - BLOCK, 2 * BLOCK);
	set_io(&ios[3], SC_OP_READ, 0, BUF_DST + 1, FAR_OFFSET, BLOCK);
	set_io(&ios[4], SC_OP_READ, 0, BUF_DST + 2, 0, BLOCK); /* a good one alongside */
	set_io(&ios[5], SC_OP_READ, 0, BUF_DST, 0, BLOCK + 1); /* longer than its buffer */
	set_io(&ios[6], SC_OP_READ, (uint16_t)f->nfds, BUF_DST, 0, BLOCK); /* no such file */
	set_io(&ios[7], SC_OP_READ, 0, NBUFS + 1, 0, BLOCK);		   /* no such buffer */

	for (uint32_t i = 5; i < 8; i++) {
		ret = f->ops->queue(e, &ios[i]);
		CHECK(ret == -EINVAL, "queue of invalid I/O %u gave %d, want -EINVAL", i, ret);
	}
	for (uint32_t i = 0; i < 5; i++)
		CHECK(f->ops->queue(e, &ios[i]) == 0, "queue error-case I/O %u", i);
	ret = f->ops->submit(e);
	CHECK(ret == 5, "submit gave %d, want 5", ret);
	while (n < 5) {
		ret = f->ops->reap(e, done, DEPTH, (uint32_t)(5 - n));
		if (ret <= 0) {
			FAIL("reap gave %d with %d outstanding", ret, 5 - n);
			break;
		}
		n += ret;
	}

	if (f->is_null) {
		for (uint32_t i = 0; i < 5; i++)
			CHECK(ios[i].res == (int32_t)ios[i].len, "null I/O %u res %d, want %u", i,
			      ios[i].res, ios[i].len);
		CHECK(all_bytes(f->bufs[BUF_BIG].iov_base, 2 * BLOCK, FILL_BYTE),
		      "null read changed its buffer");
		file_matches(f, SEED_BEFORE);
	} else {
		CHECK(ios[0].res == -EBADF, "write to an O_RDONLY fd: res %d, want -EBADF",
		      ios[0].res);
		CHECK(ios[1].res == 0, "read at EOF: res %d, want 0", ios[1].res);
		CHECK(ios[2].res == (int32_t)BLOCK, "read across EOF: res %d, want %u", ios[2].res,
		      BLOCK);
		stamp(want, SEED_ENGINE, NBLOCKS - 1);
		CHECK(memcmp(f->bufs[BUF_BIG].iov_base, want, BLOCK) == 0,
		      "read across EOF: data is not the file's last block");
		/* The buffer past res is not ours to check: ext4 O_DIRECT zeroes it. */
		CHECK(ios[3].res == 0, "read 1 GiB past EOF: res %d, want 0", ios[3].res);
		CHECK(ios[4].res == (int32_t)BLOCK, "good read next to errors: res %d", ios[4].res);
		file_matches(f, SEED_ENGINE); /* the refused write changed nothing */
	}
	f->ops->destroy(e);
}

/* Completions must show up for a job that only polls (min_wait 0). */
static void check_polling(struct fixture *f)
{
	struct sc_engine *e = NULL;
	struct sc_io *done[DEPTH];
	uint64_t deadline = now_ns() + POLL_LIMIT_NS;
	uint32_t n = 0;
	int ret;

	if (make_engine(f, &e, DEPTH))
		return;
	for (uint32_t i = 0; i < DEPTH; i++) {
		set_io(&f->ios[i], SC_OP_READ, 0, BUF_DST + i, (uint64_t)i * BLOCK, BLOCK);
		CHECK(f->ops->queue(e, &f->ios[i]) == 0, "queue poll I/O %u", i);
	}
	ret = f->ops->submit(e);
	CHECK(ret == (int)DEPTH, "submit gave %d", ret);
	while (n < DEPTH && now_ns() < deadline) {
		ret = f->ops->reap(e, done, DEPTH, 0);
		if (ret < 0) {
			FAIL("polling reap: %s", strerror(-ret));
			break;
		}
		n += (uint32_t)ret;
	}
	CHECK(n == DEPTH, "polling reaped %u of %u within %llu s", n, DEPTH,
	      POLL_LIMIT_NS / 1000000000ull);

	/* Destroy with I/Os in flight: waits for them, no crash, no leak. */
	for (uint32_t i = 0; i < DEPTH; i++)
		CHECK(f->ops->queue(e, &f->ios[i]) == 0, "queue in-flight I/O %u", i);
	CHECK(f->ops->submit(e) == (int)DEPTH, "submit before destroy");
	f->ops->destroy(e);
}

struct thread_arg {
	struct fixture *f;
	struct sc_engine *e;
};

static void *thread_io(void *p)
{
	struct thread_arg *a = p;

	run_all(a->f, a->e, a->f->ios, NBLOCKS, BLOCK, true);
	return NULL;
}

/* A job may create its engine on one thread and drive it from another (the
 * job thread); destroy may come from the first again. */
static void check_other_thread(struct fixture *f)
{
	struct thread_arg a = {.f = f};
	uint32_t bad = 0;
	pthread_t t;
	int ret;

	if (make_engine(f, &a.e, DEPTH))
		return;
	memset(f->mem + (size_t)BUF_DST * BLOCK, 0, FILE_BYTES);
	for (uint32_t i = 0; i < NBLOCKS; i++)
		set_io(&f->ios[i], SC_OP_READ, 0, BUF_DST + i, (uint64_t)i * BLOCK, BLOCK);
	ret = pthread_create(&t, NULL, thread_io, &a);
	if (ret) {
		FAIL("pthread_create: %s", strerror(ret));
	} else {
		pthread_join(t, NULL);
		if (!f->is_null)
			CHECK(pattern_ok(f->mem + (size_t)BUF_DST * BLOCK, SEED_ENGINE, NBLOCKS,
					 &bad),
			      "block %u read on another thread than create's differs", bad);
	}
	f->ops->destroy(a.e);
}

#define UNTIL_SHORT_NS 2000000ull     /* a deadline nothing meets */
#define UNTIL_LONG_NS  10000000000ull /* a deadline a completion beats */
#define PIPE_DELAY_NS  20000000ull    /* the writer's wait before writing */
#define PIPE_BYTES     64u

static void *pipe_writer(void *p)
{
	static const char msg[PIPE_BYTES];
	struct timespec ts = {.tv_nsec = (long)PIPE_DELAY_NS};
	int fd = *(int *)p;

	nanosleep(&ts, NULL);
	if (write(fd, msg, sizeof(msg)) != (ssize_t)sizeof(msg))
		FAIL("pipe write: %s", strerror(errno));
	return NULL;
}

/* reap_until: 0 at the deadline on an idle engine (before its first submit
 * and after its I/Os are done) and with an I/O that does not complete in
 * time (a read of an empty pipe); the completion as soon as it lands, well
 * before a far deadline. */
static void check_reap_until(struct fixture *f)
{
	struct sc_engine *e = NULL;
	struct sc_io *done[DEPTH];
	struct sc_io io;
	uint64_t deadline;
	int pfd[2], ret;
	pthread_t t;

	if (!f->ops->reap_until)
		return;
	if (pipe(pfd)) {
		FAIL("pipe: %s", strerror(errno));
		return;
	}
	struct sc_engine_conf conf = {
	    .depth = DEPTH, .fds = pfd, .nfds = 1, .bufs = f->bufs, .nbufs = f->nbufs};
	ret = f->ops->create(&e, &conf);
	if (ret) {
		FAIL("create on a pipe: %s", strerror(-ret));
		goto out_close;
	}

	deadline = now_ns() + UNTIL_SHORT_NS;
	ret = f->ops->reap_until(e, done, DEPTH, deadline);
	CHECK(ret == 0, "reap_until on an idle engine gave %d, want 0", ret);
	CHECK(now_ns() >= deadline, "reap_until on an idle engine returned before its deadline");

	set_io(&io, SC_OP_READ, 0, BUF_DST, 0, BLOCK);
	CHECK(f->ops->queue(e, &io) == 0, "queue pipe read");
	CHECK(f->ops->submit(e) == 1, "submit pipe read");
	deadline = now_ns() + UNTIL_SHORT_NS;
	ret = f->ops->reap_until(e, done, DEPTH, deadline);
	CHECK(ret == 0, "reap_until with a read of an empty pipe gave %d, want 0", ret);
	CHECK(now_ns() >= deadline, "reap_until returned before its deadline, nothing done");
	ret = f->ops->reap_until(e, done, DEPTH, 0);
	CHECK(ret == 0, "reap_until past its deadline gave %d, want 0", ret);

	ret = pthread_create(&t, NULL, pipe_writer, &pfd[1]);
	if (ret) {
		FAIL("pthread_create: %s", strerror(ret));
		close(pfd[1]); /* the read ends at EOF: destroy does not hang */
		pfd[1] = -1;
		goto out_destroy;
	}
	deadline = now_ns() + UNTIL_LONG_NS;
	ret = f->ops->reap_until(e, done, DEPTH, deadline);
	CHECK(ret == 1 && done[0] == &io && io.res == (int32_t)PIPE_BYTES,
	      "reap_until with a write coming gave %d (res %d), want the read of %u B", ret, io.res,
	      PIPE_BYTES);
	CHECK(now_ns() < deadline, "reap_until waited for its deadline past a completion");
	pthread_join(t, NULL);

	/* idle again, on a ring now enabled by the submit */
	deadline = now_ns() + UNTIL_SHORT_NS;
	ret = f->ops->reap_until(e, done, DEPTH, deadline);
	CHECK(ret == 0, "reap_until with nothing left in flight gave %d, want 0", ret);
	CHECK(now_ns() >= deadline,
	      "reap_until with nothing in flight returned before its deadline");
out_destroy:
	f->ops->destroy(e);
out_close:
	if (pfd[1] >= 0)
		close(pfd[1]);
	close(pfd[0]);
}

static int fixture_open(struct fixture *f)
{
	const char *dir = getenv("TMPDIR");
	int fd;

	if (!dir || !*dir)
		dir = "/tmp";
	snprintf(f->path, sizeof(f->path), "%s/sc_test_engines.XXXXXX", dir);
	fd = mkstemp(f->path);
	if (fd < 0) {
		fprintf(stderr, "mkstemp in %s: %s\n", dir, strerror(errno));
		return -errno;
	}
	close(fd);
	f->fds[0] = open(f->path, O_RDWR | O_DIRECT);
	if (f->fds[0] < 0) {
		int err = errno;

		unlink(f->path);
		if (err == EINVAL) {
			printf("SKIP: %s does not support O_DIRECT (set TMPDIR)\n", dir);
			exit(CHECK_SKIP);
		}
		fprintf(stderr, "open %s O_DIRECT: %s\n", f->path, strerror(err));
		return -err;
	}
	f->fds[1] = open(f->path, O_RDONLY | O_DIRECT);
	if (f->fds[1] < 0) {
		int err = errno;

		fprintf(stderr, "open %s read-only: %s\n", f->path, strerror(err));
		close(f->fds[0]);
		unlink(f->path);
		return -err;
	}
	/* The open fds keep the file; nothing is left behind if we die. */
	unlink(f->path);
	f->nfds = 2;
	if (f->variant == BAD_FILE)
		f->fds[f->nfds++] = INT_MAX; /* never an open fd */
	return 0;
}

static void fixture_close(struct fixture *f)
{
	close(f->fds[1]);
	close(f->fds[0]);
}

static int run(const struct sc_engine_ops *ops, const char *label, enum variant variant)
{
	static char context[64]; /* "io_uring (unregisterable file: raw fds)" */
	struct fixture f = {.ops = ops, .label = label, .variant = variant};
	size_t mem_bytes = (size_t)(NBUFS + 1) * BLOCK + FILE_BYTES;
	int ret;

	snprintf(context, sizeof(context), "%s%s", label, variant_names[variant]);
	check_context = context;
	f.is_null = ops == &sc_engine_null;
	if (posix_memalign((void **)&f.mem, BLOCK, mem_bytes)) {
		fprintf(stderr, "out of memory\n");
		return -ENOMEM;
	}
	memset(f.mem, 0, mem_bytes);
	for (uint32_t i = 0; i < BUF_BIG; i++)
		f.bufs[i] = (struct iovec){f.mem + (size_t)i * BLOCK, BLOCK};
	f.bufs[BUF_BIG] = (struct iovec){f.mem + (size_t)BUF_BIG * BLOCK, 2 * BLOCK};
	f.nbufs = NBUFS;
	if (variant == BAD_BUF)
		f.bufs[f.nbufs++] = (struct iovec){f.mem, 0};
	f.check = f.mem + (size_t)(NBUFS + 1) * BLOCK;

	ret = fixture_open(&f);
	if (ret)
		goto out_free;

	if (f.is_null) {
		/* Something for null to leave alone. */
		for (uint32_t i = 0; i < NBLOCKS; i++)
			stamp(f.check + (size_t)i * BLOCK, SEED_BEFORE, i);
		if (pwrite(f.fds[0], f.check, FILE_BYTES, 0) != (ssize_t)FILE_BYTES ||
		    fsync(f.fds[0])) {
			fprintf(stderr, "pre-filling %s: %s\n", f.path, strerror(errno));
			ret = -EIO;
			goto out_close;
		}
	}

	CHECK(f.ops->name != NULL, "ops table has no name");
	if (f.ops->name) {
		int before = check_failures;

		check_data(&f);
		check_depth(&f);
		check_errors(&f);
		check_polling(&f);
		check_other_thread(&f);
		check_reap_until(&f);
		check_file_change(&f);
		printf("%s %s%s\n", check_failures == before ? "ok  " : "FAIL", label,
		       variant_names[variant]);
	}
out_close:
	fixture_close(&f);
out_free:
	free(f.mem);
	check_context = NULL;
	return ret;
}

/* io_uring may be compiled out of the kernel or disabled by sysctl. */
static bool uring_available(void)
{
	struct sc_engine *e;
	int fd = -1;
	struct sc_engine_conf conf = {.depth = 1, .fds = &fd, .nfds = 1};
	int ret = sc_engine_uring.create(&e, &conf);

	if (ret == 0) {
		sc_engine_uring.destroy(e);
		return true;
	}
	printf("SKIP io_uring: %s\n", strerror(-ret));
	return false;
}

int main(void)
{
	static const struct {
		enum sc_engine_kind kind;
		const struct sc_engine_ops *ops;
	} table[] = {
	    {SC_ENGINE_URING, &sc_engine_uring},
	    {SC_ENGINE_PSYNC, &sc_engine_psync},
	    {SC_ENGINE_NULL, &sc_engine_null},
	};
	bool skipped = false;

	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		const struct sc_engine_ops *ops = sc_engine_get(table[i].kind);

		CHECK(ops == table[i].ops && ops->name &&
			  strcmp(ops->name, sc_engine_name(table[i].kind)) == 0,
		      "sc_engine_get(%s) is not the %s engine", sc_engine_name(table[i].kind),
		      table[i].ops->name);
		/* only the null engine moves no data, so only it needs no files */
		CHECK(sc_engine_uses_files(table[i].kind) == (table[i].kind != SC_ENGINE_NULL),
		      "sc_engine_uses_files(%s) is %d", sc_engine_name(table[i].kind),
		      sc_engine_uses_files(table[i].kind));
	}
	CHECK(!sc_engine_uses_files(SC_ENGINE_COUNT), "an unknown engine kind uses files");

	if (uring_available()) {
		if (run(&sc_engine_uring, "io_uring", PLAIN) ||
		    run(&sc_engine_uring, "io_uring", BAD_FILE) ||
		    run(&sc_engine_uring, "io_uring", BAD_BUF))
			return 1;
	} else {
		skipped = true;
	}
	if (run(&sc_engine_psync, "psync", PLAIN) || run(&sc_engine_null, "null", PLAIN))
		return 1;

	if (check_exit("test_engines"))
		return 1;
	return skipped ? CHECK_SKIP : 0;
}
