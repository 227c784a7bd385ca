/* fuzz_config.c -- libFuzzer harness for the config loader: any bytes, as
 * a config file, through sc_config_load.  Leading lines "--set KEY=VALUE"
 * (at most MAX_SETS) are taken as overrides, so --set is fuzzed too.
 * Built only with -DSC_FUZZ=ON (clang); run by scripts/fuzz.sh. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/config.h"

#define MAX_SETS 4
#define ERR_MAX	 4096

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char path[256];

static void remove_file(void)
{
	unlink(path);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *base = getenv("TMPDIR");
	int fd;

	(void)argc;
	(void)argv;
	snprintf(path, sizeof(path), "%s/fuzz_config.XXXXXX", base && *base ? base : "/tmp");
	fd = mkstemp(path);
	if (fd < 0) {
		perror(path);
		abort();
	}
	close(fd);
	atexit(remove_file);
	/* the seed configs name their targets by these */
	setenv("SSDCLUSTER_TARGET", "/tmp", 0);
	setenv("SC_TEST_DIR", "/tmp", 0);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *sets[MAX_SETS], err[ERR_MAX];
	struct sc_config *cfg = NULL;
	uint32_t nsets = 0;
	size_t at = 0;
	FILE *f;
	int rc;

	while (nsets < MAX_SETS && size - at > 6 && memcmp(data + at, "--set ", 6) == 0) {
		const uint8_t *nl = memchr(data + at, '\n', size - at);
		size_t end = nl ? (size_t)(nl - data) : size;

		sets[nsets] = strndup((const char *)data + at + 6, end - at - 6);
		if (!sets[nsets])
			abort();
		nsets++;
		at = nl ? end + 1 : size;
	}
	f = fopen(path, "w");
	if (!f || fwrite(data + at, 1, size - at, f) != size - at || fclose(f) != 0)
		abort();
	rc = sc_config_load(&cfg, path, (const char *const *)sets, nsets, err, sizeof(err));
	/* Every refusal says where and what. */
	if (rc == -EINVAL &&
	    (!err[0] || (strncmp(err, path, strlen(path)) != 0 && strncmp(err, "--set ", 6) != 0)))
		abort();
	if (rc == 0 && !sc_config_plan(cfg)->nphases)
		abort(); /* an accepted config has work to do */
	sc_config_destroy(cfg);
	for (uint32_t i = 0; i < nsets; i++)
		free(sets[i]);
	return 0;
}
