/* num_text.h -- numbers as text for the results files, byte for byte as
 * printf writes them, without printf's cost where the value allows.
 *
 * The tables and results.json print about a million numbers a phase at
 * 32K ranks; glibc's printf formats a double through multi-precision
 * arithmetic (about 250 ns each).  These compute the digits exactly from
 * the product of the value and a power of ten (its rounding error
 * recovered with fma) and fall back to snprintf for what they do not
 * cover (huge, tiny or non-finite values, more decimals), so the text is
 * always the one printf would give. */
#ifndef SC_NUM_TEXT_H
#define SC_NUM_TEXT_H

#include <stddef.h>
#include <stdint.h>

/* Room every function here needs: "%.9f" of -DBL_MAX and a NUL. */
#define SC_NUM_TEXT_MAX 336

/* The most decimals sc_num_text_fixed takes. */
#define SC_NUM_TEXT_DECIMALS 9

/* v with decimals (0..SC_NUM_TEXT_DECIMALS) digits after the point into s
 * (SC_NUM_TEXT_MAX bytes), as snprintf("%.*f", decimals, v) writes it;
 * returns its length, or -EINVAL (nothing written) for more decimals. */
int sc_num_text_fixed(char *s, double v, unsigned decimals);

/* v into s (SC_NUM_TEXT_MAX bytes) as "%.15g" when that text reads back
 * (strtod) as v, else as "%.17g": the shortest of the two that is exact.
 * Returns its length. */
int sc_num_text_g(char *s, double v);

/* v in decimal into s (21 bytes); returns its length. */
int sc_num_text_u64(char *s, uint64_t v);

/* v in decimal into s (21 bytes); returns its length. */
int sc_num_text_i64(char *s, int64_t v);

#endif
