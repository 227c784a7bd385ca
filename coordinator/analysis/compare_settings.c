/* compare_settings.c -- the settings of a pair of phases that differ
 * between two runs, and whether the runs of one side share theirs
 * (compare.h). */
#include "compare.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What a setting is read from: a run and one of its plan's phases. */
struct at {
	const struct sc_run_record *rec;
	const struct sc_phase *ph;
};

/* A setting's value as the config says it into buf ("" when the phase has
 * none). */
typedef void (*setting_fn)(const struct at *x, char *buf, size_t len);

void sc_compare_size_label(char *buf, size_t len, uint64_t v)
{
	static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
	int u = 0;

	while (u < 4 && v >= 1024 && v % 1024 == 0) {
		v /= 1024;
		u++;
	}
	snprintf(buf, len, "%" PRIu64 "%s", v, units[u]);
}

static bool is_ckpt(const struct at *x)
{
	return x->ph->workload == SC_WORKLOAD_CHECKPOINT;
}

static void workload(const struct at *x, char *buf, size_t len)
{
	snprintf(buf, len, "%s", sc_workload_name(x->ph->workload));
}

static void engine(const struct at *x, char *buf, size_t len)
{
	snprintf(buf, len, "%s", sc_engine_name(x->ph->io.engine));
}

static void rw(const struct at *x, char *buf, size_t len)
{
	snprintf(buf, len, "%s", sc_rw_name(x->ph->io.rw));
	if (sc_rw_mixed(x->ph->io.rw)) {
		size_t n = strlen(buf);

		snprintf(buf + n, len - n, " (%u%% reads)", x->ph->io.rwmixread_pct);
	}
}

static void bs(const struct at *x, char *buf, size_t len)
{
	sc_compare_size_label(buf, len, x->ph->io.bs_bytes);
}

static void iodepth(const struct at *x, char *buf, size_t len)
{
	snprintf(buf, len, "%u", x->ph->io.iodepth);
}

static void jobs(const struct at *x, char *buf, size_t len)
{
	snprintf(buf, len, "%u", x->ph->io.jobs);
}

static void direct(const struct at *x, char *buf, size_t len)
{
	snprintf(buf, len, "%s", x->ph->io.direct ? "true" : "false");
}

static void rate(const struct at *x, char *buf, size_t len)
{
	if (x->ph->io.rate_iops)
		snprintf(buf, len, "%" PRIu64 " IOPS", x->ph->io.rate_iops);
	else
		snprintf(buf, len, "none (closed loop)");
}

static void checkpoints(const struct at *x, char *buf, size_t len)
{
	if (is_ckpt(x))
		snprintf(buf, len, "%u", x->ph->ckpt.checkpoints);
}

static void model(const struct at *x, char *buf, size_t len)
{
	if (is_ckpt(x))
		snprintf(buf, len, "%s", x->ph->ckpt.model.name);
}

static void layout(const struct at *x, char *buf, size_t len)
{
	const struct sc_ckpt_layout *l = &x->ph->ckpt.layout;

	if (is_ckpt(x))
		snprintf(buf, len, "tp=%u pp=%u dp=%u zero=%u", l->tp, l->pp, l->dp, l->zero_stage);
}

static void scale(const struct at *x, char *buf, size_t len)
{
	if (is_ckpt(x))
		snprintf(buf, len, "%g", x->ph->ckpt.scale);
}

/* The distinct kinds of the run's targets: "dir", "block,file". */
static void target_kind(const struct at *x, char *buf, size_t len)
{
	bool seen[SC_TARGET_COUNT] = {false};
	size_t n = 0;

	buf[0] = '\0';
	for (uint32_t i = 0; i < x->rec->plan.ntargets; i++)
		if (x->rec->plan.targets[i].kind < SC_TARGET_COUNT)
			seen[x->rec->plan.targets[i].kind] = true;
	for (int k = 0; k < SC_TARGET_COUNT; k++)
		if (seen[k] && n < len)
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? "," : "",
					      sc_target_kind_name((enum sc_target_kind)k));
}

/* Each target's throttle in bytes/s, "none" for no cap. */
static void throttle(const struct at *x, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (uint32_t i = 0; i < x->rec->plan.ntargets && n < len; i++) {
		uint64_t t = x->rec->plan.targets[i].throttle_bytes_per_s;
		char v[32] = "none";

		if (t)
			snprintf(v, sizeof(v), "%" PRIu64 " B/s", t);
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? "," : "", v);
	}
}

static void ranks(const struct at *x, char *buf, size_t len)
{
	snprintf(buf, len, "%u", x->rec->nranks);
}

static void nodes(const struct at *x, char *buf, size_t len)
{
	snprintf(buf, len, "%u", x->rec->nnodes);
}

static const struct {
	const char *name;
	setting_fn get;
} settings[] = {
    {"workload", workload},	  {"engine", engine},	  {"rw", rw},	      {"bs", bs},
    {"iodepth", iodepth},	  {"jobs", jobs},	  {"direct", direct}, {"rate_iops", rate},
    {"checkpoints", checkpoints}, {"model", model},	  {"layout", layout}, {"scale", scale},
    {"target kind", target_kind}, {"throttle", throttle}, {"ranks", ranks},   {"nodes", nodes},
};
#define NSETTINGS (sizeof(settings) / sizeof(settings[0]))

/* Setting i of x into buf: its value, or "-" when the phase has none. */
static void setting_of(size_t i, const struct at *x, char *buf, size_t len)
{
	buf[0] = '\0';
	settings[i].get(x, buf, len);
	if (!buf[0])
		snprintf(buf, len, "-");
}

int sc_compare_settings(const struct sc_run_record *ra, uint32_t pa, const struct sc_run_record *rb,
			uint32_t pb, struct sc_compare_setting **out)
{
	const struct at xa = {ra, &ra->plan.phases[pa]}, xb = {rb, &rb->plan.phases[pb]};
	struct sc_compare_setting s;
	int n = 0;

	*out = NULL;
	for (size_t i = 0; i < NSETTINGS; i++) {
		struct sc_compare_setting *more;

		setting_of(i, &xa, s.a, sizeof(s.a));
		setting_of(i, &xb, s.b, sizeof(s.b));
		if (strcmp(s.a, s.b) == 0)
			continue;
		s.name = settings[i].name;
		more = realloc(*out, (size_t)(n + 1) * sizeof(**out));
		if (!more) {
			free(*out);
			*out = NULL;
			return -ENOMEM;
		}
		more[n++] = s;
		*out = more;
	}
	return n;
}

/* The plan phase of rec named name, or -1. */
static int32_t plan_phase(const struct sc_run_record *rec, const char *name)
{
	for (uint32_t p = 0; p < rec->plan.nphases; p++)
		if (strcmp(rec->plan.phases[p].name, name) == 0)
			return (int32_t)p;
	return -1;
}

/* Whether run r (named nr) has every phase of run o (named no) and the
 * reverse.  0 or -EINVAL with the phase of one only in err. */
static int same_phases(const struct sc_run_record *o, const char *no, const struct sc_run_record *r,
		       const char *nr, char *err, size_t errlen)
{
	for (int k = 0; k < 2; k++) {
		const struct sc_run_record *x = k ? r : o, *y = k ? o : r;

		for (uint32_t p = 0; p < x->plan.nphases; p++) {
			if (plan_phase(y, x->plan.phases[p].name) >= 0)
				continue;
			snprintf(err, errlen,
				 "%s and %s are runs of different configurations: phase %s is in "
				 "%s's plan only; the runs of one side must share their settings",
				 no, nr, x->plan.phases[p].name, k ? nr : no);
			return -EINVAL;
		}
	}
	return 0;
}

/* The first setting in which a phase of both o and r differs: 0, or
 * -EINVAL with it in err (names no and nr); -ENOMEM. */
static int same_settings(const struct sc_run_record *o, const char *no,
			 const struct sc_run_record *r, const char *nr, char *err, size_t errlen)
{
	for (uint32_t p = 0; p < o->plan.nphases; p++) {
		int32_t q = plan_phase(r, o->plan.phases[p].name);
		struct sc_compare_setting *s;
		int nd;

		if (q < 0)
			continue;
		nd = sc_compare_settings(o, p, r, (uint32_t)q, &s);
		if (nd < 0)
			return nd;
		if (nd > 0)
			snprintf(err, errlen,
				 "%s and %s are runs of different configurations: setting %s of "
				 "phase %s is %s in %s and %s in %s; the runs of one side must "
				 "share their settings",
				 no, nr, s[0].name, o->plan.phases[p].name, s[0].a, no, s[0].b, nr);
		free(s);
		if (nd > 0)
			return -EINVAL;
	}
	return 0;
}

int sc_compare_check_side(const struct sc_run_record *const *runs, const char *const *names,
			  uint32_t n, char *err, size_t errlen)
{
	for (uint32_t i = 1; i < n; i++) {
		int rc = same_settings(runs[0], names[0], runs[i], names[i], err, errlen);

		if (!rc)
			rc = same_phases(runs[0], names[0], runs[i], names[i], err, errlen);
		if (rc)
			return rc;
	}
	return 0;
}
