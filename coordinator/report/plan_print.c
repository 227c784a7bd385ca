/* plan_print.c -- plan.json and the readable plan --dry-run prints. */
#include "report.h"

#include <errno.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_priv.h"
#include "units.h"
#include "analysis/plan_figures.h"

#ifndef SC_VERSION
#define SC_VERSION "unknown"
#endif

/* Per-rank lines in the printed plan stop above this many ranks. */
#define PLAN_PRINT_RANKS_MAX 64

/* The files a rank writes (or reads back) in a checkpoint cell. */
static void ckpt_files_json(struct jb *b, const struct sc_plan *plan, uint32_t p,
			    const struct sc_place *pl, struct json_object *files, int *err)
{
	struct sc_ckpt_file *f = NULL;
	uint32_t n = 0;
	char dir[PATH_MAX], path[PATH_MAX + SC_CKPT_FILE_NAME_MAX];
	int rc = sc_layout_ckpt_dir(plan, pl->target, p, dir, sizeof(dir));

	if (!rc)
		rc = sc_layout_ckpt_files(plan, p, sc_layout_ckpt_source(plan, p, pl), &f, &n);
	if (rc) {
		*err = rc;
		return;
	}
	for (uint32_t i = 0; i < n; i++) {
		struct json_object *fo = sc_json_new(b, json_object_new_object());

		snprintf(path, sizeof(path), "%s/%s", dir, f[i].name);
		sc_json_put_u64(b, fo, "phase", p);
		sc_json_put_str(b, fo, "path", path);
		sc_json_put_u64(b, fo, "offset_bytes", 0);
		sc_json_put_u64(b, fo, "size_bytes", f[i].bytes);
		sc_json_push(b, files, fo);
	}
	free(f);
}

/* A rank's row of plan.json: its place, its files and its planned bytes
 * (pb, one per phase). */
static struct json_object *plan_rank_json(struct jb *b, const struct sc_plan *plan,
					  const struct sc_dry_rank *dr,
					  const struct sc_planned_bytes *pb, int *err)
{
	struct json_object *o = sc_json_new(b, json_object_new_object());
	struct json_object *files = sc_json_new(b, json_object_new_array());
	struct json_object *planned = sc_json_new(b, json_object_new_array());
	const struct sc_place *pl = &dr->place;
	const struct sc_target_spec *t =
	    pl->target < plan->ntargets ? &plan->targets[pl->target] : NULL;

	sc_json_put_u64(b, o, "rank", pl->rank);
	sc_json_put_str(b, o, "host", dr->host);
	sc_json_put_u64(b, o, "node", dr->node);
	sc_json_put_u64(b, o, "target", pl->target);
	sc_json_put_str(b, o, "target_path", t ? t->path : NULL);
	sc_json_put_str(b, o, "target_kind", t ? sc_target_kind_name(t->kind) : NULL);
	sc_json_put_u64(b, o, "slot", pl->slot);
	sc_json_put_u64(b, o, "nslots", pl->nslots);
	for (uint32_t p = 0; t && p < plan->nphases; p++) {
		const struct sc_io_spec *io = &plan->phases[p].io;
		enum sc_workload w = plan->phases[p].workload;
		struct json_object *po;

		if (w == SC_WORKLOAD_CHECKPOINT)
			ckpt_files_json(b, plan, p, pl, files, err);
		for (uint32_t j = 0; j < io->jobs && (w == SC_WORKLOAD_IO || w == SC_WORKLOAD_KVCACHE);
		     j++) {
			struct json_object *fo = sc_json_new(b, json_object_new_object());
			char path[PATH_MAX];
			uint64_t off = 0;
			int rc = sc_layout_job_file(plan, pl, p, j, path, sizeof(path), &off);

			if (rc) {
				*err = rc;
				json_object_put(fo);
				continue;
			}
			sc_json_put_u64(b, fo, "phase", p);
			sc_json_put_u64(b, fo, "job", j);
			sc_json_put_str(b, fo, "path", path);
			sc_json_put_u64(b, fo, "offset_bytes", off);
			sc_json_put_u64(b, fo, "size_bytes", io->size_bytes);
			sc_json_push(b, files, fo);
		}
		po = sc_json_new(b, json_object_new_object());
		sc_json_put_u64(b, po, "phase", p);
		sc_json_put_u64(b, po, "read_bytes", pb[p].read_bytes);
		sc_json_put_u64(b, po, "write_bytes", pb[p].write_bytes);
		sc_json_push(b, planned, po);
	}
	sc_json_put(b, o, "files", files);
	sc_json_put(b, o, "planned", planned);
	return o;
}

static struct json_object *plan_phases_json(struct jb *b, const struct sc_plan *plan,
					    const struct sc_plan_figures *pf)
{
	struct json_object *a = sc_json_new(b, json_object_new_array());

	for (uint32_t p = 0; p < plan->nphases; p++) {
		const struct sc_io_spec *io = &plan->phases[p].io;
		struct json_object *o = sc_json_new(b, json_object_new_object());
		uint64_t expected_ns = sc_phase_expected_ns(io);

		sc_json_put_str(b, o, "name", plan->phases[p].name);
		sc_json_put_u64(b, o, "index", p);
		if (expected_ns) {
			sc_json_put_u64(b, o, "expected_duration_ns", expected_ns);
			sc_json_put_null(b, o, "ends_after_bytes");
			sc_json_put_null(b, o, "bytes_read_planned");
			sc_json_put_null(b, o, "bytes_written_planned");
		} else {
			sc_json_put_null(b, o, "expected_duration_ns");
			sc_json_put_u64(b, o, "ends_after_bytes", io->io_bytes);
			sc_json_put_u64(b, o, "bytes_read_planned", pf->phase_bytes[p].read_bytes);
			sc_json_put_u64(b, o, "bytes_written_planned",
					pf->phase_bytes[p].write_bytes);
		}
		sc_json_push(b, a, o);
	}
	return a;
}

/* The ranks of one node on one target, and whether what they need fits. */
static struct json_object *slot_json(struct jb *b, const struct sc_plan_slot *s)
{
	struct json_object *o = sc_json_new(b, json_object_new_object());

	sc_report_json_node_host(b, o, s->node, s->host);
	sc_json_put_u64(b, o, "nranks", s->nranks);
	sc_json_put_u64(b, o, "needed_bytes", s->need_bytes);
	sc_json_put_u64(b, o, "available_bytes", s->avail_bytes);
	sc_json_put_bool(b, o, "fits", s->fits);
	return o;
}

/* What the ranks of one node on one target need beyond what it holds:
 * the limit is the capacity or what the ranks found there, the lower. */
static struct json_object *shortfall_json(struct jb *b, const struct sc_plan_slot *s,
					  uint64_t capacity)
{
	struct json_object *o = sc_json_new(b, json_object_new_object());
	uint64_t limit = s->avail_bytes;

	if (capacity && (!limit || capacity < limit))
		limit = capacity;
	sc_report_json_node_host(b, o, s->node, s->host);
	sc_json_put_u64(b, o, "needed_bytes", s->need_bytes);
	sc_json_put_u64(b, o, "available_bytes", limit);
	sc_json_put_u64(b, o, "short_bytes", s->need_bytes - limit);
	return o;
}

static struct json_object *plan_targets_json(struct jb *b, const struct sc_plan *plan,
					     const struct sc_plan_figures *pf)
{
	struct json_object *a = sc_json_new(b, json_object_new_array());
	uint32_t k = 0;

	for (uint32_t t = 0; t < plan->ntargets; t++) {
		const struct sc_target_spec *ts = &plan->targets[t];
		struct json_object *o = sc_json_new(b, json_object_new_object());
		struct json_object *per_node = sc_json_new(b, json_object_new_array());
		struct json_object *shortfall = sc_json_new(b, json_object_new_array());

		sc_json_put_u64(b, o, "index", t);
		sc_json_put_str(b, o, "path", ts->path);
		sc_json_put_str(b, o, "kind", sc_target_kind_name(ts->kind));
		sc_json_put_u64(b, o, "capacity_bytes", ts->capacity_bytes);
		for (; k < pf->nslots && pf->slots[k].target == t; k++) {
			sc_json_push(b, per_node, slot_json(b, &pf->slots[k]));
			if (!pf->slots[k].fits)
				sc_json_push(b, shortfall,
					     shortfall_json(b, &pf->slots[k], ts->capacity_bytes));
		}
		sc_json_put(b, o, "nodes", per_node);
		sc_json_put(b, o, "shortfall", shortfall);
		sc_json_push(b, a, o);
	}
	return a;
}

/* The printed line of checkpoint phase p, moving (planned) bytes. */
static void print_ckpt_phase(uint32_t p, const struct sc_phase *ph,
			     const struct sc_planned_bytes *planned)
{
	const struct sc_ckpt_spec *ck = &ph->ckpt;
	bool mlperf = ck->procedure == SC_PROCEDURE_MLPERF;
	/* a restore reads with O_DIRECT, but buffered under procedure: mlperf */
	bool direct = ph->io.direct || (ck->restore && !mlperf);
	char b1[32], b2[32], keep[48] = "";

	if (ck->keep_last && !ck->restore)
		snprintf(keep, sizeof(keep), ", keep last %u", ck->keep_last);
	printf("  phase %u %s: %s checkpoint %u of %u%s, %s TP%u x PP%u x DP%u ZeRO-%u, "
	       "layout %s%s, scale %g, %s %s%s; cluster %s %s\n",
	       p, ph->name, ck->restore ? "restore" : "write", ck->index, ck->checkpoints,
	       !mlperf				? ""
	       : ck->restore && ck->index == 1 ? " (procedure mlperf: page cache dropped first)"
					       : " (procedure mlperf)",
	       ck->model.name, ck->layout.tp, ck->layout.pp, ck->layout.dp, ck->layout.zero_stage,
	       sc_ckpt_layout_name(ck->layout.kind), keep, ck->scale,
	       direct ? "O_DIRECT" : "buffered", sc_fmt_bytes(b1, sizeof(b1), ph->io.bs_bytes),
	       !ck->restore && ck->fsync ? " + fsync" : "", ck->restore ? "read" : "write",
	       sc_fmt_bytes(b2, sizeof(b2),
			    ck->restore ? planned->read_bytes : planned->write_bytes));
}

/* The printed line of ingest phase p. */
static void print_ingest_phase(uint32_t p, const struct sc_phase *ph,
			       const struct sc_planned_bytes *planned)
{
	const struct sc_ingest_spec *in = &ph->ingest;
	const struct sc_io_spec *io = &ph->io;
	char b1[32], b2[32], b3[32], b4[32];

	printf("  phase %u %s: ingest %u files x %s per node, samples %s, batch %u, "
	       "compute %s per batch, %u readers x QD%u, %s; ",
	       p, ph->name, in->files, sc_fmt_bytes(b1, sizeof(b1), in->file_bytes),
	       sc_fmt_bytes(b2, sizeof(b2), in->sample_bytes), in->batch,
	       sc_fmt_duration(b3, sizeof(b3), in->compute_per_batch_ns), io->jobs, io->iodepth,
	       in->step_barrier ? "a barrier across ranks after each step" : "no step barrier");
	if (io->runtime_ns)
		printf("runtime %s\n", sc_fmt_duration(b4, sizeof(b4), io->runtime_ns));
	else
		printf("%u epoch(s), cluster read %s\n", in->epochs,
		       sc_fmt_bytes(b4, sizeof(b4), planned->read_bytes));
}

/* " by N" files, or "" for none. */
static const char *short_text(uint64_t files, char *buf, size_t len)
{
	if (!files)
		return "";
	snprintf(buf, len, " by %" PRIu64, files);
	return buf;
}

/* The printed lines of training phase p: the workload, its dataset, its
 * steps and the rules' minimum of files. */
static void print_training_phase(uint32_t p, const struct sc_phase *ph,
				 const struct sc_planned_bytes *planned)
{
	const struct sc_training_spec *t = &ph->training;
	const struct sc_io_spec *io = &ph->io;
	struct sc_training_plan_figures f;
	char b1[32], b2[32], b3[32], b4[32], what[256];

	sc_training_plan_figures(ph, &f);
	if (t->runs && t->run > 1) {
		printf("  phase %u %s: %s %u of runs %u+%u, as the first of them\n", p, ph->name,
		       t->run <= t->warmups ? "warm-up" : "run",
		       t->run <= t->warmups ? t->run : t->run - t->warmups, t->warmups, t->runs);
		return;
	}
	if (t->search_max && t->trial > 1) {
		printf("  phase %u %s: trial %u of the search, if the trials before it leave it "
		       "to run: its accelerators a rank (1 to %u) are decided by theirs\n",
		       p, ph->name, t->trial, t->search_max);
		return;
	}
	if (f.pair)
		snprintf(what, sizeof(what), "%s on %s (MLPerf Storage v3.0 %s%s%s)",
			 sc_mlperf_benchmark_name((enum sc_mlperf_benchmark)t->benchmark),
			 sc_mlperf_accelerator_name((enum sc_mlperf_accelerator)t->accelerator),
			 sc_mlperf_status_name(f.status), f.changed[0] ? "; changed: " : "",
			 f.changed);
	else
		snprintf(
		    what, sizeof(what), "%s%s%s (no v3.0 workload file: the config's values)",
		    t->benchmark < SC_MLPERF_BENCHMARK_COUNT
			? sc_mlperf_benchmark_name((enum sc_mlperf_benchmark)t->benchmark)
			: "custom",
		    t->accelerator < SC_MLPERF_ACCELERATOR_COUNT ? " on " : "",
		    t->accelerator < SC_MLPERF_ACCELERATOR_COUNT
			? sc_mlperf_accelerator_name((enum sc_mlperf_accelerator)t->accelerator)
			: "");
	printf("  phase %u %s: training %s, %u accelerators, %u read threads x QD %u in reads of "
	       "%s, %s, prefetch %u\n",
	       p, ph->name, what, t->accelerators, io->jobs, io->iodepth,
	       sc_fmt_bytes(b1, sizeof(b1), t->transfer_bytes),
	       io->direct ? "O_DIRECT" : "buffered", t->prefetch_size);
	if (t->search_max)
		printf("    search: accelerators: trials of 1, then doubling while AU passes on "
		       "every host, then bisection, up to %u a rank (%u in all), at most %u "
		       "trials; this first trial runs 1 a rank\n",
		       t->search_max, f.most_accelerators, ph->ncells);
	else if (t->runs)
		printf("    runs: %u warm-up(s) then %u measured, the result their mean; this is "
		       "%s %u\n",
		       t->warmups, t->runs, t->run <= t->warmups ? "warm-up" : "run",
		       t->run <= t->warmups ? t->run : t->run - t->warmups);
	printf("    dataset: %" PRIu64 " files x %" PRIu64 " B mean (%u sample(s) of %" PRIu64
	       " B mean, stdev %" PRIu64 " B) = %" PRIu64 " B (%s)\n",
	       t->files, f.mean_file_bytes, t->samples_per_file, t->record_bytes,
	       t->record_stdev_bytes, f.dataset_bytes,
	       sc_fmt_bytes(b2, sizeof(b2), f.dataset_bytes));
	printf("    steps: %" PRIu64 " per epoch per accelerator (%" PRIu64 " files x %u samples / "
	       "batch %u / %u accelerators) x %u epochs, compute %s a step, AU at least %g%%; "
	       "cluster read %s\n",
	       f.steps_per_epoch, t->files, t->samples_per_file, t->batch, t->accelerators,
	       t->epochs, sc_fmt_duration(b3, sizeof(b3), t->computation_ns), t->au * 100,
	       sc_fmt_bytes(b4, sizeof(b4), planned->read_bytes));
	if (!f.min_files)
		printf("    files: %" PRIu64
		       " (the rules' minimum is not known: no client memory)\n",
		       t->files);
	else
		printf("    files: %" PRIu64 ", %s the rules' minimum of %" PRIu64 "%s (the larger "
		       "of 5 x client memory %s / (%u x %" PRIu64
		       " B) and 500 steps x %u accelerators x batch %u / %u)\n",
		       t->files, f.files_short ? "below" : "meeting", f.min_files,
		       short_text(f.files_short, what, sizeof(what)),
		       sc_fmt_bytes(b1, sizeof(b1), t->client_memory_bytes), t->samples_per_file,
		       t->record_bytes, f.most_accelerators, t->batch, t->samples_per_file);
}

/* The printed line of fill phase or idle step p. */
static void print_fill_phase(uint32_t p, const struct sc_phase *ph,
			     const struct sc_planned_bytes *planned)
{
	const struct sc_io_spec *io = &ph->io;
	char b1[32], b2[32], b3[32], b4[32];

	if (ph->workload == SC_WORKLOAD_IDLE) {
		printf("  phase %u %s: idle %s, no I/O\n", p, ph->name,
		       sc_fmt_duration(b1, sizeof(b1), io->runtime_ns));
		return;
	}
	printf("  phase %u %s: fill %u jobs x %s, %u sequential pass(es) in %s at QD %u", p,
	       ph->name, io->jobs, sc_fmt_bytes(b1, sizeof(b1), io->size_bytes), ph->fill.passes,
	       sc_fmt_bytes(b2, sizeof(b2), io->bs_bytes), io->iodepth);
	if (ph->fill.random_passes)
		printf(", then %u random pass(es) in %s", ph->fill.random_passes,
		       sc_fmt_bytes(b3, sizeof(b3), ph->fill.random_bs_bytes));
	printf("; cluster write %s\n", sc_fmt_bytes(b4, sizeof(b4), planned->write_bytes));
}

/* The printed line of io phase p. */
static void print_io_phase(uint32_t p, const struct sc_phase *ph,
			   const struct sc_planned_bytes *planned)
{
	const struct sc_io_spec *io = &ph->io;
	char b1[32], b2[32], b3[32], b4[32], mix[24] = "";

	if (sc_rw_mixed(io->rw))
		snprintf(mix, sizeof(mix), " %u%% reads", io->rwmixread_pct);
	printf("  phase %u %s: %s%s, bs %s, QD %u, %u jobs x %s, ", p, ph->name, sc_rw_name(io->rw),
	       mix, sc_fmt_bytes(b1, sizeof(b1), io->bs_bytes), io->iodepth, io->jobs,
	       sc_fmt_bytes(b2, sizeof(b2), io->size_bytes));
	if (io->runtime_ns)
		printf("runtime %s + ramp %s; planned bytes: time-based\n",
		       sc_fmt_duration(b3, sizeof(b3), io->runtime_ns),
		       sc_fmt_duration(b4, sizeof(b4), io->ramp_ns));
	else
		printf("ends after %s per job; planned cluster read %s, write %s\n",
		       sc_fmt_bytes(b3, sizeof(b3), io->io_bytes),
		       sc_fmt_bytes(b1, sizeof(b1), planned->read_bytes),
		       sc_fmt_bytes(b4, sizeof(b4), planned->write_bytes));
	if (io->compressible_pct || io->dedupe_pct || io->reuse_buffers)
		printf("    write data: %s, compressible %u%%, dedupe %u%%\n",
		       io->reuse_buffers ? "each slot's buffer written again and again"
					 : "fresh for every write",
		       io->compressible_pct, io->dedupe_pct);
}

/* The io_uring options a phase asks for, if any, on a line of their own:
 * "sqpoll on CPU 3, hipri, passthrough". */
static void print_uring_opts(const struct sc_io_spec *io)
{
	char line[96] = "";
	size_t n = 0;

	if (io->sqpoll)
		n += (size_t)snprintf(line + n, sizeof(line) - n, ", sqpoll");
	if (io->sqpoll && io->sqpoll_cpu >= 0)
		n += (size_t)snprintf(line + n, sizeof(line) - n, " on CPU %d", (int)io->sqpoll_cpu);
	if (io->hipri)
		n += (size_t)snprintf(line + n, sizeof(line) - n, ", hipri");
	if (io->passthrough)
		n += (size_t)snprintf(line + n, sizeof(line) - n, ", passthrough");
	if (n)
		printf("    io_uring options: %s (each where the kernel and target have it)\n",
		       line + 2);
}

/* The buffers line of a phase that asks for huge pages. */
static void print_buffers(const struct sc_io_spec *io)
{
	if (io->huge_buffers)
		printf("    buffers: in 2 MiB huge pages where they span one (huge_buffers: true)\n");
}

/* The files line of a sequential write that preallocates them. */
static void print_preallocate(const struct sc_io_spec *io)
{
	if (io->preallocate == SC_PREALLOC_FALLOCATE)
		printf("    files: fallocated (unwritten extents) before the timed writes "
		       "(preallocate: fallocate)\n");
	else if (io->preallocate == SC_PREALLOC_WRITTEN)
		printf("    files: written with data before the timed writes, untimed "
		       "(preallocate: written)\n");
}

/* The submission line of a phase that sets submit_batch. */
static void print_submit_batch(const struct sc_io_spec *io)
{
	if (io->submit_batch)
		printf("    submission: at most %u I/Os per call (submit_batch)\n",
		       (unsigned)(io->submit_batch < io->iodepth ? io->submit_batch : io->iodepth));
}

/* The placement line of a phase that asks for one (worker/placement.h). */
static void print_placement(const struct sc_io_spec *io)
{
	if (!io->cpus[0] && io->numa == SC_NUMA_NONE)
		return;
	printf("    placement: job threads of each rank on CPUs %s%s\n",
	       io->cpus[0] ? io->cpus : "any",
	       io->numa == SC_NUMA_DRIVE ? ", next to the drive (numa: drive)" : "");
}

/* The access lines of a phase that sets fio's access keys (random
 * blocks, regions, end). */
static void print_access(const struct sc_io_spec *io)
{
	char b1[32], b2[32];

	if (io->rand_dist != SC_DIST_RANDOM || io->random_every > 1 || io->randommap)
		printf("    blocks: %s%s%.6g%s%s, a random block every %u I/O(s)\n",
		       io->randommap ? "each once a pass in a random order (randommap)"
				     : sc_rand_dist_name(io->rand_dist),
		       io->rand_dist != SC_DIST_RANDOM ? ":" : "",
		       io->rand_dist != SC_DIST_RANDOM ? io->rand_param : 0.0,
		       io->rand_dist != SC_DIST_RANDOM ? " (random_distribution)" : "",
		       io->rand_dist != SC_DIST_RANDOM ? ", scattered over the region" : "",
		       io->random_every > 1 ? io->random_every : 1);
	if (io->offset_bytes || io->offset_increment_given)
		printf("    regions (file and block targets): from %s, one every %s (offset, "
		       "offset_increment)\n",
		       sc_fmt_bytes(b1, sizeof(b1), io->offset_bytes),
		       sc_fmt_bytes(b2, sizeof(b2), sc_layout_offset_increment(io)));
	if (io->end_fsync)
		printf("    end: each job's file fsynced once its writes end (end_fsync)\n");
	if (io->invalidate)
		printf("    start: each job's region synced and dropped from the page cache "
		       "(invalidate)\n");
	if (io->fadvise_hint)
		printf("    start: the kernel told the pattern, %s (fadvise_hint)\n",
		       sc_rw_random(io->rw) ? "random: no readahead" : "sequential: more readahead");
	if (io->runtime_max_ns)
		printf("    end: at the bytes or after %s, whichever first (runtime_max)\n",
		       sc_fmt_duration(b1, sizeof(b1), io->runtime_max_ns));
}

static void print_plan(const struct sc_plan *plan, const struct sc_dry_rank *ranks, uint32_t nranks,
		       const struct sc_plan_figures *pf)
{
	char b1[32], b2[32];

	printf("plan %s: %u ranks on %u nodes, %u targets, %u phases (config %s)\n",
	       plan->run_id ? plan->run_id : "-", nranks, pf->nnodes, plan->ntargets,
	       plan->nphases, plan->config_path ? plan->config_path : "-");
	for (uint32_t p = 0; p < plan->nphases; p++) {
		const struct sc_phase *ph = &plan->phases[p];

		if (ph->workload == SC_WORKLOAD_CHECKPOINT)
			print_ckpt_phase(p, ph, &pf->phase_bytes[p]);
		else if (ph->workload == SC_WORKLOAD_INGEST)
			print_ingest_phase(p, ph, &pf->phase_bytes[p]);
		else if (ph->workload == SC_WORKLOAD_TRAINING)
			print_training_phase(p, ph, &pf->phase_bytes[p]);
		else if (ph->workload == SC_WORKLOAD_FILL || ph->workload == SC_WORKLOAD_IDLE)
			print_fill_phase(p, ph, &pf->phase_bytes[p]);
		else
			print_io_phase(p, ph, &pf->phase_bytes[p]);
		print_uring_opts(&ph->io);
		print_buffers(&ph->io);
		print_submit_batch(&ph->io);
		print_preallocate(&ph->io);
		print_placement(&ph->io);
		print_access(&ph->io);
	}
	for (uint32_t k = 0; k < pf->nslots; k++) {
		const struct sc_plan_slot *s = &pf->slots[k];
		const struct sc_target_spec *ts = &plan->targets[s->target];

		printf("  target %u %s (%s) on node %u (%s), %u ranks: needs %s of %s%s\n", s->target,
		       ts->path, sc_target_kind_name(ts->kind), s->node, s->host, s->nranks,
		       sc_fmt_bytes(b1, sizeof(b1), s->need_bytes),
		       sc_fmt_bytes(b2, sizeof(b2), ts->capacity_bytes), s->fits ? "" : "  TOO SMALL");
	}
	if (nranks > PLAN_PRINT_RANKS_MAX)
		return;
	for (uint32_t i = 0; i < nranks; i++) {
		const struct sc_place *pl = &ranks[i].place;

		printf("  rank %u: host %s, node %u, target %u (%s)\n", pl->rank,
		       ranks[i].host ? ranks[i].host : "?", ranks[i].node, pl->target,
		       pl->target < plan->ntargets ? plan->targets[pl->target].path : "?");
	}
}

/* plan.json: the run's header, the plan echo, and per rank, phase and
 * target what the plan will do. */
static struct json_object *plan_json(struct jb *b, const struct sc_plan *plan,
				     const struct sc_dry_rank *ranks, uint32_t nranks,
				     const struct sc_plan_figures *pf, int *file_err)
{
	struct json_object *root = sc_json_new(b, json_object_new_object());
	struct json_object *ra = sc_json_new(b, json_object_new_array());

	sc_json_put_str(b, root, "tool", "ssdcluster");
	sc_json_put_str(b, root, "version", SC_VERSION);
	sc_json_put_str(b, root, "config", plan->config_path);
	sc_json_put_str(b, root, "run_id", plan->run_id);
	sc_json_put_u64(b, root, "nranks", nranks);
	sc_json_put_u64(b, root, "nnodes", pf->nnodes);
	sc_json_put(b, root, "plan", sc_report_plan_echo(b, plan));
	for (uint32_t i = 0; i < nranks; i++)
		sc_json_push(b, ra,
			     plan_rank_json(b, plan, &ranks[i],
					    &pf->rank_bytes[(size_t)i * pf->nphases], file_err));
	sc_json_put(b, root, "ranks", ra);
	sc_json_put(b, root, "phases", plan_phases_json(b, plan, pf));
	sc_json_put(b, root, "targets", plan_targets_json(b, plan, pf));
	return root;
}

int sc_report_plan(const char *dir, const struct sc_plan *plan, const struct sc_dry_rank *ranks,
		   uint32_t nranks, char *err, size_t errlen)
{
	struct jb b = {0};
	struct sc_plan_figures pf;
	struct json_object *root;
	int rc, file_err = 0;
	size_t text_len;
	char *text;

	if (!dir || !dir[0])
		dir = ".";
	rc = sc_plan_figures(plan, ranks, nranks, &pf);
	if (rc) {
		sc_report_set_err(err, errlen, "%s/plan.json: out of memory", dir);
		return rc;
	}
	root = plan_json(&b, plan, ranks, nranks, &pf, &file_err);
	if (file_err) {
		rc = file_err;
		sc_report_set_err(err, errlen, "%s/plan.json: a job file path is too long: %s", dir,
				  strerror(-rc));
		goto out_free;
	}
	text = sc_json_text(&b, root, &text_len);
	if (!text) {
		rc = -ENOMEM;
		sc_report_set_err(err, errlen, "%s/plan.json: out of memory", dir);
		goto out_free;
	}
	rc = sc_report_write_named(dir, "plan.json", text, text_len, err, errlen);
	free(text);
	if (!rc) {
		print_plan(plan, ranks, nranks, &pf);
		fflush(stdout);
	}
out_free:
	json_object_put(root);
	sc_plan_figures_exit(&pf);
	return rc;
}
