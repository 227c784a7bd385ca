/* byte_samples.h -- the bytes one rank's run had moved at an instant
 * already past, read off samples (time, bytes moved) taken while it ran:
 * the last SC_BYTE_SAMPLES are kept, and between two of them the count is
 * linear.  cluster.c takes a sample at each look while a phase runs, and
 * reads off it the rank's first-done byte count at the instant the first
 * rank finished, however late the rank heard of that instant. */
#ifndef SC_BYTE_SAMPLES_H
#define SC_BYTE_SAMPLES_H

#include <stdint.h>

/* One a look: at cluster.c's longest nap (8 ms), the last half second. */
#define SC_BYTE_SAMPLES 64u

struct sc_byte_samples {
	uint64_t n; /* samples taken so far (the ring holds the last kept) */
	struct {
		uint64_t t, bytes;
	} ring[SC_BYTE_SAMPLES];
};

/* Adds the sample (t, bytes): neither t nor bytes less than the previous
 * sample's. */
void sc_byte_samples_add(struct sc_byte_samples *s, uint64_t t, uint64_t bytes);

/* The bytes moved at t: at or after the newest sample, the newest's count;
 * between two kept samples, linear between their counts; before the oldest
 * kept, the oldest's count (an upper bound: nothing older is known); 0 when
 * no sample was taken. */
uint64_t sc_byte_samples_at(const struct sc_byte_samples *s, uint64_t t);

#endif
