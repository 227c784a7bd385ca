/* test_telemetry.c -- the sysfs walk from a target to its NVMe drives on
 * the fake trees of tests/data/sysfs (partition, dm and md members, native
 * multipath head and hidden path, virtio and loop), hwmon temperatures,
 * the per-second temperature series, and the verdict's look-ups.
 *
 * Exit 0 pass, 1 fail.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "check.h"
#include "clock.h"
#include "drive_watch.h"
#include "telemetry.h"

static char sysfs[4096];

static const struct sc_drive *drive_named(const struct sc_telemetry *t, const char *dev)
{
	for (uint32_t i = 0; i < t->ndrives; i++)
		if (!strcmp(t->drives[i].device, dev))
			return &t->drives[i];
	return NULL;
}

/* A partition on nvme0n1: the whole namespace's identity and size, the
 * controller's hwmon temperature; blanks around model and serial trimmed. */
static void test_partition(void)
{
	struct sc_telemetry t;
	int n = sc_telemetry_probe_dev(sysfs, makedev(259, 1), "/mnt/a", &t);

	CHECK(n == 1, "a partition of nvme0n1 gives 1 drive, got %d (%s)", n, t.none);
	if (n != 1)
		return;
	CHECK(!strcmp(t.drives[0].device, "nvme0n1"), "device %s", t.drives[0].device);
	CHECK(!strcmp(t.drives[0].controller, "nvme0"), "controller %s", t.drives[0].controller);
	CHECK(!strcmp(t.drives[0].model, "Dell Ent NVMe PM1733a RI 3.84TB"), "model \"%s\"",
	      t.drives[0].model);
	CHECK(!strcmp(t.drives[0].serial, "S6UGNE0R900123"), "serial \"%s\"", t.drives[0].serial);
	CHECK(!strcmp(t.drives[0].firmware, "3.2Q"), "firmware \"%s\"", t.drives[0].firmware);
	CHECK(t.drives[0].capacity_bytes == UINT64_C(7501476528) * 512,
	      "capacity is the namespace's 7501476528 sectors x 512 B, got %llu",
	      (unsigned long long)t.drives[0].capacity_bytes);
	CHECK(t.none[0] == '\0', "no reason when found: %s", t.none);
	CHECK(sc_telemetry_temp_mk(&t) == 38850 + SC_TEMP_MK_OFFSET,
	      "hwmon1/temp1_input 38850 m°C, got %llu mK",
	      (unsigned long long)sc_telemetry_temp_mk(&t));
}

/* dm-0 over nvme1n1 and nvme2n1: both drives, the hotter temperature. */
static void test_dm(void)
{
	struct sc_telemetry t;
	int n = sc_telemetry_probe_dev(sysfs, makedev(253, 0), "/dev/dm-0", &t);
	const struct sc_drive *a = drive_named(&t, "nvme1n1"), *b = drive_named(&t, "nvme2n1");

	CHECK(n == 2, "dm-0 over two namespaces gives 2 drives, got %d (%s)", n, t.none);
	CHECK(a && !strcmp(a->serial, "S6EWNA0T100001") && !strcmp(a->controller, "nvme1"),
	      "nvme1n1 on nvme1 with its serial");
	CHECK(b && !strcmp(b->serial, "S6EWNA0T100002") && !strcmp(b->controller, "nvme2"),
	      "nvme2n1 on nvme2 with its serial");
	CHECK(sc_telemetry_temp_mk(&t) == 52850 + SC_TEMP_MK_OFFSET,
	      "the hottest drive (nvme2, 52850 m°C), got %llu mK",
	      (unsigned long long)sc_telemetry_temp_mk(&t));
}

/* md0 over a partition of nvme0n1 and a virtio disk: the NVMe member only. */
static void test_md_mixed(void)
{
	struct sc_telemetry t;
	int n = sc_telemetry_probe_dev(sysfs, makedev(9, 0), "/dev/md0", &t);

	CHECK(n == 1 && !strcmp(t.drives[0].device, "nvme0n1"),
	      "md0 over nvme0n1p1 and vda gives nvme0n1 alone, got %d", n);
}

/* A native multipath head: identity from its first controller (nvme4, not
 * nvme5), size from the head; a hidden path names its own controller. */
static void test_multipath(void)
{
	struct sc_telemetry t;
	int n = sc_telemetry_probe_dev(sysfs, makedev(259, 4), "/dev/nvme4n1", &t);

	CHECK(n == 1, "a multipath head gives 1 drive, got %d (%s)", n, t.none);
	if (n == 1) {
		CHECK(!strcmp(t.drives[0].device, "nvme4n1"), "device %s", t.drives[0].device);
		CHECK(!strcmp(t.drives[0].controller, "nvme4"), "first controller, got %s",
		      t.drives[0].controller);
		CHECK(!strcmp(t.drives[0].serial, "X3M0A00KT8X1"), "serial %s", t.drives[0].serial);
		CHECK(!strcmp(t.drives[0].model, "KIOXIA KCM7DRJE3T84"), "model %s",
		      t.drives[0].model);
		CHECK(t.drives[0].capacity_bytes == UINT64_C(7501476528) * 512, "capacity %llu",
		      (unsigned long long)t.drives[0].capacity_bytes);
		CHECK(sc_telemetry_temp_mk(&t) == 44850 + SC_TEMP_MK_OFFSET, "nvme4's hwmon0");
	}
	n = sc_telemetry_probe_dev(sysfs, makedev(259, 9), "nvme4c5n1", &t);
	CHECK(n == 1 && !strcmp(t.drives[0].controller, "nvme5") &&
		  !strcmp(t.drives[0].device, "nvme4c5n1"),
	      "a hidden path nvme4c5n1 is on controller nvme5, got %d", n);
	CHECK(n != 1 || sc_telemetry_temp_mk(&t) == 0,
	      "nvme5 has no hwmon: no temperature, got %llu",
	      (unsigned long long)sc_telemetry_temp_mk(&t));
}

/* Not NVMe: no drive, a reason naming the device, no error. */
static void test_not_nvme(void)
{
	struct sc_telemetry t;
	int n;

	n = sc_telemetry_probe_dev(sysfs, makedev(254, 1), "/data", &t);
	CHECK(n == 0 && strstr(t.none, "no NVMe telemetry") && strstr(t.none, "/data is on vda"),
	      "a virtio partition: none, naming vda; got %d \"%s\"", n, t.none);
	n = sc_telemetry_probe_dev(sysfs, makedev(7, 0), "/dev/loop0", &t);
	CHECK(n == 0 && strstr(t.none, "no NVMe telemetry: /dev/loop0 is on loop0"),
	      "a loop device: none; got %d \"%s\"", n, t.none);
	CHECK(sc_telemetry_temp_mk(&t) == 0, "no temperature without drives");
	n = sc_telemetry_probe_dev(sysfs, makedev(8, 0), "/dev/sda", &t);
	CHECK(n == 0 && strstr(t.none, "no NVMe telemetry") && strstr(t.none, "8:0"),
	      "a device missing from sysfs: none naming 8:0; got %d \"%s\"", n, t.none);
	n = sc_telemetry_probe(sysfs, "/nonexistent/target", &t);
	CHECK(n == 0 && strstr(t.none, "no NVMe telemetry: cannot look at /nonexistent/target"),
	      "a missing path: none; got %d \"%s\"", n, t.none);
	/* this machine's own temp dir, through the real /sys: never an error */
	n = sc_telemetry_probe(SC_TELEMETRY_SYSFS, "/var/tmp", &t);
	CHECK(n >= 0 && (n > 0 || strstr(t.none, "no NVMe telemetry")),
	      "/var/tmp: drives or a reason, got %d \"%s\"", n, t.none);
}

/* Samples into seconds: the hottest per second, none stays 0. */
static void test_series(void)
{
	const uint64_t o = UINT64_C(5000000000);
	const struct sc_temp_sample s[] = {
	    {o - 1, 400000}, /* before the start: left out */
	    {o, 310000},
	    {o + 500000000, 312000},  /* second 0: 312000 */
	    {o + 2100000000, 0},      /* second 2: none read */
	    {o + 3000000000, 305000}, /* second 3 */
	    {o + 9000000000, 999000}, /* beyond the series */
	};
	struct sc_second sec[4];

	memset(sec, 0, sizeof(sec));
	sc_drive_watch_fill_seconds(s, sizeof(s) / sizeof(s[0]), o, sec, 4);
	CHECK(sec[0].max_temp_mk == 312000, "second 0: the hotter sample, got %llu",
	      (unsigned long long)sec[0].max_temp_mk);
	CHECK(sec[1].max_temp_mk == 0 && sec[2].max_temp_mk == 0, "seconds 1, 2: none");
	CHECK(sec[3].max_temp_mk == 305000, "second 3, got %llu",
	      (unsigned long long)sec[3].max_temp_mk);
}

/* A phase's watch over dm-0's drives: the sampler fills the seconds with
 * the hottest drive, the row gets both drives, and each health log is a
 * reading or says why not (no /dev/nvme1 here).  Every sample is taken
 * between the watch's start and its end, in the second its own time falls
 * in: whether the watch reached second 1 is the machine's (a 500 ms late
 * wake-up did), so each second is checked against when the watch ended. */
static void test_watch(void)
{
	const uint64_t hottest = 52850 + SC_TEMP_MK_OFFSET; /* nvme2 */
	struct sc_telemetry t;
	struct sc_drive_watch *w;
	struct sc_rank_result r;
	uint64_t origin = sc_now_ns(), end;
	uint32_t held = 0;

	sc_telemetry_probe_dev(sysfs, makedev(253, 0), "/dev/dm-0", &t);
	memset(&r, 0, sizeof(r));
	r.nseconds = 2;
	r.seconds = xcalloc(2, sizeof(*r.seconds));
	CHECK(sc_drive_watch_begin_with(&w, &t) == 0 && w, "watch begins");
	sc_sleep_until(origin + 2 * SC_TEMP_SAMPLE_NS);
	CHECK(sc_drive_watch_end(w, origin, &r) == 0, "watch ends");
	end = sc_now_ns() - origin; /* every sample was taken before */
	for (uint32_t k = 0; k < 2; k++) {
		uint64_t mk = r.seconds[k].max_temp_mk;

		CHECK(mk == 0 || mk == hottest, "second %u: nvme2's 52850 m°C or none, got %llu", k,
		      (unsigned long long)mk);
		CHECK(k * SC_NS_PER_S < end || mk == 0,
		      "second %u: none, the watch ended at %.0f ms; got %llu", k, end / 1e6,
		      (unsigned long long)mk);
		held += mk != 0;
	}
	CHECK(end >= SC_NS_PER_S || r.seconds[0].max_temp_mk == hottest,
	      "second 0 (the watch ended at %.0f ms): nvme2's 52850 m°C, got %llu", end / 1e6,
	      (unsigned long long)r.seconds[0].max_temp_mk);
	CHECK(end >= 2 * SC_NS_PER_S || held >= 1,
	      "a reading at least, however soon the stop came (the watch ended at %.0f ms)",
	      end / 1e6);
	CHECK(r.ndrives == 2 && r.telemetry_none[0] == '\0', "both drives in the row, got %u",
	      r.ndrives);
	for (uint32_t i = 0; i < r.ndrives; i++)
		CHECK(
		    (r.drives[i].before.valid || strstr(r.drives[i].before.reason, "/dev/nvme")) &&
			(r.drives[i].after.valid || strstr(r.drives[i].after.reason, "/dev/nvme")),
		    "drive %u: a health log or why not (\"%s\")", i, r.drives[i].after.reason);
	sc_rank_result_exit(&r);
}

/* The verdict's look-ups on a rank's row. */
static void test_media_errors(void)
{
	struct sc_drive d[2];
	struct sc_rank_result r;
	uint64_t added = 7;

	memset(&r, 0, sizeof(r));
	memset(d, 0, sizeof(d));
	CHECK(sc_telemetry_media_errors(&r, &added) == -ENODATA && added == 0,
	      "no drive: -ENODATA");
	CHECK(sc_telemetry_identity(&r) == NULL, "no drive: no identity");
	snprintf(d[0].device, sizeof(d[0].device), "nvme1n1");
	d[0].before = (struct sc_drive_health){.valid = true, .media_errors = 3};
	d[0].after = (struct sc_drive_health){.valid = true, .media_errors = 5};
	d[1].before = (struct sc_drive_health){.valid = true, .media_errors = 0};
	d[1].after = (struct sc_drive_health){.valid = true, .media_errors = 1};
	r.drives = d;
	r.ndrives = 2;
	CHECK(sc_telemetry_media_errors(&r, &added) == 0 && added == 3,
	      "2 + 1 media errors added, got %llu", (unsigned long long)added);
	CHECK(sc_telemetry_identity(&r) == &d[0], "the first drive names the rank");
	d[1].after.valid = false;
	CHECK(sc_telemetry_media_errors(&r, &added) == -ENODATA,
	      "a log not read after: unknown, not 0");
}

int main(void)
{
	const char *src = getenv("SC_SOURCE_DIR");

	if (!src) {
		fprintf(stderr, "test_telemetry: SC_SOURCE_DIR is not set (run it with ctest)\n");
		return 1;
	}
	snprintf(sysfs, sizeof(sysfs), "%s/tests/data/sysfs", src);
	test_partition();
	test_dm();
	test_md_mixed();
	test_multipath();
	test_not_nvme();
	test_series();
	test_watch();
	test_media_errors();
	return check_exit("test_telemetry");
}
