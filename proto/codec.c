/* codec.c -- plan and results to and from enveloped protobuf bytes.
 *
 * Wire layout and field numbers: ssdcluster.proto.  The same checks guard
 * both directions: _pack refuses (-EINVAL) a struct that _unpack would
 * refuse (-EBADMSG), so whatever is written can be read back.
 */
#include "codec.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "ssdcluster.pb-c.h"

/* Envelope: magic[4], payload length u32 LE, crc32(payload) u32 LE. */
#define ENV_MAGIC_LEN 4u
#define ENV_HDR_LEN   12u
#define MAGIC_PLAN    "SCP1"
#define MAGIC_RANK    "SCR1"
#define MAGIC_RUN     "SCF1"

/* The wire enums carry the C values unchanged; a new C value must be added
 * to ssdcluster.proto too (these fail until it is). */
#define SAME_ENUM(c, pb) _Static_assert((int)(c) == (int)(pb), #c " != " #pb)
SAME_ENUM(SC_RW_READ, SSDCLUSTER__RW__RW_READ);
SAME_ENUM(SC_RW_WRITE, SSDCLUSTER__RW__RW_WRITE);
SAME_ENUM(SC_RW_RANDREAD, SSDCLUSTER__RW__RW_RANDREAD);
SAME_ENUM(SC_RW_RANDWRITE, SSDCLUSTER__RW__RW_RANDWRITE);
SAME_ENUM(SC_RW_RANDRW, SSDCLUSTER__RW__RW_RANDRW);
SAME_ENUM(SC_RW_COUNT, SSDCLUSTER__RW__RW_RANDRW + 1);
SAME_ENUM(SC_ENGINE_URING, SSDCLUSTER__ENGINE__ENGINE_URING);
SAME_ENUM(SC_ENGINE_PSYNC, SSDCLUSTER__ENGINE__ENGINE_PSYNC);
SAME_ENUM(SC_ENGINE_NULL, SSDCLUSTER__ENGINE__ENGINE_NULL);
SAME_ENUM(SC_ENGINE_COUNT, SSDCLUSTER__ENGINE__ENGINE_NULL + 1);
SAME_ENUM(SC_TARGET_DIR, SSDCLUSTER__TARGET_KIND__TARGET_DIR);
SAME_ENUM(SC_TARGET_FILE, SSDCLUSTER__TARGET_KIND__TARGET_FILE);
SAME_ENUM(SC_TARGET_BLOCK, SSDCLUSTER__TARGET_KIND__TARGET_BLOCK);
SAME_ENUM(SC_TARGET_COUNT, SSDCLUSTER__TARGET_KIND__TARGET_BLOCK + 1);
SAME_ENUM(SC_WORKLOAD_IO, SSDCLUSTER__WORKLOAD__WORKLOAD_IO);
SAME_ENUM(SC_WORKLOAD_CHECKPOINT, SSDCLUSTER__WORKLOAD__WORKLOAD_CHECKPOINT);
SAME_ENUM(SC_WORKLOAD_INGEST, SSDCLUSTER__WORKLOAD__WORKLOAD_INGEST);
SAME_ENUM(SC_WORKLOAD_KVCACHE, SSDCLUSTER__WORKLOAD__WORKLOAD_KVCACHE);
SAME_ENUM(SC_WORKLOAD_COUNT, SSDCLUSTER__WORKLOAD__WORKLOAD_KVCACHE + 1);
SAME_ENUM(SC_STONEWALL_ALL_DONE, SSDCLUSTER__STONEWALL__STONEWALL_ALL_DONE);
SAME_ENUM(SC_STONEWALL_FIRST_DONE, SSDCLUSTER__STONEWALL__STONEWALL_FIRST_DONE);
SAME_ENUM(SC_STONEWALL_COUNT, SSDCLUSTER__STONEWALL__STONEWALL_FIRST_DONE + 1);
SAME_ENUM(SC_PHASE_OK, SSDCLUSTER__PHASE_STATUS__PHASE_OK);
SAME_ENUM(SC_PHASE_ERRORS, SSDCLUSTER__PHASE_STATUS__PHASE_ERRORS);
SAME_ENUM(SC_PHASE_STOPPED_ON_ERROR, SSDCLUSTER__PHASE_STATUS__PHASE_STOPPED_ON_ERROR);
SAME_ENUM(SC_PHASE_ABORTED, SSDCLUSTER__PHASE_STATUS__PHASE_ABORTED);
SAME_ENUM(SC_PHASE_INTERRUPTED, SSDCLUSTER__PHASE_STATUS__PHASE_INTERRUPTED);
SAME_ENUM(SC_PHASE_TIMED_OUT, SSDCLUSTER__PHASE_STATUS__PHASE_TIMED_OUT);
SAME_ENUM(SC_PHASE_STATUS_COUNT, SSDCLUSTER__PHASE_STATUS__PHASE_TIMED_OUT + 1);

/* DeepSpeed ZeRO stages 0..3 (struct sc_ckpt_layout.zero_stage). */
#define ZERO_STAGE_MAX 3u
/* struct sc_io_failure.op: read, write or fsync (enum sc_op). */
#define SC_IO_FAILURE_OP_MAX 2u

/* Times in a result (relative to a phase's start, or clock offsets) stay
 * within +-2^61 ns (73 years), so the difference of any two fits in
 * 64 bits: a damaged file cannot make the figures overflow. */
#define TIME_MAX_NS (INT64_C(1) << 61)

/* ------------------------------------------------------------ checks */

static bool enum_in(int v, int count)
{
	return v >= 0 && v < count;
}

static bool io_ok(const struct sc_io_spec *io)
{
	return enum_in((int)io->rw, SC_RW_COUNT) && enum_in((int)io->engine, SC_ENGINE_COUNT) &&
	       enum_in((int)io->verify, SC_VERIFY_COUNT) &&
	       enum_in((int)io->on_error, SC_ON_ERROR_COUNT) && io->rwmixread_pct <= 100 &&
	       io->inject.ppm <= 1000000u;
}

/* Only a checkpoint phase's spec is checked: the others carry it zeroed. */
static bool ckpt_ok(const struct sc_ckpt_spec *c)
{
	return c->checkpoints >= 1 && c->index >= 1 && c->index <= c->checkpoints &&
	       isfinite(c->scale) && c->scale > 0 && c->scale <= 1 &&
	       c->layout.zero_stage <= ZERO_STAGE_MAX;
}

/* Only an ingest phase's spec is checked: the others carry it zeroed. */
static bool ingest_ok(const struct sc_ingest_spec *g)
{
	return g->files >= 1 && g->batch >= 1 && g->sample_bytes >= 1 &&
	       g->sample_bytes <= g->file_bytes;
}

static bool phase_ok(const struct sc_phase *ph)
{
	if (!enum_in((int)ph->workload, SC_WORKLOAD_COUNT) ||
	    !enum_in((int)ph->stonewall, SC_STONEWALL_COUNT) || ph->cell >= ph->ncells ||
	    !io_ok(&ph->io))
		return false;
	/* a C array, read as a string whatever the workload */
	if (!memchr(ph->ckpt.model.name, '\0', SC_CKPT_MODEL_NAME_MAX))
		return false;
	if (ph->workload == SC_WORKLOAD_CHECKPOINT && !ckpt_ok(&ph->ckpt))
		return false;
	if (ph->workload == SC_WORKLOAD_INGEST && !ingest_ok(&ph->ingest))
		return false;
	return true;
}

static bool plan_ok(const struct sc_plan *p)
{
	if ((p->ntargets && !p->targets) || (p->nphases && !p->phases))
		return false;
	for (uint32_t i = 0; i < p->ntargets; i++)
		if (!enum_in((int)p->targets[i].kind, SC_TARGET_COUNT))
			return false;
	for (uint32_t i = 0; i < p->nphases; i++)
		if (!phase_ok(&p->phases[i]))
			return false;
	return true;
}

static bool lat_ok(const struct sc_lat_summary *s)
{
	if (!isfinite(s->mean_ns))
		return false;
	if (s->count)
		return s->min_ns <= s->max_ns;
	if (s->min_ns || s->max_ns || s->mean_ns != 0)
		return false;
	for (int i = 0; i < SC_NPCT; i++)
		if (s->pct_ns[i])
			return false;
	return true;
}

static bool time_ok(int64_t ns)
{
	return ns > -TIME_MAX_NS && ns < TIME_MAX_NS;
}

/* Failed I/Os: errno counts in increasing errno order summing to errors
 * (or none, as before they were kept), and at most SC_IO_FAILURES_KEPT
 * kept failures, no more than errors, in time order. */
static bool failures_ok(const struct sc_rank_result *r)
{
	uint64_t sum = 0;

	if ((r->nerrnos && !r->errnos) || (r->nfailures && !r->failures) ||
	    r->nfailures > SC_IO_FAILURES_KEPT || r->nfailures > r->errors ||
	    (r->nfailures && !r->nerrnos))
		return false;
	for (uint32_t i = 0; i < r->nerrnos; i++) {
		const struct sc_errno_count *e = &r->errnos[i];

		if (e->err < 0 || e->err >= SC_ERRNO_SLOTS || !e->count || sum + e->count < sum ||
		    (i && e->err <= r->errnos[i - 1].err))
			return false;
		sum += e->count;
	}
	if (r->nerrnos && sum != r->errors)
		return false;
	for (uint32_t i = 0; i < r->nfailures; i++) {
		const struct sc_io_failure *f = &r->failures[i];

		if (f->op > SC_IO_FAILURE_OP_MAX || f->err < 0 || f->err >= SC_ERRNO_SLOTS ||
		    !memchr(f->file, '\0', SC_IO_FAILURE_FILE_MAX) ||
		    (i && f->time_ns < r->failures[i - 1].time_ns))
			return false;
	}
	return true;
}

/* plan: the run's plan, or NULL when the result travels on its own. */
static bool rank_ok(const struct sc_rank_result *r, const struct sc_plan *plan)
{
	if (!memchr(r->host, '\0', SC_HOST_MAX) || !memchr(r->error, '\0', SC_ERROR_MAX) ||
	    !failures_ok(r))
		return false;
	if (!time_ok(r->clock_offset_ns) || !time_ok(r->start_ns) || !time_ok(r->end_ns) ||
	    !time_ok(r->busy_end_ns))
		return false;
	if (r->nseconds && !r->seconds)
		return false;
	if (plan && r->target >= plan->ntargets)
		return false;
	if (r->verify_nkept > SC_VERIFY_KEEP || (r->verify_nkept && !r->verify_kept) ||
	    r->verify_nkept > r->verify_mismatches)
		return false;
	for (int d = 0; d < SC_DIR_COUNT; d++)
		if (!lat_ok(&r->lat[d]) || !lat_ok(&r->resp[d]))
			return false;
	return lat_ok(&r->batch_wait);
}

/* Bucket counts add up to count, and min and max sit in the first and
 * last nonzero buckets (the empty histogram is what sc_hist_init makes). */
static bool hist_ok(const struct sc_hist *h)
{
	uint64_t sum = 0;
	uint32_t first = SC_HIST_NBUCKETS, last = 0;

	for (uint32_t i = 0; i < SC_HIST_NBUCKETS; i++) {
		if (!h->buckets[i])
			continue;
		if (sum + h->buckets[i] < sum)
			return false;
		sum += h->buckets[i];
		if (first == SC_HIST_NBUCKETS)
			first = i;
		last = i;
	}
	if (sum != h->count)
		return false;
	if (!h->count)
		return h->min_ns == UINT64_MAX && h->max_ns == 0 && h->sum_ns == 0;
	return h->min_ns <= h->max_ns && sc_hist_index(h->min_ns) == first &&
	       sc_hist_index(h->max_ns) == last;
}

static bool phase_record_ok(const struct sc_phase_record *ph, const struct sc_run_record *run)
{
	if (ph->phase >= run->plan.nphases || (ph->nranks && !ph->ranks) ||
	    !enum_in((int)ph->status, SC_PHASE_STATUS_COUNT))
		return false;
	if (!time_ok(ph->measure_start_ns) || !time_ok(ph->firstdone_ns) ||
	    !time_ok(ph->merge_ns))
		return false;
	for (uint32_t i = 0; i < ph->nranks; i++) {
		const struct sc_rank_result *r = &ph->ranks[i];

		if (r->rank >= run->nranks || r->node >= run->nnodes ||
		    (i && r->rank <= ph->ranks[i - 1].rank) || !rank_ok(r, &run->plan))
			return false;
	}
	for (int d = 0; d < SC_DIR_COUNT; d++)
		if ((ph->lat[d] && !hist_ok(ph->lat[d])) || (ph->resp[d] && !hist_ok(ph->resp[d])))
			return false;
	return !ph->batch_wait || hist_ok(ph->batch_wait);
}

static bool run_ok(const struct sc_run_record *run)
{
	if (!plan_ok(&run->plan) || (run->nphases && !run->phases))
		return false;
	for (uint32_t i = 0; i < run->nphases; i++) {
		if (i && run->phases[i].phase <= run->phases[i - 1].phase)
			return false;
		if (!phase_record_ok(&run->phases[i], run))
			return false;
	}
	return true;
}

/* ---------------------------------------------------------- envelope */

static void put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static uint32_t get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint32_t payload_crc(const uint8_t *p, uint32_t len)
{
	return (uint32_t)crc32(0L, p, len);
}

/* Packs msg behind an envelope into a new buffer. */
static int seal(const ProtobufCMessage *msg, const char *magic, uint8_t **out, size_t *len)
{
	size_t n = protobuf_c_message_get_packed_size(msg);
	uint8_t *buf;

	if (n > UINT32_MAX)
		return -EMSGSIZE;
	buf = malloc(ENV_HDR_LEN + n);
	if (!buf)
		return -ENOMEM;
	if (protobuf_c_message_pack(msg, buf + ENV_HDR_LEN) != n) {
		free(buf);
		return -EINVAL;
	}
	memcpy(buf, magic, ENV_MAGIC_LEN);
	put_le32(buf + 4, (uint32_t)n);
	put_le32(buf + 8, payload_crc(buf + ENV_HDR_LEN, (uint32_t)n));
	*out = buf;
	*len = ENV_HDR_LEN + n;
	return 0;
}

/* What decoding len bytes may allocate, in protobuf-c's messages and again
 * in the C structs: plenty for real results (a phase record of a few
 * hundred bytes holds up to five 34 KiB histograms), and bounded for
 * damaged or hostile bytes (a 1 MB file of empty histograms once made
 * 14 GB of them). */
#define DECODE_BASE_BYTES     (UINT64_C(64) << 20)
#define DECODE_BYTES_PER_BYTE UINT64_C(1024)
#define DECODE_MAX_BYTES      (UINT64_C(2) << 30)

static uint64_t decode_budget(size_t len)
{
	uint64_t b = DECODE_BASE_BYTES + (uint64_t)len * DECODE_BYTES_PER_BYTE;

	return b < DECODE_MAX_BYTES ? b : DECODE_MAX_BYTES;
}

struct pb_alloc_state {
	bool failed;	/* out of memory */
	bool over;	/* past the budget */
	uint64_t left;	/* of the budget */
};

static void *pb_alloc(void *data, size_t size)
{
	struct pb_alloc_state *st = data;
	void *p;

	if (size > st->left) {
		st->over = true;
		return NULL;
	}
	st->left -= size;
	p = malloc(size ? size : 1);
	if (!p)
		st->failed = true;
	return p;
}

static void pb_free(void *data, void *p)
{
	(void)data;
	free(p);
}

/* Checks the envelope and unpacks its payload; free the result with
 * protobuf_c_message_free_unpacked(msg, NULL). */
static int open_envelope(const uint8_t *buf, size_t len, const char *magic,
			 const ProtobufCMessageDescriptor *desc, ProtobufCMessage **msg)
{
	struct pb_alloc_state st = {.failed = false, .left = decode_budget(len)};
	ProtobufCAllocator al = {.alloc = pb_alloc, .free = pb_free, .allocator_data = &st};
	uint32_t n;

	*msg = NULL;
	if (!buf || len < ENV_HDR_LEN || memcmp(buf, magic, ENV_MAGIC_LEN))
		return -EBADMSG;
	n = get_le32(buf + 4);
	if (n != len - ENV_HDR_LEN || get_le32(buf + 8) != payload_crc(buf + ENV_HDR_LEN, n))
		return -EBADMSG;
	*msg = protobuf_c_message_unpack(desc, &al, n, buf + ENV_HDR_LEN);
	if (!*msg)
		return st.over ? -EFBIG : st.failed ? -ENOMEM : -EBADMSG;
	return 0;
}

/* ------------------------------------------------- C structs -> protobuf */

/* Everything a pack builds lives in one arena, freed at once. */
struct chunk {
	struct chunk *next;
	max_align_t data[];
};

struct arena {
	struct chunk *head;
};

/* Zeroed room for n objects of size bytes, or NULL. */
static void *arena_alloc(struct arena *a, size_t n, size_t size)
{
	struct chunk *c;

	if (size && n > (SIZE_MAX - sizeof(*c)) / size)
		return NULL;
	c = calloc(1, sizeof(*c) + n * size);
	if (!c)
		return NULL;
	c->next = a->head;
	a->head = c;
	return c->data;
}

static void arena_free(struct arena *a)
{
	while (a->head) {
		struct chunk *c = a->head;

		a->head = c->next;
		free(c);
	}
}

/* protobuf-c takes char * but only reads it when packing. */
static char *pb_str(const char *s)
{
	return (char *)(s ? s : "");
}

static Ssdcluster__CkptSpec *ckpt_to_pb(struct arena *a, const struct sc_ckpt_spec *c)
{
	Ssdcluster__CkptSpec *m = arena_alloc(a, 1, sizeof(*m));
	Ssdcluster__CkptSpec__Model *mo = arena_alloc(a, 1, sizeof(*mo));
	Ssdcluster__CkptSpec__Layout *l = arena_alloc(a, 1, sizeof(*l));

	if (!m || !mo || !l)
		return NULL;
	ssdcluster__ckpt_spec__model__init(mo);
	mo->name = (char *)c->model.name;
	mo->layers = c->model.layers;
	mo->hidden = c->model.hidden;
	mo->ffn_hidden = c->model.ffn_hidden;
	mo->heads = c->model.heads;
	mo->kv_heads = c->model.kv_heads;
	mo->vocab = c->model.vocab;
	mo->model_dtype_bytes = c->model.model_dtype_bytes;
	mo->optim_bytes_per_param = c->model.optim_bytes_per_param;
	ssdcluster__ckpt_spec__layout__init(l);
	l->tp = c->layout.tp;
	l->pp = c->layout.pp;
	l->dp = c->layout.dp;
	l->zero_stage = c->layout.zero_stage;
	ssdcluster__ckpt_spec__init(m);
	m->model = mo;
	m->layout = l;
	m->checkpoints = c->checkpoints;
	m->index = c->index;
	m->restore = c->restore;
	m->restore_shift = c->restore_shift;
	m->compute_before_ns = c->compute_before_ns;
	m->scale = c->scale;
	m->fsync = c->fsync;
	return m;
}

static Ssdcluster__IngestSpec *ingest_to_pb(struct arena *a, const struct sc_ingest_spec *g)
{
	Ssdcluster__IngestSpec *m = arena_alloc(a, 1, sizeof(*m));

	if (!m)
		return NULL;
	ssdcluster__ingest_spec__init(m);
	m->files = g->files;
	m->file_bytes = g->file_bytes;
	m->sample_bytes = g->sample_bytes;
	m->batch = g->batch;
	m->compute_per_batch_ns = g->compute_per_batch_ns;
	m->epochs = g->epochs;
	m->prefetch = g->prefetch;
	return m;
}

static Ssdcluster__Plan *plan_to_pb(struct arena *a, const struct sc_plan *p)
{
	Ssdcluster__Plan *m = arena_alloc(a, 1, sizeof(*m));

	if (!m)
		return NULL;
	ssdcluster__plan__init(m);
	m->run_id = pb_str(p->run_id);
	m->config_path = pb_str(p->config_path);
	m->allow_destroy = p->allow_destroy;

	m->n_targets = p->ntargets;
	m->targets = arena_alloc(a, p->ntargets, sizeof(*m->targets));
	Ssdcluster__Target *t = arena_alloc(a, p->ntargets, sizeof(*t));
	if (!m->targets || !t)
		return NULL;
	for (uint32_t i = 0; i < p->ntargets; i++) {
		const struct sc_target_spec *s = &p->targets[i];

		ssdcluster__target__init(&t[i]);
		t[i].path = pb_str(s->path);
		t[i].kind = (Ssdcluster__TargetKind)s->kind;
		t[i].capacity_bytes = s->capacity_bytes;
		t[i].keep = s->keep;
		t[i].allow_destroy = s->allow_destroy;
		t[i].hosts = pb_str(s->hosts);
		t[i].wipe_signatures_ok = s->wipe_signatures_ok;
		m->targets[i] = &t[i];
	}

	m->n_phases = p->nphases;
	m->phases = arena_alloc(a, p->nphases, sizeof(*m->phases));
	Ssdcluster__Phase *ph = arena_alloc(a, p->nphases, sizeof(*ph));
	Ssdcluster__IoSpec *io = arena_alloc(a, p->nphases, sizeof(*io));
	if (!m->phases || !ph || !io)
		return NULL;
	for (uint32_t i = 0; i < p->nphases; i++) {
		const struct sc_phase *s = &p->phases[i];

		ssdcluster__phase__init(&ph[i]);
		ph[i].name = pb_str(s->name);
		ph[i].group = pb_str(s->group);
		ph[i].config_index = s->config_index;
		ph[i].cell = s->cell;
		ph[i].ncells = s->ncells;
		ph[i].workload = (Ssdcluster__Workload)s->workload;
		ph[i].stonewall = (Ssdcluster__Stonewall)s->stonewall;

		ssdcluster__io_spec__init(&io[i]);
		io[i].rw = (Ssdcluster__Rw)s->io.rw;
		io[i].rwmixread_pct = s->io.rwmixread_pct;
		io[i].bs_bytes = s->io.bs_bytes;
		io[i].iodepth = s->io.iodepth;
		io[i].jobs = s->io.jobs;
		io[i].size_bytes = s->io.size_bytes;
		io[i].runtime_ns = s->io.runtime_ns;
		io[i].io_bytes = s->io.io_bytes;
		io[i].ramp_ns = s->io.ramp_ns;
		io[i].fsync_every = s->io.fsync_every;
		io[i].direct = s->io.direct;
		io[i].engine = (Ssdcluster__Engine)s->io.engine;
		io[i].seed = s->io.seed;
		io[i].rate_iops = s->io.rate_iops;
		io[i].verify = (Ssdcluster__Verify)s->io.verify;
		io[i].verify_only = s->io.verify_only;
		io[i].on_error = (Ssdcluster__OnError)s->io.on_error;
		io[i].timeout_ns = s->io.timeout_ns;
		io[i].inject_every = s->io.inject.every;
		io[i].inject_ppm = s->io.inject.ppm;
		io[i].inject_errno = s->io.inject.errno_val;
		ph[i].io = &io[i];
		ph[i].ckpt = ckpt_to_pb(a, &s->ckpt);
		ph[i].ingest = ingest_to_pb(a, &s->ingest);
		if (!ph[i].ckpt || !ph[i].ingest)
			return NULL;
		m->phases[i] = &ph[i];
	}
	return m;
}

static Ssdcluster__LatSummary *lat_to_pb(struct arena *a, const struct sc_lat_summary *s)
{
	Ssdcluster__LatSummary *m = arena_alloc(a, 1, sizeof(*m));

	if (!m)
		return NULL;
	ssdcluster__lat_summary__init(m);
	m->count = s->count;
	m->min_ns = s->min_ns;
	m->max_ns = s->max_ns;
	m->mean_ns = s->mean_ns;
	m->n_pct_ns = SC_NPCT;
	m->pct_ns = (uint64_t *)s->pct_ns;
	return m;
}

static int failures_to_pb(struct arena *a, const struct sc_rank_result *r,
			  Ssdcluster__RankResult *m)
{
	Ssdcluster__ErrnoCount *e = arena_alloc(a, r->nerrnos, sizeof(*e));
	Ssdcluster__IoFailure *f = arena_alloc(a, r->nfailures, sizeof(*f));

	m->errnos = arena_alloc(a, r->nerrnos, sizeof(*m->errnos));
	m->failures = arena_alloc(a, r->nfailures, sizeof(*m->failures));
	if (!e || !f || !m->errnos || !m->failures)
		return -ENOMEM;
	m->n_errnos = r->nerrnos;
	for (uint32_t i = 0; i < r->nerrnos; i++) {
		ssdcluster__errno_count__init(&e[i]);
		e[i].err = r->errnos[i].err;
		e[i].count = r->errnos[i].count;
		m->errnos[i] = &e[i];
	}
	m->n_failures = r->nfailures;
	for (uint32_t i = 0; i < r->nfailures; i++) {
		const struct sc_io_failure *s = &r->failures[i];

		ssdcluster__io_failure__init(&f[i]);
		f[i].time_ns = s->time_ns;
		f[i].offset_bytes = s->offset_bytes;
		f[i].len_bytes = s->len_bytes;
		f[i].err = s->err;
		f[i].op = s->op;
		f[i].job = s->job;
		f[i].file = (char *)s->file;
		m->failures[i] = &f[i];
	}
	return 0;
}

/* struct sc_verify_mismatch <-> VerifyMismatch: one list of fields drives
 * both directions (each pair has the same width, checked at compile time). */
#define VM_FIELD(pbf, cf)                                                                          \
	{offsetof(Ssdcluster__VerifyMismatch, pbf), offsetof(struct sc_verify_mismatch, cf),       \
	 sizeof(((struct sc_verify_mismatch *)0)->cf) +                                            \
	     0 * sizeof(char[sizeof(((Ssdcluster__VerifyMismatch *)0)->pbf) ==                     \
				     sizeof(((struct sc_verify_mismatch *)0)->cf)                  \
				 ? 1                                                               \
				 : -1])}
static const struct {
	size_t pb, c, size;
} vm_fields[] = {
    VM_FIELD(offset, offset),
    VM_FIELD(job, job),
    VM_FIELD(failed, failed),
    VM_FIELD(found_magic, found.magic),
    VM_FIELD(found_offset, found.offset),
    VM_FIELD(found_run_id, found.run_id),
    VM_FIELD(found_seq, found.seq),
    VM_FIELD(found_len, found.len),
    VM_FIELD(found_phase, found.phase),
    VM_FIELD(found_rank, found.rank),
    VM_FIELD(found_crc, found.crc),
    VM_FIELD(crc_data, crc_data),
    VM_FIELD(bad_bytes, bad_bytes),
    VM_FIELD(first_bad_byte, first_bad_byte),
};
#undef VM_FIELD

/* Copies every field of vm_fields from a message to a struct (to_pb false)
 * or back. */
static void vm_copy(Ssdcluster__VerifyMismatch *pb, struct sc_verify_mismatch *c, bool to_pb)
{
	for (size_t i = 0; i < sizeof(vm_fields) / sizeof(vm_fields[0]); i++) {
		char *p = (char *)pb + vm_fields[i].pb, *q = (char *)c + vm_fields[i].c;

		memcpy(to_pb ? p : q, to_pb ? q : p, vm_fields[i].size);
	}
}

/* The verify counts and kept mismatches of r into m.  0 or -ENOMEM. */
static int verify_to_pb(struct arena *a, const struct sc_rank_result *r,
			Ssdcluster__RankResult *m)
{
	Ssdcluster__VerifyMismatch *v = arena_alloc(a, r->verify_nkept, sizeof(*v));

	m->verify_checked = r->verify_checked;
	m->verify_mismatches = r->verify_mismatches;
	m->verify_kept = arena_alloc(a, r->verify_nkept, sizeof(*m->verify_kept));
	if (r->verify_nkept && (!v || !m->verify_kept))
		return -ENOMEM;
	m->n_verify_kept = r->verify_nkept;
	for (uint32_t i = 0; i < r->verify_nkept; i++) {
		ssdcluster__verify_mismatch__init(&v[i]);
		vm_copy(&v[i], &r->verify_kept[i], true);
		m->verify_kept[i] = &v[i];
	}
	return 0;
}

static Ssdcluster__RankResult *rank_to_pb(struct arena *a, const struct sc_rank_result *r)
{
	Ssdcluster__RankResult *m = arena_alloc(a, 1, sizeof(*m));
	uint32_t n = r->nseconds;

	if (!m)
		return NULL;
	ssdcluster__rank_result__init(m);
	m->rank = r->rank;
	m->node = r->node;
	m->host = (char *)r->host;
	m->target = r->target;
	m->clock_offset_ns = r->clock_offset_ns;
	m->start_ns = r->start_ns;
	m->end_ns = r->end_ns;
	m->planned_bytes = r->planned_bytes;
	m->read_bytes = r->bytes[SC_DIR_READ];
	m->write_bytes = r->bytes[SC_DIR_WRITE];
	m->read_ios = r->ios[SC_DIR_READ];
	m->write_ios = r->ios[SC_DIR_WRITE];
	m->fsyncs = r->fsyncs;
	m->firstdone_bytes = r->firstdone_bytes;
	m->errors = r->errors;
	m->error = (char *)r->error;
	m->read_lat = lat_to_pb(a, &r->lat[SC_DIR_READ]);
	m->write_lat = lat_to_pb(a, &r->lat[SC_DIR_WRITE]);
	if (!m->read_lat || !m->write_lat)
		return NULL;
	/* Usually empty: left out then (an empty summary is all zero). */
	if ((r->resp[SC_DIR_READ].count && !(m->resp_read = lat_to_pb(a, &r->resp[SC_DIR_READ]))) ||
	    (r->resp[SC_DIR_WRITE].count &&
	     !(m->resp_write = lat_to_pb(a, &r->resp[SC_DIR_WRITE]))) ||
	    (r->batch_wait.count && !(m->batch_wait = lat_to_pb(a, &r->batch_wait))) ||
	    (r->node_lat[SC_DIR_READ].count &&
	     !(m->node_read_lat = lat_to_pb(a, &r->node_lat[SC_DIR_READ]))) ||
	    (r->node_lat[SC_DIR_WRITE].count &&
	     !(m->node_write_lat = lat_to_pb(a, &r->node_lat[SC_DIR_WRITE]))))
		return NULL;
	m->late_ios = r->late_ios;
	m->unissued_ios = r->unissued_ios;
	m->files = r->files;
	m->samples = r->samples;
	m->steps = r->steps;
	m->compute_ns = r->compute_ns;
	m->busy_end_ns = r->busy_end_ns;
	m->peak_rss_bytes = r->peak_rss_bytes;
	if (failures_to_pb(a, r, m) || verify_to_pb(a, r, m))
		return NULL;

	/* One column per field of struct sc_second. */
	uint64_t *col = arena_alloc(a, (size_t)n * 6u, sizeof(*col));
	if (!col)
		return NULL;
	m->nseconds = n;
	m->n_sec_read_bytes = m->n_sec_write_bytes = n;
	m->n_sec_read_ios = m->n_sec_write_ios = n;
	m->n_sec_read_max_lat_ns = m->n_sec_write_max_lat_ns = n;
	m->sec_read_bytes = col;
	m->sec_write_bytes = col + n;
	m->sec_read_ios = col + 2u * n;
	m->sec_write_ios = col + 3u * n;
	m->sec_read_max_lat_ns = col + 4u * n;
	m->sec_write_max_lat_ns = col + 5u * n;
	for (uint32_t k = 0; k < n; k++) {
		const struct sc_second *s = &r->seconds[k];

		m->sec_read_bytes[k] = s->bytes[SC_DIR_READ];
		m->sec_write_bytes[k] = s->bytes[SC_DIR_WRITE];
		m->sec_read_ios[k] = s->ios[SC_DIR_READ];
		m->sec_write_ios[k] = s->ios[SC_DIR_WRITE];
		m->sec_read_max_lat_ns[k] = s->max_lat_ns[SC_DIR_READ];
		m->sec_write_max_lat_ns[k] = s->max_lat_ns[SC_DIR_WRITE];
	}
	return m;
}

/* Only the nonzero buckets, in index order. */
static Ssdcluster__Histogram *hist_to_pb(struct arena *a, const struct sc_hist *h)
{
	Ssdcluster__Histogram *m = arena_alloc(a, 1, sizeof(*m));
	size_t n = 0;

	if (!m)
		return NULL;
	ssdcluster__histogram__init(m);
	m->count = h->count;
	m->sum_ns = h->sum_ns;
	m->min_ns = h->min_ns;
	m->max_ns = h->max_ns;
	for (uint32_t i = 0; i < SC_HIST_NBUCKETS; i++)
		n += h->buckets[i] != 0;
	m->bucket_index = arena_alloc(a, n, sizeof(*m->bucket_index));
	m->bucket_count = arena_alloc(a, n, sizeof(*m->bucket_count));
	if (!m->bucket_index || !m->bucket_count)
		return NULL;
	for (uint32_t i = 0; i < SC_HIST_NBUCKETS; i++) {
		if (!h->buckets[i])
			continue;
		m->bucket_index[m->n_bucket_index++] = i;
		m->bucket_count[m->n_bucket_count++] = h->buckets[i];
	}
	return m;
}

static Ssdcluster__PhaseRecord *phase_record_to_pb(struct arena *a,
						   const struct sc_phase_record *ph)
{
	Ssdcluster__PhaseRecord *m = arena_alloc(a, 1, sizeof(*m));

	if (!m)
		return NULL;
	ssdcluster__phase_record__init(m);
	m->phase = ph->phase;
	m->measure_start_ns = ph->measure_start_ns;
	m->firstdone_ns = ph->firstdone_ns;
	m->merge_ns = ph->merge_ns;
	m->status = (Ssdcluster__PhaseStatus)ph->status;
	m->n_ranks = ph->nranks;
	m->ranks = arena_alloc(a, ph->nranks, sizeof(*m->ranks));
	if (!m->ranks)
		return NULL;
	for (uint32_t i = 0; i < ph->nranks; i++) {
		m->ranks[i] = rank_to_pb(a, &ph->ranks[i]);
		if (!m->ranks[i])
			return NULL;
	}
	if (ph->lat[SC_DIR_READ]) {
		m->read_lat = hist_to_pb(a, ph->lat[SC_DIR_READ]);
		if (!m->read_lat)
			return NULL;
	}
	if (ph->lat[SC_DIR_WRITE]) {
		m->write_lat = hist_to_pb(a, ph->lat[SC_DIR_WRITE]);
		if (!m->write_lat)
			return NULL;
	}
	if ((ph->resp[SC_DIR_READ] && !(m->resp_read = hist_to_pb(a, ph->resp[SC_DIR_READ]))) ||
	    (ph->resp[SC_DIR_WRITE] && !(m->resp_write = hist_to_pb(a, ph->resp[SC_DIR_WRITE]))) ||
	    (ph->batch_wait && !(m->batch_wait = hist_to_pb(a, ph->batch_wait))))
		return NULL;
	return m;
}

static Ssdcluster__RunRecord *run_to_pb(struct arena *a, const struct sc_run_record *run)
{
	Ssdcluster__RunRecord *m = arena_alloc(a, 1, sizeof(*m));

	if (!m)
		return NULL;
	ssdcluster__run_record__init(m);
	m->version = pb_str(run->version);
	m->started_unix_ns = run->started_unix_ns;
	m->nranks = run->nranks;
	m->nnodes = run->nnodes;
	m->rank0_peak_rss_bytes = run->rank0_peak_rss_bytes;
	m->plan = plan_to_pb(a, &run->plan);
	m->n_phases = run->nphases;
	m->phases = arena_alloc(a, run->nphases, sizeof(*m->phases));
	if (!m->plan || !m->phases)
		return NULL;
	for (uint32_t i = 0; i < run->nphases; i++) {
		m->phases[i] = phase_record_to_pb(a, &run->phases[i]);
		if (!m->phases[i])
			return NULL;
	}
	return m;
}

/* ------------------------------------------------- protobuf -> C structs */

/* A count of repeated elements that must fit the C struct's uint32_t. */
static int count_of(size_t n, uint32_t *out)
{
	if (n > UINT32_MAX)
		return -EBADMSG;
	*out = (uint32_t)n;
	return 0;
}

static int dup_str(const char *s, char **out)
{
	*out = strdup(s ? s : "");
	return *out ? 0 : -ENOMEM;
}

/* Into a char array of cap bytes, NUL included. */
static int copy_fixed(char *dst, size_t cap, const char *s)
{
	size_t n = s ? strlen(s) : 0;

	if (n >= cap)
		return -EBADMSG;
	memcpy(dst, s ? s : "", n + 1);
	return 0;
}

/* Zeroed room for n objects, NULL when n is 0; -ENOMEM. */
static int alloc_array(void **out, size_t n, size_t size)
{
	*out = NULL;
	if (!n)
		return 0;
	*out = calloc(n, size);
	return *out ? 0 : -ENOMEM;
}

static int io_from_pb(const Ssdcluster__IoSpec *m, struct sc_io_spec *io)
{
	if (!m)
		return 0; /* every field at its default */
	if (!enum_in((int)m->rw, SC_RW_COUNT) || !enum_in((int)m->engine, SC_ENGINE_COUNT) ||
	    !enum_in((int)m->verify, SC_VERIFY_COUNT) ||
	    !enum_in((int)m->on_error, SC_ON_ERROR_COUNT))
		return -EBADMSG;
	io->rw = (enum sc_rw)m->rw;
	io->rwmixread_pct = m->rwmixread_pct;
	io->bs_bytes = m->bs_bytes;
	io->iodepth = m->iodepth;
	io->jobs = m->jobs;
	io->size_bytes = m->size_bytes;
	io->runtime_ns = m->runtime_ns;
	io->io_bytes = m->io_bytes;
	io->ramp_ns = m->ramp_ns;
	io->fsync_every = m->fsync_every;
	io->direct = m->direct;
	io->engine = (enum sc_engine_kind)m->engine;
	io->seed = m->seed;
	io->rate_iops = m->rate_iops;
	io->verify = (enum sc_verify)m->verify;
	io->verify_only = m->verify_only;
	io->on_error = (enum sc_on_error)m->on_error;
	io->timeout_ns = m->timeout_ns;
	io->inject.every = m->inject_every;
	io->inject.ppm = m->inject_ppm;
	io->inject.errno_val = m->inject_errno;
	return 0;
}

/* Absent messages leave their fields zero; plan_ok judges the values. */
static int ckpt_from_pb(const Ssdcluster__CkptSpec *m, struct sc_ckpt_spec *c)
{
	if (!m)
		return 0;
	if (m->model) {
		const Ssdcluster__CkptSpec__Model *mo = m->model;

		if (copy_fixed(c->model.name, SC_CKPT_MODEL_NAME_MAX, mo->name))
			return -EBADMSG;
		c->model.layers = mo->layers;
		c->model.hidden = mo->hidden;
		c->model.ffn_hidden = mo->ffn_hidden;
		c->model.heads = mo->heads;
		c->model.kv_heads = mo->kv_heads;
		c->model.vocab = mo->vocab;
		c->model.model_dtype_bytes = mo->model_dtype_bytes;
		c->model.optim_bytes_per_param = mo->optim_bytes_per_param;
	}
	if (m->layout) {
		c->layout.tp = m->layout->tp;
		c->layout.pp = m->layout->pp;
		c->layout.dp = m->layout->dp;
		c->layout.zero_stage = m->layout->zero_stage;
	}
	c->checkpoints = m->checkpoints;
	c->index = m->index;
	c->restore = m->restore;
	c->restore_shift = m->restore_shift;
	c->compute_before_ns = m->compute_before_ns;
	c->scale = m->scale;
	c->fsync = m->fsync;
	return 0;
}

static void ingest_from_pb(const Ssdcluster__IngestSpec *m, struct sc_ingest_spec *g)
{
	if (!m)
		return;
	g->files = m->files;
	g->file_bytes = m->file_bytes;
	g->sample_bytes = m->sample_bytes;
	g->batch = m->batch;
	g->compute_per_batch_ns = m->compute_per_batch_ns;
	g->epochs = m->epochs;
	g->prefetch = m->prefetch;
}

/* p is zeroed; on error it holds what was filled so far. */
static int plan_from_pb(const Ssdcluster__Plan *m, struct sc_plan *p)
{
	uint32_t nt, np;
	int err;

	if (!m)
		return 0; /* a run record without a plan: an empty plan */
	if ((err = dup_str(m->run_id, &p->run_id)) ||
	    (err = dup_str(m->config_path, &p->config_path)) ||
	    (err = count_of(m->n_targets, &nt)) || (err = count_of(m->n_phases, &np)) ||
	    (err = alloc_array((void **)&p->targets, nt, sizeof(*p->targets))))
		return err;
	p->ntargets = nt;
	for (uint32_t i = 0; i < nt; i++) {
		const Ssdcluster__Target *t = m->targets[i];
		struct sc_target_spec *s = &p->targets[i];

		if (!enum_in((int)t->kind, SC_TARGET_COUNT))
			return -EBADMSG;
		if ((err = dup_str(t->path, &s->path)))
			return err;
		if (t->hosts && *t->hosts && !(s->hosts = strdup(t->hosts)))
			return -ENOMEM;
		s->kind = (enum sc_target_kind)t->kind;
		s->capacity_bytes = t->capacity_bytes;
		s->keep = t->keep;
		s->allow_destroy = t->allow_destroy;
		s->wipe_signatures_ok = t->wipe_signatures_ok;
	}
	p->allow_destroy = m->allow_destroy;

	if ((err = alloc_array((void **)&p->phases, np, sizeof(*p->phases))))
		return err;
	p->nphases = np;
	for (uint32_t i = 0; i < np; i++) {
		const Ssdcluster__Phase *ph = m->phases[i];
		struct sc_phase *s = &p->phases[i];

		if (!enum_in((int)ph->workload, SC_WORKLOAD_COUNT) ||
		    !enum_in((int)ph->stonewall, SC_STONEWALL_COUNT))
			return -EBADMSG;
		if ((err = dup_str(ph->name, &s->name)) || (err = dup_str(ph->group, &s->group)) ||
		    (err = io_from_pb(ph->io, &s->io)) || (err = ckpt_from_pb(ph->ckpt, &s->ckpt)))
			return err;
		ingest_from_pb(ph->ingest, &s->ingest);
		s->config_index = ph->config_index;
		s->cell = ph->cell;
		s->ncells = ph->ncells;
		s->workload = (enum sc_workload)ph->workload;
		s->stonewall = (enum sc_stonewall)ph->stonewall;
	}
	return 0;
}

static int lat_from_pb(const Ssdcluster__LatSummary *m, struct sc_lat_summary *s)
{
	if (!m)
		return 0; /* no I/O in that direction */
	if (m->n_pct_ns != SC_NPCT)
		return -EBADMSG;
	s->count = m->count;
	s->min_ns = m->min_ns;
	s->max_ns = m->max_ns;
	s->mean_ns = m->mean_ns;
	memcpy(s->pct_ns, m->pct_ns, sizeof(s->pct_ns));
	return 0;
}

/* rank_ok judges the values; only the strings are checked here. */
static int failures_from_pb(const Ssdcluster__RankResult *m, struct sc_rank_result *r)
{
	uint32_t ne, nf;
	int err;

	if ((err = count_of(m->n_errnos, &ne)) || (err = count_of(m->n_failures, &nf)))
		return err;
	if (nf > SC_IO_FAILURES_KEPT)
		return -EBADMSG; /* before allocating for them */
	if ((err = alloc_array((void **)&r->errnos, ne, sizeof(*r->errnos))) ||
	    (err = alloc_array((void **)&r->failures, nf, sizeof(*r->failures))))
		return err;
	r->nerrnos = ne;
	for (uint32_t i = 0; i < ne; i++) {
		r->errnos[i].err = m->errnos[i]->err;
		r->errnos[i].count = m->errnos[i]->count;
	}
	r->nfailures = nf;
	for (uint32_t i = 0; i < nf; i++) {
		const Ssdcluster__IoFailure *f = m->failures[i];
		struct sc_io_failure *d = &r->failures[i];

		if (f->op > SC_IO_FAILURE_OP_MAX ||
		    copy_fixed(d->file, SC_IO_FAILURE_FILE_MAX, f->file))
			return -EBADMSG;
		d->time_ns = f->time_ns;
		d->offset_bytes = f->offset_bytes;
		d->len_bytes = f->len_bytes;
		d->err = f->err;
		d->op = (uint8_t)f->op;
		d->job = f->job;
	}
	return 0;
}

/* The verify counts and kept mismatches of m into r (at most
 * SC_VERIFY_KEEP kept).  0, -EBADMSG or -ENOMEM. */
static int verify_from_pb(const Ssdcluster__RankResult *m, struct sc_rank_result *r)
{
	size_t n = m->n_verify_kept;
	int err;

	if (n > SC_VERIFY_KEEP)
		return -EBADMSG;
	r->verify_checked = m->verify_checked;
	r->verify_mismatches = m->verify_mismatches;
	if ((err = alloc_array((void **)&r->verify_kept, n, sizeof(*r->verify_kept))))
		return err;
	r->verify_nkept = (uint32_t)n;
	for (size_t i = 0; i < n; i++) {
		if (!m->verify_kept[i])
			return -EBADMSG;
		vm_copy(m->verify_kept[i], &r->verify_kept[i], false);
	}
	return 0;
}

/* r is zeroed; on error it holds what was filled so far. */
static int rank_from_pb(const Ssdcluster__RankResult *m, struct sc_rank_result *r)
{
	uint32_t n = m->nseconds;
	int err;

	if ((err = copy_fixed(r->host, SC_HOST_MAX, m->host)) ||
	    (err = copy_fixed(r->error, SC_ERROR_MAX, m->error)) ||
	    (err = lat_from_pb(m->read_lat, &r->lat[SC_DIR_READ])) ||
	    (err = lat_from_pb(m->write_lat, &r->lat[SC_DIR_WRITE])) ||
	    (err = lat_from_pb(m->resp_read, &r->resp[SC_DIR_READ])) ||
	    (err = lat_from_pb(m->resp_write, &r->resp[SC_DIR_WRITE])) ||
	    (err = lat_from_pb(m->batch_wait, &r->batch_wait)) ||
	    (err = lat_from_pb(m->node_read_lat, &r->node_lat[SC_DIR_READ])) ||
	    (err = lat_from_pb(m->node_write_lat, &r->node_lat[SC_DIR_WRITE])))
		return err;
	r->rank = m->rank;
	r->node = m->node;
	r->target = m->target;
	r->clock_offset_ns = m->clock_offset_ns;
	r->start_ns = m->start_ns;
	r->end_ns = m->end_ns;
	r->planned_bytes = m->planned_bytes;
	r->bytes[SC_DIR_READ] = m->read_bytes;
	r->bytes[SC_DIR_WRITE] = m->write_bytes;
	r->ios[SC_DIR_READ] = m->read_ios;
	r->ios[SC_DIR_WRITE] = m->write_ios;
	r->fsyncs = m->fsyncs;
	r->firstdone_bytes = m->firstdone_bytes;
	r->errors = m->errors;
	r->unissued_ios = m->unissued_ios;
	r->late_ios = m->late_ios;
	r->files = m->files;
	r->samples = m->samples;
	r->steps = m->steps;
	r->compute_ns = m->compute_ns;
	r->busy_end_ns = m->busy_end_ns;
	r->peak_rss_bytes = m->peak_rss_bytes;
	if ((err = verify_from_pb(m, r)))
		return err;

	if ((err = failures_from_pb(m, r)))
		return err;
	if (m->n_sec_read_bytes != n || m->n_sec_write_bytes != n || m->n_sec_read_ios != n ||
	    m->n_sec_write_ios != n || m->n_sec_read_max_lat_ns != n ||
	    m->n_sec_write_max_lat_ns != n)
		return -EBADMSG;
	if ((err = alloc_array((void **)&r->seconds, n, sizeof(*r->seconds))))
		return err;
	r->nseconds = n;
	for (uint32_t k = 0; k < n; k++) {
		struct sc_second *s = &r->seconds[k];

		s->bytes[SC_DIR_READ] = m->sec_read_bytes[k];
		s->bytes[SC_DIR_WRITE] = m->sec_write_bytes[k];
		s->ios[SC_DIR_READ] = m->sec_read_ios[k];
		s->ios[SC_DIR_WRITE] = m->sec_write_ios[k];
		s->max_lat_ns[SC_DIR_READ] = m->sec_read_max_lat_ns[k];
		s->max_lat_ns[SC_DIR_WRITE] = m->sec_write_max_lat_ns[k];
	}
	return 0;
}

/* *out stays NULL when the histogram is absent. */
static int hist_from_pb(const Ssdcluster__Histogram *m, struct sc_hist **out)
{
	struct sc_hist *h;

	if (!m)
		return 0;
	if (m->n_bucket_index != m->n_bucket_count)
		return -EBADMSG;
	h = malloc(sizeof(*h));
	if (!h)
		return -ENOMEM;
	*out = h; /* owned by the caller's record from here on */
	sc_hist_init(h);
	h->count = m->count;
	h->sum_ns = m->sum_ns;
	h->min_ns = m->min_ns;
	h->max_ns = m->max_ns;
	for (size_t i = 0; i < m->n_bucket_index; i++) {
		uint32_t idx = m->bucket_index[i];

		if (idx >= SC_HIST_NBUCKETS || (i && idx <= m->bucket_index[i - 1]))
			return -EBADMSG;
		h->buckets[idx] = m->bucket_count[i];
	}
	return 0;
}

static int phase_record_from_pb(const Ssdcluster__PhaseRecord *m, struct sc_phase_record *ph)
{
	uint32_t n;
	int err;

	ph->phase = m->phase;
	ph->measure_start_ns = m->measure_start_ns;
	ph->firstdone_ns = m->firstdone_ns;
	ph->merge_ns = m->merge_ns;
	if (!enum_in((int)m->status, SC_PHASE_STATUS_COUNT))
		return -EBADMSG;
	ph->status = (enum sc_phase_status)m->status;
	if ((err = hist_from_pb(m->read_lat, &ph->lat[SC_DIR_READ])) ||
	    (err = hist_from_pb(m->write_lat, &ph->lat[SC_DIR_WRITE])) ||
	    (err = hist_from_pb(m->resp_read, &ph->resp[SC_DIR_READ])) ||
	    (err = hist_from_pb(m->resp_write, &ph->resp[SC_DIR_WRITE])) ||
	    (err = hist_from_pb(m->batch_wait, &ph->batch_wait)) ||
	    (err = count_of(m->n_ranks, &n)) ||
	    (err = alloc_array((void **)&ph->ranks, n, sizeof(*ph->ranks))))
		return err;
	ph->nranks = n;
	for (uint32_t i = 0; i < n; i++)
		if ((err = rank_from_pb(m->ranks[i], &ph->ranks[i])))
			return err;
	return 0;
}

/* Bytes the C structs of m will take (strings counted as the payload's
 * len bytes at most), before any of them is allocated. */
static uint64_t record_cost(const Ssdcluster__RunRecord *m, size_t len)
{
	uint64_t c = sizeof(struct sc_run_record) + len;

	if (m->plan)
		c += m->plan->n_targets * sizeof(struct sc_target_spec) +
		     m->plan->n_phases * sizeof(struct sc_phase);
	c += m->n_phases * sizeof(struct sc_phase_record);
	for (size_t i = 0; i < m->n_phases; i++) {
		const Ssdcluster__PhaseRecord *p = m->phases[i];

		c += ((p->read_lat != NULL) + (p->write_lat != NULL) + (p->resp_read != NULL) +
		      (p->resp_write != NULL) + (p->batch_wait != NULL)) *
		     sizeof(struct sc_hist);
		c += p->n_ranks * sizeof(struct sc_rank_result);
		for (size_t r = 0; r < p->n_ranks; r++) {
			const Ssdcluster__RankResult *rr = p->ranks[r];

			c += rr->n_sec_read_bytes * sizeof(struct sc_second) +
			     rr->n_errnos * sizeof(struct sc_errno_count) +
			     rr->n_failures * sizeof(struct sc_io_failure) +
			     rr->n_verify_kept * sizeof(struct sc_verify_mismatch);
		}
	}
	return c;
}

static int run_from_pb(const Ssdcluster__RunRecord *m, struct sc_run_record *run)
{
	uint32_t n;
	int err;

	if ((err = dup_str(m->version, &run->version)) ||
	    (err = plan_from_pb(m->plan, &run->plan)) || (err = count_of(m->n_phases, &n)) ||
	    (err = alloc_array((void **)&run->phases, n, sizeof(*run->phases))))
		return err;
	run->started_unix_ns = m->started_unix_ns;
	run->nranks = m->nranks;
	run->nnodes = m->nnodes;
	run->rank0_peak_rss_bytes = m->rank0_peak_rss_bytes;
	run->nphases = n;
	for (uint32_t i = 0; i < n; i++)
		if ((err = phase_record_from_pb(m->phases[i], &run->phases[i])))
			return err;
	return 0;
}

/* ----------------------------------------------------------- exported */

int sc_plan_pack(const struct sc_plan *plan, uint8_t **out, size_t *len)
{
	struct arena a = {NULL};
	Ssdcluster__Plan *m;
	int err;

	*out = NULL;
	*len = 0;
	if (!plan_ok(plan))
		return -EINVAL;
	m = plan_to_pb(&a, plan);
	err = m ? seal(&m->base, MAGIC_PLAN, out, len) : -ENOMEM;
	arena_free(&a);
	return err;
}

int sc_plan_unpack(const uint8_t *buf, size_t len, struct sc_plan *plan)
{
	ProtobufCMessage *msg;
	int err;

	memset(plan, 0, sizeof(*plan));
	err = open_envelope(buf, len, MAGIC_PLAN, &ssdcluster__plan__descriptor, &msg);
	if (err)
		return err;
	err = plan_from_pb((const Ssdcluster__Plan *)msg, plan);
	if (!err && !plan_ok(plan))
		err = -EBADMSG;
	protobuf_c_message_free_unpacked(msg, NULL);
	if (err)
		sc_plan_exit(plan);
	return err;
}

int sc_rank_result_pack(const struct sc_rank_result *r, uint8_t **out, size_t *len)
{
	struct arena a = {NULL};
	Ssdcluster__RankResult *m;
	int err;

	*out = NULL;
	*len = 0;
	if (!rank_ok(r, NULL))
		return -EINVAL;
	m = rank_to_pb(&a, r);
	err = m ? seal(&m->base, MAGIC_RANK, out, len) : -ENOMEM;
	arena_free(&a);
	return err;
}

int sc_rank_result_unpack(const uint8_t *buf, size_t len, struct sc_rank_result *r)
{
	ProtobufCMessage *msg;
	int err;

	memset(r, 0, sizeof(*r));
	err = open_envelope(buf, len, MAGIC_RANK, &ssdcluster__rank_result__descriptor, &msg);
	if (err)
		return err;
	err = rank_from_pb((const Ssdcluster__RankResult *)msg, r);
	if (!err && !rank_ok(r, NULL))
		err = -EBADMSG;
	protobuf_c_message_free_unpacked(msg, NULL);
	if (err) {
		sc_rank_result_exit(r);
		memset(r, 0, sizeof(*r));
	}
	return err;
}

int sc_run_record_pack(const struct sc_run_record *rec, uint8_t **out, size_t *len)
{
	struct arena a = {NULL};
	Ssdcluster__RunRecord *m;
	int err;

	*out = NULL;
	*len = 0;
	if (!run_ok(rec))
		return -EINVAL;
	m = run_to_pb(&a, rec);
	err = m ? seal(&m->base, MAGIC_RUN, out, len) : -ENOMEM;
	arena_free(&a);
	return err;
}

int sc_run_record_unpack(const uint8_t *buf, size_t len, struct sc_run_record *rec)
{
	ProtobufCMessage *msg;
	int err;

	memset(rec, 0, sizeof(*rec));
	err = open_envelope(buf, len, MAGIC_RUN, &ssdcluster__run_record__descriptor, &msg);
	if (err)
		return err;
	if (record_cost((const Ssdcluster__RunRecord *)msg, len) > decode_budget(len))
		err = -EFBIG;
	else
		err = run_from_pb((const Ssdcluster__RunRecord *)msg, rec);
	if (!err && !run_ok(rec))
		err = -EBADMSG;
	protobuf_c_message_free_unpacked(msg, NULL);
	if (err)
		sc_run_record_exit(rec);
	return err;
}

int sc_run_record_length(const uint8_t *hdr, size_t len, uint64_t *total)
{
	_Static_assert(SC_CODEC_HEADER_BYTES == ENV_HDR_LEN, "the header the codec writes");
	if (!hdr || len < ENV_HDR_LEN || memcmp(hdr, MAGIC_RUN, ENV_MAGIC_LEN))
		return -EBADMSG;
	*total = (uint64_t)ENV_HDR_LEN + get_le32(hdr + 4);
	return 0;
}
