/* test_results_input.c -- `ssdcluster report` on damaged and hostile
 * results files: each is refused (exit status 2) with a clear message, in
 * a child process whose time and memory are measured; and a valid record
 * whose figures run off every scale still prints.
 *
 * The valid record is tests/fuzz/corpus_results/tiny_run.pb (a real run of
 * every workload on two ranks); the hostile ones are made from it here.
 * Damaged files kept in tests/data/bad_results/ (what the fuzzer or an
 * audit found) are each refused. */
#include "report/cmd.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include "check.h"
#include "ckpt_model.h"
#include "codec.h"
#include "ssdcluster.pb-c.h"
#include "units.h"

/* Refusing any of these files takes milliseconds and a few MiB; reading a
 * 1 GiB file whole took 1 GiB, and a 1 MB file of empty histograms 14 GB. */
#define RSS_MAX_KIB (CHECK_UNDER_ASAN ? 512 * 1024L : 128 * 1024L)
#define CPU_MAX_S   10.0

static char tmp[256], seed[1024];

static uint8_t *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *b;
	long n;

	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
		perror(path);
		exit(1);
	}
	b = xcalloc((size_t)n, 1);
	if (fread(b, 1, (size_t)n, f) != (size_t)n) {
		perror(path);
		exit(1);
	}
	fclose(f);
	*len = (size_t)n;
	return b;
}

static void write_file(const char *path, const void *a, size_t alen, const void *b, size_t blen)
{
	FILE *f = fopen(path, "wb");

	if (!f || fwrite(a, 1, alen, f) != alen || (blen && fwrite(b, 1, blen, f) != blen) ||
	    fclose(f)) {
		perror(path);
		exit(1);
	}
}

/* Writes payload behind a valid header (magic, length, CRC). */
static void write_sealed(const char *path, const uint8_t *payload, size_t len)
{
	uint8_t hdr[SC_CODEC_HEADER_BYTES] = {'S', 'C', 'F', '1'};
	uint32_t crc = (uint32_t)crc32(0L, payload, (uInt)len);

	for (int i = 0; i < 4; i++) {
		hdr[4 + i] = (uint8_t)(len >> (8 * i));
		hdr[8 + i] = (uint8_t)(crc >> (8 * i));
	}
	write_file(path, hdr, sizeof(hdr), payload, len);
}

/* Runs `report path` in a child with stdout and stderr in tmp/out.txt;
 * returns its exit status, the output in out. */
static int report(const char *path, bool quiet, char *out, size_t outlen, struct rusage *ru)
{
	char log[300], dir[300];
	int status = 0;
	pid_t pid;

	snprintf(log, sizeof(log), "%s/out.txt", tmp);
	snprintf(dir, sizeof(dir), "%s/rebuilt", tmp);
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
			_exit(99);
		_exit(sc_report_command(path, dir, quiet));
	}
	if (pid < 0 || wait4(pid, &status, 0, ru) != pid) {
		FAIL("fork/wait: %s", strerror(errno));
		return -1;
	}
	out[0] = '\0';
	FILE *f = fopen(log, "r");
	if (f) {
		size_t n = fread(out, 1, outlen - 1, f);

		out[n] = '\0';
		fclose(f);
	}
	if (!WIFEXITED(status)) {
		FAIL("%s: report was killed by signal %d", path, WTERMSIG(status));
		return -1;
	}
	return WEXITSTATUS(status);
}

/* `report path` exits 2 with want in its message, in bounded time and
 * memory. */
static void expect_refused(const char *path, const char *want)
{
	char out[8192];
	struct rusage ru;
	int rc = report(path, true, out, sizeof(out), &ru);
	double cpu = check_cpu_s(&ru);

	if (getenv("SC_TEST_VERBOSE"))
		printf("%s: exit %d, %.3f s CPU, %ld KiB: %s", path, rc, cpu, ru.ru_maxrss, out);
	CHECK(rc == 2, "%s: exit %d, want 2 (%s)", path, rc, out);
	CHECK(strstr(out, want) != NULL, "%s: message \"%s\" lacks \"%s\"", path, out, want);
	CHECK(ru.ru_maxrss <= RSS_MAX_KIB, "%s: peak RSS %ld KiB", path, ru.ru_maxrss);
	CHECK(cpu <= CPU_MAX_S, "%s: %.1f s of CPU", path, cpu);
}

static void test_valid(void)
{
	char out[16384];
	struct rusage ru;

	CHECK(report(seed, true, out, sizeof(out), &ru) == 0, "the seed record rebuilds: %s", out);
}

/* The file is checked by its header before it is read. */
static void test_framing(const uint8_t *rec, size_t len)
{
	char path[300];
	uint8_t *longer;
	int fd;

	/* A 1 GiB file of zeros (sparse): refused after its first 12 bytes. */
	snprintf(path, sizeof(path), "%s/zeros.pb", tmp);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	CHECK(fd >= 0 && ftruncate(fd, (off_t)1 << 30) == 0, "sparse file");
	close(fd);
	expect_refused(path, "not an ssdcluster results file (it does not start as one)");

	/* Cut short, or with bytes after the end. */
	snprintf(path, sizeof(path), "%s/cut.pb", tmp);
	write_file(path, rec, len - 100, NULL, 0);
	expect_refused(path, "truncated or damaged: its header gives");
	/* Bytes after the record: zeros are what a crash while a phase was
	 * appended can leave (read, with a warning); others are damage. */
	longer = xcalloc(len + 7, 1);
	memcpy(longer, rec, len);
	snprintf(path, sizeof(path), "%s/longer.pb", tmp);
	write_file(path, longer, len + 7, NULL, 0);
	{
		char out[8192];
		struct rusage ru;
		int rc = report(path, true, out, sizeof(out), &ru);

		CHECK(rc == 0 && strstr(out, "warning") && strstr(out, "its last 7 bytes"),
		      "%s: exit %d, want 0 with a warning (%s)", path, rc, out);
	}
	memset(longer + len, 'x', 7);
	write_file(path, longer, len + 7, NULL, 0);
	expect_refused(path, "truncated or damaged");
	free(longer);

	/* A header that claims more than a results file may be, on a file
	 * that long (sparse). */
	uint8_t hdr[SC_CODEC_HEADER_BYTES] = {'S', 'C', 'F', '1', 1, 0, 0, 0x40, 0, 0, 0, 0};
	snprintf(path, sizeof(path), "%s/huge.pb", tmp);
	write_file(path, hdr, sizeof(hdr), NULL, 0);
	fd = open(path, O_WRONLY);
	CHECK(fd >= 0 && ftruncate(fd, (off_t)SC_CODEC_HEADER_BYTES + 0x40000001) == 0,
	      "sparse file");
	close(fd);
	expect_refused(path, "more than the 1024 MiB a results file may be");

	snprintf(path, sizeof(path), "%s", tmp);
	expect_refused(path, "not a regular file");
}

/* A million empty histograms in one 1 MB file: refused before they are
 * allocated (34 KiB each). */
static void test_amplification(void)
{
	static const uint8_t phase[] = {0x32, 10, 0x2a, 0, 0x32, 0, 0x42, 0, 0x4a, 0, 0x52, 0};
	size_t n = (1u << 20) / sizeof(phase);
	uint8_t *payload = xcalloc(n, sizeof(phase));
	char path[300];

	for (size_t i = 0; i < n; i++)
		memcpy(payload + i * sizeof(phase), phase, sizeof(phase));
	snprintf(path, sizeof(path), "%s/histograms.pb", tmp);
	write_sealed(path, payload, n * sizeof(phase));
	free(payload);
	expect_refused(path, "damaged: it would take far more memory to read");
}

/* Times at the ends of int64: their differences overflowed (undefined
 * behaviour) in the figures.  Refused: times stay within +-2^61 ns. */
static void test_times(const uint8_t *rec, size_t len)
{
	Ssdcluster__RunRecord *m = ssdcluster__run_record__unpack(NULL, len - SC_CODEC_HEADER_BYTES,
								  rec + SC_CODEC_HEADER_BYTES);
	char path[300];
	uint8_t *out;
	size_t n;

	if (!m || !m->n_phases || !m->phases[0]->n_ranks) {
		FAIL("the seed record does not unpack");
		return;
	}
	m->phases[0]->ranks[0]->start_ns = -INT64_MAX;
	m->phases[0]->ranks[0]->end_ns = INT64_MAX;
	out = xcalloc(ssdcluster__run_record__get_packed_size(m), 1);
	n = ssdcluster__run_record__pack(m, out);
	snprintf(path, sizeof(path), "%s/times.pb", tmp);
	write_sealed(path, out, n);
	free(out);
	ssdcluster__run_record__free_unpacked(m, NULL);
	expect_refused(path, "its checksum or contents do not add up");
}

/* A checkpoint whose projected write time is past 2^64 ns (llama3-1t at
 * 1 byte per checkpoint): the summary prints the largest duration instead
 * of casting an out-of-range double (undefined; it printed 0 ns). */
static void test_projection(const uint8_t *rec, size_t len)
{
	struct sc_run_record r;
	struct sc_llm big;
	char path[300], out[16384], want[64], line[128];
	struct rusage ru;
	uint8_t *packed;
	size_t n;
	int rc;

	if (sc_run_record_unpack(rec, len, &r) || sc_ckpt_model_lookup("llama3-1t", &big)) {
		FAIL("the seed record does not unpack");
		return;
	}
	for (uint32_t p = 0; p < r.plan.nphases; p++) {
		struct sc_phase *ph = &r.plan.phases[p];

		if (ph->workload == SC_WORKLOAD_CHECKPOINT)
			ph->ckpt.model = big;
	}
	for (uint32_t i = 0; i < r.nphases; i++) {
		const struct sc_phase *ph = &r.plan.phases[r.phases[i].phase];

		if (ph->workload != SC_WORKLOAD_CHECKPOINT || ph->ckpt.restore)
			continue;
		for (uint32_t k = 0; k < r.phases[i].nranks; k++) {
			r.phases[i].ranks[k].bytes[SC_DIR_WRITE] = 1;
			r.phases[i].ranks[k].bytes[SC_DIR_READ] = 0;
			r.phases[i].ranks[k].end_ns = INT64_C(10000000000);
		}
	}
	rc = sc_run_record_pack(&r, &packed, &n);
	sc_run_record_exit(&r);
	if (rc) {
		FAIL("pack: %d", rc);
		return;
	}
	snprintf(path, sizeof(path), "%s/projection.pb", tmp);
	write_file(path, packed, n, NULL, 0);
	free(packed);
	rc = report(path, false, out, sizeof(out), &ru);
	CHECK(rc == 0, "exit %d: %s", rc, out);
	sc_fmt_duration(want, sizeof(want), UINT64_MAX);
	snprintf(line, sizeof(line), "projected write %s at", want);
	CHECK(strstr(out, line) != NULL, "no \"%s\" in:\n%s", line, out);
}

/* A damaged file kept in tests/data/bad_results/: refused. */
static void found_file(const char *path, void *arg)
{
	(void)arg;
	expect_refused(path, "ssdcluster: ");
}

int main(void)
{
	const char *src = getenv("SC_SOURCE_DIR");
	char found[1024];
	uint8_t *rec;
	size_t len;

	if (!src) {
		fprintf(stderr,
			"test_results_input: SC_SOURCE_DIR is not set (run it with ctest)\n");
		return CHECK_SKIP;
	}
	snprintf(seed, sizeof(seed), "%s/tests/fuzz/corpus_results/tiny_run.pb", src);
	snprintf(found, sizeof(found), "%s/tests/data/bad_results", src);
	check_mkdtemp(tmp, sizeof(tmp), "test_results_input");
	rec = read_all(seed, &len);

	test_valid();
	test_framing(rec, len);
	test_amplification();
	test_times(rec, len);
	test_projection(rec, len);
	CHECK(check_each_file(found, ".pb", found_file, NULL) >= 2, "%s: the kept inputs", found);

	free(rec);
	check_rmtree(tmp);
	return check_exit("test_results_input");
}
