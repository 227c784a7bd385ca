/* results_errors.c -- what went wrong in a phase, in results.json: failed
 * I/Os by errno and the first ones kept, each failed rank's message, and
 * the blocks verification found wrong. */
#include <inttypes.h>
#include <json-c/json.h>
#include <stdio.h>

#include "analysis/workload_figures.h"
#include "layout.h"
#include "report_priv.h"
#include "verify.h"

/* Room in an error line for its fixed words and numbers, beyond the host
 * and the message. */
#define ERROR_LINE_TEXT_MAX 96

struct json_object *sc_report_json_errnos(struct jb *b, const struct sc_errno_count *e, uint32_t n)
{
	struct json_object *a = sc_json_new(b, json_object_new_array());

	for (uint32_t i = 0; i < n; i++) {
		struct json_object *o = sc_json_new(b, json_object_new_object());
		char name[32];

		sc_json_put_str(b, o, "errno", sc_errno_name(e[i].err, name, sizeof(name)));
		sc_json_put_u64(b, o, "count", e[i].count);
		sc_json_push(b, a, o);
	}
	return a;
}

static const char *const failure_ops[] = {"read", "write", "fsync"};

/* One kept failed I/O; with its rank, host and target when r is given. */
struct json_object *sc_report_json_failure(struct jb *b, const struct sc_run_record *rec,
					   const struct sc_rank_result *r,
					   const struct sc_io_failure *f)
{
	struct json_object *o = sc_json_new(b, json_object_new_object());
	char name[32];

	if (r) {
		sc_json_put_u64(b, o, "rank", r->rank);
		sc_json_put_str(b, o, "host", r->host);
		sc_json_put_u64(b, o, "target", r->target);
		sc_json_put_str(b, o, "path",
				r->target < rec->plan.ntargets ? rec->plan.targets[r->target].path
							       : NULL);
	}
	sc_json_put_str(b, o, "file", f->file);
	sc_json_put_u64(b, o, "job", f->job);
	sc_json_put_str(b, o, "op",
			f->op < sizeof(failure_ops) / sizeof(failure_ops[0]) ? failure_ops[f->op]
									     : "?");
	sc_json_put_str(b, o, "errno", sc_errno_name(f->err, name, sizeof(name)));
	sc_json_put_u64(b, o, "offset_bytes", f->offset_bytes);
	sc_json_put_u64(b, o, "len_bytes", f->len_bytes);
	sc_json_put_i64(b, o, "time_ns", f->time_ns);
	return o;
}

/* The phase's failed I/Os over all ranks: counts by errno and the first
 * ones the ranks kept, each naming its rank, host and target. */
struct json_object *sc_report_json_io_errors(struct jb *b, const struct sc_run_record *rec,
					     const struct sc_phase_figures *f)
{
	struct json_object *o = sc_json_new(b, json_object_new_object());
	struct json_object *first = sc_json_new(b, json_object_new_array());

	sc_json_put_u64(b, o, "failed_ios", f->errors);
	sc_json_put_u64(b, o, "kept_per_rank", SC_IO_FAILURES_KEPT);
	sc_json_put(b, o, "by_errno", sc_report_json_errnos(b, f->errnos, f->nerrnos));
	for (uint32_t i = 0; i < f->nfirst_failures; i++)
		sc_json_push(b, first,
			     sc_report_json_failure(b, rec, f->first_failures[i].rank,
						    f->first_failures[i].failure));
	sc_json_put(b, o, "first_failures", first);
	return o;
}
/* "rank 3 (host): message", one per rank that failed, the first
 * SC_JSON_RANKS_MAX of them. */
struct json_object *sc_report_json_rank_errors(struct jb *b, const struct sc_phase_record *pr,
					       uint32_t *omitted)
{
	struct json_object *a = sc_json_new(b, json_object_new_array());
	uint32_t listed = 0;

	*omitted = 0;
	for (uint32_t i = 0; i < pr->nranks; i++) {
		const struct sc_rank_result *r = &pr->ranks[i];
		char line[SC_HOST_MAX + SC_ERROR_MAX + ERROR_LINE_TEXT_MAX];

		if (!r->errors && !r->error[0])
			continue;
		if (listed == SC_JSON_RANKS_MAX) {
			(*omitted)++;
			continue;
		}
		listed++;
		if (r->error[0] && r->errors)
			snprintf(line, sizeof(line), "rank %u (%s): %s (%" PRIu64 " failed I/Os)",
				 r->rank, r->host, r->error, r->errors);
		else if (r->error[0])
			snprintf(line, sizeof(line), "rank %u (%s): %s", r->rank, r->host,
				 r->error);
		else
			snprintf(line, sizeof(line), "rank %u (%s): %" PRIu64 " failed I/Os",
				 r->rank, r->host, r->errors);
		sc_json_push(b, a, json_object_new_string(line));
	}
	return a;
}

/* A 64- or 32-bit value as hex text ("0x..."): run id hashes and CRCs. */
static void put_hex(struct jb *b, struct json_object *o, const char *key, uint64_t v, int digits)
{
	char hex[24];

	snprintf(hex, sizeof(hex), "0x%0*" PRIx64, digits, v);
	sc_json_put_str(b, o, key, hex);
}

/* One block that failed its check: where, what failed, expected vs found. */
static struct json_object *mismatch_json(struct jb *b, const struct sc_run_record *rec,
					 uint32_t phase, uint64_t bs_bytes,
					 const struct sc_rank_result *r,
					 const struct sc_verify_mismatch *m)
{
	static const char *const names[] = {"magic", "offset", "run_id", "length", "crc"};
	struct json_object *o = sc_json_new(b, json_object_new_object());
	struct json_object *failed = sc_json_new(b, json_object_new_array());
	struct json_object *exp = sc_json_new(b, json_object_new_object());
	struct json_object *found = sc_json_new(b, json_object_new_object());
	struct sc_place place = {.rank = r->rank, .target = r->target};
	char file[4096];
	uint64_t base;
	bool tgt = r->target < rec->plan.ntargets;

	sc_json_put_u64(b, o, "rank", r->rank);
	sc_json_put_str(b, o, "host", r->host);
	sc_json_put_u64(b, o, "node", r->node);
	sc_json_put_u64(b, o, "target", r->target);
	sc_json_put_str(b, o, "target_path", tgt ? rec->plan.targets[r->target].path : NULL);
	sc_json_put_str(b, o, "file",
			tgt && sc_layout_job_file(&rec->plan, &place, phase, m->job, file,
						  sizeof(file), &base) == 0
			    ? file
			    : NULL);
	sc_json_put_u64(b, o, "job", m->job);
	sc_json_put_u64(b, o, "offset_bytes", m->offset);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (m->failed & (1u << i))
			sc_json_push(b, failed, json_object_new_string(names[i]));
	sc_json_put(b, o, "failed", failed);
	sc_json_put_u64(b, exp, "offset_bytes", m->offset);
	put_hex(b, exp, "run_id", sc_verify_run_hash(rec->plan.run_id), 16);
	sc_json_put_u64(b, exp, "length_bytes", bs_bytes);
	sc_json_put(b, o, "expected", exp);
	put_hex(b, found, "magic", m->found.magic, 16);
	sc_json_put_u64(b, found, "offset_bytes", m->found.offset);
	put_hex(b, found, "run_id", m->found.run_id, 16);
	sc_json_put_u64(b, found, "seq", m->found.seq);
	sc_json_put_u64(b, found, "length_bytes", m->found.len);
	sc_json_put_u64(b, found, "phase", m->found.phase);
	sc_json_put_u64(b, found, "rank", m->found.rank);
	put_hex(b, found, "crc", m->found.crc, 8);
	put_hex(b, found, "crc_of_data", m->crc_data, 8);
	sc_json_put(b, o, "found", found);
	sc_json_put_u64(b, o, "bad_bytes", m->bad_bytes);
	sc_json_put_u64(b, o, "first_bad_offset_bytes", m->first_bad_byte);
	return o;
}

/* The phase's verification: totals, and the first mismatches of all ranks
 * (at most SC_VERIFY_KEEP) in rank order. */
struct json_object *sc_report_json_verify(struct jb *b, const struct sc_run_record *rec,
					  const struct sc_phase_record *pr,
					  const struct sc_phase *ph,
					  const struct sc_verify_figures *v)
{
	struct json_object *o = sc_json_new(b, json_object_new_object());
	struct json_object *first = sc_json_new(b, json_object_new_array());
	const struct sc_rank_result *r;
	const struct sc_verify_mismatch *m;

	sc_json_put_str(b, o, "mode", sc_verify_name(ph->io.verify));
	sc_json_put_bool(b, o, "verify_only", ph->io.verify_only);
	sc_json_put_u64(b, o, "blocks_checked", v->checked);
	sc_json_put_u64(b, o, "mismatches", v->mismatches);
	sc_json_put_u64(b, o, "ranks_with_mismatches", v->ranks_with_mismatches);
	for (uint32_t i = 0; i < SC_VERIFY_KEEP && (m = sc_verify_listed(pr, i, &r)); i++)
		sc_json_push(b, first, mismatch_json(b, rec, pr->phase, ph->io.bs_bytes, r, m));
	sc_json_put(b, o, "first_mismatches", first);
	return o;
}
