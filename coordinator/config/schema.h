/* schema.h -- what the files of the config schema share (keys.c, nested.c,
 * phases.c, defaults.c, rules.c, targets.c, limits.c, build.c, config.c):
 * the keys, one config phase and one target as read, and the state of one
 * check.  Not for other files; the document under it is config_priv.h. */
#ifndef SC_CONFIG_SCHEMA_H
#define SC_CONFIG_SCHEMA_H

#include <stdbool.h>
#include <stdint.h>

#include "ckpt_model.h"
#include "config_priv.h"
#include "key_table.h"
#include "plan.h"
#include "target.h"
#include "units.h"

/* A loaded config (config.h's handle): its document and its plan;
 * config.c fills it, config_doc.c reads and frees it. */
struct sc_config {
	struct cfg_doc doc;
	struct sc_plan plan;
	uint64_t mem_budget; /* memory_per_rank, or the default budget */
	bool mem_stated;     /* memory_per_rank was given */
};

/* The phase keys, PK_<ID> in key_table.h's order. */
#define PK_ENUM(ID, ...) PK_##ID,
enum pkey { SC_PHASE_KEYS(PK_ENUM, PK_ENUM) PK_COUNT };
#undef PK_ENUM

/* The target keys, TK_<ID> in key_table.h's order. */
#define TK_ENUM(ID, ...) TK_##ID,
enum tkey { SC_TARGET_KEYS(TK_ENUM) TK_COUNT };
#undef TK_ENUM

/* One config phase after defaults, before expansion into cells. */
#define PK_MEMBER(ID, key, ...) uint64_t key;
#define PK_OWN_MEMBER(...)
struct cfg_phase {
	const struct cfg_node *map;	      /* the phase's mapping */
	const struct cfg_node *src[PK_COUNT]; /* value's node; NULL: built in */
	bool own[PK_COUNT];		      /* set in the phase itself */
	/* every U64 key of key_table.h, a member named after it */
	SC_PHASE_KEYS(PK_MEMBER, PK_OWN_MEMBER)
	/* the OWN keys, each parsed by phase_key.c */
	char name[CFG_MAX_NAME_LEN + 1];
	struct cfg_sweep rw, bs, iodepth;
	struct sc_llm model;
	double scale;
	double au; /* training: the AU a run must keep, 0 until known */
	struct sc_inject inject;
	struct sc_emulate emulate;	      /* its latency CDFs: at build (emulate_from.c) */
	const struct cfg_node *emulate_from;  /* emulate's latency_from, or NULL */
	const struct cfg_node *emulate_phase; /* emulate's latency_phase, or NULL */
	struct sc_steady_spec steady; /* steady_state:, max_rounds 0 = none */
	double cliff_fraction;
	char cpus[SC_CPUS_MAX]; /* a cpulist as written ("" = none) */
	enum sc_rand_dist rand_dist; /* random_distribution: its name and */
	double rand_param;	     /* number (0 for random) */
	uint64_t zone_access_pct[SC_ZONES_MAX]; /* zoned: its zones (plan.h) */
	uint64_t zone_size_pct[SC_ZONES_MAX];
	uint64_t bs_max; /* bssplit, bsrange: the largest size (bs the
			  * smallest, set by the rules); 0: neither */
	uint64_t bssplit_bytes[SC_BSSPLIT_MAX]; /* bssplit, 0-ended */
	uint64_t bssplit_pct[SC_BSSPLIT_MAX];
	uint64_t bsrange_min; /* bsrange: its MIN (0: none) */
	uint32_t nexpect;	/* expect: thresholds kept (a yes/no one said
				 * false is not) */
	struct sc_expect expect[SC_EXPECT_MAX];
	const struct cfg_pair *expect_src[SC_EXPECT_MAX]; /* each one's key */
	/* worked out by the rules */
	uint32_t ncells;
};
#undef PK_MEMBER
#undef PK_OWN_MEMBER

/* One row of key_table.h: what the parser, the defaults, the validator,
 * the plan builder and `ssdcluster keys` know of a phase key. */
struct cfg_keyrow {
	const char *name;
	unsigned takes;	      /* workloads that take it: 1u << enum sc_workload */
	struct cfg_keydef def; /* its type and range (sc_cfg_key_def: per workload) */
	bool u64;	      /* kept in the uint64_t member at pv_off */
	size_t pv_off;	      /* offsetof(struct cfg_phase, member), U64 rows */
	size_t plan_off;      /* offsetof(struct sc_phase, member) and its */
	size_t plan_bytes;    /* size (1, 4 or 8); 0: build.c fills it */
	const char *dflt;     /* the built-in default, key_table.h's syntax */
	const char *help;     /* one line */
};

/* The rows, by enum pkey (keys.c). */
extern const struct cfg_keyrow sc_cfg_keys[PK_COUNT];


/* One target as read, and what probing it here found. */
struct cfg_target {
	const struct cfg_node *map;
	const char *path, *hosts;
	uint64_t capacity, keep, allow_destroy, wipe_signatures_ok;
	bool capacity_given;
	uint64_t throttle; /* bytes per second per rank, 0 = none */
	bool probed;
	struct sc_target_info info;
};

/* One check of a document, from its top keys to the plan. */
struct cfg_check {
	struct cfg_doc *d;
	const struct cfg_node *defaults; /* the defaults: mapping, or NULL */
	uint32_t ntg, npv;
	struct cfg_target *tg;
	struct cfg_phase *pv;
	uint64_t mem_budget;		 /* I/O buffer bytes a rank may hold */
	const struct cfg_node *mem_node; /* memory_per_rank, or NULL: default */
	const struct cfg_node *model;	 /* the model: section, checked, or NULL */
	double outlier_k, outlier_mad_floor; /* the outliers: section; 0 = default */
};

/* Every function below that returns int returns 0, -EINVAL with the one
 * message in c->d (the first error wins), or -ENOMEM. */

/* ---- keys (keys.c) ---- */

/* How a target key is typed, its default and help, by enum tkey. */
extern const struct cfg_keydef sc_cfg_target_defs[TK_COUNT];
extern const char *const sc_cfg_target_dflt[TK_COUNT];
extern const char *const sc_cfg_target_help[TK_COUNT];

/* Whether workload w (an enum sc_workload) takes key k. */
bool sc_cfg_takes(uint64_t w, enum pkey k);

/* Whether a phase of workload w sweeps (io and kvcache: a list of rw, bs
 * or iodepth expands it into cells); the others run as they are. */
bool sc_cfg_sweeps(uint64_t w);

/* Key k as workload w types it (fsync is a count in io and kvcache, a
 * boolean in checkpoint; only sweeping workloads take lists). */
struct cfg_keydef sc_cfg_key_def(uint64_t w, enum pkey k);

/* Reports key p, unknown in section ("phase", "defaults", "target",
 * "top"; w: the phase's workload), with the nearest known key or the list
 * of known ones. */
int sc_cfg_unknown_key(struct cfg_check *c, const struct cfg_pair *p, const char *section,
		       uint64_t w);

/* Reports key p (key k) of another workload in phase pv, naming the key
 * that means the same in pv's workload when there is one. */
int sc_cfg_wrong_workload(struct cfg_check *c, const struct cfg_pair *p, const struct cfg_phase *pv,
			  enum pkey k);

/* ---- keys that take a mapping (nested.c) ---- */

/* model: a catalogue name or an inline mapping {layers, hidden, ...},
 * into pv->model. */
int sc_cfg_parse_model(struct cfg_check *c, struct cfg_phase *pv, const struct cfg_node *n);

/* inject: {every: N, errno: E} or {probability: P, errno: E}, into
 * pv->inject. */
int sc_cfg_parse_inject(struct cfg_check *c, struct cfg_phase *pv, const struct cfg_node *n);
/* emulate: {latency: D, spread: D, bandwidth: S, speed_spread: P,
 * fill_slowdown: X, fill_capacity: S, stall_probability: P, stall: D,
 * latency_from: PATH, latency_phase: NAME}, into pv->emulate (keys.c);
 * latency_from and latency_phase are only remembered (their nodes). */
int sc_cfg_parse_emulate(struct cfg_check *c, struct cfg_phase *pv, const struct cfg_node *n);

/* pv's emulate latency_from (pv->emulate_from set): the results file read
 * on this process, its phase latency_phase picked (a phase name, else a
 * group's: all its cells; without it, for each direction pv does, the
 * first phase with I/Os of it), the merged read and write histograms pv
 * needs as em's
 * read_cdf / write_cdf (heap: the caller frees them).  Every problem is an
 * -EINVAL at latency_from or latency_phase in the file. */
int sc_cfg_emulate_from(const struct cfg_check *c, const struct cfg_phase *pv,
			struct sc_emulate *em);

/* ---- steady_state: (steady_section.c) ---- */

/* steady_state: {metric: iops|bw|lat, window: N, round: D, max_rounds: N}
 * into pv->steady (each key defaulted, window within max_rounds). */
int sc_cfg_parse_steady(struct cfg_check *c, struct cfg_phase *pv, const struct cfg_node *n);

/* Before the rules of config phase i's workload: what steady_state
 * contradicts (runtime, io_size, ramp, a sweep).  0 without steady_state. */
int sc_cfg_check_steady(struct cfg_check *c, uint32_t i, const struct cfg_phase *pv);

/* After them: a phase with steady_state runs max_rounds cells of runtime
 * round (pv->ncells, runtime, io_size set). */
void sc_cfg_steady_rounds(struct cfg_phase *pv);

/* Plan phase ph, cell `cell` of pv: round cell + 1, named
 * "<name>[round=k]".  0 or -ENOMEM. */
int sc_cfg_build_round(const struct cfg_phase *pv, uint32_t cell, struct sc_phase *ph);

/* ---- phases (phases.c) ---- */

/* Parses key k of pv's workload from n into pv (n is remembered as the
 * source of the value). */
int sc_cfg_parse_phase_key(struct cfg_check *c, struct cfg_phase *pv, enum pkey k,
			   const struct cfg_node *n);

/* Parses val as key k of a phase of workload w that says nothing else
 * (a value checked on its own, reported as that phase would report it). */
int sc_cfg_parse_key_alone(struct cfg_check *c, uint64_t w, enum pkey k,
			   const struct cfg_node *val);

/* Whether val is a value of key k in a phase of workload w; nothing is
 * reported. */
bool sc_cfg_key_fits(uint64_t w, enum pkey k, const struct cfg_node *val);

/* Reports a value of config phase i (pv) at the node n that gave it (a
 * value from defaults also names the phase it breaks), or for a built-in
 * default (n NULL) at the phase under key k's path. */
int sc_cfg_fail_value(struct cfg_check *c, const struct cfg_phase *pv, uint32_t i,
		      const struct cfg_node *n, enum pkey k, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

/* Reads and checks every phase of phases: into c->pv (c->npv of them):
 * keys, defaults, the rules of each workload; names unique. */
int sc_cfg_parse_phases(struct cfg_check *c);

/* ---- defaults (defaults.c) ---- */

/* Checks the defaults: section (each a value of its key in some
 * workload) and sets c->defaults. */
int sc_cfg_parse_defaults(struct cfg_check *c);

/* Key k's built-in default for workload w as key_table.h's default column
 * says it ("4KiB", "-" for none, "(...)" for one the code works out), into
 * buf.  Returns buf. */
const char *sc_cfg_default_said(enum pkey k, uint64_t w, char *buf, size_t len);

/* The same as a value to parse, or NULL: none, or worked out by the code. */
const char *sc_cfg_default_text(enum pkey k, uint64_t w, char *buf, size_t len);

/* The built-in defaults of config phase i, by pv->workload: key_table.h's
 * defaults of the keys it takes, and seed 1 + i. */
void sc_cfg_builtin_defaults(struct cfg_phase *pv, uint32_t i);

/* Fills from defaults: what phase pv leaves out and takes, skipping a
 * default that is an alternative to what the phase chose or does not
 * apply to it. */
int sc_cfg_apply_defaults(struct cfg_check *c, struct cfg_phase *pv);

/* ---- rules of each workload (rules.c) ---- */

/* The checks of config phase i that need no target (by workload, then
 * its timeout); sets pv->ncells. */
int sc_cfg_check_phase(struct cfg_check *c, uint32_t i, struct cfg_phase *pv);

/* verify and verify_only across the phases (io and kvcache).  Every block
 * carries a header, so bs must hold one.  A phase that reads with verify
 * checks the blocks this run wrote or laid out before it: every earlier io
 * phase must verify too, with the same single bs, and on a file or block
 * target (where nothing is laid out) one of them must write.  verify_only
 * phases re-read a kept run (--run-id names it), only read, and make up
 * the whole run. */
int sc_cfg_check_verify(struct cfg_check *c);

/* ---- fill and idle phases (fill_phase.c) ---- */

/* cliff_fraction: a number more than 0 and less than 1, into pv. */
int sc_cfg_parse_cliff_fraction(struct cfg_check *c, struct cfg_phase *pv,
				const struct cfg_node *n);

/* The checks of a fill phase that need no target (bs and random_bs);
 * sets its rw (write) and ncells. */
int sc_cfg_check_fill_phase(struct cfg_check *c, uint32_t i, struct cfg_phase *pv);

/* An idle step: its duration is there; sets ncells. */
int sc_cfg_check_idle_phase(struct cfg_check *c, uint32_t i, struct cfg_phase *pv);

/* A fill phase's size per job against the targets: without size, each
 * job's share of the smallest file or block target's capacity (a multiple
 * of bs; sc_validate_fill shares it among the ranks once they are placed);
 * a directory target (or one on other hosts) needs size.  Then io_size =
 * size x (passes + random_passes).  Other phases: 0. */
int sc_cfg_fill_size(struct cfg_check *c, uint32_t i, struct cfg_phase *pv);

/* Plan phase ph from fill phase pv / idle step pv, after fill_common. */
void sc_cfg_build_fill(const struct cfg_phase *pv, struct sc_phase *ph);

/* The checkpoints a checkpoint phase with restore reads back: the last
 * keep_last (the older ones are deleted), else every one. */
uint32_t sc_cfg_ckpt_restores(const struct cfg_phase *pv);
void sc_cfg_build_idle(const struct cfg_phase *pv, struct sc_phase *ph);
/* compressible, dedupe and reuse_buffers of config phase i: set in the
 * phase itself, they need a phase that writes without verify (which
 * writes blocks of its own) or serialize: torch; from defaults, they are left out where they
 * do not apply (write_data.c). */
int sc_cfg_check_write_data(struct cfg_check *c, uint32_t i, struct cfg_phase *pv);

/* Sets plan phase ph's compressible_pct, dedupe_pct and reuse_buffers
 * from config phase pv where they apply (a cell that writes, without
 * verify); elsewhere they stay 0 (write_data.c). */
void sc_cfg_build_write_data(const struct cfg_phase *pv, struct sc_phase *ph);

/* ---- training phases (training_phase.c) ---- */

/* The checks of a training phase that need no target: the values of its
 * benchmark and accelerator's workload file where the phase gives none
 * (without one, every value given), benchmark and accelerator COUNT when
 * not given, its bytes within 64 bits; sets ncells. */
int sc_cfg_check_training_phase(struct cfg_check *c, uint32_t i, struct cfg_phase *pv);

/* Plan phase ph from training phase pv, after fill_common (files 0: the
 * rules' minimum, worked out once the ranks are placed). */
void sc_cfg_build_training(const struct cfg_phase *pv, uint32_t cell, struct sc_phase *ph);

/* The name of cell `cell` of training phase pv: "name", "name[trial=k]",
 * "name[warmup=k]" or "name[run=k]" (heap; NULL: out of memory). */
char *sc_cfg_training_cell_name(const struct cfg_phase *pv, uint32_t cell);

/* ---- targets (targets.c) ---- */

/* Reads the targets: list into c->tg (c->ntg of them), probing each one
 * that is not on other hosts. */
int sc_cfg_parse_targets(struct cfg_check *c);

/* The checks of config phase i against the targets probed here:
 * alignment for direct I/O, sizes, and no writes where data would go. */
int sc_cfg_check_phase_targets(struct cfg_check *c, uint32_t i, const struct cfg_phase *pv);

/* ---- what one rank may hold and do (limits.c) ---- */

/* ---- the model: section (model_section.c) ---- */

/* Checks the model: section, when there is one, key by key with the
 * model's own parser, and that a checkpoint or ingest phase gives it
 * something to project; sets c->model.  Needs the phases parsed. */
int sc_cfg_parse_model_section(struct cfg_check *c);

/* Copies the checked model: section into plan->model, as written. */
int sc_cfg_build_model_section(const struct cfg_check *c, struct sc_plan *plan);

/* ---- thresholds and outliers (expect_section.c) ---- */

/* expect: a mapping of thresholds (min_bw: 2GB/s, max_p99: 5ms, ...), each
 * typed by its metric's unit, into pv->expect; a yes/no one that says
 * false is dropped. */
int sc_cfg_parse_expect(struct cfg_check *c, struct cfg_phase *pv, const struct cfg_node *n);

/* Copies config phase pv's thresholds into plan phase (cell) ph, after
 * checking that ph can produce each metric (its workload, and whether it
 * reads and writes). */
int sc_cfg_build_expect(struct cfg_check *c, const struct cfg_phase *pv, struct sc_phase *ph);

/* The top-level outliers: {k: 3.5, mad_floor: 5%} into c. */
int sc_cfg_parse_outliers(struct cfg_check *c);
void sc_cfg_build_outliers(const struct cfg_check *c, struct sc_plan *plan);

/* A number from n, suffix ('%' divides by 100; 'x' is dropped) optional;
 * nested.c. */
int sc_cfg_parse_number(struct cfg_check *c, const struct cfg_node *n, char suffix, double *out);

/* memory_per_rank, or the default budget, into c->mem_budget. */
int sc_cfg_parse_mem_budget(struct cfg_check *c);

/* What config phase i asks of one rank (memory, bytes) is within bounds. */
int sc_cfg_check_phase_limits(struct cfg_check *c, uint32_t i, const struct cfg_phase *pv);

/* ---- the plan (build.c) ---- */

/* Builds plan (empty) from the checked targets and phases, one plan
 * phase per cell.  0 or -ENOMEM (plan then holds what was built). */
int sc_cfg_build_plan(struct cfg_check *c, const char *path, struct sc_plan *plan);

/* ---- the top level (config.c) ---- */

/* The list under top key name ("targets", "phases"), present and not
 * empty, into *out; one: an entry's kind ("target"), example: one entry's
 * key and value ("path: /mnt/nvme0"), both for the messages. */
int sc_cfg_section_list(struct cfg_check *c, const char *name, const char *one, const char *example,
			const struct cfg_node **out);

#endif
