/* layout.c -- which target, region and files each rank's jobs use. */
#include "layout.h"

#include "hostlist.h"

#include <errno.h>
#include <stdio.h>

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
		/* ranks local_rank' with local_rank' % n == pick */
		out->nslots = local_nranks / n + (pick < local_nranks % n ? 1 : 0);
		return 0;
	}
	return -ENOENT;
}

int sc_layout_run_dir(const struct sc_plan *plan, uint32_t target, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s/ssdcluster-%s", plan->targets[target].path,
			 plan->run_id ? plan->run_id : "run");

	return (n < 0 || (size_t)n >= len) ? -ENAMETOOLONG : 0;
}

int sc_layout_job_file(const struct sc_plan *plan, const struct sc_place *place, uint32_t phase,
		       uint32_t job, char *path, size_t len, uint64_t *offset_bytes)
{
	const struct sc_target_spec *t = &plan->targets[place->target];
	const struct sc_io_spec *io = &plan->phases[phase].io;
	int n;

	if (t->kind == SC_TARGET_DIR) {
		char dir[4096];
		int err = sc_layout_run_dir(plan, place->target, dir, sizeof(dir));

		if (err)
			return err;
		n = snprintf(path, len, "%s/r%u.j%u.dat", dir, place->rank, job);
		*offset_bytes = 0;
	} else {
		n = snprintf(path, len, "%s", t->path);
		*offset_bytes = ((uint64_t)place->slot * io->jobs + job) * io->size_bytes;
	}
	return (n < 0 || (size_t)n >= len) ? -ENAMETOOLONG : 0;
}

uint64_t sc_layout_need_bytes(const struct sc_plan *plan, uint32_t target, uint32_t nslots)
{
	const struct sc_target_spec *t = &plan->targets[target];
	uint64_t need = 0;

	if (t->kind != SC_TARGET_DIR) {
		for (uint32_t p = 0; p < plan->nphases; p++) {
			const struct sc_io_spec *io = &plan->phases[p].io;
			uint64_t span = (uint64_t)nslots * io->jobs * io->size_bytes;

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

			if (io->jobs > j && io->size_bytes > largest)
				largest = io->size_bytes;
		}
		need += largest;
	}
	return need * nslots;
}

void sc_layout_rank_bytes(const struct sc_plan *plan, uint32_t phase, uint64_t *read_bytes,
			  uint64_t *write_bytes)
{
	const struct sc_io_spec *io = &plan->phases[phase].io;
	uint64_t total = io->runtime_ns ? 0 : io->io_bytes * io->jobs;

	*read_bytes = 0;
	*write_bytes = 0;
	if (io->rw == SC_RW_RANDRW) {
		/* Expected split; the mix is drawn per I/O, so only the sum is exact. */
		uint64_t ios = total / io->bs_bytes;
		uint64_t rd = ios * io->rwmixread_pct / 100;

		*read_bytes = rd * io->bs_bytes;
		*write_bytes = total - *read_bytes;
	} else if (sc_rw_reads(io->rw)) {
		*read_bytes = total;
	} else {
		*write_bytes = total;
	}
}
