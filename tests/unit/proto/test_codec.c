/* test_codec.c -- plan and results survive a round trip; bad bytes do not.
 *
 * Exit 0 pass, 1 fail (each failure printed).  The hand-made payloads are
 * encoded here byte by byte, so that the test depends on the documented
 * wire format (ssdcluster.proto and its envelope), not on generated code.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "codec.h"
#include "mlperf.h"

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

/* Phase 3 of make_plan: checkpoint 10 of 10 of llama3.1-405b on MLPerf's
 * TP8 PP32 DP2 ZeRO-1, restored one node on, every field set. */
static void make_ckpt_phase(struct sc_phase *ph)
{
	ph->name = xstrdup("ckpt[index=10]");
	ph->group = xstrdup("ckpt");
	ph->config_index = 7;
	ph->cell = 9;
	ph->ncells = 10;
	ph->workload = SC_WORKLOAD_CHECKPOINT;
	ph->io = (struct sc_io_spec){
	    .rw = SC_RW_READ,
	    .bs_bytes = UINT64_C(1) << 20,
	    .iodepth = 8,
	    .jobs = 4,
	    .direct = true,
	    .engine = SC_ENGINE_PSYNC,
	    .seed = 77,
	};
	if (sc_ckpt_model_lookup("llama3.1-405b", &ph->ckpt.model) ||
	    sc_ckpt_layout_mlperf("llama3.1-405b", &ph->ckpt.layout)) {
		fprintf(stderr, "llama3.1-405b is not in the catalogue\n");
		exit(1);
	}
	ph->ckpt.checkpoints = 10;
	ph->ckpt.index = 10;
	ph->ckpt.restore = true;
	ph->ckpt.restore_shift = 1;
	ph->ckpt.compute_before_ns = UINT64_C(30000000000);
	ph->ckpt.scale = 1.0 / 3; /* every bit of the double must survive */
	ph->ckpt.fsync = true;
	ph->ckpt.async = true;
	ph->ckpt.compute_after_ns = UINT64_C(40000000000);
}

/* 2 targets and 7 phases: 3 io phases with every field away from its
 * default and several at the ends of their ranges (their checkpoint,
 * ingest and training specs all zero, as the config leaves them), then a
 * checkpoint, an ingest, a kvcache and a training phase with every field
 * of their workload set. */
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
	    .wipe_signatures_ok = true,
	};
	p->allow_destroy = true;
	p->nphases = 7;
	p->phases = xcalloc(7, sizeof(*p->phases));
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
		    .rate_iops = i == 2 ? UINT64_MAX : 1000 * i,
		    .verify = i == 1 ? SC_VERIFY_CRC32C : SC_VERIFY_NONE,
		    .verify_only = i == 2,
		    .on_error = (enum sc_on_error)i,
		    .timeout_ns = i == 2 ? UINT64_MAX : UINT64_C(90000000000) + i,
		    .inject = {.every = 1000 * i, .ppm = 1000000u - i, .errno_val = 5 + (int)i},
		    .sqpoll = i != 1,
		    .sqpoll_cpu = i == 0 ? -1 : i == 2 ? 8191 : 0,
		    .hipri = i == 1,
		    .passthrough = i == 2,
		    .numa = i == 1 ? SC_NUMA_DRIVE : SC_NUMA_NONE,
		};
		/* none, a list, the longest that fits */
		if (i == 1)
			snprintf(ph->io.cpus, sizeof(ph->io.cpus), "0-3,8");
		else if (i == 2)
			memset(ph->io.cpus, '7', sizeof(ph->io.cpus) - 1);
	}

	make_ckpt_phase(&p->phases[3]);

	struct sc_phase *ph = &p->phases[4];
	ph->name = xstrdup("ingest");
	ph->group = xstrdup("ingest");
	ph->config_index = 8;
	ph->ncells = 1;
	ph->workload = SC_WORKLOAD_INGEST;
	ph->stonewall = SC_STONEWALL_FIRST_DONE;
	ph->io = (struct sc_io_spec){
	    .iodepth = 64,
	    .jobs = 8,
	    .direct = true,
	    .seed = 4242,
	};
	ph->ingest = (struct sc_ingest_spec){
	    .files = 1024,
	    .file_bytes = UINT64_C(150) << 20,
	    .sample_bytes = UINT64_C(143) << 10,
	    .batch = 256,
	    .compute_per_batch_ns = 123456789,
	    .epochs = 3,
	    .prefetch = 4,
	    .step_barrier = true,
	};

	ph = &p->phases[5];
	ph->name = xstrdup("kvcache[rate=250000]");
	ph->group = xstrdup("kvcache");
	ph->config_index = 9;
	ph->cell = 2;
	ph->ncells = 3;
	ph->workload = SC_WORKLOAD_KVCACHE;
	ph->io = (struct sc_io_spec){
	    .rw = SC_RW_RANDRW,
	    .rwmixread_pct = 90,
	    .bs_bytes = UINT64_C(256) << 10,
	    .iodepth = 128,
	    .jobs = 2,
	    .size_bytes = UINT64_C(64) << 30,
	    .runtime_ns = UINT64_C(120000000000),
	    .engine = SC_ENGINE_URING,
	    .seed = 99,
	    .rate_iops = 250000,
	};

	/* retinanet on an h100, which v3.0 has no file for: every value
	 * given, each field distinct and past 32 bits where it is 64 */
	ph = &p->phases[6];
	ph->name = xstrdup("train");
	ph->group = xstrdup("train");
	ph->config_index = 10;
	ph->ncells = 1;
	ph->workload = SC_WORKLOAD_TRAINING;
	ph->io = (struct sc_io_spec){
	    .rw = SC_RW_RANDREAD,
	    .rwmixread_pct = 100,
	    .bs_bytes = UINT64_C(1) << 20,
	    .iodepth = 8,
	    .jobs = 6,
	    .engine = SC_ENGINE_URING,
	    .seed = 11,
	};
	ph->training = (struct sc_training_spec){
	    .benchmark = SC_MLPERF_RETINANET,
	    .accelerator = SC_MLPERF_H100,
	    .files = (UINT64_C(1) << 32) + 3,
	    .samples_per_file = 17,
	    .record_bytes = (UINT64_C(1) << 33) + 5,
	    .record_stdev_bytes = (UINT64_C(1) << 34) + 7,
	    .batch = 19,
	    .prefetch_size = 23,
	    .computation_ns = (UINT64_C(1) << 35) + 9,
	    .epochs = 29,
	    .au = 1.0 / 7, /* every bit of the double must survive */
	    .transfer_bytes = UINT64_C(3) << 20,
	    .accelerators = 31,
	    .client_memory_bytes = (UINT64_C(1) << 41) + 13,
	};
}

static void compare_ckpt(const struct sc_ckpt_spec *x, const struct sc_ckpt_spec *y,
			 const char *what, uint32_t i)
{
	const struct sc_llm *m = &x->model, *n = &y->model;

	CHECK(memcmp(m->name, n->name, sizeof(m->name)) == 0, "%s: phases[%u].ckpt.model.name",
	      what, i);
	CHECK(m->layers == n->layers, "%s: phases[%u].ckpt.model.layers", what, i);
	CHECK(m->hidden == n->hidden, "%s: phases[%u].ckpt.model.hidden", what, i);
	CHECK(m->ffn_hidden == n->ffn_hidden, "%s: phases[%u].ckpt.model.ffn_hidden", what, i);
	CHECK(m->heads == n->heads, "%s: phases[%u].ckpt.model.heads", what, i);
	CHECK(m->kv_heads == n->kv_heads, "%s: phases[%u].ckpt.model.kv_heads", what, i);
	CHECK(m->vocab == n->vocab, "%s: phases[%u].ckpt.model.vocab", what, i);
	CHECK(m->model_dtype_bytes == n->model_dtype_bytes,
	      "%s: phases[%u].ckpt.model.model_dtype_bytes", what, i);
	CHECK(m->optim_bytes_per_param == n->optim_bytes_per_param,
	      "%s: phases[%u].ckpt.model.optim_bytes_per_param", what, i);
	CHECK(x->layout.tp == y->layout.tp, "%s: phases[%u].ckpt.layout.tp", what, i);
	CHECK(x->layout.pp == y->layout.pp, "%s: phases[%u].ckpt.layout.pp", what, i);
	CHECK(x->layout.dp == y->layout.dp, "%s: phases[%u].ckpt.layout.dp", what, i);
	CHECK(x->layout.zero_stage == y->layout.zero_stage, "%s: phases[%u].ckpt.layout.zero_stage",
	      what, i);
	CHECK(x->checkpoints == y->checkpoints, "%s: phases[%u].ckpt.checkpoints", what, i);
	CHECK(x->index == y->index, "%s: phases[%u].ckpt.index", what, i);
	CHECK(x->restore == y->restore, "%s: phases[%u].ckpt.restore", what, i);
	CHECK(x->restore_shift == y->restore_shift, "%s: phases[%u].ckpt.restore_shift", what, i);
	CHECK(x->compute_before_ns == y->compute_before_ns, "%s: phases[%u].ckpt.compute_before_ns",
	      what, i);
	CHECK(x->scale == y->scale, "%s: phases[%u].ckpt.scale %.17g != %.17g", what, i, x->scale,
	      y->scale);
	CHECK(x->fsync == y->fsync, "%s: phases[%u].ckpt.fsync", what, i);
	CHECK(x->async == y->async && x->compute_after_ns == y->compute_after_ns,
	      "%s: phases[%u].ckpt.async, compute_after_ns", what, i);
}

static void compare_ingest(const struct sc_ingest_spec *x, const struct sc_ingest_spec *y,
			   const char *what, uint32_t i)
{
	CHECK(x->files == y->files, "%s: phases[%u].ingest.files", what, i);
	CHECK(x->file_bytes == y->file_bytes, "%s: phases[%u].ingest.file_bytes", what, i);
	CHECK(x->sample_bytes == y->sample_bytes, "%s: phases[%u].ingest.sample_bytes", what, i);
	CHECK(x->batch == y->batch, "%s: phases[%u].ingest.batch", what, i);
	CHECK(x->compute_per_batch_ns == y->compute_per_batch_ns,
	      "%s: phases[%u].ingest.compute_per_batch_ns", what, i);
	CHECK(x->epochs == y->epochs, "%s: phases[%u].ingest.epochs", what, i);
	CHECK(x->prefetch == y->prefetch, "%s: phases[%u].ingest.prefetch", what, i);
	CHECK(x->step_barrier == y->step_barrier, "%s: phases[%u].ingest.step_barrier", what, i);
}

static void compare_training(const struct sc_training_spec *x, const struct sc_training_spec *y,
			     const char *what, uint32_t i)
{
	CHECK(x->benchmark == y->benchmark && x->accelerator == y->accelerator,
	      "%s: phases[%u].training.benchmark, accelerator", what, i);
	CHECK(x->files == y->files, "%s: phases[%u].training.files", what, i);
	CHECK(x->samples_per_file == y->samples_per_file,
	      "%s: phases[%u].training.samples_per_file", what, i);
	CHECK(x->record_bytes == y->record_bytes && x->record_stdev_bytes == y->record_stdev_bytes,
	      "%s: phases[%u].training.record_bytes, record_stdev_bytes", what, i);
	CHECK(x->batch == y->batch && x->prefetch_size == y->prefetch_size,
	      "%s: phases[%u].training.batch, prefetch_size", what, i);
	CHECK(x->computation_ns == y->computation_ns, "%s: phases[%u].training.computation_ns",
	      what, i);
	CHECK(x->epochs == y->epochs, "%s: phases[%u].training.epochs", what, i);
	CHECK(x->au == y->au, "%s: phases[%u].training.au %.17g != %.17g", what, i, x->au, y->au);
	CHECK(x->transfer_bytes == y->transfer_bytes, "%s: phases[%u].training.transfer_bytes",
	      what, i);
	CHECK(x->accelerators == y->accelerators, "%s: phases[%u].training.accelerators", what, i);
	CHECK(x->client_memory_bytes == y->client_memory_bytes,
	      "%s: phases[%u].training.client_memory_bytes", what, i);
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
		CHECK(x->wipe_signatures_ok == y->wipe_signatures_ok,
		      "%s: targets[%u].wipe_signatures_ok", what, i);
	}
	CHECK(a->allow_destroy == b->allow_destroy, "%s: allow_destroy", what);
	for (uint32_t i = 0; i < a->nphases; i++) {
		const struct sc_phase *x = &a->phases[i], *y = &b->phases[i];
		const struct sc_io_spec *u = &x->io, *v = &y->io;

		CHECK(str_eq(x->name, y->name), "%s: phases[%u].name", what, i);
		CHECK(str_eq(x->group, y->group), "%s: phases[%u].group", what, i);
		CHECK(x->config_index == y->config_index, "%s: phases[%u].config_index", what, i);
		CHECK(x->cell == y->cell, "%s: phases[%u].cell", what, i);
		CHECK(x->ncells == y->ncells, "%s: phases[%u].ncells", what, i);
		CHECK(x->workload == y->workload, "%s: phases[%u].workload", what, i);
		CHECK(x->stonewall == y->stonewall, "%s: phases[%u].stonewall", what, i);
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
		CHECK(u->rate_iops == v->rate_iops, "%s: phases[%u].io.rate_iops", what, i);
		CHECK(u->verify == v->verify && u->verify_only == v->verify_only,
		      "%s: phases[%u].io.verify", what, i);
		CHECK(u->on_error == v->on_error, "%s: phases[%u].io.on_error", what, i);
		CHECK(u->timeout_ns == v->timeout_ns, "%s: phases[%u].io.timeout_ns", what, i);
		CHECK(u->inject.every == v->inject.every && u->inject.ppm == v->inject.ppm &&
			  u->inject.errno_val == v->inject.errno_val,
		      "%s: phases[%u].io.inject", what, i);
		CHECK(u->sqpoll == v->sqpoll && u->sqpoll_cpu == v->sqpoll_cpu &&
			  u->hipri == v->hipri && u->passthrough == v->passthrough,
		      "%s: phases[%u].io sqpoll %d/%d cpu %d/%d hipri %d/%d passthrough %d/%d", what,
		      i, u->sqpoll, v->sqpoll, u->sqpoll_cpu, v->sqpoll_cpu, u->hipri, v->hipri,
		      u->passthrough, v->passthrough);
		CHECK(!strcmp(u->cpus, v->cpus) && u->numa == v->numa,
		      "%s: phases[%u].io.cpus \"%s\" numa %d", what, i, v->cpus, v->numa);
		compare_ckpt(&x->ckpt, &y->ckpt, what, i);
		compare_ingest(&x->ingest, &y->ingest, what, i);
		compare_training(&x->training, &y->training, what, i);
	}
}

/* The drive telemetry of make_rank's row: seed 1, SC_DRIVES_MAX drives
 * with the longest strings and the largest counts; seed 2, no NVMe with
 * the longest reason; else two drives, the second's log not read after. */
static void make_drives(struct sc_rank_result *r, uint64_t seed)
{
	if (seed == 2) {
		memset(r->telemetry_none, 'n', SC_DRIVE_REASON_MAX - 1);
		return;
	}
	r->ndrives = seed == 1 ? SC_DRIVES_MAX : 2;
	r->drives = xcalloc(r->ndrives, sizeof(*r->drives));
	for (uint32_t i = 0; i < r->ndrives; i++) {
		struct sc_drive *d = &r->drives[i];

		snprintf(d->device, sizeof(d->device), "nvme%un1", i);
		snprintf(d->controller, sizeof(d->controller), "nvme%u", i);
		snprintf(d->model, sizeof(d->model), "SAMSUNG MZWLR7T6HALA-00007");
		snprintf(d->serial, sizeof(d->serial), "S6EWNA0T%06llu", (unsigned long long)seed);
		snprintf(d->firmware, sizeof(d->firmware), "MPPA5B5Q");
		d->capacity_bytes = UINT64_C(7681501126656) + i;
		d->before = (struct sc_drive_health){.valid = true,
						     .temperature_c = -5 - (int32_t)i,
						     .data_units_read = 1000 + seed,
						     .data_units_written = 2000 + seed,
						     .media_errors = i,
						     .power_on_hours = 26280 + i,
						     .critical_warning = 4,
						     .percentage_used = 3,
						     .available_spare = 97,
						     .spare_threshold = 10};
		d->after = d->before;
		d->after.data_units_written += 77;
		if (seed == 1) {
			memset(d->device, 'd', SC_DRIVE_NAME_MAX - 1);
			memset(d->model, 'm', SC_DRIVE_MODEL_MAX - 1);
			memset(d->serial, 's', SC_DRIVE_SERIAL_MAX - 1);
			memset(d->firmware, 'f', SC_DRIVE_FIRMWARE_MAX - 1);
			d->after.data_units_written = UINT64_MAX;
			d->after.media_errors = UINT64_MAX;
		}
	}
	if (seed != 1) {
		struct sc_drive_health *h = &r->drives[1].after;

		memset(h, 0, sizeof(*h));
		snprintf(h->reason, sizeof(h->reason), "health log not read: /dev/nvme1: %s",
			 strerror(EACCES));
	}
}

static void compare_health(const struct sc_drive_health *x, const struct sc_drive_health *y,
			   const char *what, uint32_t i)
{
	CHECK(x->valid == y->valid && !strcmp(x->reason, y->reason) &&
		  x->temperature_c == y->temperature_c &&
		  x->data_units_read == y->data_units_read &&
		  x->data_units_written == y->data_units_written &&
		  x->media_errors == y->media_errors && x->power_on_hours == y->power_on_hours &&
		  x->critical_warning == y->critical_warning &&
		  x->percentage_used == y->percentage_used &&
		  x->available_spare == y->available_spare &&
		  x->spare_threshold == y->spare_threshold,
	      "%s: drives[%u] health differs", what, i);
}

static void compare_drives(const struct sc_rank_result *a, const struct sc_rank_result *b,
			   const char *what)
{
	CHECK(!strcmp(a->telemetry_none, b->telemetry_none), "%s: telemetry_none", what);
	CHECK(a->ndrives == b->ndrives, "%s: ndrives %u != %u", what, a->ndrives, b->ndrives);
	for (uint32_t i = 0; i < a->ndrives && i < b->ndrives; i++) {
		const struct sc_drive *x = &a->drives[i], *y = &b->drives[i];

		CHECK(!strcmp(x->device, y->device) && !strcmp(x->controller, y->controller) &&
			  !strcmp(x->model, y->model) && !strcmp(x->serial, y->serial) &&
			  !strcmp(x->firmware, y->firmware) &&
			  x->capacity_bytes == y->capacity_bytes,
		      "%s: drives[%u] identity differs", what, i);
		compare_health(&x->before, &y->before, what, i);
		compare_health(&x->after, &y->after, what, i);
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
		sc_hist_init(h); /* response times: service time plus a queue */
		for (uint64_t v = 1; v <= 1000; v++)
			sc_hist_record(h, v * (d ? 1499 : 211) + 50000 + seed);
		sc_hist_summarize(h, &r->resp[d]);
	}
	sc_hist_init(h);
	for (uint64_t v = 1; v <= 300; v++)
		sc_hist_record(h, v * v * 1013 + seed);
	sc_hist_summarize(h, &r->batch_wait);
	free(h);
	if (seed == 2) /* no reads of their own: left out, comes back empty */
		memset(&r->resp[SC_DIR_READ], 0, sizeof(r->resp[SC_DIR_READ]));
	r->late_ios = seed == 1 ? UINT64_MAX : 4321 + seed;
	r->files = 64 + seed;
	r->samples = 3000000 + seed;
	r->steps = 11718 + seed;
	r->compute_ns = UINT64_C(45000000000) + seed;
	r->barrier_wait_ns = UINT64_C(1200000000) + seed;
	/* times may reach +-(2^61 - 1) ns: differences of two fit in 64 bits */
	r->busy_end_ns = seed == 2 ? -(INT64_C(1) << 61) + 1 : INT64_C(59990000000) + (int64_t)seed;

	r->nseconds = nseconds;
	r->seconds = nseconds ? xcalloc(nseconds, sizeof(*r->seconds)) : NULL;
	for (uint32_t k = 0; k < nseconds; k++) {
		struct sc_second *s = &r->seconds[k];

		for (int d = 0; d < SC_DIR_COUNT; d++) {
			s->bytes[d] = (UINT64_C(1) << 30) + k * 4096 + d + seed;
			s->ios[d] = 262144 + k + d + seed;
			s->max_lat_ns[d] = 2000000 + k * 1000 + d + seed;
		}
		/* a temperature in two seconds of three, none in the third */
		s->max_temp_mk = k % 3 ? SC_TEMP_MK_OFFSET + 40000 + k + seed : 0;
	}
	/* the largest varints */
	if (nseconds)
		r->seconds[nseconds - 1].bytes[SC_DIR_WRITE] = UINT64_MAX;

	/* failed I/Os: short transfers, EIO, ENOSPC; seed 1 keeps the most
	 * failures, with the longest file names and the largest errno slot */
	if (seed == 1)
		r->errors = 1000;
	r->nerrnos = 3;
	r->errnos = xcalloc(3, sizeof(*r->errnos));
	r->errnos[0] = (struct sc_errno_count){.err = 0, .count = 1};
	r->errnos[1] = (struct sc_errno_count){.err = EIO, .count = r->errors - 2};
	r->errnos[2] = (struct sc_errno_count){.err = seed == 1 ? SC_ERRNO_SLOTS - 1 : ENOSPC,
					       .count = 1};
	r->nfailures = seed == 1 ? SC_IO_FAILURES_KEPT : 3;
	r->failures = xcalloc(r->nfailures, sizeof(*r->failures));
	for (uint32_t i = 0; i < r->nfailures; i++) {
		struct sc_io_failure *f = &r->failures[i];

		f->time_ns = -5 + (int64_t)(i * 1000 + seed);
		f->offset_bytes = i == 1 ? UINT64_MAX : (uint64_t)i * 4096 + seed;
		f->len_bytes = i == 2 ? 0 : 4096;
		f->err = i ? EIO : 0;
		f->op = (uint8_t)(i % 3);
		f->job = i + (uint32_t)seed;
		snprintf(f->file, sizeof(f->file), "ssdcluster-run/r%u.j%u.dat", rank, i);
		if (seed == 1)
			memset(f->file, 'f', SC_IO_FAILURE_FILE_MAX - 1);
	}
	make_drives(r, seed);
	/* I/O options: seed 1 the longest note */
	r->opts_asked = (1u << SC_IO_OPT_COUNT) - 1;
	r->opts_unavailable = seed == 1 ? r->opts_asked : 1u << SC_IO_OPT_HIPRI;
	snprintf(r->opts_note, sizeof(r->opts_note), "hipri: no poll queues (target is vda)");
	if (seed == 1)
		memset(r->opts_note, 'o', SC_IO_OPT_NOTE_MAX - 1);
	r->blocking_ns = 1000 + seed;
	r->drain_ns = UINT64_MAX - seed;
	r->stall_ns = 7 * seed;
}

static void compare_summary(const struct sc_lat_summary *x, const struct sc_lat_summary *y,
			    const char *what, const char *name)
{
	CHECK(x->count == y->count, "%s: %s.count", what, name);
	CHECK(x->min_ns == y->min_ns, "%s: %s.min_ns", what, name);
	CHECK(x->max_ns == y->max_ns, "%s: %s.max_ns", what, name);
	CHECK(x->mean_ns == y->mean_ns, "%s: %s.mean_ns %.17g != %.17g", what, name, x->mean_ns,
	      y->mean_ns);
	for (int i = 0; i < SC_NPCT; i++)
		CHECK(x->pct_ns[i] == y->pct_ns[i], "%s: %s.pct_ns[%d]", what, name, i);
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
		char name[32];

		CHECK(a->bytes[d] == b->bytes[d], "%s: bytes[%d]", what, d);
		CHECK(a->ios[d] == b->ios[d], "%s: ios[%d]", what, d);
		snprintf(name, sizeof(name), "lat[%d]", d);
		compare_summary(&a->lat[d], &b->lat[d], what, name);
		snprintf(name, sizeof(name), "resp[%d]", d);
		compare_summary(&a->resp[d], &b->resp[d], what, name);
	}
	compare_summary(&a->batch_wait, &b->batch_wait, what, "batch_wait");
	CHECK(a->late_ios == b->late_ios, "%s: late_ios", what);
	CHECK(a->files == b->files, "%s: files", what);
	CHECK(a->samples == b->samples, "%s: samples", what);
	CHECK(a->steps == b->steps, "%s: steps", what);
	CHECK(a->compute_ns == b->compute_ns, "%s: compute_ns", what);
	CHECK(a->barrier_wait_ns == b->barrier_wait_ns, "%s: barrier_wait_ns", what);
	CHECK(a->busy_end_ns == b->busy_end_ns, "%s: busy_end_ns", what);
	CHECK(a->fsyncs == b->fsyncs, "%s: fsyncs", what);
	CHECK(a->firstdone_bytes == b->firstdone_bytes, "%s: firstdone_bytes", what);
	CHECK(a->errors == b->errors, "%s: errors", what);
	CHECK(strcmp(a->error, b->error) == 0, "%s: error \"%s\" != \"%s\"", what, a->error,
	      b->error);
	CHECK(a->nseconds == b->nseconds, "%s: nseconds %u != %u", what, a->nseconds, b->nseconds);
	if (a->nseconds == b->nseconds && a->nseconds)
		CHECK(memcmp(a->seconds, b->seconds, a->nseconds * sizeof(*a->seconds)) == 0,
		      "%s: seconds differ", what);
	CHECK(a->nerrnos == b->nerrnos, "%s: nerrnos %u != %u", what, a->nerrnos, b->nerrnos);
	for (uint32_t i = 0; i < a->nerrnos && i < b->nerrnos; i++)
		CHECK(a->errnos[i].err == b->errnos[i].err && a->errnos[i].count == b->errnos[i].count,
		      "%s: errnos[%u]", what, i);
	CHECK(a->nfailures == b->nfailures, "%s: nfailures %u != %u", what, a->nfailures,
	      b->nfailures);
	for (uint32_t i = 0; i < a->nfailures && i < b->nfailures; i++) {
		const struct sc_io_failure *x = &a->failures[i], *y = &b->failures[i];

		CHECK(x->time_ns == y->time_ns && x->offset_bytes == y->offset_bytes &&
			  x->len_bytes == y->len_bytes && x->err == y->err && x->op == y->op &&
			  x->job == y->job && !strcmp(x->file, y->file),
		      "%s: failures[%u]", what, i);
	}
	compare_drives(a, b, what);
	CHECK(a->opts_asked == b->opts_asked && a->opts_unavailable == b->opts_unavailable &&
		  strcmp(a->opts_note, b->opts_note) == 0,
	      "%s: opts %#x/%#x, %#x/%#x, \"%s\"", what, a->opts_asked, b->opts_asked,
	      a->opts_unavailable, b->opts_unavailable, b->opts_note);
	CHECK(a->blocking_ns == b->blocking_ns && a->drain_ns == b->drain_ns &&
		  a->stall_ns == b->stall_ns,
	      "%s: blocking, drain, stall", what);
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

/* 2 finished phases (plan phases 0 and 2) x 3 ranks on 2 nodes; phase 0
 * has response-time and batch-wait histograms, phase 1 none. */
static void make_run(struct sc_run_record *run)
{
	memset(run, 0, sizeof(*run));
	run->version = xstrdup("0.1.0-test");
	run->started_unix_ns = INT64_C(1714564800123456789);
	run->nranks = 3;
	run->nnodes = 2;
	run->rank0_peak_rss_bytes = UINT64_C(734003200);
	make_plan(&run->plan);
	run->nphases = 2;
	run->phases = xcalloc(2, sizeof(*run->phases));
	for (uint32_t p = 0; p < 2; p++) {
		struct sc_phase_record *ph = &run->phases[p];

		ph->phase = 2 * p;
		ph->measure_start_ns = INT64_C(5000000000) + p;
		ph->firstdone_ns = INT64_C(64000000000) + p;
		ph->merge_ns = INT64_C(1875000) + p;
		ph->status = p ? SC_PHASE_ABORTED : SC_PHASE_ERRORS;
		ph->nranks = 3;
		ph->ranks = xcalloc(3, sizeof(*ph->ranks));
		for (uint32_t r = 0; r < 3; r++)
			make_rank(&ph->ranks[r], r, r / 2, (r + p) % 2, 4 + r + p, 10 * p + r + 3);
		ph->lat[SC_DIR_WRITE] = make_hist(977 + p, 5000);
		/* phase 1 did no reads: no read histogram */
		if (p == 0) {
			ph->lat[SC_DIR_READ] = make_hist(131, 20000);
			ph->resp[SC_DIR_READ] = make_hist(211, 20000);
			ph->resp[SC_DIR_WRITE] = make_hist(1499, 5000);
			ph->batch_wait = make_hist(100003, 700);
		}
	}
}

/* Both NULL, or both there and equal in count, sum, min, max and every
 * bucket. */
static void compare_hist(const struct sc_hist *x, const struct sc_hist *y, uint32_t p,
			 const char *name)
{
	if (!x || !y) {
		CHECK(!x && !y, "run: phases[%u].%s present on one side only", p, name);
		return;
	}
	CHECK(memcmp(x, y, sizeof(*x)) == 0, "run: phases[%u].%s histograms differ", p, name);
}

static void compare_run(const struct sc_run_record *a, const struct sc_run_record *b)
{
	CHECK(str_eq(a->version, b->version), "run: version");
	CHECK(a->started_unix_ns == b->started_unix_ns, "run: started_unix_ns");
	CHECK(a->nranks == b->nranks, "run: nranks");
	CHECK(a->nnodes == b->nnodes, "run: nnodes");
	CHECK(a->rank0_peak_rss_bytes == b->rank0_peak_rss_bytes, "run: rank0_peak_rss_bytes");
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
		CHECK(x->merge_ns == y->merge_ns, "run: phases[%u].merge_ns", p);
		CHECK(x->status == y->status, "run: phases[%u].status", p);
		CHECK(x->nranks == y->nranks, "run: phases[%u].nranks", p);
		for (uint32_t r = 0; r < x->nranks && r < y->nranks; r++) {
			char what[64];

			snprintf(what, sizeof(what), "run: phases[%u].ranks[%u]", p, r);
			compare_rank(&x->ranks[r], &y->ranks[r], what);
		}
		compare_hist(x->lat[SC_DIR_READ], y->lat[SC_DIR_READ], p, "lat[read]");
		compare_hist(x->lat[SC_DIR_WRITE], y->lat[SC_DIR_WRITE], p, "lat[write]");
		compare_hist(x->resp[SC_DIR_READ], y->resp[SC_DIR_READ], p, "resp[read]");
		compare_hist(x->resp[SC_DIR_WRITE], y->resp[SC_DIR_WRITE], p, "resp[write]");
		compare_hist(x->batch_wait, y->batch_wait, p, "batch_wait");
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

	/* the ends of the checkpoint spec's ranges: the longest model name
	 * that fits, index 1, scale 1 and the smallest positive double */
	static const double scales[] = {1.0, 4.9406564584124654e-324};

	for (size_t k = 0; k < sizeof(scales) / sizeof(scales[0]); k++) {
		make_plan(&a);
		memset(a.phases[3].ckpt.model.name, 'm', SC_CKPT_MODEL_NAME_MAX - 1);
		a.phases[3].ckpt.index = 1;
		a.phases[3].ckpt.scale = scales[k];
		err = sc_plan_pack(&a, &buf, &len);
		CHECK(err == 0, "plan with checkpoint scale %g: pack %d", scales[k], err);
		if (!err) {
			err = sc_plan_unpack(buf, len, &b);
			CHECK(err == 0, "plan with checkpoint scale %g: unpack %d", scales[k], err);
			if (!err)
				compare_plan(&a, &b, "plan at range ends");
			sc_plan_exit(&b);
			free(buf);
		}
		sc_plan_exit(&a);
	}
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

/* The rows of make_run's phases as rank 0 gathers them (each packed by
 * its rank, then sc_phase_record_add_rank): results.pb's bytes, a phase
 * appended or the whole record, are protobuf-c's packing of the rows
 * byte for byte, and read back as them. */
static void test_gathered_rows(void)
{
	struct sc_run_record a, b, back;
	uint8_t *want, *got;
	size_t want_len, got_len;
	int err;

	make_run(&a);
	make_run(&b);
	for (uint32_t p = 0; p < b.nphases; p++) {
		struct sc_phase_record *ph = &b.phases[p];

		for (uint32_t r = 0; r < ph->nranks; r++)
			sc_rank_result_exit(&ph->ranks[r]);
		memset(ph->ranks, 0, ph->nranks * sizeof(*ph->ranks));
		ph->nranks = 0;
		for (uint32_t r = 0; r < a.phases[p].nranks; r++) {
			uint8_t *row;
			size_t n;

			err = sc_rank_result_pack(&a.phases[p].ranks[r], &row, &n);
			CHECK(err == 0, "gathered: pack of phase %u rank %u: %d", p, r, err);
			if (err)
				continue;
			/* a damaged row is refused and leaves the record as it was */
			size_t had = ph->ranks_wire_len;

			row[n - 1] ^= 0x40;
			err = sc_phase_record_add_rank(ph, row, n);
			CHECK(err == -EBADMSG && ph->nranks == r && ph->ranks_wire_len == had,
			      "gathered: damaged row of phase %u rank %u: %d, %u rows", p, r, err,
			      ph->nranks);
			row[n - 1] ^= 0x40;
			err = sc_phase_record_add_rank(ph, row, n);
			CHECK(err == 0, "gathered: add of phase %u rank %u: %d", p, r, err);
			free(row);
		}
		CHECK(ph->ranks_wire != NULL, "gathered: phase %u keeps no rows' bytes", p);
	}
	for (uint32_t p = 0; p < a.nphases; p++) {
		CHECK(a.phases[p].ranks_wire == NULL, "made rows keep bytes");
		err = sc_run_record_pack_phase(&a, p, &want, &want_len);
		CHECK(err == 0, "gathered: phase %u packed from the rows: %d", p, err);
		err = err ? err : sc_run_record_pack_phase(&b, p, &got, &got_len);
		CHECK(err == 0, "gathered: phase %u packed as gathered: %d", p, err);
		if (err)
			continue;
		CHECK(got_len == want_len && !memcmp(got, want, want_len),
		      "gathered: phase %u: %zu bytes, not protobuf-c's %zu", p, got_len, want_len);
		free(want);
		free(got);
	}
	if (!pack_run(&a, &want, &want_len)) {
		if (!pack_run(&b, &got, &got_len)) {
			CHECK(got_len == want_len && !memcmp(got, want, want_len),
			      "gathered: the whole record %zu bytes, not protobuf-c's %zu", got_len,
			      want_len);
			err = sc_run_record_unpack(got, got_len, &back);
			CHECK(err == 0, "gathered: unpack %d", err);
			if (!err)
				compare_run(&a, &back);
			sc_run_record_exit(&back);
			free(got);
		}
		free(want);
	}
	sc_run_record_exit(&a);
	sc_run_record_exit(&b);
}

/* Packs make_plan's plan changed by the statements after want; checks the
 * error.  Phases: 0..2 io, 3 checkpoint, 4 ingest, 5 kvcache, 6 training. */
#define PLAN_PACK(want, ...)                                                                       \
	do {                                                                                       \
		struct sc_plan p_;                                                                 \
		uint8_t *b_;                                                                       \
		size_t l_;                                                                         \
		make_plan(&p_);                                                                    \
		__VA_ARGS__;                                                                       \
		int e_ = sc_plan_pack(&p_, &b_, &l_);                                              \
		CHECK(e_ == (want), "plan pack after %s: got %d, want %s", #__VA_ARGS__, e_,       \
		      #want);                                                                      \
		if (!e_)                                                                           \
			free(b_);                                                                  \
		sc_plan_exit(&p_);                                                                 \
	} while (0)

/* The same for make_rank's rank result (seed 3: every summary there). */
#define RANK_PACK(want, ...)                                                                       \
	do {                                                                                       \
		struct sc_rank_result r_;                                                          \
		uint8_t *b_;                                                                       \
		size_t l_;                                                                         \
		make_rank(&r_, 1, 0, 0, 2, 3);                                                     \
		__VA_ARGS__;                                                                       \
		int e_ = sc_rank_result_pack(&r_, &b_, &l_);                                       \
		CHECK(e_ == (want), "rank pack after %s: got %d, want %s", #__VA_ARGS__, e_,       \
		      #want);                                                                      \
		if (!e_)                                                                           \
			free(b_);                                                                  \
		sc_rank_result_exit(&r_);                                                          \
	} while (0)

/* And make_run's run record. */
#define RUN_PACK(want, ...)                                                                        \
	do {                                                                                       \
		struct sc_run_record u_;                                                           \
		uint8_t *b_;                                                                       \
		size_t l_;                                                                         \
		make_run(&u_);                                                                     \
		__VA_ARGS__;                                                                       \
		int e_ = sc_run_record_pack(&u_, &b_, &l_);                                        \
		CHECK(e_ == (want), "run pack after %s: got %d, want %s", #__VA_ARGS__, e_,        \
		      #want);                                                                      \
		if (!e_)                                                                           \
			free(b_);                                                                  \
		sc_run_record_exit(&u_);                                                           \
	} while (0)

/* The checks of the new workloads' fields, each away from a valid plan,
 * rank result or run record by one change. */
static void test_pack_refuses_workloads(void)
{
	PLAN_PACK(0, (void)0);
	/* I/O options: a CPU only with sqpoll, none below -1; unavailable
	 * only where asked, known options only */
	PLAN_PACK(-EINVAL, p_.phases[1].io.sqpoll_cpu = 3);
	PLAN_PACK(-EINVAL, p_.phases[0].io.sqpoll_cpu = -2);
	RANK_PACK(-EINVAL, r_.opts_asked = 1u << SC_IO_OPT_SQPOLL);
	RANK_PACK(-EINVAL, r_.opts_asked = r_.opts_unavailable = 1u << SC_IO_OPT_COUNT);
	PLAN_PACK(-EINVAL, p_.phases[5].workload = SC_WORKLOAD_COUNT);
	PLAN_PACK(-EINVAL, p_.phases[5].workload = (enum sc_workload)INT_MIN);

	/* checkpoint phase */
	PLAN_PACK(-EINVAL, p_.phases[3].ckpt.scale = 0);
	PLAN_PACK(-EINVAL, p_.phases[3].ckpt.scale = -0.5);
	PLAN_PACK(-EINVAL, p_.phases[3].ckpt.scale = nextafter(1.0, 2.0));
	PLAN_PACK(-EINVAL, p_.phases[3].ckpt.scale = NAN);
	PLAN_PACK(-EINVAL, p_.phases[3].ckpt.scale = INFINITY);
	PLAN_PACK(0, p_.phases[3].ckpt.scale = 1.0);
	PLAN_PACK(-EINVAL, p_.phases[3].ckpt.index = 0);
	PLAN_PACK(-EINVAL, p_.phases[3].ckpt.index = 11); /* of 10 */
	PLAN_PACK(-EINVAL, p_.phases[3].ckpt.checkpoints = 9);
	PLAN_PACK(-EINVAL, p_.phases[3].ckpt.layout.zero_stage = 4);
	PLAN_PACK(0, p_.phases[3].ckpt.layout.zero_stage = 3);
	PLAN_PACK(-EINVAL, memset(p_.phases[3].ckpt.model.name, 'm', SC_CKPT_MODEL_NAME_MAX));
	/* ingest phase */
	PLAN_PACK(-EINVAL, p_.phases[4].ingest.files = 0);
	PLAN_PACK(-EINVAL, p_.phases[4].ingest.batch = 0);
	PLAN_PACK(-EINVAL, p_.phases[4].ingest.sample_bytes = 0);
	PLAN_PACK(-EINVAL, p_.phases[4].ingest.sample_bytes = p_.phases[4].ingest.file_bytes + 1);
	PLAN_PACK(0, p_.phases[4].ingest.sample_bytes = p_.phases[4].ingest.file_bytes);
	/* training phase: the counts at least 1, au in (0, 1] */
	PLAN_PACK(-EINVAL, p_.phases[6].training.files = 0);
	PLAN_PACK(-EINVAL, p_.phases[6].training.samples_per_file = 0);
	PLAN_PACK(-EINVAL, p_.phases[6].training.record_bytes = 0);
	PLAN_PACK(-EINVAL, p_.phases[6].training.batch = 0);
	PLAN_PACK(-EINVAL, p_.phases[6].training.epochs = 0);
	PLAN_PACK(-EINVAL, p_.phases[6].training.transfer_bytes = 0);
	PLAN_PACK(-EINVAL, p_.phases[6].training.accelerators = 0);
	PLAN_PACK(-EINVAL, p_.phases[6].training.au = 0);
	PLAN_PACK(-EINVAL, p_.phases[6].training.au = nextafter(1.0, 2.0));
	PLAN_PACK(-EINVAL, p_.phases[6].training.au = NAN);
	PLAN_PACK(0, p_.phases[6].training.au = 1.0);
	PLAN_PACK(0, p_.phases[6].training.record_stdev_bytes = 0,
		  p_.phases[6].training.prefetch_size = 0, p_.phases[6].training.computation_ns = 0,
		  p_.phases[6].training.client_memory_bytes = 0);

	/* a spec is the business of its own workload only ... */
	PLAN_PACK(0, p_.phases[0].ckpt.scale = NAN, p_.phases[0].ckpt.layout.zero_stage = 9,
		  p_.phases[4].ckpt.index = 5, p_.phases[3].ingest.sample_bytes = 1);
	PLAN_PACK(0, p_.phases[5].ingest.files = 7, p_.phases[3].ingest.batch = 0);
	PLAN_PACK(0, p_.phases[0].workload = SC_WORKLOAD_KVCACHE);
	PLAN_PACK(0, p_.phases[4].training.au = NAN, p_.phases[6].ingest.files = 0);
	/* ... so the zeroed specs of an io phase do not make a checkpoint or an
	 * ingest phase */
	PLAN_PACK(-EINVAL, p_.phases[0].workload = SC_WORKLOAD_CHECKPOINT);
	PLAN_PACK(-EINVAL, p_.phases[0].workload = SC_WORKLOAD_INGEST);
	PLAN_PACK(-EINVAL, p_.phases[0].workload = SC_WORKLOAD_TRAINING);
	/* but a model name is a C array whatever the workload */
	PLAN_PACK(-EINVAL, memset(p_.phases[0].ckpt.model.name, 'm', SC_CKPT_MODEL_NAME_MAX));

	/* response-time and batch-wait summaries */
	RANK_PACK(0, (void)0);
	RANK_PACK(-EINVAL, r_.resp[SC_DIR_WRITE].min_ns = r_.resp[SC_DIR_WRITE].max_ns + 1);
	RANK_PACK(-EINVAL, r_.resp[SC_DIR_READ].mean_ns = NAN);
	RANK_PACK(-EINVAL, r_.batch_wait.mean_ns = INFINITY);
	/* an empty summary is left out, so it must be all zero */
	RANK_PACK(-EINVAL, r_.resp[SC_DIR_READ].count = 0);
	RANK_PACK(-EINVAL, r_.batch_wait.count = 0);
	RANK_PACK(0, memset(&r_.batch_wait, 0, sizeof(r_.batch_wait)));

	/* response-time and batch-wait histograms */
	RUN_PACK(0, (void)0);
	RUN_PACK(-EINVAL, u_.phases[0].resp[SC_DIR_READ]->count++);
	RUN_PACK(-EINVAL, u_.phases[0].resp[SC_DIR_WRITE]->buckets[3]++);
	RUN_PACK(-EINVAL, u_.phases[0].batch_wait->max_ns = 0);
	RUN_PACK(-EINVAL, u_.phases[0].batch_wait->min_ns = 1000);
	RUN_PACK(-EINVAL, u_.phases[1].ranks[0].resp[SC_DIR_WRITE].min_ns = UINT64_MAX);

	/* times beyond +-2^61 ns: their differences would overflow */
	RANK_PACK(0, r_.end_ns = (INT64_C(1) << 61) - 1, r_.start_ns = -(INT64_C(1) << 61) + 1);
	RANK_PACK(-EINVAL, r_.end_ns = INT64_C(1) << 61);
	RANK_PACK(-EINVAL, r_.start_ns = INT64_MIN);
	RANK_PACK(-EINVAL, r_.busy_end_ns = INT64_MAX);
	RANK_PACK(-EINVAL, r_.clock_offset_ns = -(INT64_C(1) << 61));
	RUN_PACK(-EINVAL, u_.phases[0].measure_start_ns = INT64_MAX);
	RUN_PACK(-EINVAL, u_.phases[0].firstdone_ns = INT64_MIN);
	RUN_PACK(-EINVAL, u_.phases[0].merge_ns = INT64_C(1) << 62);
	RUN_PACK(0, sc_hist_init(u_.phases[0].batch_wait));

	/* how a phase ended */
	RUN_PACK(0, u_.phases[1].status = SC_PHASE_TIMED_OUT);
	RUN_PACK(-EINVAL, u_.phases[0].status = SC_PHASE_STATUS_COUNT);
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
	run.phases[1].status = SC_PHASE_STATUS_COUNT;
	err = sc_run_record_pack(&run, &buf, &len);
	CHECK(err == -EINVAL, "pack of phase status out of range: %d", err);
	run.phases[1].status = SC_PHASE_OK;
	{
		struct sc_rank_result *r = &run.phases[0].ranks[1];

		r->errnos[1].count++;
		CHECK(sc_run_record_pack(&run, &buf, &len) == -EINVAL,
		      "pack of errno counts that do not sum to errors");
		r->errnos[1].count--;
		r->errnos[2].err = EIO;
		CHECK(sc_run_record_pack(&run, &buf, &len) == -EINVAL,
		      "pack of errnos out of order");
		r->errnos[2].err = SC_ERRNO_SLOTS;
		CHECK(sc_run_record_pack(&run, &buf, &len) == -EINVAL,
		      "pack of an errno beyond the slots");
		r->errnos[2].err = ENOSPC;
		r->failures[1].op = 3;
		CHECK(sc_run_record_pack(&run, &buf, &len) == -EINVAL, "pack of failure op 3");
		r->failures[1].op = 1;
		r->failures[2].time_ns = r->failures[1].time_ns - 1;
		CHECK(sc_run_record_pack(&run, &buf, &len) == -EINVAL,
		      "pack of failures out of time order");
		r->failures[2].time_ns = r->failures[1].time_ns;
		/* 5 kept, 4 failed: refused before the (3-entry) array is read */
		r->nfailures = 5;
		r->errors = 4;
		r->errnos[1].count = 2;
		CHECK(sc_run_record_pack(&run, &buf, &len) == -EINVAL,
		      "pack of more kept failures than errors");
		r->nfailures = 3;
		memset(r->failures[0].file, 'x', SC_IO_FAILURE_FILE_MAX);
		CHECK(sc_run_record_pack(&run, &buf, &len) == -EINVAL,
		      "pack of an unterminated file name");
		r->failures[0].file[0] = '\0';
	}
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

/* Wire type 1, little endian, as protoc writes a double. */
static void pb_double(struct pb *p, uint32_t field, double v)
{
	uint64_t bits;

	memcpy(&bits, &v, sizeof(bits));
	pb_varint(p, (uint64_t)field << 3 | 1);
	for (int i = 0; i < 8; i++)
		pb_byte(p, (uint8_t)(bits >> (8 * i)));
}

/* sint64: zigzag. */
static uint64_t zigzag(int64_t v)
{
	return ((uint64_t)v << 1) ^ (v < 0 ? UINT64_MAX : 0);
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
	/* the phase's checkpoint and ingest specs (both valid, or left out) */
	bool no_specs;
	size_t name_len;
	double scale;
	uint64_t ckpts, index, zero;
	uint64_t files, file_bytes, sample_bytes, batch;
	/* rank result */
	size_t host_len, error_len, npct, resp_npct;
	uint64_t bw_min;
	uint64_t nseconds;
	size_t ncol[6];
	uint64_t rank[2], node[2], target[2];
	/* run record: one phase record with two ranks and a histogram, in
	 * PhaseRecord field hist_field (5: read_lat) */
	uint64_t nranks, nnodes, phase, count, min_ns, max_ns;
	uint64_t idx[3], cnt[3];
	size_t nidx, ncnt;
	uint32_t hist_field;
	size_t ntemp; /* values of column sec_max_temp_mk (43); 0: left out */
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
	    .name_len = SC_CKPT_MODEL_NAME_MAX - 1,
	    .scale = 0.25,
	    .ckpts = 4,
	    .index = 4,
	    .zero = 3,
	    .files = 2,
	    .file_bytes = UINT64_C(1) << 20,
	    .sample_bytes = UINT64_C(1) << 20,
	    .batch = 1,
	    .host_len = SC_HOST_MAX - 1,
	    .error_len = SC_ERROR_MAX - 1,
	    .npct = SC_NPCT,
	    .resp_npct = SC_NPCT,
	    .bw_min = 280,
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
	    .hist_field = 5,
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
	pb_uint(&io, 14, 100000); /* rate_iops */
	pb_str(&ph, 1, "p0");
	pb_uint(&ph, 4, h->cell);
	pb_uint(&ph, 5, h->ncells);
	pb_uint(&ph, 6, h->workload);
	pb_msg(&ph, 7, &io);
	if (!h->no_specs) {
		struct pb model = {.n = 0}, layout = {.n = 0}, ckpt = {.n = 0}, ingest = {.n = 0};
		char name[SC_CKPT_MODEL_NAME_MAX + 8];

		memset(name, 'm', h->name_len);
		name[h->name_len] = '\0';
		pb_str(&model, 1, name);
		for (uint32_t f = 2; f <= 9; f++) /* layers 200 ... optim 900 */
			pb_uint(&model, f, 100 * f);
		for (uint32_t f = 1; f <= 3; f++) /* tp 1, pp 2, dp 3 */
			pb_uint(&layout, f, f);
		pb_uint(&layout, 4, h->zero);
		pb_msg(&ckpt, 1, &model);
		pb_msg(&ckpt, 2, &layout);
		pb_uint(&ckpt, 3, h->ckpts);
		pb_uint(&ckpt, 4, h->index);
		pb_uint(&ckpt, 5, 1);	 /* restore */
		pb_uint(&ckpt, 6, 6);	 /* restore_shift */
		pb_uint(&ckpt, 7, 7000); /* compute_before_ns */
		pb_double(&ckpt, 8, h->scale);
		pb_uint(&ckpt, 9, 1); /* fsync */
		pb_uint(&ingest, 1, h->files);
		pb_uint(&ingest, 2, h->file_bytes);
		pb_uint(&ingest, 3, h->sample_bytes);
		pb_uint(&ingest, 4, h->batch);
		pb_uint(&ingest, 5, 5000); /* compute_per_batch_ns */
		pb_uint(&ingest, 6, 6);	   /* epochs */
		pb_uint(&ingest, 7, 7);	   /* prefetch */
		pb_uint(&ingest, 8, 1);	   /* step_barrier */
		pb_msg(&ph, 8, &ckpt);
		pb_msg(&ph, 9, &ingest);
	}
	pb_str(out, 1, "run");
	pb_msg(out, 3, &t);
	pb_msg(out, 3, &t2);
	pb_msg(out, 4, &ph);
}

/* A LatSummary: pct_ns[k] = min + k, npct of them. */
static void hand_lat(struct pb *out, uint32_t field, uint64_t count, uint64_t min, uint64_t max,
		     size_t npct)
{
	uint64_t pct[SC_NPCT + 2] = {0};
	struct pb lat = {.n = 0};

	for (size_t k = 0; k < npct; k++)
		pct[k] = min + k;
	pb_uint(&lat, 1, count);
	pb_uint(&lat, 2, min);
	pb_uint(&lat, 3, max);
	pb_packed(&lat, 5, pct, npct);
	pb_msg(out, field, &lat);
}

static void hand_rank(struct pb *out, const struct hand *h, int i)
{
	char host[SC_HOST_MAX + 8], error[SC_ERROR_MAX + 8];
	uint64_t col[8] = {1, 2, 3, 4, 5, 6, 7, 8};

	memset(host, 'h', h->host_len);
	host[h->host_len] = '\0';
	memset(error, 'e', h->error_len);
	error[h->error_len] = '\0';

	pb_uint(out, 1, h->rank[i]);
	pb_uint(out, 2, h->node[i]);
	pb_str(out, 3, host);
	pb_uint(out, 4, h->target[i]);
	pb_uint(out, 9, 4096);
	pb_str(out, 16, error);
	hand_lat(out, 17, 4, 10, 20, h->npct);
	pb_uint(out, 19, h->nseconds);
	for (int c = 0; c < 6; c++)
		pb_packed(out, 20 + (uint32_t)c, col, h->ncol[c]);
	/* each value tells its field number */
	hand_lat(out, 26, 26, 260, 2600, SC_NPCT);
	hand_lat(out, 27, 27, 270, 2700, h->resp_npct);
	hand_lat(out, 28, 28, h->bw_min, 2800, SC_NPCT);
	for (uint32_t f = 29; f <= 33; f++) /* late_ios .. compute_ns */
		pb_uint(out, f, 101 * f);
	pb_uint(out, 34, zigzag(-3434)); /* busy_end_ns */
	if (h->ntemp)
		pb_packed(out, 43, col, h->ntemp);
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
	pb_msg(&rec, h->hist_field, &hist);

	pb_str(out, 1, "0.1.0");
	pb_uint(out, 3, h->nranks);
	pb_uint(out, 4, h->nnodes);
	pb_msg(out, 5, &plan);
	pb_msg(out, 6, &rec);
}

/* The message for kind k, in its envelope (malloc'd). */
static uint8_t *hand_seal(enum kind k, const struct hand *h, size_t *len)
{
	static const char *const magic[] = {"SCP1", "SCR1", "SCF1"};
	struct pb p = {.n = 0};

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
	return seal(magic[k], &p, len);
}

static int hand_unpack(enum kind k, const struct hand *h)
{
	uint8_t *buf;
	size_t len;
	int err;

	buf = hand_seal(k, h, &len);
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

/* The same in a phase of workload wl. */
#define REFUSED_IN(wl, field, value)                                                               \
	do {                                                                                       \
		struct hand h_ = good_hand();                                                      \
		h_.workload = (wl);                                                                \
		h_.field = (value);                                                                \
		int e_ = hand_unpack(PLAN, &h_);                                                   \
		CHECK(e_ == -EBADMSG, "%s plan with %s = %s: got %d, want -EBADMSG", #wl, #field,  \
		      #value, e_);                                                                 \
	} while (0)

#define ACCEPTED_IN(wl, field, value)                                                              \
	do {                                                                                       \
		struct hand h_ = good_hand();                                                      \
		h_.workload = (wl);                                                                \
		h_.field = (value);                                                                \
		int e_ = hand_unpack(PLAN, &h_);                                                   \
		CHECK(e_ == 0, "%s plan with %s = %s: got %d, want 0", #wl, #field, #value, e_);   \
	} while (0)

/* Hand-made messages land in the C fields the proto documents. */
static void test_hand_fields(void)
{
	struct hand h = good_hand();
	struct sc_rank_result r;
	struct sc_run_record run;
	struct sc_plan plan;
	uint8_t *buf;
	size_t len;
	int err;

	h.workload = SC_WORKLOAD_CHECKPOINT;
	buf = hand_seal(PLAN, &h, &len);
	err = sc_plan_unpack(buf, len, &plan);
	free(buf);
	CHECK(err == 0 && plan.nphases == 1, "hand-made checkpoint plan: unpack %d", err);
	if (!err && plan.nphases == 1) {
		const struct sc_phase *ph = &plan.phases[0];
		const struct sc_llm *m = &ph->ckpt.model;
		const struct sc_ckpt_layout *l = &ph->ckpt.layout;

		CHECK(ph->workload == SC_WORKLOAD_CHECKPOINT, "hand plan: workload %d",
		      (int)ph->workload);
		CHECK(ph->io.rate_iops == 100000, "hand plan: rate_iops %llu",
		      (unsigned long long)ph->io.rate_iops);
		CHECK(strlen(m->name) == SC_CKPT_MODEL_NAME_MAX - 1 && m->name[0] == 'm',
		      "hand plan: model name \"%s\"", m->name);
		CHECK(m->layers == 200 && m->hidden == 300 && m->ffn_hidden == 400 &&
			  m->heads == 500 && m->kv_heads == 600 && m->vocab == 700 &&
			  m->model_dtype_bytes == 800 && m->optim_bytes_per_param == 900,
		      "hand plan: model fields out of place");
		CHECK(l->tp == 1 && l->pp == 2 && l->dp == 3 && l->zero_stage == 3,
		      "hand plan: layout %u %u %u %u", l->tp, l->pp, l->dp, l->zero_stage);
		CHECK(ph->ckpt.checkpoints == 4 && ph->ckpt.index == 4 && ph->ckpt.restore &&
			  ph->ckpt.restore_shift == 6 && ph->ckpt.compute_before_ns == 7000 &&
			  ph->ckpt.scale == 0.25 && ph->ckpt.fsync,
		      "hand plan: checkpoint fields out of place");
		CHECK(ph->ingest.files == 2 && ph->ingest.file_bytes == UINT64_C(1) << 20 &&
			  ph->ingest.sample_bytes == UINT64_C(1) << 20 && ph->ingest.batch == 1 &&
			  ph->ingest.compute_per_batch_ns == 5000 && ph->ingest.epochs == 6 &&
			  ph->ingest.prefetch == 7 && ph->ingest.step_barrier,
		      "hand plan: ingest fields out of place");
		sc_plan_exit(&plan);
	}

	h = good_hand();
	buf = hand_seal(RANK, &h, &len);
	err = sc_rank_result_unpack(buf, len, &r);
	free(buf);
	CHECK(err == 0, "hand-made rank result: unpack %d", err);
	if (!err) {
		CHECK(r.lat[SC_DIR_READ].count == 4 && r.lat[SC_DIR_WRITE].count == 0,
		      "hand rank: lat counts %llu %llu",
		      (unsigned long long)r.lat[SC_DIR_READ].count,
		      (unsigned long long)r.lat[SC_DIR_WRITE].count);
		CHECK(r.resp[SC_DIR_READ].count == 26 && r.resp[SC_DIR_READ].min_ns == 260 &&
			  r.resp[SC_DIR_READ].max_ns == 2600 &&
			  r.resp[SC_DIR_READ].pct_ns[SC_NPCT - 1] == 260 + SC_NPCT - 1,
		      "hand rank: resp[read] out of place");
		CHECK(r.resp[SC_DIR_WRITE].count == 27 && r.resp[SC_DIR_WRITE].max_ns == 2700,
		      "hand rank: resp[write] out of place");
		CHECK(r.batch_wait.count == 28 && r.batch_wait.min_ns == 280 &&
			  r.batch_wait.max_ns == 2800,
		      "hand rank: batch_wait out of place");
		CHECK(r.late_ios == 2929 && r.files == 3030 && r.samples == 3131 &&
			  r.steps == 3232 && r.compute_ns == 3333,
		      "hand rank: counters %llu %llu %llu %llu %llu",
		      (unsigned long long)r.late_ios, (unsigned long long)r.files,
		      (unsigned long long)r.samples, (unsigned long long)r.steps,
		      (unsigned long long)r.compute_ns);
		CHECK(r.busy_end_ns == -3434, "hand rank: busy_end_ns %lld",
		      (long long)r.busy_end_ns);
		sc_rank_result_exit(&r);
	}

	/* PhaseRecord fields 5, 6, 8, 9, 10 hold these histograms */
	static const uint32_t fields[] = {5, 6, 8, 9, 10};

	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		h = good_hand();
		h.hist_field = fields[i];
		buf = hand_seal(RUN, &h, &len);
		err = sc_run_record_unpack(buf, len, &run);
		free(buf);
		CHECK(err == 0 && run.nphases == 1, "hand run, histogram in field %u: unpack %d",
		      fields[i], err);
		if (err || run.nphases != 1)
			continue;

		const struct sc_phase_record *ph = &run.phases[0];
		const struct sc_hist *in[] = {ph->lat[SC_DIR_READ], ph->lat[SC_DIR_WRITE],
					      ph->resp[SC_DIR_READ], ph->resp[SC_DIR_WRITE],
					      ph->batch_wait};

		for (size_t j = 0; j < sizeof(in) / sizeof(in[0]); j++) {
			if (j == i)
				CHECK(in[j] && in[j]->count == 8 && in[j]->buckets[300] == 5,
				      "hand run: field %u did not land in its histogram",
				      fields[i]);
			else
				CHECK(!in[j], "hand run: field %u filled the histogram of field %u",
				      fields[i], fields[j]);
		}
		sc_run_record_exit(&run);
	}
}

/* The new workloads' enums, specs, summaries and histograms, on the wire. */
static void test_hand_workloads(void)
{
	/* enums */
	ACCEPTED(PLAN, workload, SC_WORKLOAD_CHECKPOINT);
	ACCEPTED(PLAN, workload, SC_WORKLOAD_INGEST);
	ACCEPTED(PLAN, workload, SC_WORKLOAD_KVCACHE);
	REFUSED(PLAN, workload, SC_WORKLOAD_KVCACHE + 1);
	REFUSED(PLAN, workload, 99);
	REFUSED(PLAN, workload, (uint64_t)-1);

	/* the checkpoint spec, checked in a checkpoint phase */
	REFUSED_IN(SC_WORKLOAD_CHECKPOINT, scale, 0.0);
	REFUSED_IN(SC_WORKLOAD_CHECKPOINT, scale, -0.25);
	REFUSED_IN(SC_WORKLOAD_CHECKPOINT, scale, 1.5);
	REFUSED_IN(SC_WORKLOAD_CHECKPOINT, scale, NAN);
	REFUSED_IN(SC_WORKLOAD_CHECKPOINT, scale, INFINITY);
	ACCEPTED_IN(SC_WORKLOAD_CHECKPOINT, scale, 1.0);
	REFUSED_IN(SC_WORKLOAD_CHECKPOINT, index, 0);
	REFUSED_IN(SC_WORKLOAD_CHECKPOINT, index, 5); /* of 4 */
	ACCEPTED_IN(SC_WORKLOAD_CHECKPOINT, index, 1);
	REFUSED_IN(SC_WORKLOAD_CHECKPOINT, ckpts, 0);
	REFUSED_IN(SC_WORKLOAD_CHECKPOINT, zero, 4);
	REFUSED_IN(SC_WORKLOAD_CHECKPOINT, zero, UINT32_MAX);
	REFUSED_IN(SC_WORKLOAD_CHECKPOINT, name_len, SC_CKPT_MODEL_NAME_MAX);
	REFUSED_IN(SC_WORKLOAD_CHECKPOINT, no_specs, true);
	/* and not elsewhere, but for the model name, a C array everywhere */
	ACCEPTED(PLAN, scale, NAN);
	ACCEPTED(PLAN, index, 0);
	ACCEPTED(PLAN, zero, 4);
	ACCEPTED(PLAN, no_specs, true);
	ACCEPTED_IN(SC_WORKLOAD_INGEST, scale, 0.0);
	ACCEPTED_IN(SC_WORKLOAD_KVCACHE, no_specs, true);
	REFUSED(PLAN, name_len, SC_CKPT_MODEL_NAME_MAX);

	/* the ingest spec, checked in an ingest phase */
	REFUSED_IN(SC_WORKLOAD_INGEST, files, 0);
	REFUSED_IN(SC_WORKLOAD_INGEST, batch, 0);
	REFUSED_IN(SC_WORKLOAD_INGEST, sample_bytes, 0);
	REFUSED_IN(SC_WORKLOAD_INGEST, sample_bytes, (UINT64_C(1) << 20) + 1);
	REFUSED_IN(SC_WORKLOAD_INGEST, no_specs, true);
	ACCEPTED_IN(SC_WORKLOAD_INGEST, sample_bytes, 1);
	ACCEPTED(PLAN, files, 0);
	ACCEPTED_IN(SC_WORKLOAD_CHECKPOINT, batch, 0);

	/* response-time and batch-wait summaries */
	REFUSED(RANK, resp_npct, SC_NPCT - 1);
	REFUSED(RUN, resp_npct, SC_NPCT + 1);
	REFUSED(RANK, bw_min, 2801); /* above max_ns */
	ACCEPTED(RANK, bw_min, 2800);

	/* every histogram field gets the same checks */
	static const uint32_t fields[] = {6, 8, 9, 10};

	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		struct hand h = good_hand();

		h.hist_field = fields[i];
		CHECK(hand_unpack(RUN, &h) == 0, "histogram in field %u refused", fields[i]);
		h.count = 9;
		CHECK(hand_unpack(RUN, &h) == -EBADMSG,
		      "histogram in field %u with count != buckets accepted", fields[i]);
		h = good_hand();
		h.hist_field = fields[i];
		h.idx[2] = SC_HIST_NBUCKETS;
		CHECK(hand_unpack(RUN, &h) == -EBADMSG,
		      "histogram in field %u with bucket index out of range accepted", fields[i]);
		h = good_hand();
		h.hist_field = fields[i];
		h.idx[1] = 4;
		CHECK(hand_unpack(RUN, &h) == -EBADMSG,
		      "histogram in field %u with decreasing buckets accepted", fields[i]);
		h = good_hand();
		h.hist_field = fields[i];
		h.min_ns = 0;
		CHECK(hand_unpack(RUN, &h) == -EBADMSG,
		      "histogram in field %u with min_ns outside its bucket accepted", fields[i]);
		h = good_hand();
		h.hist_field = fields[i];
		h.nidx = 2;
		CHECK(hand_unpack(RUN, &h) == -EBADMSG,
		      "histogram in field %u with fewer indices than counts accepted", fields[i]);
	}
}

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
	/* the temperature column: left out (older results) or one per second */
	ACCEPTED(RANK, ntemp, 3);
	REFUSED(RANK, ntemp, 2);
	REFUSED(RANK, ntemp, 4);
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
	test_gathered_rows();
	test_pack_refuses();
	test_pack_refuses_workloads();
	test_damage();
	test_hand_made();
	test_hand_fields();
	test_hand_workloads();

	return check_exit("test_codec");
}
