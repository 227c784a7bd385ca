/* test_results_file.c -- results.pb written and read back (proto alone, no
 * coordinator): a kept run's file read and written again is the same
 * bytes; a truncated copy is refused as truncated or damaged; a folder
 * that is a file is refused with its path in the message. */
#include "results_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

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
	check_rmtree(tmp);
	return check_exit("test_results_file");
}
