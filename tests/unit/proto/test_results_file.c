/* test_results_file.c -- results.pb written and read back (proto alone, no
 * coordinator): a kept run's file read and written again is the same
 * bytes; written as its first phase with the others appended, it reads
 * back as the same record; an append cut off by a crash loses that phase
 * alone (with a warning), one the file size limit refuses leaves the file
 * as it was, a part with a byte changed is refused; a truncated copy
 * is refused as truncated or damaged; a folder that is a file is refused
 * with its path in the message. */
#include "results_file.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "codec.h"

/* The bytes of path (malloc'd, *len of them), or NULL. */
static unsigned char *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = xcalloc((size_t)n + 1, 1);
	*len = fread(buf, 1, (size_t)n, f);
	fclose(f);
	return buf;
}

static void write_all(const char *path, const void *p, size_t n)
{
	FILE *f = fopen(path, "wb");

	CHECK(f && fwrite(p, 1, n, f) == n && fclose(f) == 0, "%s: cannot write", path);
}

/* rec's phases up to and with `upto`, packed whole (read back and packed
 * again: the bytes a file of one part holds). */
static unsigned char *packed(struct sc_run_record *rec, uint32_t upto, size_t *len)
{
	uint32_t n = rec->nphases;
	uint8_t *buf = NULL;

	rec->nphases = upto + 1;
	CHECK(sc_run_record_pack(rec, &buf, len) == 0, "pack %u phase(s)", upto + 1);
	rec->nphases = n;
	return buf;
}

/* Where each part of the file's n bytes starts (at most max), and how
 * many there are: a part is its 12-byte header, whose bytes 4..7 give its
 * payload's length (little endian), and that payload. */
static uint32_t part_starts(const unsigned char *f, size_t n, size_t *at, uint32_t max)
{
	uint32_t k = 0;

	for (size_t i = 0; i + SC_CODEC_HEADER_BYTES <= n && k < max; k++) {
		at[k] = i;
		i += SC_CODEC_HEADER_BYTES + ((size_t)f[i + 4] | (size_t)f[i + 5] << 8 |
					      (size_t)f[i + 6] << 16 | (size_t)f[i + 7] << 24);
	}
	return k;
}

/* cut (a copy of the file's first len bytes, with byte `flip` inverted
 * unless it is (size_t)-1) read back: the record's first `want` phases
 * with a warning that a phase was cut off, or (want 0) refused. */
static void check_cut(const char *cut, const unsigned char *file, size_t len, size_t flip,
		      uint32_t want, const unsigned char *whole, size_t wlen, const char *what)
{
	unsigned char *copy = xcalloc(len + 1, 1);
	struct sc_run_record back;
	char err[1024] = "";
	unsigned char *again;
	size_t alen = 0;
	int rc;

	memcpy(copy, file, len);
	if (flip != (size_t)-1)
		copy[flip] ^= 0xff;
	write_all(cut, copy, len);
	free(copy);
	rc = sc_results_read(cut, &back, err, sizeof(err));
	if (!want) {
		CHECK(rc == -EBADMSG && strstr(err, "truncated or damaged"), "%s: %d \"%s\"", what,
		      rc, err);
		return;
	}
	CHECK(rc == 0 && strstr(err, "cut off") && back.nphases == want,
	      "%s: %d, %u phase(s), want %u, \"%s\"", what, rc, back.nphases, want, err);
	if (rc)
		return;
	again = packed(&back, want - 1, &alen);
	CHECK(again && wlen == alen && memcmp(whole, again, wlen) == 0,
	      "%s: not the record's first %u phases", what, want);
	free(again);
	sc_run_record_exit(&back);
}

/* The kept run written with its first phase, the rest appended, each with
 * its own rank 0 peak: read back, it is the record (packed whole, the
 * same bytes) with the last peak.  Its last part cut short or left as
 * zeros (a crash while appending it): the record without its last phase,
 * with a warning.  A byte of any part changed, or a first part cut short:
 * refused.  An append the file size limit stops: an error, and
 * the file as it was. */
static void test_append(const char *pb, const char *tmp)
{
	struct sc_run_record rec, back;
	char err[1024] = "", path[400], cut[400];
	unsigned char *whole, *again, *file, *after;
	size_t wlen = 0, alen = 0, flen = 0, len2 = 0, at[64];
	uint32_t n, nparts;
	struct rlimit lim, was;

	CHECK(sc_results_read(pb, &rec, err, sizeof(err)) == 0 && !err[0], "%s: %s", pb, err);
	n = rec.nphases;
	CHECK(n >= 3 && n < 64, "%s: %u phase(s), want 3 to 63", pb, n);
	snprintf(path, sizeof(path), "%s/results.pb", tmp);
	snprintf(cut, sizeof(cut), "%s/cut.pb", tmp);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t keep = rec.nphases;

		rec.rank0_peak_rss_bytes = (i + 1) * 1000003ull;
		rec.nphases = i + 1;
		if (i == 0)
			CHECK(sc_results_write(tmp, &rec, err, sizeof(err)) == 0, "write: %s", err);
		else
			CHECK(sc_results_append(tmp, &rec, i, err, sizeof(err)) == 0, "append %u: %s",
			      i, err);
		rec.nphases = keep;
	}
	err[0] = 'x';
	CHECK(sc_results_read(path, &back, err, sizeof(err)) == 0 && !err[0], "appended: %s", err);
	CHECK(back.nphases == n && back.rank0_peak_rss_bytes == n * 1000003ull,
	      "appended: %u phase(s), peak %llu, want %u and the last phase's", back.nphases,
	      (unsigned long long)back.rank0_peak_rss_bytes, n);
	whole = packed(&rec, n - 1, &wlen);
	again = packed(&back, n - 1, &alen);
	CHECK(whole && again && wlen == alen && memcmp(whole, again, wlen) == 0,
	      "appended and read back, packed whole: %zu bytes, want the record's %zu", alen, wlen);
	sc_run_record_exit(&back);
	free(again);
	free(whole);

	file = read_all(path, &flen);
	nparts = file ? part_starts(file, flen, at, 64) : 0;
	CHECK(nparts == n, "%u part(s) in the appended file, want one a phase (%u)", nparts, n);
	if (nparts == n) {
		size_t last = at[n - 1];

		rec.rank0_peak_rss_bytes = (n - 1) * 1000003ull;
		whole = packed(&rec, n - 2, &wlen);
		check_cut(cut, file, flen - 1, (size_t)-1, n - 1, whole, wlen, "a byte short");
		check_cut(cut, file, last + 5, (size_t)-1, n - 1, whole, wlen, "inside its header");
		check_cut(cut, file, last + 2, (size_t)-1, n - 1, whole, wlen, "inside its magic");
		check_cut(cut, file, flen, flen - 1, 0, NULL, 0, "its last byte changed");
		check_cut(cut, file, flen, last + 1, 0, NULL, 0, "its magic changed");
		check_cut(cut, file, flen, at[1] + SC_CODEC_HEADER_BYTES + 1, 0, NULL, 0,
			  "a byte of a part before the last changed");
		check_cut(cut, file, at[1] - 1, (size_t)-1, 0, NULL, 0, "the first part cut short");
		memset(file + last + SC_CODEC_HEADER_BYTES, 0, flen - last - SC_CODEC_HEADER_BYTES);
		check_cut(cut, file, flen, (size_t)-1, 0, NULL, 0, "its payload zeros, its header not");
		memset(file + last, 0, flen - last);
		check_cut(cut, file, flen, (size_t)-1, n - 1, whole, wlen, "zeros for its bytes");
		free(whole);
	}

	/* the file size limit stops the last append: EFBIG, the file intact */
	rec.nphases = n - 1;
	CHECK(sc_results_write(tmp, &rec, err, sizeof(err)) == 0, "write: %s", err);
	rec.nphases = n;
	free(file);
	file = read_all(path, &flen);
	signal(SIGXFSZ, SIG_IGN);
	getrlimit(RLIMIT_FSIZE, &was);
	lim = was;
	lim.rlim_cur = flen + 7;
	CHECK(setrlimit(RLIMIT_FSIZE, &lim) == 0, "setrlimit");
	CHECK(sc_results_append(tmp, &rec, n - 1, err, sizeof(err)) == -EFBIG && strstr(err, path),
	      "an append past the file size limit: \"%s\"", err);
	setrlimit(RLIMIT_FSIZE, &was);
	after = read_all(path, &len2);
	CHECK(file && after && len2 == flen && memcmp(file, after, flen) == 0,
	      "after the refused append: %zu bytes, want the %zu before it", len2, flen);
	CHECK(sc_results_read(path, &back, err, sizeof(err)) == 0 && !err[0] &&
		  back.nphases == n - 1,
	      "after the refused append: %u phase(s), \"%s\"", back.nphases, err);
	sc_run_record_exit(&back);
	free(after);
	free(file);
	sc_run_record_exit(&rec);
}

int main(void)
{
	const char *src = getenv("SC_SOURCE_DIR");
	char pb[4096], tmp[256], out[400], half[400], err[1024] = "";
	struct sc_run_record rec;
	unsigned char *a, *b;
	size_t alen = 0, blen = 0;
	FILE *f;

	snprintf(pb, sizeof(pb), "%s/tests/data/report_golden/sweep.pb", src ? src : ".");
	check_mkdtemp(tmp, sizeof(tmp), "results_file");
	CHECK(sc_results_read(pb, &rec, err, sizeof(err)) == 0, "%s: %s", pb, err);
	CHECK(sc_results_write(tmp, &rec, err, sizeof(err)) == 0, "write: %s", err);
	snprintf(out, sizeof(out), "%s/results.pb", tmp);
	a = read_all(pb, &alen);
	b = read_all(out, &blen);
	CHECK(a && b && alen == blen && memcmp(a, b, alen) == 0,
	      "written again: %zu bytes, want the %zu read", blen, alen);
	sc_run_record_exit(&rec);

	snprintf(half, sizeof(half), "%s/half.pb", tmp);
	f = fopen(half, "wb");
	if (f && a) {
		fwrite(a, 1, alen / 2, f);
		fclose(f);
	}
	CHECK(sc_results_read(half, &rec, err, sizeof(err)) == -EBADMSG &&
		  strstr(err, "truncated or damaged"),
	      "a truncated file: \"%s\"", err);

	CHECK(sc_results_read(pb, &rec, err, sizeof(err)) == 0, "%s again: %s", pb, err);
	CHECK(sc_results_write(out, &rec, err, sizeof(err)) == -ENOTDIR && strstr(err, out),
	      "a folder that is a file: \"%s\"", err);
	sc_run_record_exit(&rec);
	free(a);
	free(b);
	test_append(pb, tmp);
	check_rmtree(tmp);
	return check_exit("test_results_file");
}
