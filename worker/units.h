/* units.h -- sizes, durations and rates: parsing input, formatting output.
 *
 * KiB/MiB/GiB/TiB/PiB are powers of two, KB/MB/GB/TB/PB powers of ten,
 * B is bytes; a bare number is bytes.  Durations: ns, us, ms, s, m, h; a
 * bare number is seconds.  Suffixes are case-sensitive except that "k" and
 * "K" alone are refused as ambiguous.
 */
#ifndef SC_UNITS_H
#define SC_UNITS_H

#include <stddef.h>
#include <stdint.h>

/* Nanoseconds in a second: the one definition (and as a double, for
 * figures computed in floating point). */
#define SC_NS_PER_S   UINT64_C(1000000000)
#define SC_NS_PER_S_F 1e9

/* Byte units: the one definition (binary, and the decimal megabyte as a
 * double for rates in MB/s). */
#define SC_KIB		UINT64_C(1024)
#define SC_MIB		(SC_KIB * SC_KIB)
#define SC_GIB		(SC_MIB * SC_KIB)
#define SC_BYTES_PER_MB 1e6

/* v rounded up to a multiple of a (a > 0; v + a - 1 must not overflow). */
static inline uint64_t sc_round_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) / a * a;
}

/* The greatest common divisor of a and b (a when b is 0). */
static inline uint64_t sc_gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/* "4KiB" -> 4096.  Decimal fractions are allowed ("1.5GiB") when the
 * result is a whole number of bytes.  0 or -EINVAL (not a size), -ERANGE
 * (overflows 64 bits). */
int sc_parse_size(const char *s, uint64_t *bytes);

/* "500ms" -> 500000000.  0, -EINVAL or -ERANGE. */
int sc_parse_duration(const char *s, uint64_t *ns);

/* Formats with three significant digits and a unit, into buf; returns buf.
 * bytes: binary units ("1.00 MiB", "512 B"); duration: "812 ns", "1.23 ms",
 * "4.50 s"; rate: decimal MB/s style ("1.23 GB/s"), iops: "12.3 kIOPS". */
const char *sc_fmt_bytes(char *buf, size_t len, uint64_t bytes);
const char *sc_fmt_duration(char *buf, size_t len, uint64_t ns);
const char *sc_fmt_rate(char *buf, size_t len, double bytes_per_s);
const char *sc_fmt_iops(char *buf, size_t len, double iops);

#endif
