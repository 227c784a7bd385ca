/* values.h -- fio's option values as its HOWTO defines them: sizes with
 * kb_base (1024, the default: 4k is 4096 and 4ki 4000; 1000: the SI and
 * IEC meanings), times (seconds by default; d, h, m, s, ms, us), ranges
 * (1k-4k or 1k:4k, swapped when reversed) and bssplit lists
 * (4k/10:64k/50:32k/40). */
#ifndef SC_FIO_VALUES_H
#define SC_FIO_VALUES_H

#include <stdint.h>

/* A size in bytes.  0 or -EINVAL (-ERANGE past 2^64). */
int sc_fio_size_parse(const char *s, uint32_t kb_base, uint64_t *out);

/* A time in ns; a bare number is in unit_ns (fio: seconds for runtime and
 * ramp_time).  0 or -EINVAL / -ERANGE. */
int sc_fio_time_parse(const char *s, uint64_t unit_ns, uint64_t *out);

/* A size range: lo-hi or lo:hi (swapped when lo > hi); a single size is
 * both.  0 or -EINVAL. */
int sc_fio_range_parse(const char *s, uint32_t kb_base, uint64_t *lo, uint64_t *hi);

#define SC_FIO_BSSPLIT_MAX 64u

/* bssplit: size/percent entries joined by ':' (one list: the reads' and
 * writes' alike; fio's "reads,writes" form is refused).  An entry without
 * a percent, or the percents short of 100, share what is left evenly, as
 * fio does.  *n entries into bs[] and pct[] (summing to 100).  0 or
 * -EINVAL. */
int sc_fio_bssplit_parse(const char *s, uint32_t kb_base, uint64_t bs[SC_FIO_BSSPLIT_MAX],
			 uint32_t pct[SC_FIO_BSSPLIT_MAX], uint32_t *n);

#endif
