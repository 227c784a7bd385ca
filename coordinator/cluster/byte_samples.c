/* byte_samples.c -- the bytes a run had moved at a past instant, read off
 * its last samples (byte_samples.h). */
#include "byte_samples.h"

void sc_byte_samples_add(struct sc_byte_samples *s, uint64_t t, uint64_t bytes)
{
	s->ring[s->n % SC_BYTE_SAMPLES].t = t;
	s->ring[s->n % SC_BYTE_SAMPLES].bytes = bytes;
	s->n++;
}

uint64_t sc_byte_samples_at(const struct sc_byte_samples *s, uint64_t t)
{
	uint64_t kept = s->n < SC_BYTE_SAMPLES ? s->n : SC_BYTE_SAMPLES;
	uint64_t last = s->n - 1;

	/* from the newest back: the first sample at or before t, and the one
	 * after it */
	for (uint64_t k = 0; k < kept; k++) {
		uint64_t i = (last - k) % SC_BYTE_SAMPLES;
		uint64_t t1 = s->ring[i].t, b1 = s->ring[i].bytes, t0, b0;

		if (t1 <= t || k + 1 == kept)
			return b1; /* at or after the newest, or before the oldest */
		t0 = s->ring[(last - k - 1) % SC_BYTE_SAMPLES].t;
		b0 = s->ring[(last - k - 1) % SC_BYTE_SAMPLES].bytes;
		if (t0 <= t)
			return b0 +
			       (uint64_t)((double)(b1 - b0) * (double)(t - t0) / (double)(t1 - t0));
	}
	return 0;
}
