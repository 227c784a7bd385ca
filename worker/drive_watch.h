/* drive_watch.h -- a rank's drive telemetry over one phase (drive_watch.c):
 * the drives behind its target (found once per process), their health log
 * before and after the phase, and their temperature sampled through it.
 *
 * Lifecycle: _begin before the phase starts -> the phase runs ->
 * _end after sc_run_finish, which fills the rank's result.
 */
#ifndef SC_DRIVE_WATCH_H
#define SC_DRIVE_WATCH_H

#include <stdint.h>

#include "layout.h"
#include "plan.h"
#include "result.h"
#include "telemetry.h"

struct sc_drive_watch;

/* How often the temperature is read while a phase runs: several times a
 * second, so that every second of the series holds a reading. */
#define SC_TEMP_SAMPLE_NS 250000000ull

/* Before phase p of plan on the rank at place: finds the target's NVMe
 * drives (the first time only), reads their health logs and starts
 * sampling their temperature.  0 or -ENOMEM (then *out is NULL and the
 * phase goes on without telemetry). */
int sc_drive_watch_begin(struct sc_drive_watch **out, const struct sc_plan *plan, uint32_t p,
			 const struct sc_place *place);

/* The same for drives already found (t, which must outlive the watch):
 * what _begin does after its probe; tests give a fake sysfs tree's. */
int sc_drive_watch_begin_with(struct sc_drive_watch **out, const struct sc_telemetry *t);

/* After the phase: stops sampling, reads the health logs again and fills
 * r: telemetry_none or the drives (identity, health before and after),
 * and each of r's seconds' max_temp_mk from the samples taken in it,
 * second k being [origin_ns + k s, origin_ns + (k+1) s) on this rank's
 * CLOCK_MONOTONIC (the phase's measured start).  Frees w (NULL: nothing
 * to do).  0 or -ENOMEM. */
int sc_drive_watch_end(struct sc_drive_watch *w, uint64_t origin_ns, struct sc_rank_result *r);

/* One temperature reading: when (CLOCK_MONOTONIC) and what (milli-kelvin,
 * as struct sc_second keeps it; 0 = none). */
struct sc_temp_sample {
	uint64_t t_ns;
	uint64_t mk;
};

/* Raises each second's max_temp_mk of sec[0 .. nsec) to the hottest of
 * the n samples taken in it (second k: [origin_ns + k s, origin_ns +
 * (k+1) s)); samples before origin_ns, after the last second or with
 * mk 0 are left out. */
void sc_drive_watch_fill_seconds(const struct sc_temp_sample *s, size_t n, uint64_t origin_ns,
				 struct sc_second *sec, uint32_t nsec);

#endif
