/* xorshift.h -- a test's own seeded generator, independent of the code
 * under test: xorshift64* (Vigna 2016) over the caller's state, uniforms
 * in (0, 1) and exponentials.  Header only. */
#ifndef SC_TEST_XORSHIFT_H
#define SC_TEST_XORSHIFT_H

#include <math.h>
#include <stdint.h>

/* Uniform in (0, 1); *state must not be 0. */
static inline double xs_unit(uint64_t *state)
{
	*state ^= *state >> 12;
	*state ^= *state << 25;
	*state ^= *state >> 27;
	return ((*state * 0x2545F4914F6CDD1Dull >> 11) + 0.5) / 9007199254740992.0;
}

/* Exponential of the given mean. */
static inline double xs_expo(uint64_t *state, double mean)
{
	return -mean * log(xs_unit(state));
}

#endif
