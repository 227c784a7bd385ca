/* fuzz_results.c -- libFuzzer harness for the results reader: any bytes as
 * a results.pb, through `ssdcluster report` (read, unpack, figures, JSON,
 * CSV, results.pb again, the progress rows) into a temp directory.
 * Input not starting with the "SCF1" magic is taken as the protobuf
 * payload and given a valid header (length, CRC), so that mutations reach
 * the decoder and not just the checksum.  Built only with -DSC_FUZZ=ON
 * (clang); run by scripts/fuzz.sh. */
#include <fcntl.h>
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "report/cmd.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[256], path[300];

static int remove_one(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(p);
	return 0;
}

static void remove_dir(void)
{
	nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *base = getenv("TMPDIR");
	int null = open("/dev/null", O_WRONLY);

	(void)argc;
	(void)argv;
	snprintf(dir, sizeof(dir), "%s/fuzz_results.XXXXXX", base && *base ? base : "/tmp");
	if (!mkdtemp(dir) || null < 0) {
		perror(dir);
		abort();
	}
	atexit(remove_dir);
	snprintf(path, sizeof(path), "%s/in.pb", dir);
	dup2(null, STDOUT_FILENO); /* the phase rows */
	close(null);
	return 0;
}

static void put_le32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *f = fopen(path, "w");
	int rc;

	if (!f)
		abort();
	if (size < 4 || memcmp(data, "SCF1", 4) != 0) {
		uint8_t hdr[12];

		memcpy(hdr, "SCF1", 4);
		put_le32(hdr + 4, (uint32_t)size);
		put_le32(hdr + 8, (uint32_t)crc32(0L, data, (uInt)size));
		fwrite(hdr, 1, sizeof(hdr), f);
	}
	if (fwrite(data, 1, size, f) != size || fclose(f) != 0)
		abort();
	rc = sc_report_command(path, dir, false);
	if (rc != 0 && rc != 2)
		abort(); /* a valid record always rebuilds; anything else is refused */
	return 0;
}
