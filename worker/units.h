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
