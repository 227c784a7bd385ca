/* test_codec.c -- plan and results survive a round trip; bad bytes do not.
 *
 * Exit 0 pass, 1 fail (each failure printed).  The hand-made payloads are
 * encoded here byte by byte, so that the test depends on the documented
 * wire format (ssdcluster.proto and its envelope), not on generated code.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "codec.h"

static bool all_zero(const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++)
		if (b[i])
			return false;
	return true;
}

static bool str_eq(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* Plain bitwise CRC-32 (IEEE, reflected), independent of the codec's. */
static uint32_t ref_crc32(const uint8_t *p, size_t n)
{
	uint32_t c = 0xffffffffu;

	for (size_t i = 0; i < n; i++) {
		c ^= p[i];
		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1u)));
	}
	return ~c;
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* ------------------------------------------------------------ fixtures */

/* 2 targets and 3 phases, every field away from its default (workload has
 * one value only) and several at the ends of their ranges. */
static void make_plan(struct sc_plan *p)
{
	memset(p, 0, sizeof(*p));
	p->run_id = xstrdup("run-20240501-120000-7f3a");
	p->config_path = xstrdup("configs/llm_ckpt.yaml");
	p->ntargets = 2;
	p->targets = xcalloc(2, sizeof(*p->targets));
	p->targets[0] = (struct sc_target_spec){
	    .path = xstrdup("/mnt/nvme0/bench"),
	    .kind = SC_TARGET_FILE,
	    .capacity_bytes = UINT64_C(3840755982336),
	    .keep = true,
	    .allow_destroy = true,
	    .hosts = xstrdup("gpu[01-08]"),
	};
	p->targets[1] = (struct sc_target_spec){
	    .path = xstrdup("/dev/nvme1n1"),
	    .kind = SC_TARGET_BLOCK,
	    .capacity_bytes = UINT64_MAX,
	    .keep = true,
	    .allow_destroy = true,
	    .hosts = xstrdup("gpu0[9]"),
	};
	p->nphases = 3;
	p->phases = xcalloc(3, sizeof(*p->phases));
	for (uint32_t i = 0; i < 3; i++) {
		struct sc_phase *ph = &p->phases[i];
		char name[64];

		snprintf(name, sizeof(name), "sweep[bs=%uKiB,iodepth=%u]", 4u << i, 8u << i);
		ph->name = xstrdup(name);
		ph->group = xstrdup(i ? "sweep" : "fill");
		ph->config_index = 1 + i;
		ph->cell = 1 + i;
		ph->ncells = 4 + i;
		ph->workload = SC_WORKLOAD_IO;
		ph->io = (struct sc_io_spec){
		    .rw = (enum sc_rw)(SC_RW_WRITE + i),
		    .rwmixread_pct = 70 + 15 * i, /* up to 100 */
		    .bs_bytes = UINT64_C(4096) << i,
		    .iodepth = 32 + i,
		    .jobs = 4 + i,
		    .size_bytes = UINT64_C(1) << (30 + i),
		    .runtime_ns = UINT64_C(60000000000) + i,
		    .io_bytes = UINT64_C(1) << (33 + i),
		    .ramp_ns = UINT64_C(5000000000) + i,
		    .fsync_every = 16 + i,
		    .direct = true,
		    .engine = i == 1 ? SC_ENGINE_NULL : SC_ENGINE_PSYNC,
		    .seed = i == 2 ? UINT64_MAX : UINT64_C(0x5eed) + i,
		};
	}
}

static void compare_plan(const struct sc_plan *a, const struct sc_plan *b, const char *what)
{
	CHECK(str_eq(a->run_id, b->run_id), "%s: run_id", what);
	CHECK(str_eq(a->config_path, b->config_path), "%s: config_path", what);
	CHECK(a->ntargets == b->ntargets, "%s: ntargets %u != %u", what, a->ntargets, b->ntargets);
	CHECK(a->nphases == b->nphases, "%s: nphases %u != %u", what, a->nphases, b->nphases);
	if (a->ntargets != b->ntargets || a->nphases != b->nphases)
		return;
	for (uint32_t i = 0; i < a->ntargets; i++) {
		const struct sc_target_spec *x = &a->targets[i], *y = &b->targets[i];

		CHECK(str_eq(x->path, y->path), "%s: targets[%u].path", what, i);
		CHECK(x->kind == y->kind, "%s: targets[%u].kind", what, i);
		CHECK(x->capacity_bytes == y->capacity_bytes, "%s: targets[%u].capacity_bytes",
		      what, i);
		CHECK(x->keep == y->keep, "%s: targets[%u].keep", what, i);
		CHECK(x->allow_destroy == y->allow_destroy, "%s: targets[%u].allow_destroy", what,
		      i);
		CHECK(str_eq(x->hosts, y->hosts), "%s: targets[%u].hosts", what, i);
	}
	for (uint32_t i = 0; i < a->nphases; i++) {
		const struct sc_phase *x = &a->phases[i], *y = &b->phases[i];
		const struct sc_io_spec *u = &x->io, *v = &y->io;

		CHECK(str_eq(x->name, y->name), "%s: phases[%u].name", what, i);
		CHECK(str_eq(x->group, y->group), "%s: phases[%u].group", what, i);
		CHECK(x->config_index == y->config_index, "%s: phases[%u].config_index", what, i);
		CHECK(x->cell == y->cell, "%s: phases[%u].cell", what, i);
		CHECK(x->ncells == y->ncells, "%s: phases[%u].ncells", what, i);
		CHECK(x->workload == y->workload, "%s: phases[%u].workload", what, i);
		CHECK(u->rw == v->rw, "%s: phases[%u].io.rw", what, i);
		CHECK(u->rwmixread_pct == v->rwmixread_pct, "%s: phases[%u].io.rwmixread_pct", what,
		      i);
		CHECK(u->bs_bytes == v->bs_bytes, "%s: phases[%u].io.bs_bytes", what, i);
		CHECK(u->iodepth == v->iodepth, "%s: phases[%u].io.iodepth", what, i);
		CHECK(u->jobs == v->jobs, "%s: phases[%u].io.jobs", what, i);
		CHECK(u->size_bytes == v->size_bytes, "%s: phases[%u].io.size_bytes", what, i);
		CHECK(u->runtime_ns == v->runtime_ns, "%s: phases[%u].io.runtime_ns", what, i);
		CHECK(u->io_bytes == v->io_bytes, "%s: phases[%u].io.io_bytes", what, i);
		CHECK(u->ramp_ns == v->ramp_ns, "%s: phases[%u].io.ramp_ns", what, i);
		CHECK(u->fsync_every == v->fsync_every, "%s: phases[%u].io.fsync_every", what, i);
		CHECK(u->direct == v->direct, "%s: phases[%u].io.direct", what, i);
		CHECK(u->engine == v->engine, "%s: phases[%u].io.engine", what, i);
		CHECK(u->seed == v->seed, "%s: phases[%u].io.seed", what, i);
	}
}

/* A rank's phase with seconds, errors and latency summaries; seed varies
 * every value. */
static void make_rank(struct sc_rank_result *r, uint32_t rank, uint32_t node, uint32_t target,
		      uint32_t nseconds, uint64_t seed)
{
	struct sc_hist *h = xcalloc(1, sizeof(*h));

	memset(r, 0, sizeof(*r));
	r->rank = rank;
	r->node = node;
	snprintf(r->host, sizeof(r->host), "gpu%02u", node + 1);
	if (seed == 1) /* the longest host name that fits */
		memset(r->host, 'h', SC_HOST_MAX - 1);
	r->target = target;
	r->clock_offset_ns = -1234567 - (int64_t)seed;
	r->start_ns = -250 + (int64_t)seed;
	r->end_ns = INT64_C(60000123456) + (int64_t)seed;
	r->planned_bytes = (UINT64_C(8) << 30) + seed;
	r->bytes[SC_DIR_READ] = (UINT64_C(6) << 30) + seed;
	r->bytes[SC_DIR_WRITE] = (UINT64_C(2) << 30) + seed;
	r->ios[SC_DIR_READ] = 1572864 + seed;
	r->ios[SC_DIR_WRITE] = 524288 + seed;
	r->fsyncs = 32768 + seed;
	r->firstdone_bytes = (UINT64_C(7) << 30) + seed;
	r->errors = 3 + seed;
	snprintf(r->error, sizeof(r->error),
		 "pwrite /mnt/nvme0/bench/f.%llu at 4096: Input/output error",
		 (unsigned long long)seed);
	if (seed == 2) /* the longest message that fits */
		memset(r->error, 'e', SC_ERROR_MAX - 1);

	for (int d = 0; d < SC_DIR_COUNT; d++) {
		sc_hist_init(h);
		for (uint64_t v = 1; v <= 1000; v++)
			sc_hist_record(h, v * (d ? 977 : 131) + seed);
		sc_hist_summarize(h, &r->lat[d]);
	}
	free(h);

	r->nseconds = nseconds;
	r->seconds = nseconds ? xcalloc(nseconds, sizeof(*r->seconds)) : NULL;
	for (uint32_t k = 0; k < nseconds; k++) {
		struct sc_second *s = &r->seconds[k];

		for (int d = 0; d < SC_DIR_COUNT; d++) {
			s->bytes[d] = (UINT64_C(1) << 30) + k * 4096 + d + seed;
			s->ios[d] = 262144 + k + d + seed;
			s->max_lat_ns[d] = 2000000 + k * 1000 + d + seed;
		}
	}
	/* the largest varints */
	if (nseconds)
		r->seconds[nseconds - 1].bytes[SC_DIR_WRITE] = UINT64_MAX;
}

static void compare_rank(const struct sc_rank_result *a, const struct sc_rank_result *b,
			 const char *what)
{
	CHECK(a->rank == b->rank, "%s: rank", what);
	CHECK(a->node == b->node, "%s: node", what);
	CHECK(strcmp(a->host, b->host) == 0, "%s: host \"%s\" != \"%s\"", what, a->host, b->host);
	CHECK(a->target == b->target, "%s: target", what);
	CHECK(a->clock_offset_ns == b->clock_offset_ns, "%s: clock_offset_ns", what);
	CHECK(a->start_ns == b->start_ns, "%s: start_ns", what);
	CHECK(a->end_ns == b->end_ns, "%s: end_ns", what);
	CHECK(a->planned_bytes == b->planned_bytes, "%s: planned_bytes", what);
	for (int d = 0; d < SC_DIR_COUNT; d++) {
		const struct sc_lat_summary *x = &a->lat[d], *y = &b->lat[d];

		CHECK(a->bytes[d] == b->bytes[d], "%s: bytes[%d]", what, d);
		CHECK(a->ios[d] == b->ios[d], "%s: ios[%d]", what, d);
		CHECK(x->count == y->count, "%s: lat[%d].count", what, d);
		CHECK(x->min_ns == y->min_ns, "%s: lat[%d].min_ns", what, d);
		CHECK(x->max_ns == y->max_ns, "%s: lat[%d].max_ns", what, d);
		CHECK(x->mean_ns == y->mean_ns, "%s: lat[%d].mean_ns %.17g != %.17g", what, d,
		      x->mean_ns, y->mean_ns);
		for (int i = 0; i < SC_NPCT; i++)
			CHECK(x->pct_ns[i] == y->pct_ns[i], "%s: lat[%d].pct_ns[%d]", what, d, i);
	}
	CHECK(a->fsyncs == b->fsyncs, "%s: fsyncs", what);
	CHECK(a->firstdone_bytes == b->firstdone_bytes, "%s: firstdone_bytes", what);
	CHECK(a->errors == b->errors, "%s: errors", what);
	CHECK(strcmp(a->error, b->error) == 0, "%s: error \"%s\" != \"%s\"", what, a->error,
	      b->error);
	CHECK(a->nseconds == b->nseconds, "%s: nseconds %u != %u", what, a->nseconds, b->nseconds);
	if (a->nseconds == b->nseconds && a->nseconds)
		CHECK(memcmp(a->seconds, b->seconds, a->nseconds * sizeof(*a->seconds)) == 0,
		      "%s: seconds differ", what);
}

static struct sc_hist *make_hist(uint64_t scale, uint64_t n)
{
	struct sc_hist *h = xcalloc(1, sizeof(*h));

	sc_hist_init(h);
	/* exact buckets, every octave, and the overflow bucket */
	sc_hist_record(h, 0);
	sc_hist_record(h, 255);
	sc_hist_record(h, 256);
	for (uint64_t i = 1; i <= n; i++)
		sc_hist_record(h, i * scale);
	sc_hist_record(h, (UINT64_C(1) << 40) + 17);
	sc_hist_record(h, UINT64_MAX);
	return h;
}

/* 2 finished phases (plan phases 0 and 2) x 3 ranks on 2 nodes. */
static void make_run(struct sc_run_record *run)
{
	memset(run, 0, sizeof(*run));
	run->version = xstrdup("0.1.0-test");
	run->started_unix_ns = INT64_C(1714564800123456789);
	run->nranks = 3;
	run->nnodes = 2;
	make_plan(&run->plan);
	run->nphases = 2;
	run->phases = xcalloc(2, sizeof(*run->phases));
	for (uint32_t p = 0; p < 2; p++) {
		struct sc_phase_record *ph = &run->phases[p];

		ph->phase = 2 * p;
		ph->measure_start_ns = INT64_C(5000000000) + p;
		ph->firstdone_ns = INT64_C(64000000000) + p;
		ph->nranks = 3;
		ph->ranks = xcalloc(3, sizeof(*ph->ranks));
		for (uint32_t r = 0; r < 3; r++)
			make_rank(&ph->ranks[r], r, r / 2, (r + p) % 2, 4 + r + p, 10 * p + r + 3);
		ph->lat[SC_DIR_WRITE] = make_hist(977 + p, 5000);
		/* phase 1 did no reads: no read histogram */
		if (p == 0)
			ph->lat[SC_DIR_READ] = make_hist(131, 20000);
	}
}

static void compare_run(const struct sc_run_record *a, const struct sc_run_record *b)
{
	CHECK(str_eq(a->version, b->version), "run: version");
	CHECK(a->started_unix_ns == b->started_unix_ns, "run: started_unix_ns");
	CHECK(a->nranks == b->nranks, "run: nranks");
	CHECK(a->nnodes == b->nnodes, "run: nnodes");
	compare_plan(&a->plan, &b->plan, "run.plan");
	CHECK(a->nphases == b->nphases, "run: nphases %u != %u", a->nphases, b->nphases);
	if (a->nphases != b->nphases)
		return;
	for (uint32_t p = 0; p < a->nphases; p++) {
		const struct sc_phase_record *x = &a->phases[p], *y = &b->phases[p];

		CHECK(x->phase == y->phase, "run: phases[%u].phase", p);
		CHECK(x->measure_start_ns == y->measure_start_ns,
		      "run: phases[%u].measure_start_ns", p);
		CHECK(x->firstdone_ns == y->firstdone_ns, "run: phases[%u].firstdone_ns", p);
		CHECK(x->nranks == y->nranks, "run: phases[%u].nranks", p);
		for (uint32_t r = 0; r < x->nranks && r < y->nranks; r++) {
			char what[64];

			snprintf(what, sizeof(what), "run: phases[%u].ranks[%u]", p, r);
			compare_rank(&x->ranks[r], &y->ranks[r], what);
		}
		for (int d = 0; d < SC_DIR_COUNT; d++) {
			if (!x->lat[d] || !y->lat[d]) {
				CHECK(!x->lat[d] && !y->lat[d],
				      "run: phases[%u].lat[%d] present on one side only", p, d);
				continue;
			}
			/* count, sum, min, max and every bucket */
			CHECK(memcmp(x->lat[d], y->lat[d], sizeof(*x->lat[d])) == 0,
			      "run: phases[%u].lat[%d] histograms differ", p, d);
		}
	}
}

/* ------------------------------------------------------- round trips */

static void check_header(const uint8_t *buf, size_t len, const char *magic, const char *what)
{
	CHECK(len >= 12, "%s: %zu bytes, shorter than the envelope", what, len);
	if (len < 12)
		return;
	CHECK(memcmp(buf, magic, 4) == 0, "%s: magic is not %s", what, magic);
	CHECK(le32(buf + 4) == len - 12, "%s: length field %u, payload %zu", what, le32(buf + 4),
	      len - 12);
	CHECK(le32(buf + 8) == ref_crc32(buf + 12, len - 12),
	      "%s: header CRC is not the CRC-32 of the payload", what);
}

static void test_plan_roundtrip(void)
{
	struct sc_plan a, b;
	uint8_t *buf;
	size_t len;
	int err;

	make_plan(&a);
	err = sc_plan_pack(&a, &buf, &len);
	CHECK(err == 0, "plan pack: %d", err);
	if (err) {
		sc_plan_exit(&a);
		return;
	}
	check_header(buf, len, "SCP1", "plan");
	err = sc_plan_unpack(buf, len, &b);
	CHECK(err == 0, "plan unpack: %d", err);
	if (!err)
		compare_plan(&a, &b, "plan");
	sc_plan_exit(&b);
	free(buf);
	sc_plan_exit(&a);
}

/* NULL strings: hosts stays NULL ("every host"), the others come back as
 * "" (proto3 has no absent string); "" hosts also mean every host. */
static void test_plan_null_strings(void)
{
	struct sc_plan a, b;
	uint8_t *buf;
	size_t len;
	int err;

	make_plan(&a);
	free(a.run_id);
	a.run_id = NULL;
	free(a.targets[0].hosts);
	a.targets[0].hosts = NULL;
	free(a.targets[1].hosts);
	a.targets[1].hosts = xstrdup("");
	free(a.phases[1].group);
	a.phases[1].group = NULL;
	err = sc_plan_pack(&a, &buf, &len);
	CHECK(err == 0, "plan with NULL strings: pack %d", err);
	if (!err) {
		err = sc_plan_unpack(buf, len, &b);
		CHECK(err == 0, "plan with NULL strings: unpack %d", err);
		if (!err) {
			CHECK(b.run_id && !*b.run_id, "NULL run_id -> \"\"");
			CHECK(!b.targets[0].hosts, "NULL hosts -> NULL");
			CHECK(!b.targets[1].hosts, "\"\" hosts -> NULL");
			CHECK(b.phases[1].group && !*b.phases[1].group, "NULL group -> \"\"");
			CHECK(str_eq(b.targets[0].path, a.targets[0].path), "path kept");
		}
		sc_plan_exit(&b);
		free(buf);
	}
	sc_plan_exit(&a);

	/* the empty plan is valid and round-trips */
	memset(&a, 0, sizeof(a));
	err = sc_plan_pack(&a, &buf, &len);
	CHECK(err == 0 && len == 12, "empty plan: pack %d, %zu bytes", err, len);
	if (!err) {
		err = sc_plan_unpack(buf, len, &b);
		CHECK(err == 0 && b.ntargets == 0 && b.nphases == 0 && !b.targets && !b.phases,
		      "empty plan: unpack %d", err);
		sc_plan_exit(&b);
		free(buf);
	}
}

static void test_rank_roundtrip(void)
{
	struct sc_rank_result a, b;
	uint8_t *buf;
	size_t len;
	int err;

	for (uint64_t seed = 1; seed <= 2; seed++) {
		make_rank(&a, 5, 2, 1, 7, seed);
		err = sc_rank_result_pack(&a, &buf, &len);
		CHECK(err == 0, "rank pack: %d", err);
		if (!err) {
			check_header(buf, len, "SCR1", "rank");
			err = sc_rank_result_unpack(buf, len, &b);
			CHECK(err == 0, "rank unpack: %d", err);
			if (!err)
				compare_rank(&a, &b, "rank");
			sc_rank_result_exit(&b);
			free(buf);
		}
		sc_rank_result_exit(&a);
	}

	/* no seconds, no I/O: empty summaries */
	memset(&a, 0, sizeof(a));
	a.rank = 1;
	err = sc_rank_result_pack(&a, &buf, &len);
	CHECK(err == 0, "empty rank pack: %d", err);
	if (!err) {
		err = sc_rank_result_unpack(buf, len, &b);
		CHECK(err == 0, "empty rank unpack: %d", err);
		if (!err)
			compare_rank(&a, &b, "empty rank");
		CHECK(!b.seconds, "empty rank: seconds allocated");
		sc_rank_result_exit(&b);
		free(buf);
	}
}

static int pack_run(const struct sc_run_record *run, uint8_t **buf, size_t *len)
{
	int err = sc_run_record_pack(run, buf, len);

	CHECK(err == 0, "run pack: %d", err);
	return err;
}

static void test_run_roundtrip(void)
{
	struct sc_run_record a, b;
	uint8_t *buf;
	size_t len;
	int err;

	make_run(&a);
	if (!pack_run(&a, &buf, &len)) {
		check_header(buf, len, "SCF1", "run");
		err = sc_run_record_unpack(buf, len, &b);
		CHECK(err == 0, "run unpack: %d", err);
		if (!err)
			compare_run(&a, &b);
		sc_run_record_exit(&b);
		free(buf);
	}
	sc_run_record_exit(&a);

	/* an empty histogram (count 0, min UINT64_MAX) stays an empty one */
	make_run(&a);
	sc_hist_init(a.phases[1].lat[SC_DIR_WRITE]);
	if (!pack_run(&a, &buf, &len)) {
		err = sc_run_record_unpack(buf, len, &b);
		CHECK(err == 0, "run with empty histogram: unpack %d", err);
		if (!err)
			compare_run(&a, &b);
		sc_run_record_exit(&b);
		free(buf);
	}
	sc_run_record_exit(&a);
}

/* Structs that unpack would refuse are refused by pack already. */
static void test_pack_refuses(void)
{
	struct sc_run_record run;
	struct sc_plan plan;
	uint8_t *buf = (uint8_t *)&buf;
	size_t len = 1;
	int err;

	make_plan(&plan);
	plan.phases[0].io.rw = SC_RW_COUNT;
	err = sc_plan_pack(&plan, &buf, &len);
	CHECK(err == -EINVAL && !buf && !len, "pack of rw out of range: %d", err);
	plan.phases[0].io.rw = SC_RW_READ;
	plan.phases[2].cell = plan.phases[2].ncells;
	err = sc_plan_pack(&plan, &buf, &len);
	CHECK(err == -EINVAL, "pack of cell == ncells: %d", err);
	sc_plan_exit(&plan);

	make_run(&run);
	run.phases[1].ranks[2].target = run.plan.ntargets;
	err = sc_run_record_pack(&run, &buf, &len);
	CHECK(err == -EINVAL, "pack of rank target out of range: %d", err);
	run.phases[1].ranks[2].target = 0;
	run.phases[0].lat[SC_DIR_READ]->count++;
	err = sc_run_record_pack(&run, &buf, &len);
	CHECK(err == -EINVAL, "pack of histogram count != buckets: %d", err);
	run.phases[0].lat[SC_DIR_READ]->count--;
	run.phases[1].phase = 0;
	err = sc_run_record_pack(&run, &buf, &len);
	CHECK(err == -EINVAL, "pack of phases out of order: %d", err);
	run.phases[1].phase = 2;
	err = sc_run_record_pack(&run, &buf, &len);
	CHECK(err == 0, "pack after undoing every change: %d", err);
	free(buf);
	sc_run_record_exit(&run);
}

/* ------------------------------------------------------- rejections */

enum kind { PLAN, RANK, RUN };

/* Unpacks as kind; checks the result and that a failed unpack leaves the
 * struct zeroed.  Returns the error. */
static int unpack_as(enum kind k, const uint8_t *buf, size_t len)
{
	union {
		struct sc_plan plan;
		struct sc_rank_result rank;
		struct sc_run_record run;
	} u;
	size_t size = 0;
	int err = 0;

	memset(&u, 0xa5, sizeof(u)); /* unpack must clear it */
	switch (k) {
	case PLAN:
		err = sc_plan_unpack(buf, len, &u.plan);
		size = sizeof(u.plan);
		if (!err)
			sc_plan_exit(&u.plan);
		break;
	case RANK:
		err = sc_rank_result_unpack(buf, len, &u.rank);
		size = sizeof(u.rank);
		if (!err)
			sc_rank_result_exit(&u.rank);
		break;
	case RUN:
		err = sc_run_record_unpack(buf, len, &u.run);
		size = sizeof(u.run);
		if (!err)
			sc_run_record_exit(&u.run);
		break;
	}
	if (err)
		CHECK(all_zero(&u, size), "failed unpack left the struct dirty");
	return err;
}

static const char *const kind_names[] = {"plan", "rank", "run"};

/* Every truncation, every single-byte change (three patterns per byte),
 * one byte more, and the other kinds' unpack are refused. */
static void check_damage(enum kind k, const uint8_t *buf, size_t len)
{
	uint8_t *copy = malloc(len + 1);
	static const uint8_t masks[] = {0x01, 0x80, 0xff};
	size_t bad = 0;

	if (!copy) {
		perror("malloc");
		exit(1);
	}
	CHECK(unpack_as(k, buf, len) == 0, "%s: intact buffer refused", kind_names[k]);

	for (size_t n = 0; n < len; n++) {
		/* a fresh copy of exactly n bytes, so ASan sees any overread */
		uint8_t *t = malloc(n ? n : 1);

		if (!t) {
			perror("malloc");
			exit(1);
		}
		memcpy(t, buf, n);
		if (unpack_as(k, n ? t : NULL, n) != -EBADMSG)
			bad++;
		free(t);
	}
	CHECK(bad == 0, "%s: %zu of %zu truncations not refused with -EBADMSG", kind_names[k], bad,
	      len);

	bad = 0;
	memcpy(copy, buf, len);
	for (size_t i = 0; i < len; i++) {
		for (size_t m = 0; m < sizeof(masks); m++) {
			copy[i] ^= masks[m];
			if (unpack_as(k, copy, len) != -EBADMSG) {
				if (!bad)
					fprintf(stderr, "%s: byte %zu ^ 0x%02x accepted\n",
						kind_names[k], i, masks[m]);
				bad++;
			}
			copy[i] ^= masks[m];
		}
	}
	CHECK(bad == 0, "%s: %zu of %zu single-byte changes not refused", kind_names[k], bad,
	      len * sizeof(masks));

	copy[len] = 0;
	CHECK(unpack_as(k, copy, len + 1) == -EBADMSG, "%s: trailing byte not refused",
	      kind_names[k]);
	for (int other = PLAN; other <= RUN; other++)
		if (other != (int)k)
			CHECK(unpack_as((enum kind)other, buf, len) == -EBADMSG,
			      "%s buffer accepted as %s", kind_names[k], kind_names[other]);
	memcpy(copy, "SCX1", 4);
	CHECK(unpack_as(k, copy, len) == -EBADMSG, "%s: wrong magic accepted", kind_names[k]);
	free(copy);
}

static void test_damage(void)
{
	struct sc_plan plan;
	struct sc_rank_result rank;
	struct sc_run_record run;
	uint8_t *buf;
	size_t len;

	make_plan(&plan);
	if (!sc_plan_pack(&plan, &buf, &len)) {
		check_damage(PLAN, buf, len);
		free(buf);
	}
	sc_plan_exit(&plan);

	make_rank(&rank, 1, 0, 0, 3, 9);
	if (!sc_rank_result_pack(&rank, &buf, &len)) {
		check_damage(RANK, buf, len);
		free(buf);
	}
	sc_rank_result_exit(&rank);

	make_run(&run);
	if (!pack_run(&run, &buf, &len)) {
		printf("packed run record: %zu bytes\n", len);
		check_damage(RUN, buf, len);
		free(buf);
	}
	sc_run_record_exit(&run);
}

/* ------------------------------------------- hand-made protobuf bytes */

struct pb {
	uint8_t b[4096];
	size_t n;
};

static void pb_byte(struct pb *p, uint8_t c)
{
	if (p->n == sizeof(p->b)) {
		fprintf(stderr, "test encoder buffer full\n");
		exit(1);
	}
	p->b[p->n++] = c;
}

static void pb_varint(struct pb *p, uint64_t v)
{
	while (v >= 0x80) {
		pb_byte(p, (uint8_t)(v | 0x80));
		v >>= 7;
	}
	pb_byte(p, (uint8_t)v);
}

/* Wire type 0.  Negative enums go out as 10-byte varints, as protoc does. */
static void pb_uint(struct pb *p, uint32_t field, uint64_t v)
{
	pb_varint(p, (uint64_t)field << 3);
	pb_varint(p, v);
}

static void pb_bytes(struct pb *p, uint32_t field, const void *d, size_t n)
{
	pb_varint(p, (uint64_t)field << 3 | 2);
	pb_varint(p, n);
	for (size_t i = 0; i < n; i++)
		pb_byte(p, ((const uint8_t *)d)[i]);
}

static void pb_str(struct pb *p, uint32_t field, const char *s)
{
	pb_bytes(p, field, s, strlen(s));
}

static void pb_msg(struct pb *p, uint32_t field, const struct pb *sub)
{
	pb_bytes(p, field, sub->b, sub->n);
}

static void pb_packed(struct pb *p, uint32_t field, const uint64_t *v, size_t n)
{
	struct pb tmp = {.n = 0};

	for (size_t i = 0; i < n; i++)
		pb_varint(&tmp, v[i]);
	pb_msg(p, field, &tmp);
}

/* The envelope, with the reference CRC. */
static uint8_t *seal(const char *magic, const struct pb *p, size_t *len)
{
	uint8_t *buf = malloc(12 + p->n);
	uint32_t crc = ref_crc32(p->b, p->n);

	if (!buf) {
		perror("malloc");
		exit(1);
	}
	memcpy(buf, magic, 4);
	for (int i = 0; i < 4; i++) {
		buf[4 + i] = (uint8_t)(p->n >> (8 * i));
		buf[8 + i] = (uint8_t)(crc >> (8 * i));
	}
	memcpy(buf + 12, p->b, p->n);
	*len = 12 + p->n;
	return buf;
}

/* What a hand-made message holds; good_*() give a valid one and each test
 * changes one field, so that a refusal can only come from that field. */
struct hand {
	/* plan: one target, one phase */
	uint64_t kind, rw, engine, workload, mix, cell, ncells;
	/* rank result */
	size_t host_len, error_len, npct;
	uint64_t nseconds;
	size_t ncol[6];
	uint64_t rank[2], node[2], target[2];
	/* run record: one phase record with two ranks and a read histogram */
	uint64_t nranks, nnodes, phase, count, min_ns, max_ns;
	uint64_t idx[3], cnt[3];
	size_t nidx, ncnt;
};

static struct hand good_hand(void)
{
	struct hand h = {
	    .kind = SC_TARGET_BLOCK,
	    .rw = SC_RW_RANDRW,
	    .engine = SC_ENGINE_NULL,
	    .workload = SC_WORKLOAD_IO,
	    .mix = 100,
	    .cell = 2,
	    .ncells = 3,
	    .host_len = SC_HOST_MAX - 1,
	    .error_len = SC_ERROR_MAX - 1,
	    .npct = SC_NPCT,
	    .nseconds = 3,
	    .ncol = {3, 3, 3, 3, 3, 3},
	    .rank = {0, 2},
	    .node = {0, 1},
	    .target = {0, 1},
	    .nranks = 3,
	    .nnodes = 2,
	    .phase = 0,
	    .nidx = 3,
	    .ncnt = 3,
	    .cnt = {2, 5, 1},
	};

	/* buckets 5, 300 and the last one, holding 2 + 5 + 1 values */
	h.idx[0] = 5;
	h.idx[1] = 300;
	h.idx[2] = SC_HIST_NBUCKETS - 1;
	h.count = 8;
	h.min_ns = sc_hist_bucket_low(5);
	h.max_ns = sc_hist_bucket_low(SC_HIST_NBUCKETS - 1);
	return h;
}

static void hand_plan(struct pb *out, const struct hand *h)
{
	struct pb t = {.n = 0}, t2 = {.n = 0}, io = {.n = 0}, ph = {.n = 0};

	pb_str(&t, 1, "/dev/nvme0n1");
	pb_uint(&t, 2, h->kind);
	pb_str(&t2, 1, "/mnt/b");
	pb_uint(&io, 1, h->rw);
	pb_uint(&io, 2, h->mix);
	pb_uint(&io, 3, 4096);
	pb_uint(&io, 12, h->engine);
	pb_str(&ph, 1, "p0");
	pb_uint(&ph, 4, h->cell);
	pb_uint(&ph, 5, h->ncells);
	pb_uint(&ph, 6, h->workload);
	pb_msg(&ph, 7, &io);
	pb_str(out, 1, "run");
	pb_msg(out, 3, &t);
	pb_msg(out, 3, &t2);
	pb_msg(out, 4, &ph);
}

static void hand_rank(struct pb *out, const struct hand *h, int i)
{
	char host[SC_HOST_MAX + 8], error[SC_ERROR_MAX + 8];
	uint64_t col[8] = {1, 2, 3, 4, 5, 6, 7, 8};
	uint64_t pct[SC_NPCT + 2] = {0};
	struct pb lat = {.n = 0};

	memset(host, 'h', h->host_len);
	host[h->host_len] = '\0';
	memset(error, 'e', h->error_len);
	error[h->error_len] = '\0';
	for (size_t k = 0; k < h->npct; k++)
		pct[k] = 10 + k;
	pb_uint(&lat, 1, 4);
	pb_uint(&lat, 2, 10);
	pb_uint(&lat, 3, 20);
	pb_packed(&lat, 5, pct, h->npct);

	pb_uint(out, 1, h->rank[i]);
	pb_uint(out, 2, h->node[i]);
	pb_str(out, 3, host);
	pb_uint(out, 4, h->target[i]);
	pb_uint(out, 9, 4096);
	pb_str(out, 16, error);
	pb_msg(out, 17, &lat);
	pb_uint(out, 19, h->nseconds);
	for (int c = 0; c < 6; c++)
		pb_packed(out, 20 + (uint32_t)c, col, h->ncol[c]);
}

static void hand_run(struct pb *out, const struct hand *h)
{
	struct pb plan = {.n = 0}, rec = {.n = 0}, hist = {.n = 0};
	uint64_t idx[3];

	hand_plan(&plan, h);
	for (size_t i = 0; i < 3; i++)
		idx[i] = h->idx[i];
	pb_uint(&hist, 1, h->count);
	pb_uint(&hist, 2, 12345);
	pb_uint(&hist, 3, h->min_ns);
	pb_uint(&hist, 4, h->max_ns);
	pb_packed(&hist, 5, idx, h->nidx);
	pb_packed(&hist, 6, h->cnt, h->ncnt);

	pb_uint(&rec, 1, h->phase);
	for (int i = 0; i < 2; i++) {
		struct pb rank = {.n = 0};

		hand_rank(&rank, h, i);
		pb_msg(&rec, 4, &rank);
	}
	pb_msg(&rec, 5, &hist);

	pb_str(out, 1, "0.1.0");
	pb_uint(out, 3, h->nranks);
	pb_uint(out, 4, h->nnodes);
	pb_msg(out, 5, &plan);
	pb_msg(out, 6, &rec);
}

static int hand_unpack(enum kind k, const struct hand *h)
{
	static const char *const magic[] = {"SCP1", "SCR1", "SCF1"};
	struct pb p = {.n = 0};
	uint8_t *buf;
	size_t len;
	int err;

	switch (k) {
	case PLAN:
		hand_plan(&p, h);
		break;
	case RANK:
		hand_rank(&p, h, 0);
		break;
	case RUN:
		hand_run(&p, h);
		break;
	}
	buf = seal(magic[k], &p, &len);
	err = unpack_as(k, buf, len);
	free(buf);
	return err;
}

#define REFUSED(k, field, value)                                                                   \
	do {                                                                                       \
		struct hand h_ = good_hand();                                                      \
		h_.field = (value);                                                                \
		int e_ = hand_unpack((k), &h_);                                                    \
		CHECK(e_ == -EBADMSG, "%s with %s = %s: got %d, want -EBADMSG", kind_names[k],     \
		      #field, #value, e_);                                                         \
	} while (0)

#define ACCEPTED(k, field, value)                                                                  \
	do {                                                                                       \
		struct hand h_ = good_hand();                                                      \
		h_.field = (value);                                                                \
		int e_ = hand_unpack((k), &h_);                                                    \
		CHECK(e_ == 0, "%s with %s = %s: got %d, want 0", kind_names[k], #field, #value,   \
		      e_);                                                                         \
	} while (0)

static void test_hand_made(void)
{
	struct hand good = good_hand();

	/* the unchanged message is valid, so each refusal below is the
	 * changed field's */
	CHECK(hand_unpack(PLAN, &good) == 0, "hand-made plan refused");
	CHECK(hand_unpack(RANK, &good) == 0, "hand-made rank result refused");
	CHECK(hand_unpack(RUN, &good) == 0, "hand-made run record refused");

	/* enums */
	REFUSED(PLAN, kind, SC_TARGET_COUNT);
	REFUSED(PLAN, rw, SC_RW_COUNT);
	REFUSED(PLAN, rw, (uint64_t)-1);
	REFUSED(PLAN, engine, SC_ENGINE_COUNT);
	REFUSED(PLAN, workload, SC_WORKLOAD_COUNT);
	REFUSED(RUN, kind, 99);
	ACCEPTED(PLAN, rw, SC_RW_READ);
	/* ranges and indices in the plan */
	REFUSED(PLAN, mix, 101);
	REFUSED(PLAN, cell, 3);
	REFUSED(PLAN, ncells, 0);
	ACCEPTED(PLAN, cell, 0);

	/* strings that would not fit the C arrays */
	REFUSED(RANK, host_len, SC_HOST_MAX);
	REFUSED(RANK, error_len, SC_ERROR_MAX);
	ACCEPTED(RANK, host_len, 0);
	/* per-second series and summaries */
	REFUSED(RANK, nseconds, 4);
	REFUSED(RANK, nseconds, 2);
	REFUSED(RANK, ncol[4], 2);
	REFUSED(RUN, ncol[5], 4);
	REFUSED(RANK, npct, SC_NPCT - 1);
	REFUSED(RANK, npct, SC_NPCT + 1);
	{
		struct hand h = good_hand();

		h.nseconds = 0;
		memset(h.ncol, 0, sizeof(h.ncol));
		CHECK(hand_unpack(RANK, &h) == 0, "rank with no seconds refused");
	}

	/* histogram buckets */
	REFUSED(RUN, idx[2], SC_HIST_NBUCKETS);
	REFUSED(RUN, idx[2], UINT32_MAX);
	REFUSED(RUN, idx[1], 5); /* repeated index */
	REFUSED(RUN, idx[1], 4); /* decreasing */
	REFUSED(RUN, count, 9);	 /* buckets hold 8 */
	REFUSED(RUN, cnt[1], 6);
	REFUSED(RUN, ncnt, 2);
	REFUSED(RUN, nidx, 2);
	REFUSED(RUN, min_ns, 0);    /* not in the first bucket */
	REFUSED(RUN, max_ns, 1000); /* not in the last bucket */
	ACCEPTED(RUN, idx[1], 6);
	{
		/* out of order, or repeated, with every total still right */
		struct hand h = good_hand();

		h.idx[0] = 300;
		h.cnt[0] = 5;
		h.idx[1] = 5;
		h.cnt[1] = 2;
		CHECK(hand_unpack(RUN, &h) == -EBADMSG,
		      "histogram with buckets out of order accepted");
		h = good_hand();
		h.idx[1] = 5;
		h.count = 6; /* as if the second 5 replaced the first */
		CHECK(hand_unpack(RUN, &h) == -EBADMSG,
		      "histogram with a repeated bucket accepted");
		h.count = 8; /* as if the two were added */
		CHECK(hand_unpack(RUN, &h) == -EBADMSG,
		      "histogram with a repeated bucket accepted");
	}

	/* indices into the plan and the run */
	REFUSED(RUN, target[1], 2); /* the plan has 2 targets */
	REFUSED(RUN, phase, 1);	    /* and 1 phase */
	REFUSED(RUN, rank[1], 3);   /* nranks 3 */
	REFUSED(RUN, rank[1], 0);   /* not increasing */
	REFUSED(RUN, node[1], 2);   /* nnodes 2 */
	REFUSED(RUN, nranks, 0);
	ACCEPTED(RUN, target[1], 0);
	/* a lone rank result has no plan to check its target against */
	ACCEPTED(RANK, target[0], 1000);

	/* valid envelope around bytes that are not protobuf */
	struct pb junk = {.n = 0};
	uint8_t *buf;
	size_t len;

	for (int i = 0; i < 16; i++)
		pb_byte(&junk, 0xff);
	buf = seal("SCF1", &junk, &len);
	CHECK(unpack_as(RUN, buf, len) == -EBADMSG, "junk payload accepted");
	free(buf);
	/* a submessage length running past the payload */
	junk.n = 0;
	pb_varint(&junk, 5 << 3 | 2);
	pb_varint(&junk, 100);
	pb_byte(&junk, 0);
	buf = seal("SCF1", &junk, &len);
	CHECK(unpack_as(RUN, buf, len) == -EBADMSG, "overlong field accepted");
	free(buf);
}

int main(void)
{
	static const uint8_t check[] = "123456789";

	/* the reference CRC is the standard one */
	CHECK(ref_crc32(check, 9) == 0xcbf43926u, "reference CRC-32 broken");

	test_plan_roundtrip();
	test_plan_null_strings();
	test_rank_roundtrip();
	test_run_roundtrip();
	test_pack_refuses();
	test_damage();
	test_hand_made();

	return check_exit("test_codec");
}
