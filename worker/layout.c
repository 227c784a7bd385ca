/* layout.c -- which target, region and files each rank's jobs use. */
#include "layout.h"

#include "engine/engine.h"
#include "hostlist.h"
#include "mlperf.h"

#include <errno.h>
#include <stdlib.h>
#include <stdio.h>

/* Byte sums saturate: a plan past 2^64 bytes needs "everything", which no
 * capacity covers, instead of wrapping to a small number. */
static uint64_t sat_add(uint64_t a, uint64_t b)
{
	uint64_t r;

	return __builtin_add_overflow(a, b, &r) ? UINT64_MAX : r;
}

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
	uint64_t r;

	return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}

int sc_layout_target_matches(const struct sc_target_spec *t, const char *host)
{
	if (!t->hosts || !t->hosts[0])
		return 1;
	return sc_hostlist_match(t->hosts, host);
}

int sc_layout_place(const struct sc_plan *plan, const char *host, uint32_t rank,
		    uint32_t local_rank, uint32_t local_nranks, struct sc_place *out)
{
	uint32_t n = 0, pick, seen = 0;

	for (uint32_t t = 0; t < plan->ntargets; t++)
		n += (uint32_t)sc_layout_target_matches(&plan->targets[t], host);
	if (n == 0)
		return -ENOENT;
	pick = local_rank % n;
	for (uint32_t t = 0; t < plan->ntargets; t++) {
		if (!sc_layout_target_matches(&plan->targets[t], host))
			continue;
		if (seen++ != pick)
			continue;
		out->rank = rank;
		out->target = t;
		out->slot = local_rank / n;
		out->local_nranks = local_nranks;
		/* ranks local_rank' with local_rank' % n == pick */
		out->nslots = local_nranks / n + (pick < local_nranks % n ? 1 : 0);
		return 0;
	}
	return -ENOENT;
}

int sc_layout_run_dir_name(const struct sc_plan *plan, char *buf, size_t len)
{
	int n = snprintf(buf, len, "ssdcluster-%s", plan->run_id ? plan->run_id : "run");

	return (n < 0 || (size_t)n >= len) ? -ENAMETOOLONG : 0;
}

int sc_layout_run_dir(const struct sc_plan *plan, uint32_t target, char *buf, size_t len)
{
	char name[256];
	int n, rc = sc_layout_run_dir_name(plan, name, sizeof(name));

	if (rc)
		return rc;
	n = snprintf(buf, len, "%s/%s", plan->targets[target].path, name);
	return (n < 0 || (size_t)n >= len) ? -ENAMETOOLONG : 0;
}

int sc_layout_job_name(const struct sc_place *place, uint32_t job, char *buf, size_t len)
{
	int n = snprintf(buf, len, "r%u.j%u.dat", place->rank, job);

	return (n < 0 || (size_t)n >= len) ? -ENAMETOOLONG : 0;
}

uint64_t sc_layout_offset_increment(const struct sc_io_spec *io)
{
	return io->offset_increment_given ? io->offset_increment_bytes : io->size_bytes;
}

int sc_layout_job_file(const struct sc_plan *plan, const struct sc_place *place, uint32_t phase,
		       uint32_t job, char *path, size_t len, uint64_t *offset_bytes)
{
	const struct sc_target_spec *t = &plan->targets[place->target];
	const struct sc_io_spec *io = &plan->phases[phase].io;
	int n;

	if (t->kind == SC_TARGET_DIR) {
		char dir[4096], name[64];
		int err = sc_layout_run_dir(plan, place->target, dir, sizeof(dir));

		if (!err)
			err = sc_layout_job_name(place, job, name, sizeof(name));
		if (err)
			return err;
		n = snprintf(path, len, "%s/%s", dir, name);
		*offset_bytes = 0;
	} else {
		n = snprintf(path, len, "%s", t->path);
		*offset_bytes = io->offset_bytes + ((uint64_t)place->slot * io->jobs + job) *
							   sc_layout_offset_increment(io);
	}
	return (n < 0 || (size_t)n >= len) ? -ENAMETOOLONG : 0;
}

/* Largest byte count of any rank in a checkpoint write cell. */
static uint64_t ckpt_max_rank_bytes(const struct sc_plan *plan, uint32_t phase)
{
	const struct sc_ckpt_layout *l = &plan->phases[phase].ckpt.layout;
	uint64_t nranks = (uint64_t)l->tp * l->pp * l->dp, most = 0;

	for (uint32_t r = 0; r < nranks; r++) {
		struct sc_ckpt_file *f;
		uint32_t n;
		uint64_t sum = 0;

		if (sc_layout_ckpt_files(plan, phase, r, &f, &n))
			continue;
		for (uint32_t i = 0; i < n; i++)
			sum = sat_add(sum, f[i].bytes);
		free(f);
		if (sum > most)
			most = sum;
	}
	return most;
}

/* Checkpoints and datasets a directory target holds for nslots ranks. */
static uint64_t workload_need_bytes(const struct sc_plan *plan, uint32_t nslots)
{
	uint64_t need = 0;

	for (uint32_t p = 0; p < plan->nphases; p++) {
		const struct sc_phase *ph = &plan->phases[p];

		if (!sc_engine_uses_files(ph->io.engine))
			continue; /* stores nothing */
		/* with keep_last K, at most K + 1 of a group's checkpoints at
		 * once: the oldest goes once the newest is written */
		if (ph->workload == SC_WORKLOAD_CHECKPOINT && !ph->ckpt.restore &&
		    (!ph->ckpt.keep_last || ph->ckpt.index <= ph->ckpt.keep_last + 1))
			need = sat_add(need, sat_mul(nslots, ckpt_max_rank_bytes(plan, p)));
		else if (ph->workload == SC_WORKLOAD_INGEST)
			need = sat_add(need, sat_mul(ph->ingest.files, ph->ingest.file_bytes));
		/* a training group's cells (runs, a search's trials) share
		 * one dataset: its first counts it */
		else if (ph->workload == SC_WORKLOAD_TRAINING && ph->cell == 0)
			need = sat_add(need,
				       sat_mul(sc_layout_training_files(&ph->training, nslots),
					       sc_layout_training_mean_file_bytes(&ph->training)));
	}
	return need;
}

uint64_t sc_layout_need_bytes(const struct sc_plan *plan, uint32_t target, uint32_t nslots)
{
	const struct sc_target_spec *t = &plan->targets[target];
	uint64_t need = 0;

	if (t->kind != SC_TARGET_DIR) {
		for (uint32_t p = 0; p < plan->nphases; p++) {
			const struct sc_io_spec *io = &plan->phases[p].io;
			uint64_t regions = sat_mul(nslots, io->jobs);
			/* the last job's region ends the span */
			uint64_t span = sat_add(
			    sat_add(io->offset_bytes,
				    sat_mul(regions ? regions - 1 : 0, sc_layout_offset_increment(io))),
			    io->size_bytes);

			if (span > need)
				need = span;
		}
		return need;
	}
	/* Job file j of a rank grows to the largest size any phase with more
	 * than j jobs gives it; every rank on the target has the same files. */
	uint32_t maxjobs = 0;

	for (uint32_t p = 0; p < plan->nphases; p++)
		if (plan->phases[p].io.jobs > maxjobs)
			maxjobs = plan->phases[p].io.jobs;
	for (uint32_t j = 0; j < maxjobs; j++) {
		uint64_t largest = 0;

		for (uint32_t p = 0; p < plan->nphases; p++) {
			const struct sc_io_spec *io = &plan->phases[p].io;

			/* verify_only phases read a kept run: they store nothing */
			if (sc_engine_uses_files(io->engine) && !io->verify_only && io->jobs > j &&
			    io->size_bytes > largest)
				largest = io->size_bytes;
		}
		need = sat_add(need, largest);
	}
	return sat_add(sat_mul(need, nslots), workload_need_bytes(plan, nslots));
}

uint64_t sc_layout_ingest_steps(const struct sc_plan *plan, uint32_t phase,
				const struct sc_place *place)
{
	const struct sc_ingest_spec *in = &plan->phases[phase].ingest;
	uint64_t per_node, per_rank_batches, ranks = place->local_nranks ? place->local_nranks : 1;

	if (plan->phases[phase].io.runtime_ns || !in->sample_bytes || !in->batch)
		return 0;
	per_node = sat_mul(in->files, in->file_bytes / in->sample_bytes);
	per_rank_batches = per_node / (ranks * in->batch) + (per_node % (ranks * in->batch) != 0);
	return sat_mul(per_rank_batches, in->epochs);
}

uint64_t sc_layout_training_steps(const struct sc_training_spec *t)
{
	return sc_mlperf_steps_per_epoch(t->files, t->samples_per_file, t->batch, t->accelerators);
}

uint64_t sc_layout_training_mean_file_bytes(const struct sc_training_spec *t)
{
	return sc_mlperf_mean_file_bytes(t->record_bytes, t->record_stdev_bytes,
					 t->samples_per_file);
}

uint64_t sc_layout_training_dataset_bytes(const struct sc_training_spec *t)
{
	return sat_mul(t->files, sc_layout_training_mean_file_bytes(t));
}

uint64_t sc_layout_training_files(const struct sc_training_spec *t, uint32_t nslots)
{
	uint64_t first, count, spf = t->samples_per_file, each;

	if (!spf)
		return 0;
	sc_mlperf_block(t->files, t->samples_per_file, t->accelerators, 0, &first, &count);
	each = count / spf + (count % spf != 0) + (spf > 1 && count);
	return sat_mul(each, nslots) < t->files ? sat_mul(each, nslots) : t->files;
}

int sc_layout_ingest_subdir(const struct sc_plan *plan, uint32_t phase, char *buf, size_t len)
{
	const struct sc_phase *ph = &plan->phases[phase];
	size_t at = sizeof("ssdcluster-datasets/") - 1;
	int n =
	    snprintf(buf, len, "ssdcluster-datasets/%s-%ux%lluB", ph->group ? ph->group : "ingest",
		     ph->ingest.files, (unsigned long long)ph->ingest.file_bytes);

	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	for (char *c = buf + at; *c; c++)
		if (*c == '/')
			*c = '_'; /* one directory per group, whatever its name */
	return 0;
}

/* target's path, then the dataset subdirectory subdir_of gives phase. */
static int dataset_dir(const struct sc_plan *plan, uint32_t target, uint32_t phase,
		       int (*subdir_of)(const struct sc_plan *, uint32_t, char *, size_t),
		       char *buf, size_t len)
{
	char sub[512];
	int n, rc = subdir_of(plan, phase, sub, sizeof(sub));

	if (rc)
		return rc;
	n = snprintf(buf, len, "%s/%s", plan->targets[target].path, sub);
	return (n < 0 || (size_t)n >= len) ? -ENAMETOOLONG : 0;
}

int sc_layout_ingest_dir(const struct sc_plan *plan, uint32_t target, uint32_t phase, char *buf,
			 size_t len)
{
	return dataset_dir(plan, target, phase, sc_layout_ingest_subdir, buf, len);
}

void sc_layout_rank_bytes(const struct sc_plan *plan, uint32_t phase,
			  const struct sc_place *place, uint64_t *read_bytes, uint64_t *write_bytes)
{
	const struct sc_phase *ph = &plan->phases[phase];
	const struct sc_io_spec *io = &ph->io;
	uint64_t total = io->runtime_ns ? 0 : sat_mul(io->io_bytes, io->jobs);

	*read_bytes = 0;
	*write_bytes = 0;
	if (ph->workload == SC_WORKLOAD_CHECKPOINT) {
		struct sc_ckpt_file *f;
		uint32_t n;

		if (sc_layout_ckpt_files(plan, phase, sc_layout_ckpt_source(plan, phase, place), &f,
					 &n))
			return;
		uint64_t *dst = ph->ckpt.restore ? read_bytes : write_bytes;

		for (uint32_t i = 0; i < n; i++)
			*dst = sat_add(*dst, f[i].bytes);
		free(f);
		return;
	}
	if (ph->workload == SC_WORKLOAD_INGEST) {
		*read_bytes =
		    sat_mul(sat_mul(sc_layout_ingest_steps(plan, phase, place), ph->ingest.batch),
			    ph->ingest.sample_bytes);
		return;
	}
	if (ph->workload == SC_WORKLOAD_TRAINING) {
		const struct sc_training_spec *t = &ph->training;
		/* samples of an epoch (at most files x samples_per_file) x the
		 * mean file / samples_per_file, then x epochs */
		unsigned __int128 samples =
		    (unsigned __int128)sc_layout_training_steps(t) * t->batch;
		unsigned __int128 bytes;

		if (!t->samples_per_file ||
		    __builtin_mul_overflow(samples, sc_layout_training_mean_file_bytes(t),
					   &bytes)) {
			*read_bytes = t->samples_per_file ? UINT64_MAX : 0;
			return;
		}
		bytes /= t->samples_per_file;
		*read_bytes = sat_mul(bytes > UINT64_MAX ? UINT64_MAX : (uint64_t)bytes, t->epochs);
		return;
	}
	if (sc_rw_mixed(io->rw)) {
		/* Expected split; the mix is drawn per I/O, so only the sum is exact. */
		uint64_t ios = total / io->bs_bytes;
		uint64_t rd = ios / 100 * io->rwmixread_pct + ios % 100 * io->rwmixread_pct / 100;

		*read_bytes = rd * io->bs_bytes;
		*write_bytes = total - *read_bytes;
	} else if (sc_rw_reads(io->rw)) {
		*read_bytes = total;
	} else {
		*write_bytes = total;
	}
}

/* Scaled checkpoint files are multiples of this, so O_DIRECT works on them. */

int sc_layout_ckpt_step_subdir(const struct sc_plan *plan, uint32_t phase, uint32_t index,
			       char *buf, size_t len)
{
	const struct sc_phase *ph = &plan->phases[phase];
	int n = snprintf(buf, len, "%s/global_epoch1_step%u", ph->group ? ph->group : "ckpt",
			 index);

	return (n < 0 || (size_t)n >= len) ? -ENAMETOOLONG : 0;
}

int sc_layout_ckpt_subdir(const struct sc_plan *plan, uint32_t phase, char *buf, size_t len)
{
	return sc_layout_ckpt_step_subdir(plan, phase, plan->phases[phase].ckpt.index, buf, len);
}

int sc_layout_ckpt_dir(const struct sc_plan *plan, uint32_t target, uint32_t phase, char *buf,
		       size_t len)
{
	char run_dir[4096], sub[256];
	int n, rc = sc_layout_run_dir(plan, target, run_dir, sizeof(run_dir));

	if (!rc)
		rc = sc_layout_ckpt_subdir(plan, phase, sub, sizeof(sub));
	if (rc)
		return rc;
	n = snprintf(buf, len, "%s/%s", run_dir, sub);
	return (n < 0 || (size_t)n >= len) ? -ENAMETOOLONG : 0;
}

uint32_t sc_layout_ckpt_source(const struct sc_plan *plan, uint32_t phase,
			       const struct sc_place *place)
{
	const struct sc_ckpt_spec *ck = &plan->phases[phase].ckpt;
	uint64_t nranks = (uint64_t)ck->layout.tp * ck->layout.pp * ck->layout.dp;

	if (!ck->restore || !ck->restore_shift || !nranks)
		return place->rank;
	return (uint32_t)((place->rank + (uint64_t)ck->restore_shift * place->local_nranks) %
			  nranks);
}

int sc_layout_ckpt_files(const struct sc_plan *plan, uint32_t phase, uint32_t rank,
			 struct sc_ckpt_file **files, uint32_t *nfiles)
{
	const struct sc_ckpt_spec *ck = &plan->phases[phase].ckpt;
	uint32_t n = 0, cap = 64;
	struct sc_ckpt_file *f = NULL;
	int rc;

	for (;;) {
		struct sc_ckpt_file *g = realloc(f, cap * sizeof(*f));

		if (!g) {
			free(f);
			return -ENOMEM;
		}
		f = g;
		rc = sc_ckpt_rank_files(&ck->model, &ck->layout, rank, f, cap, &n);
		if (rc != -ENOSPC)
			break;
		cap = n > cap ? n : cap * 2;
	}
	if (rc) {
		free(f);
		return rc;
	}
	for (uint32_t i = 0; i < n; i++)
		f[i].bytes = sc_ckpt_scaled(f[i].bytes, ck->scale, SC_CKPT_ALIGN);
	*files = f;
	*nfiles = n;
	return 0;
}


int sc_layout_training_subdir(const struct sc_plan *plan, uint32_t phase, char *buf, size_t len)
{
	const struct sc_phase *ph = &plan->phases[phase];
	const struct sc_training_spec *t = &ph->training;
	size_t at = sizeof("ssdcluster-datasets/") - 1;
	int n = snprintf(buf, len, "ssdcluster-datasets/%s-%llux%ux%lluB-sd%llu-seed%llu",
			 ph->group ? ph->group : "training", (unsigned long long)t->files,
			 t->samples_per_file, (unsigned long long)t->record_bytes,
			 (unsigned long long)t->record_stdev_bytes,
			 (unsigned long long)ph->io.seed);

	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	for (char *c = buf + at; *c; c++)
		if (*c == '/')
			*c = '_'; /* one directory per group, whatever its name */
	return 0;
}

int sc_layout_training_dir(const struct sc_plan *plan, uint32_t target, uint32_t phase, char *buf,
			   size_t len)
{
	return dataset_dir(plan, target, phase, sc_layout_training_subdir, buf, len);
}
