/* emulated.h -- the emulated drive (sc_engine_emulated): its per-job
 * state, the speed, bandwidth and service-time draws of its model (struct
 * sc_emulate), and the model's checks.  The engine's ops are in engine.h
 * with the others'; this is what the runner and the tests ask of the model. */
#ifndef SC_ENGINE_EMULATED_H
#define SC_ENGINE_EMULATED_H

#include <stdint.h>

#include "engine.h"
#include "pattern.h"
#include "plan.h"

/* What the emulated engine (sc_engine_emulated) delays by: the drive
 * model, and the draws of its spread, seeded by the caller.  The caller
 * owns it; one per engine instance.  sc_emulate_state_init fills it. */
struct sc_emulate_state {
	struct sc_emulate model;
	struct sc_pattern rng;	/* this job's draws: spread and stalls */
	double speed;		/* the drive's speed factor this phase cell
				 * (1: none), see struct sc_emulate */
	_Atomic uint64_t *fill; /* bytes written to the drive so far, shared
				 * by the instances of one drive; NULL: no
				 * fill kept (fill_slowdown unused) */
};

/* Seeds st for job `job` of rank `rank` in phase cell `cell`: its draws
 * from seed, cell, rank and job, the drive's speed factor from seed, cell
 * and rank (the same for every job of the rank), and fill pointed at the
 * process's counter: a rank is one drive, its fill carries across phases.
 * The same inputs give the same draws. */
void sc_emulate_state_init(struct sc_emulate_state *st, const struct sc_emulate *model,
			   uint64_t seed, uint32_t cell, uint32_t rank, uint32_t job);

/* The speed factor of rank's drive in cell: uniform in [1 - spread,
 * 1 + spread] from (seed, cell, rank); 1 when spread is 0. */
double sc_emulate_speed(uint64_t seed, uint32_t cell, uint32_t rank, double spread);

/* The bandwidth (bytes/s) of a write by a drive of model m at speed factor
 * speed holding fill bytes: m->bandwidth x speed, times the fill factor
 * 1 - (1 - 1/k) x min(fill / fill_capacity, 1) when fill_slowdown k > 1;
 * 0 when m->bandwidth is 0 (no cap).  Reads pass fill 0. */
uint64_t sc_emulate_bandwidth(const struct sc_emulate *m, double speed, uint64_t fill);

/* The latency at draw u in (0, 1) of the measured distribution p (n
 * points, struct sc_emulate): where the cumulative count reaches u x the
 * last count, linear between the points around it.  0 when n < 2. */
double sc_emulate_cdf_ns(const struct sc_emulate_point *p, uint32_t n, double u);

/* 0 when p (n points) is a distribution sc_emulate_cdf_ns can draw from
 * (none, or 2..SC_EMULATE_CDF_MAX points, the first at count 0, the last
 * above it, latency rising and count never falling: a gap between buckets
 * keeps its count), else -EINVAL. */
int sc_emulate_cdf_check(const struct sc_emulate_point *p, uint32_t n);

/* The service time of the next I/O of op (enum sc_op) on st, in ns: a draw
 * from the model's measured distribution of op's direction when it has one
 * (fsyncs: the writes'), else latency_ns plus an exponential draw of mean
 * spread_ns; over the drive's speed; reads and writes plus stall_ns with
 * stall_probability.  Advances st's draws the same way for every model of
 * the same keys, so the same seed gives the same times. */
uint64_t sc_emulate_service_ns(struct sc_emulate_state *st, uint8_t op);

/* 0 when model is one the engine can run, else -EINVAL (speed_spread
 * outside [0, 0.9], fill_slowdown neither 0 nor in [1, 1000], a
 * fill_slowdown above 1 without fill_capacity, stall_probability outside
 * [0, 1], a NaN, a latency distribution sc_emulate_cdf_check refuses). */
int sc_emulate_check(const struct sc_emulate *model);

#endif
