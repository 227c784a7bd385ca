/* test_verify.c -- verified blocks: CRC32C test vectors, block header build
 * and check, mismatch detection and its details, the verifier's overlap
 * rule and keep limit, and whole phases through the runner: a write then a
 * read that finds exactly the one corrupted block, data laid out as verify
 * blocks, another run's blocks, and a verify_only phase that creates
 * nothing; and the config checks of verify and verify_only (exit 2 class
 * errors, with their location). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/config.h"
#include "codec.h"
#include "check.h"
#include "run.h"
#include "layout.h"
#include "plan.h"
#include "rundir.h"
#include "verify.h"

static char tmpdir[256];

/* RFC 3720 B.4 and the usual check value. */
static void test_crc32c_vectors(void)
{
	unsigned char buf[32];

	CHECK(sc_crc32c(0, "123456789", 9) == 0xE3069283u, "check value: %08x",
	      sc_crc32c(0, "123456789", 9));
	memset(buf, 0, sizeof(buf));
	CHECK(sc_crc32c(0, buf, 32) == 0x8A9136AAu, "32 zeros: %08x", sc_crc32c(0, buf, 32));
	memset(buf, 0xff, sizeof(buf));
	CHECK(sc_crc32c(0, buf, 32) == 0x62A8AB43u, "32 x 0xff: %08x", sc_crc32c(0, buf, 32));
	for (int i = 0; i < 32; i++)
		buf[i] = (unsigned char)i;
	CHECK(sc_crc32c(0, buf, 32) == 0x46DD794Eu, "0..31: %08x", sc_crc32c(0, buf, 32));
	for (int i = 0; i < 32; i++)
		buf[i] = (unsigned char)(31 - i);
	CHECK(sc_crc32c(0, buf, 32) == 0x113FDB5Cu, "31..0: %08x", sc_crc32c(0, buf, 32));
	/* chained in pieces = at once */
	CHECK(sc_crc32c(sc_crc32c(0, "1234", 4), "56789", 5) == 0xE3069283u, "chaining");
	CHECK(sc_crc32c(0, "", 0) == 0, "empty");
}

static void test_header(void)
{
	enum { LEN = 4096 };
	unsigned char *b = xcalloc(1, LEN), *scratch = xcalloc(1, LEN), *base = xcalloc(1, LEN);
	uint64_t run = sc_verify_run_hash("run-A");
	struct sc_verify_header h = {.offset = 3 * LEN, .run_id = run, .seq = 42, .len = LEN,
				     .phase = 2, .rank = 5};
	struct sc_verify_mismatch m;
	char why[64];

	CHECK(sc_verify_run_hash("run-A") != sc_verify_run_hash("run-B"), "run hashes differ");
	CHECK(sc_verify_run_hash("") == 0xcbf29ce484222325ull, "FNV-1a 64 of \"\"");
	CHECK(sc_verify_run_hash("a") == 0xaf63dc4c8601ec8cull, "FNV-1a 64 of \"a\"");
	sc_verify_base(base, LEN, run);
	sc_verify_fill(b, &h, base);
	CHECK(memcmp(b, "SCVRFY01", 8) == 0, "magic at the start");
	CHECK(b[8] == 0x00 && b[9] == 0x30 && b[10] == 0 && b[15] == 0,
	      "offset little-endian (12288 = 0x3000)");
	CHECK(b[24] == 42, "sequence at byte 24");
	CHECK(h.crc != 0 && b[44] == (h.crc & 0xff), "crc at byte 44");
	CHECK(sc_verify_check(b, LEN, 3 * LEN, run, &m) == 0, "a fresh block passes");

	/* the pattern depends on the offset and sequence: blocks differ */
	{
		unsigned char *c = xcalloc(1, LEN);
		struct sc_verify_header h2 = h;

		h2.offset += LEN;
		sc_verify_fill(c, &h2, base);
		CHECK(memcmp(b + 64, c + 64, LEN - 64) != 0, "other offset, other pattern");
		h2 = h;
		h2.seq++;
		sc_verify_fill(c, &h2, base);
		CHECK(memcmp(b + 64, c + 64, LEN - 64) != 0, "other sequence, other pattern");
		h2 = h;
		sc_verify_fill(c, &h2, base);
		CHECK(memcmp(b, c, LEN) == 0, "same header, same block (reproducible)");
		free(c);
	}

	/* one byte of the pattern changed: the crc alone fails */
	b[1000] ^= 0x01;
	CHECK(sc_verify_check(b, LEN, 3 * LEN, run, &m) == SC_VERIFY_BAD_CRC,
	      "one flipped bit: failed %#x", m.failed);
	CHECK(m.offset == 3 * LEN && m.found.seq == 42 && m.found.offset == 3 * LEN &&
		  m.found.crc == h.crc && m.crc_data != h.crc,
	      "mismatch holds what was found");
	sc_verify_diff(b, LEN, run, base, scratch, &m);
	CHECK(m.bad_bytes == 1 && m.first_bad_byte == 1000, "diff: %u bad bytes from %u",
	      m.bad_bytes, m.first_bad_byte);
	CHECK(strcmp(sc_verify_failed_text(m.failed, why, sizeof(why)), "crc") == 0, "text %s",
	      why);
	b[1000] ^= 0x01;

	/* read at another offset (a misdirected write or read) */
	CHECK(sc_verify_check(b, LEN, 4 * LEN, run, &m) == SC_VERIFY_BAD_OFFSET,
	      "other offset: failed %#x", m.failed);
	CHECK(m.offset == 4 * LEN && m.found.offset == 3 * LEN, "expected vs found offset");
	/* another run's block */
	CHECK(sc_verify_check(b, LEN, 3 * LEN, sc_verify_run_hash("run-B"), &m) ==
		  SC_VERIFY_BAD_RUN,
	      "other run: failed %#x", m.failed);
	/* checked with another block length */
	CHECK(sc_verify_check(b, LEN / 2, 3 * LEN, run, &m) & SC_VERIFY_BAD_LEN,
	      "other length: failed %#x", m.failed);
	/* the header's offset field overwritten */
	b[9] = 0x40;
	CHECK(sc_verify_check(b, LEN, 3 * LEN, run, &m) ==
		  (SC_VERIFY_BAD_OFFSET | SC_VERIFY_BAD_CRC),
	      "header offset changed: failed %#x", m.failed);
	CHECK(strcmp(sc_verify_failed_text(m.failed, why, sizeof(why)), "offset, crc") == 0,
	      "text %s", why);
	sc_verify_diff(b, LEN, run, base, scratch, &m);
	CHECK(m.bad_bytes == 1 && m.first_bad_byte == 9, "diff: %u bad bytes from %u",
	      m.bad_bytes, m.first_bad_byte);
	/* zeros: no header at all */
	memset(b, 0, LEN);
	CHECK(sc_verify_check(b, LEN, 3 * LEN, run, &m) & SC_VERIFY_BAD_MAGIC, "zeros: %#x",
	      m.failed);
	CHECK(sc_verify_check(b, 16, 0, run, NULL) == SC_VERIFY_BAD_LEN, "shorter than a header");
	free(b);
	free(scratch);
	free(base);
}

/* The verifier alone: overlap rule, fills, checks, counts, keep limit. */
static void test_verifier(void)
{
	enum { BS = 512, DEPTH = 4, N = SC_VERIFY_KEEP + 20 };
	struct sc_verifier v;
	unsigned char *buf = xcalloc(1, BS);
	uint64_t run = sc_verify_run_hash("r");

	CHECK(sc_verifier_init(&v, run, 1, 0, 2, DEPTH, BS, true) == 0, "init");
	CHECK(sc_verifier_may_start(&v, 0, true), "nothing in flight");
	sc_verifier_start(&v, 0, 4096, false);
	CHECK(sc_verifier_may_start(&v, 4096, false), "two reads of a block may overlap");
	CHECK(!sc_verifier_may_start(&v, 4096, true), "a write may not join a read");
	CHECK(sc_verifier_may_start(&v, 8192, true), "another block may be written");
	sc_verifier_start(&v, 1, 8192, true);
	CHECK(!sc_verifier_may_start(&v, 8192, false), "a read may not join a write");
	CHECK(!sc_verifier_may_start(&v, 8192, true), "nor another write");
	sc_verifier_done(&v, 1, buf, true);
	CHECK(sc_verifier_may_start(&v, 8192, true), "free again after completion");
	CHECK(v.checked == 0, "a write is not checked");

	/* a read of a block written with the verifier's fill passes */
	sc_verifier_fill(&v, buf, 4096);
	sc_verifier_done(&v, 0, buf, true);
	CHECK(v.checked == 1 && v.mismatches == 0, "good block: %llu checked, %llu bad",
	      (unsigned long long)v.checked, (unsigned long long)v.mismatches);
	/* a short read is not checked */
	sc_verifier_start(&v, 0, 0, false);
	sc_verifier_done(&v, 0, buf, false);
	CHECK(v.checked == 1, "short read not checked");

	/* N bad reads: all counted, the first SC_VERIFY_KEEP kept in order */
	for (uint32_t i = 0; i < N; i++) {
		sc_verifier_start(&v, 2, (uint64_t)i * BS, false);
		sc_verifier_done(&v, 2, buf, true); /* buf is the block of 4096 */
	}
	CHECK(v.mismatches == N - 1, "%llu mismatches, want %u (all but the read at 4096)",
	      (unsigned long long)v.mismatches, N - 1);
	CHECK(v.nkept == SC_VERIFY_KEEP, "kept %u", v.nkept);
	CHECK(v.kept[0].offset == 0 && v.kept[0].job == 2 &&
		  v.kept[0].failed == SC_VERIFY_BAD_OFFSET && v.kept[0].found.offset == 4096,
	      "first kept: offset %llu job %u failed %#x", (unsigned long long)v.kept[0].offset,
	      v.kept[0].job, v.kept[0].failed);
	CHECK(v.kept[8].offset == 9 * BS, "the good block (offset 4096) is not kept");
	sc_verifier_exit(&v);

	/* without may_overlap every I/O may start */
	CHECK(sc_verifier_init(&v, run, 0, 0, 0, DEPTH, BS, false) == 0, "init");
	sc_verifier_start(&v, 0, 0, true);
	CHECK(sc_verifier_may_start(&v, 0, true), "no overlap check for sequential regions");
	sc_verifier_exit(&v);
	free(buf);
}

/* ------------------------------------------------- phases through the runner */

static void plan_phases(struct sc_plan *plan, const char *run_id, uint32_t n)
{
	check_plan_dir(plan, tmpdir, run_id, "p", n);
	for (uint32_t p = 0; p < n; p++) {
		struct sc_io_spec *io = &plan->phases[p].io;

		io->rw = SC_RW_READ;
		io->bs_bytes = 4096;
		io->iodepth = 8;
		io->jobs = 1;
		io->size_bytes = 128 * 4096;
		io->io_bytes = io->size_bytes;
		io->direct = true;
		io->engine = SC_ENGINE_URING;
		io->seed = 11 + p;
		io->verify = SC_VERIFY_CRC32C;
	}
}

static const struct sc_place place3 = {.rank = 3, .target = 0, .slot = 0, .nslots = 1};

/* Makes plan's run directory into rd, as the coordinator does. */
static void make_run_dir(const struct sc_plan *plan, struct sc_rundir *rd)
{
	char err[512];

	sc_rundir_init(rd);
	CHECK(sc_rundir_create(rd, plan, &place3, "key", err, sizeof(err)) == 0, "%s", err);
}

/* Removes rd's directory (if it made it) and closes it. */
static void drop_run_dir(struct sc_rundir *rd)
{
	CHECK(sc_rundir_remove(rd) == 0, "remove %s", rd->path);
	sc_rundir_exit(rd);
}

/* Runs phase p of plan as rank 3 in run directory rd; sc_run_finish's
 * code, res filled. */
static int run_one(const struct sc_plan *plan, uint32_t p, const struct sc_rundir *rd,
		   struct sc_rank_result *res, char *err, size_t errlen)
{
	struct sc_run *run = NULL;
	int rc = sc_run_create(&run, plan, p, &place3, rd, err, errlen);

	memset(res, 0, sizeof(*res));
	if (rc)
		return rc;
	sc_run_start(run, sc_now_ns() + 1000000);
	while (!sc_run_done(run))
		usleep(1000);
	rc = sc_run_finish(run, res);
	sc_run_destroy(run);
	return rc;
}

static void job_path(const struct sc_plan *plan, char *path, size_t len)
{
	uint64_t off;

	sc_layout_job_file(plan, &place3, 0, 0, path, len, &off);
}

/* write with verify, corrupt one byte, read back: exactly that block */
static void test_corrupt_one_block(enum sc_engine_kind engine)
{
	struct sc_plan plan;
	struct sc_rank_result res;
	struct sc_rundir rd;
	char err[512], path[600];
	const uint64_t bad_off = 37 * 4096;
	int rc, fd;

	check_context = sc_engine_name(engine);
	plan_phases(&plan, "corrupt", 2);
	plan.phases[0].io.rw = SC_RW_WRITE;
	plan.phases[0].io.engine = plan.phases[1].io.engine = engine;
	make_run_dir(&plan, &rd);
	rc = run_one(&plan, 0, &rd, &res, err, sizeof(err));
	CHECK(rc == 0, "write: %d %s %s", rc, err, res.error);
	CHECK(res.ios[SC_DIR_WRITE] == 128 && res.verify_checked == 0 &&
		  res.verify_mismatches == 0,
	      "write: %llu writes, %llu checked", (unsigned long long)res.ios[SC_DIR_WRITE],
	      (unsigned long long)res.verify_checked);
	sc_rank_result_exit(&res);

	/* the file holds verify blocks: check one by hand */
	job_path(&plan, path, sizeof(path));
	{
		unsigned char *b = xcalloc(1, 4096);
		struct sc_verify_mismatch m;

		fd = open(path, O_RDWR);
		CHECK(fd >= 0 && pread(fd, b, 4096, 5 * 4096) == 4096, "read block 5 by hand");
		CHECK(sc_verify_check(b, 4096, 5 * 4096, sc_verify_run_hash("corrupt"), &m) == 0,
		      "block 5 on disk passes: failed %#x", m.failed);
		free(b);
		/* corrupt 3 bytes in block 37 */
		CHECK(pwrite(fd, "XYZ", 3, (off_t)(bad_off + 2000)) == 3, "corrupt");
		close(fd);
	}
	rc = run_one(&plan, 1, &rd, &res, err, sizeof(err));
	CHECK(rc == 0, "read: %d %s %s", rc, err, res.error);
	CHECK(res.verify_checked == 128, "read: %llu blocks checked, want 128",
	      (unsigned long long)res.verify_checked);
	CHECK(res.verify_mismatches == 1, "read: %llu mismatches, want exactly 1",
	      (unsigned long long)res.verify_mismatches);
	CHECK(res.verify_nkept == 1, "kept %u", res.verify_nkept);
	if (res.verify_nkept == 1) {
		const struct sc_verify_mismatch *m = &res.verify_kept[0];

		CHECK(m->offset == bad_off, "mismatch at %llu, want %llu",
		      (unsigned long long)m->offset, (unsigned long long)bad_off);
		CHECK(m->failed == SC_VERIFY_BAD_CRC, "failed %#x, want crc only", m->failed);
		CHECK(m->found.offset == bad_off && m->found.phase == 0 && m->found.rank == 3 &&
			  m->found.seq == 38,
		      "found header: offset %llu phase %u rank %u seq %llu",
		      (unsigned long long)m->found.offset, m->found.phase, m->found.rank,
		      (unsigned long long)m->found.seq);
		CHECK(m->bad_bytes >= 1 && m->bad_bytes <= 3 && m->first_bad_byte >= 2000 &&
			  m->first_bad_byte < 2003,
		      "%u bad bytes from byte %u", m->bad_bytes, m->first_bad_byte);
	}
	sc_rank_result_exit(&res);
	drop_run_dir(&rd);
	sc_plan_exit(&plan);
	check_context = NULL;
}

/* a read phase with verify on a fresh directory lays its data out as verify
 * blocks; a randrw phase with verify over a region smaller than its depth
 * (overlaps held back) then checks clean; a verify_only phase re-reads the
 * kept directory; another run's blocks all fail; nothing is removed */
static void test_layout_and_randrw(void)
{
	struct sc_plan plan, other;
	struct sc_rank_result res;
	struct sc_rundir rd, kept;
	char err[512], path[600], from[400], to[400];
	struct stat st;
	int rc;

	plan_phases(&plan, "lay", 2);
	plan.phases[0].io.rw = SC_RW_RANDREAD;
	plan.phases[0].io.size_bytes = 64 * 4096;
	plan.phases[0].io.io_bytes = 256 * 4096;
	make_run_dir(&plan, &rd);
	rc = run_one(&plan, 0, &rd, &res, err, sizeof(err));
	CHECK(rc == 0, "randread: %d %s %s", rc, err, res.error);
	CHECK(res.verify_checked == 256 && res.verify_mismatches == 0,
	      "laid-out data: %llu checked, %llu mismatches",
	      (unsigned long long)res.verify_checked, (unsigned long long)res.verify_mismatches);
	sc_rank_result_exit(&res);

	plan.phases[1].io.rw = SC_RW_RANDRW;
	plan.phases[1].io.rwmixread_pct = 50;
	plan.phases[1].io.size_bytes = 8 * 4096; /* 8 blocks, 32 in flight */
	plan.phases[1].io.iodepth = 32;
	plan.phases[1].io.io_bytes = 4000 * 4096;
	rc = run_one(&plan, 1, &rd, &res, err, sizeof(err));
	CHECK(rc == 0, "randrw: %d %s %s", rc, err, res.error);
	CHECK(res.ios[SC_DIR_READ] + res.ios[SC_DIR_WRITE] == 4000, "randrw: %llu I/Os",
	      (unsigned long long)(res.ios[SC_DIR_READ] + res.ios[SC_DIR_WRITE]));
	CHECK(res.verify_checked == res.ios[SC_DIR_READ] && res.verify_mismatches == 0,
	      "randrw: %llu checked of %llu reads, %llu mismatches",
	      (unsigned long long)res.verify_checked, (unsigned long long)res.ios[SC_DIR_READ],
	      (unsigned long long)res.verify_mismatches);
	sc_rank_result_exit(&res);

	/* a verify_only run of the same id re-reads the kept directory */
	plan_phases(&other, "lay", 1);
	other.phases[0].io.size_bytes = 64 * 4096;
	other.phases[0].io.io_bytes = 64 * 4096;
	other.phases[0].io.verify_only = true;
	CHECK(sc_verify_only_run(&other), "a plan of verify_only phases");
	CHECK(!sc_verify_only_run(&plan), "a plan that writes");
	sc_rundir_init(&kept);
	CHECK(sc_rundir_open_kept(&kept, &other, &place3, err, sizeof(err)) == 0, "open kept: %s",
	      err);
	rc = run_one(&other, 0, &kept, &res, err, sizeof(err));
	CHECK(rc == 0 && res.verify_checked == 64 && res.verify_mismatches == 0,
	      "verify_only of run lay: %d %s, %llu checked, %llu bad", rc, err,
	      (unsigned long long)res.verify_checked, (unsigned long long)res.verify_mismatches);
	sc_rank_result_exit(&res);
	CHECK(sc_rundir_remove(&kept) == 0, "remove of a kept run directory");
	sc_rundir_exit(&kept);
	job_path(&other, path, sizeof(path));
	CHECK(stat(path, &st) == 0, "the kept file stays after a verify_only run");

	/* the same blocks checked as another run's: rename the directory */
	snprintf(from, sizeof(from), "%s/ssdcluster-lay", tmpdir);
	snprintf(to, sizeof(to), "%s/ssdcluster-other", tmpdir);
	CHECK(rename(from, to) == 0, "rename");
	free(other.run_id);
	other.run_id = xstrdup("other");
	sc_rundir_init(&kept);
	CHECK(sc_rundir_open_kept(&kept, &other, &place3, err, sizeof(err)) == 0, "open kept: %s",
	      err);
	rc = run_one(&other, 0, &kept, &res, err, sizeof(err));
	CHECK(rc == 0, "verify_only: %d %s", rc, err);
	CHECK(res.verify_checked == 64 && res.verify_mismatches == 64 && res.verify_nkept == 64,
	      "another run's blocks: %llu checked, %llu mismatches",
	      (unsigned long long)res.verify_checked, (unsigned long long)res.verify_mismatches);
	CHECK(res.verify_nkept && res.verify_kept[0].failed == SC_VERIFY_BAD_RUN &&
		  res.verify_kept[0].found.run_id == sc_verify_run_hash("lay"),
	      "failed %#x", res.verify_nkept ? res.verify_kept[0].failed : 0);
	sc_rank_result_exit(&res);
	sc_rundir_exit(&kept);
	CHECK(rename(to, from) == 0, "rename back");
	sc_plan_exit(&other);
	drop_run_dir(&rd);
	sc_plan_exit(&plan);
}

/* verify_only of a run that is not there: a clear error, nothing created */
static void test_verify_only_missing(void)
{
	struct sc_plan plan;
	struct sc_rank_result res;
	struct sc_rundir kept;
	char err[512], dir[400], path[600];
	struct stat st;
	int rc;

	plan_phases(&plan, "absent", 1);
	plan.phases[0].io.verify_only = true;
	sc_rundir_init(&kept);
	rc = sc_rundir_open_kept(&kept, &plan, &place3, err, sizeof(err));
	CHECK(rc == -ENOENT, "open kept of a run never made: %d", rc);
	CHECK(strstr(err, "no kept run") && strstr(err, "--run-id absent"), "message: %s", err);
	sc_rundir_exit(&kept);
	snprintf(dir, sizeof(dir), "%s/ssdcluster-absent", tmpdir);
	CHECK(stat(dir, &st) != 0, "no run directory created");

	/* a kept directory without the job's file */
	CHECK(mkdir(dir, 0700) == 0, "mkdir");
	sc_rundir_init(&kept);
	CHECK(sc_rundir_open_kept(&kept, &plan, &place3, err, sizeof(err)) == 0, "%s", err);
	rc = run_one(&plan, 0, &kept, &res, err, sizeof(err));
	CHECK(rc == -ENOENT, "rc %d, want -ENOENT", rc);
	CHECK(strstr(err, "--run-id") != NULL, "message names --run-id: %s", err);
	job_path(&plan, path, sizeof(path));
	CHECK(stat(path, &st) != 0, "no file created");
	sc_rundir_exit(&kept);
	rmdir(dir);
	sc_plan_exit(&plan);
}

/* the null engine: writes are filled (their cost is the point), nothing read */
static void test_null_write(void)
{
	struct sc_plan plan;
	struct sc_rank_result res;
	char err[512];

	plan_phases(&plan, "null", 1);
	plan.phases[0].io.rw = SC_RW_RANDWRITE;
	plan.phases[0].io.engine = SC_ENGINE_NULL;
	plan.phases[0].io.io_bytes = 1000 * 4096;
	CHECK(run_one(&plan, 0, NULL, &res, err, sizeof(err)) == 0, "null write: %s", err);
	CHECK(res.ios[SC_DIR_WRITE] == 1000 && res.verify_checked == 0, "null: %llu writes",
	      (unsigned long long)res.ios[SC_DIR_WRITE]);
	sc_rank_result_exit(&res);
	sc_plan_exit(&plan);
}

/* A rank's verify figures travel to rank 0 and into results.pb intact. */
static void test_codec(void)
{
	struct sc_rank_result r, back;
	uint8_t *buf = NULL;
	size_t len = 0;

	memset(&r, 0, sizeof(r));
	memset(&back, 0, sizeof(back));
	r.verify_checked = 1000;
	r.verify_mismatches = 7;
	r.verify_nkept = 2;
	r.verify_kept = xcalloc(2, sizeof(*r.verify_kept));
	r.verify_kept[1] = (struct sc_verify_mismatch){
	    .offset = 1ull << 40, .job = 3, .failed = SC_VERIFY_BAD_CRC | SC_VERIFY_BAD_RUN,
	    .found = {.magic = SC_VERIFY_MAGIC, .offset = 1ull << 40, .run_id = 0xfeedull,
		      .seq = 99, .len = 4096, .phase = 4, .rank = 5, .crc = 0xdeadbeef},
	    .crc_data = 0x12345678, .bad_bytes = 17, .first_bad_byte = 4000};
	CHECK(sc_rank_result_pack(&r, &buf, &len) == 0, "pack");
	CHECK(buf && sc_rank_result_unpack(buf, len, &back) == 0, "unpack");
	CHECK(back.verify_checked == 1000 && back.verify_mismatches == 7 && back.verify_nkept == 2,
	      "counts: %llu %llu %u", (unsigned long long)back.verify_checked,
	      (unsigned long long)back.verify_mismatches, back.verify_nkept);
	if (back.verify_nkept == 2)
		CHECK(memcmp(&back.verify_kept[1], &r.verify_kept[1], sizeof(r.verify_kept[1])) ==
			      0 &&
			  back.verify_kept[0].offset == 0,
		      "kept mismatches round-trip");
	free(buf);
	sc_rank_result_exit(&back);
	/* more kept than counted is refused (unpack checks the same way) */
	r.verify_mismatches = 1;
	buf = NULL;
	CHECK(sc_rank_result_pack(&r, &buf, &len) == -EINVAL, "2 kept of 1 mismatch refused");
	free(buf);
	sc_rank_result_exit(&r);
}

/* ------------------------------------------------------------ config */

/* Loads text (with @D for tmpdir, @F for a file target) and returns
 * sc_config_load's code; err holds the message, plan (if not NULL) a copy of
 * what was built. */
static int load(const char *text, char *err, size_t errlen, struct sc_plan *plan)
{
	char path[400], file[400];
	struct sc_config *cfg = NULL;
	FILE *f;
	int rc;

	snprintf(path, sizeof(path), "%s/cfg.yaml", tmpdir);
	snprintf(file, sizeof(file), "%s/target.img", tmpdir);
	f = fopen(path, "w");
	if (!f)
		return -errno;
	for (const char *p = text; *p; p++) {
		if (p[0] == '@' && (p[1] == 'D' || p[1] == 'F')) {
			fputs(p[1] == 'D' ? tmpdir : file, f);
			p++;
		} else {
			fputc(*p, f);
		}
	}
	fclose(f);
	rc = sc_config_load(&cfg, path, NULL, 0, err, errlen);
	if (!rc && plan)
		sc_config_take_plan(cfg, plan);
	sc_config_destroy(cfg);
	return rc;
}

#define EXPECT_CFG_ERR(text, where, what)                                                          \
	do {                                                                                       \
		char e_[1024];                                                                     \
		int r_ = load(text, e_, sizeof(e_), NULL);                                         \
		CHECK(r_ == -EINVAL && strstr(e_, where) && strstr(e_, what),                      \
		      "load: %d %s (want %s ... %s)", r_, e_, where, what);                        \
	} while (0)

static void test_config(void)
{
	char err[1024], file[400];
	struct sc_plan plan;
	FILE *f;

	snprintf(file, sizeof(file), "%s/target.img", tmpdir);
	f = fopen(file, "w");
	CHECK(f && ftruncate(fileno(f), 1 << 20) == 0, "file target");
	if (f)
		fclose(f);

	/* accepted: write then read with verify; verify_only implies crc32c */
	CHECK(load("targets: [{path: @D}]\ndefaults: {verify: crc32c, bs: 4KiB, size: 64KiB}\n"
		   "phases:\n  - rw: write\n  - rw: randread\n  - {workload: kvcache, bs: 4KiB, "
		   "size: 64KiB, jobs: 1, iodepth: 4}\n",
		   err, sizeof(err), &plan) == 0,
	      "write + read + kvcache with verify: %s", err);
	if (plan.nphases == 3)
		CHECK(plan.phases[1].io.verify == SC_VERIFY_CRC32C &&
			  plan.phases[2].io.verify == SC_VERIFY_CRC32C && !plan.phases[1].io.verify_only,
		      "verify in the plan");
	sc_plan_exit(&plan);
	CHECK(load("targets: [{path: @D}]\nphases:\n  - {rw: read, verify_only: true, size: 64KiB}\n"
		   "  - {rw: randread, verify_only: true, size: 64KiB}\n",
		   err, sizeof(err), &plan) == 0,
	      "verify_only reads: %s", err);
	if (plan.nphases == 2)
		CHECK(plan.phases[0].io.verify == SC_VERIFY_CRC32C && plan.phases[1].io.verify_only &&
			  sc_verify_only_run(&plan),
		      "verify_only implies verify: crc32c");
	sc_plan_exit(&plan);
	CHECK(load("targets: [{path: @D}]\nphases:\n  - {rw: randwrite, verify: crc32c, engine: "
		   "null}\n",
		   err, sizeof(err), NULL) == 0,
	      "null engine writes with verify: %s", err);
	CHECK(load("targets: [{path: @F, allow_destroy: true}]\nphases:\n"
		   "  - {rw: write, verify: crc32c, size: 64KiB}\n"
		   "  - {rw: randread, verify: crc32c, size: 64KiB}\n",
		   err, sizeof(err), NULL) == 0,
	      "file target, written then read with verify: %s", err);

	/* a write with verify over every block the reader reads: what phases
	 * before it left does not matter (fio's jobs, each writing its file
	 * anew) */
	CHECK(load("targets: [{path: @D}]\ndefaults: {size: 64KiB, bs: 4KiB}\nphases:\n"
		   "  - {rw: randrw}\n  - {rw: write, bs: 8KiB}\n"
		   "  - {rw: write, verify: crc32c}\n  - {rw: read, verify: crc32c}\n",
		   err, sizeof(err), NULL) == 0,
	      "a sequential pass with verify after writes without: %s", err);
	CHECK(load("targets: [{path: @D}]\ndefaults: {size: 64KiB, bs: 4KiB}\nphases:\n"
		   "  - {rw: write}\n  - {rw: randwrite, randommap: true, verify: crc32c, jobs: 2}\n"
		   "  - {rw: randread, verify: crc32c, jobs: 2}\n",
		   err, sizeof(err), NULL) == 0,
	      "a random map's pass with verify after a write without: %s", err);
	/* ... but not one that may leave blocks of the earlier phase */
	EXPECT_CFG_ERR("targets: [{path: @D}]\ndefaults: {size: 64KiB, bs: 4KiB}\nphases:\n"
		       "  - {rw: write}\n  - {rw: randwrite, verify: crc32c}\n"
		       "  - {rw: read, verify: crc32c}\n",
		       "phases.2.verify:", "what phases.0 (phase0) wrote or laid out without");
	EXPECT_CFG_ERR("targets: [{path: @D}]\ndefaults: {size: 64KiB, bs: 4KiB}\nphases:\n"
		       "  - {rw: write}\n  - {rw: write, verify: crc32c, runtime: 1s}\n"
		       "  - {rw: read, verify: crc32c}\n",
		       "phases.2.verify:", "what phases.0 (phase0) wrote or laid out without");
	EXPECT_CFG_ERR("targets: [{path: @D}]\ndefaults: {size: 64KiB, bs: 4KiB}\nphases:\n"
		       "  - {rw: write}\n  - {rw: write, verify: crc32c, io_size: 32KiB}\n"
		       "  - {rw: read, verify: crc32c}\n",
		       "phases.2.verify:", "what phases.0 (phase0) wrote or laid out without");
	EXPECT_CFG_ERR("targets: [{path: @D}]\ndefaults: {bs: 4KiB}\nphases:\n"
		       "  - {rw: write, size: 128KiB}\n  - {rw: write, verify: crc32c, size: 64KiB}\n"
		       "  - {rw: read, verify: crc32c, size: 128KiB}\n",
		       "phases.2.verify:", "what phases.0 (phase0) wrote or laid out without");
	EXPECT_CFG_ERR("targets: [{path: @D}]\ndefaults: {size: 64KiB, bs: 4KiB}\nphases:\n"
		       "  - {rw: write, jobs: 2}\n  - {rw: write, verify: crc32c}\n"
		       "  - {rw: read, verify: crc32c, jobs: 2}\n",
		       "phases.2.verify:", "what phases.0 (phase0) wrote or laid out without");
	EXPECT_CFG_ERR("targets: [{path: @D}]\ndefaults: {size: 64KiB, bs: 4KiB}\nphases:\n"
		       "  - {rw: write, verify: crc32c}\n  - {rw: randwrite}\n"
		       "  - {rw: read, verify: crc32c}\n",
		       "phases.2.verify:", "what phases.1 (phase1) wrote or laid out without");

	/* refused, each at its key */
	EXPECT_CFG_ERR("targets: [{path: @D}]\nphases:\n  - {rw: write, verify: crc32c, bs: 32B, "
		       "size: 64KiB, direct: false}\n",
		       ":3:37: phases.0.bs:", "32B is smaller than the 48 B header");
	EXPECT_CFG_ERR("targets: [{path: @D}]\nphases:\n  - {rw: randrw, verify_only: true}\n",
		       ":3:31: phases.0.verify_only:", "rw must be read or randread");
	EXPECT_CFG_ERR("targets: [{path: @D}]\nphases:\n  - {rw: write}\n"
		       "  - {rw: read, verify_only: true}\n",
		       ":4:29: phases.1.verify_only:", "phases.0 (phase0) is not verify_only");
	EXPECT_CFG_ERR("targets: [{path: @D}]\nphases:\n  - {rw: read, verify_only: true, verify: "
		       "none}\n",
		       ":3:43: phases.0.verify:", "none contradicts verify_only");
	EXPECT_CFG_ERR("targets: [{path: @D}]\nphases:\n  - {rw: read, verify: crc32c, engine: "
		       "null}\n",
		       ":3:40: phases.0.engine:", "null engine stores nothing");
	EXPECT_CFG_ERR("targets: [{path: @D}]\nphases:\n  - {rw: write}\n"
		       "  - {rw: read, verify: crc32c}\n",
		       ":4:24: phases.1.verify:", "what phases.0 (phase0) wrote or laid out without "
						 "verify");
	EXPECT_CFG_ERR("targets: [{path: @D}]\nphases:\n  - {rw: write, verify: crc32c, bs: "
		       "8KiB}\n  - {rw: read, verify: crc32c, bs: 4KiB}\n",
		       ":4:36: phases.1.bs:", "4KiB, but phases.0 (phase0) wrote or laid out its "
					     "verify blocks with bs 8KiB");
	EXPECT_CFG_ERR("targets: [{path: @D}]\nphases:\n  - {rw: read, verify: crc32c, bs: "
		       "[4KiB, 8KiB]}\n",
		       ":3:36: phases.0.bs:", "cannot sweep bs");
	EXPECT_CFG_ERR("targets: [{path: @F, allow_destroy: true}]\nphases:\n"
		       "  - {rw: randread, verify: crc32c, size: 64KiB}\n",
		       ":3:28: phases.0.verify:", "no earlier phase wrote verify blocks");
	EXPECT_CFG_ERR("targets: [{path: @D}]\ndefaults: {verify: crc32c}\nphases:\n"
		       "  - {rw: write, bs: 8KiB}\n  - {rw: read}\n",
		       "phases.1.bs:", "with bs 8KiB");
	unlink(file);
}

int main(void)
{
	char probe[300];
	int pfd;

	test_crc32c_vectors();
	test_header();
	test_verifier();
	test_codec();

	check_mkdtemp(tmpdir, sizeof(tmpdir), "test_verify");
	test_config();
	snprintf(probe, sizeof(probe), "%s/probe", tmpdir);
	pfd = open(probe, O_CREAT | O_RDWR | O_DIRECT, 0644);
	if (pfd < 0) {
		printf("SKIP (phase tests): %s does not support O_DIRECT\n", tmpdir);
	} else {
		close(pfd);
		unlink(probe);
		test_corrupt_one_block(SC_ENGINE_URING);
		test_corrupt_one_block(SC_ENGINE_PSYNC);
		test_layout_and_randrw();
		test_verify_only_missing();
		test_null_write();
	}
	check_rmtree(tmpdir);
	return check_exit("test_verify");
}
