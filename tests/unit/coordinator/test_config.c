/* test_config.c -- YAML configs to plans: exact plans, sweeps, ${VAR},
 * --set, and the exact "file:line:col: key.path:" of every error class. */
#include "config/config.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "mlperf.h"
#include "plan.h"

static char dir[256];	   /* temp dir: configs, a small file target */
static char file_tgt[300]; /* a 1 MiB regular file in dir */

#define KIB UINT64_C(1024)
#define MIB (KIB * KIB)
#define NS  UINT64_C(1000000000)

/* Entries under path, recursively (to see that a load created nothing). */
static int count_entries(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)) != NULL) {
		char sub[1024];

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		n++;
		snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
		if (e->d_type == DT_DIR)
			n += count_entries(sub);
	}
	closedir(d);
	return n;
}

/* Writes text to dir/name with every "@D" replaced by dir and "@F" by
 * the file target; the path goes to out. */
static void write_cfg(const char *name, const char *text, char *out, size_t len)
{
	FILE *f;

	snprintf(out, len, "%s/%s", dir, name);
	f = fopen(out, "w");
	if (!f) {
		perror(out);
		exit(1);
	}
	for (const char *p = text; *p; p++) {
		if (p[0] == '@' && p[1] == 'D') {
			fputs(dir, f);
			p++;
		} else if (p[0] == '@' && p[1] == 'F') {
			fputs(file_tgt, f);
			p++;
		} else {
			fputc(*p, f);
		}
	}
	fclose(f);
}

static struct sc_config *load_ok(const char *text, const char *const *sets, uint32_t nsets,
				 char *path, size_t pathlen, int line)
{
	struct sc_config *cfg = NULL;
	char err[1024];
	int ret;

	write_cfg("ok.yaml", text, path, pathlen);
	ret = sc_config_load(&cfg, path, sets, nsets, err, sizeof(err));
	if (ret) {
		check_fail(__FILE__, line, NULL, "load returned %d: %s", ret, err);
		return NULL;
	}
	return cfg;
}

/* Loads text (as dir/bad.yaml) and checks the message starts with expect,
 * where "@P" in expect stands for the config path; and that the load
 * created nothing in dir. */
static void expect_err(int line, const char *text, const char *const *sets, uint32_t nsets,
		       const char *expect)
{
	struct sc_config *cfg = NULL;
	char path[512], err[1024], want[1024];
	size_t o = 0;
	int before, after, ret;

	write_cfg("bad.yaml", text, path, sizeof(path));
	for (const char *p = expect; *p && o + 1 < sizeof(want); p++) {
		if (p[0] == '@' && p[1] == 'P') {
			o += (size_t)snprintf(want + o, sizeof(want) - o, "%s", path);
			p++;
		} else if (p[0] == '@' && p[1] == 'D') {
			o += (size_t)snprintf(want + o, sizeof(want) - o, "%s", dir);
			p++;
		} else if (p[0] == '@' && p[1] == 'F') {
			o += (size_t)snprintf(want + o, sizeof(want) - o, "%s", file_tgt);
			p++;
		} else {
			want[o++] = *p;
		}
	}
	want[o] = '\0';
	before = count_entries(dir);
	ret = sc_config_load(&cfg, path, sets, nsets, err, sizeof(err));
	after = count_entries(dir);
	if (getenv("SC_TEST_VERBOSE"))
		printf("%s\n", err);
	if (ret != -EINVAL || strncmp(err, want, strlen(want)) != 0)
		check_fail(__FILE__, line, NULL,
			   "load returned %d\n  got:      %s\n  expected: %s...", ret, err, want);
	CHECK(cfg == NULL, "line %d: a failing load gives no config", line);
	CHECK(before == after, "line %d: a failing load changed %s (%d -> %d entries)", line, dir,
	      before, after);
	sc_config_destroy(cfg);
}

#define EXPECT_ERR(text, expect) expect_err(__LINE__, text, NULL, 0, expect)
#define EXPECT_SET_ERR(text, sets, expect)                                                         \
	expect_err(__LINE__, text, sets, sizeof(sets) / sizeof(sets[0]), expect)

/* ---- valid configs ---- */

/* The cell's identity and every field of its io spec. */
static void check_cell_io(int line, const struct sc_phase *ph, const char *name, const char *group,
			  uint32_t config_index, uint32_t cell, uint32_t ncells,
			  enum sc_workload workload, struct sc_io_spec want)
{
	const struct sc_io_spec *io = &ph->io;

	if (strcmp(ph->name, name) || strcmp(ph->group, group) ||
	    ph->config_index != config_index || ph->cell != cell || ph->ncells != ncells ||
	    ph->workload != workload) {
		check_fail(
		    __FILE__, line, NULL,
		    "phase %s/%s index %u cell %u/%u workload %d, expected %s/%s %u %u/%u %s",
		    ph->name, ph->group, ph->config_index, ph->cell, ph->ncells, (int)ph->workload,
		    name, group, config_index, cell, ncells, sc_workload_name(workload));
	}
	if (io->rw != want.rw || io->rwmixread_pct != want.rwmixread_pct ||
	    io->bs_bytes != want.bs_bytes || io->iodepth != want.iodepth || io->jobs != want.jobs ||
	    io->size_bytes != want.size_bytes || io->runtime_ns != want.runtime_ns ||
	    io->io_bytes != want.io_bytes || io->ramp_ns != want.ramp_ns ||
	    io->fsync_every != want.fsync_every || io->direct != want.direct ||
	    io->engine != want.engine || io->seed != want.seed || io->rate_iops != want.rate_iops) {
		check_fail(__FILE__, line, NULL,
			   "phase %s io\n"
			   "  got:      rw %d mix %u bs %" PRIu64 " qd %u jobs %u size %" PRIu64
			   " runtime %" PRIu64 " io %" PRIu64 " ramp %" PRIu64
			   " fsync %u direct %d engine %d seed %" PRIu64 " rate %" PRIu64 "\n"
			   "  expected: rw %d mix %u bs %" PRIu64 " qd %u jobs %u size %" PRIu64
			   " runtime %" PRIu64 " io %" PRIu64 " ramp %" PRIu64
			   " fsync %u direct %d engine %d seed %" PRIu64 " rate %" PRIu64,
			   ph->name, (int)io->rw, io->rwmixread_pct, io->bs_bytes, io->iodepth,
			   io->jobs, io->size_bytes, io->runtime_ns, io->io_bytes, io->ramp_ns,
			   io->fsync_every, io->direct, (int)io->engine, io->seed, io->rate_iops,
			   (int)want.rw, want.rwmixread_pct, want.bs_bytes, want.iodepth, want.jobs,
			   want.size_bytes, want.runtime_ns, want.io_bytes, want.ramp_ns,
			   want.fsync_every, want.direct, (int)want.engine, want.seed,
			   want.rate_iops);
	}
}

static void check_io(int line, const struct sc_phase *ph, const char *name, const char *group,
		     uint32_t config_index, uint32_t cell, uint32_t ncells, struct sc_io_spec want)
{
	check_cell_io(line, ph, name, group, config_index, cell, ncells, SC_WORKLOAD_IO, want);
}

static void test_full_plan(void)
{
	static const char yaml[] = "# a full config\n"
				   "targets:\n"
				   "  - path: @D/data\n" /* line 3: does not exist yet */
				   "    capacity: 1MiB\n"
				   "    keep: true\n"
				   "  - path: @F\n" /* line 6 */
				   "    allow_destroy: true\n"
				   "  - path: /dev/nvme9n9\n"
				   "    hosts: \"gpu[01-16]\"\n"
				   "    capacity: 2GiB\n"
				   "defaults:\n"
				   "  engine: psync\n"
				   "  direct: false\n"
				   "  runtime: 3s\n"
				   "phases:\n"
				   "  - name: seqwrite\n" /* line 16 */
				   "    rw: write\n"
				   "    bs: 1MiB\n"
				   "    iodepth: 32\n"
				   "    jobs: 2\n"
				   "    size: 256MiB\n"
				   "    io_size: 512MiB\n"
				   "    fsync: 8\n"
				   "    direct: true\n"
				   "    engine: io_uring\n"
				   "  - rw: randrw\n" /* line 26: phase1 */
				   "    rwmixread: 70\n"
				   "    runtime: 10s\n"
				   "    ramp: 2s\n"
				   "    seed: 42\n"
				   "  - name: rd.4k\n" /* line 31 */
				   "    workload: io\n"
				   "    rw: randread\n"
				   "    size: 1048576\n"
				   "    engine: null\n";
	struct sc_config *cfg;
	const struct sc_plan *plan;
	char path[512], want[600], buf[600];

	cfg = load_ok(yaml, NULL, 0, path, sizeof(path), __LINE__);
	if (!cfg)
		return;
	plan = sc_config_plan(cfg);
	CHECK(plan->run_id == NULL, "run_id is the caller's");
	CHECK(plan->config_path && strcmp(plan->config_path, path) == 0, "config_path %s",
	      plan->config_path);
	CHECK(plan->ntargets == 3, "ntargets %u", plan->ntargets);
	if (plan->ntargets == 3) {
		const struct sc_target_spec *t = plan->targets;

		snprintf(want, sizeof(want), "%s/data", dir);
		CHECK(strcmp(t[0].path, want) == 0, "t0 path %s", t[0].path);
		CHECK(t[0].kind == SC_TARGET_DIR, "t0 kind %d", (int)t[0].kind);
		CHECK(t[0].capacity_bytes == MIB, "t0 capacity %" PRIu64, t[0].capacity_bytes);
		CHECK(t[0].keep && !t[0].allow_destroy && !t[0].hosts, "t0 flags");
		CHECK(strcmp(t[1].path, file_tgt) == 0, "t1 path %s", t[1].path);
		CHECK(t[1].kind == SC_TARGET_FILE, "t1 kind %d", (int)t[1].kind);
		CHECK(t[1].capacity_bytes == MIB, "t1 capacity = file size, %" PRIu64,
		      t[1].capacity_bytes);
		CHECK(!t[1].keep && t[1].allow_destroy && !t[1].hosts, "t1 flags");
		CHECK(strcmp(t[2].path, "/dev/nvme9n9") == 0, "t2 path %s", t[2].path);
		CHECK(t[2].kind == SC_TARGET_BLOCK, "t2 kind %d (unprobed /dev path)",
		      (int)t[2].kind);
		CHECK(t[2].capacity_bytes == 2048 * MIB, "t2 capacity %" PRIu64,
		      t[2].capacity_bytes);
		CHECK(t[2].hosts && strcmp(t[2].hosts, "gpu[01-16]") == 0, "t2 hosts %s",
		      t[2].hosts);
		CHECK(!t[2].keep && !t[2].allow_destroy, "t2 flags");
	}
	CHECK(plan->nphases == 3, "nphases %u", plan->nphases);
	if (plan->nphases == 3) {
		check_io(__LINE__, &plan->phases[0], "seqwrite", "seqwrite", 0, 0, 1,
			 (struct sc_io_spec){.rw = SC_RW_WRITE,
					     .rwmixread_pct = 0,
					     .bs_bytes = MIB,
					     .iodepth = 32,
					     .jobs = 2,
					     .size_bytes = 256 * MIB,
					     .runtime_ns = 0,
					     .io_bytes = 512 * MIB,
					     .ramp_ns = 0,
					     .fsync_every = 8,
					     .direct = true,
					     .engine = SC_ENGINE_URING,
					     .seed = 1});
		check_io(__LINE__, &plan->phases[1], "phase1", "phase1", 1, 0, 1,
			 (struct sc_io_spec){.rw = SC_RW_RANDRW,
					     .rwmixread_pct = 70,
					     .bs_bytes = 4 * KIB,
					     .iodepth = 1,
					     .jobs = 1,
					     .size_bytes = 64 * MIB,
					     .runtime_ns = 10 * NS,
					     .io_bytes = 0,
					     .ramp_ns = 2 * NS,
					     .fsync_every = 0,
					     .direct = false,
					     .engine = SC_ENGINE_PSYNC,
					     .seed = 42});
		check_io(__LINE__, &plan->phases[2], "rd.4k", "rd.4k", 2, 0, 1,
			 (struct sc_io_spec){.rw = SC_RW_RANDREAD,
					     .rwmixread_pct = 100,
					     .bs_bytes = 4 * KIB,
					     .iodepth = 1,
					     .jobs = 1,
					     .size_bytes = MIB,
					     .runtime_ns = 3 * NS,
					     .io_bytes = 0,
					     .ramp_ns = 0,
					     .fsync_every = 0,
					     .direct = false,
					     .engine = SC_ENGINE_NULL,
					     .seed = 3});
	}

	/* Locations of values, of what a phase inherits, and of ancestors. */
	snprintf(want, sizeof(want), "%s:18:9", path);
	sc_config_where(cfg, "phases.0.bs", buf, sizeof(buf));
	CHECK(strcmp(buf, want) == 0, "where phases.0.bs: %s, expected %s", buf, want);
	sc_config_where(cfg, "phases[0].bs", buf, sizeof(buf));
	CHECK(strcmp(buf, want) == 0, "where phases[0].bs: %s, expected %s", buf, want);
	sc_config_where(cfg, "phases.seqwrite.bs", buf, sizeof(buf));
	CHECK(strcmp(buf, want) == 0, "where phases.seqwrite.bs: %s, expected %s", buf, want);
	snprintf(want, sizeof(want), "%s:4:15", path);
	sc_config_where(cfg, "targets.0.capacity", buf, sizeof(buf));
	CHECK(strcmp(buf, want) == 0, "where targets.0.capacity: %s, expected %s", buf, want);
	snprintf(want, sizeof(want), "%s:6:5", path);
	sc_config_where(cfg, "targets.1.capacity", buf, sizeof(buf));
	CHECK(strcmp(buf, want) == 0, "where targets.1.capacity (absent): %s, expected %s", buf,
	      want);
	snprintf(want, sizeof(want), "%s:12:11", path);
	sc_config_where(cfg, "phases.1.engine", buf, sizeof(buf));
	CHECK(strcmp(buf, want) == 0, "where phases.1.engine (a default): %s, expected %s", buf,
	      want);
	snprintf(want, sizeof(want), "%s:31:5", path);
	sc_config_where(cfg, "phases.rd.4k.jobs", buf, sizeof(buf));
	CHECK(strcmp(buf, want) == 0, "where phases.rd.4k.jobs: %s, expected %s", buf, want);
	sc_config_where(cfg, "nothing.here", buf, sizeof(buf));
	CHECK(strcmp(buf, path) == 0, "where nothing.here: %s, expected %s", buf, path);

	/* take_plan moves the plan out. */
	{
		struct sc_plan taken;

		sc_config_take_plan(cfg, &taken);
		CHECK(taken.nphases == 3 && taken.ntargets == 3, "taken plan");
		CHECK(sc_config_plan(cfg)->nphases == 0 && sc_config_plan(cfg)->phases == NULL,
		      "config's copy emptied");
		sc_plan_exit(&taken);
	}
	sc_config_destroy(cfg);
	snprintf(want, sizeof(want), "%s/data", dir);
	CHECK(access(want, F_OK) != 0, "loading created the directory target %s", want);
}

static void test_sweep(void)
{
	static const char yaml[] = "targets: [{path: @D}]\n"
				   "phases:\n"
				   "  - rw: read\n"
				   "  - name: sw\n"
				   "    rw: randread\n"
				   "    bs: [4KiB, 1MiB]\n"
				   "    iodepth: [1, 8, 32]\n"
				   "    runtime: 5s\n"
				   "  - name: mix\n"
				   "    rw: [randread, randwrite]\n"
				   "    fsync: 4\n"
				   "    io_size: 128MiB\n";
	static const char *const names[] = {
	    "sw[bs=4KiB,iodepth=1]", "sw[bs=4KiB,iodepth=8]", "sw[bs=4KiB,iodepth=32]",
	    "sw[bs=1MiB,iodepth=1]", "sw[bs=1MiB,iodepth=8]", "sw[bs=1MiB,iodepth=32]",
	};
	static const uint64_t bs[] = {4 * KIB, 4 * KIB, 4 * KIB, MIB, MIB, MIB};
	static const uint32_t qd[] = {1, 8, 32, 1, 8, 32};
	struct sc_config *cfg;
	const struct sc_plan *plan;
	char path[512];

	cfg = load_ok(yaml, NULL, 0, path, sizeof(path), __LINE__);
	if (!cfg)
		return;
	plan = sc_config_plan(cfg);
	CHECK(plan->nphases == 9, "nphases %u", plan->nphases);
	if (plan->nphases == 9) {
		check_io(__LINE__, &plan->phases[0], "phase0", "phase0", 0, 0, 1,
			 (struct sc_io_spec){.rw = SC_RW_READ,
					     .rwmixread_pct = 100,
					     .bs_bytes = 4 * KIB,
					     .iodepth = 1,
					     .jobs = 1,
					     .size_bytes = 64 * MIB,
					     .io_bytes = 64 * MIB,
					     .direct = true,
					     .engine = SC_ENGINE_URING,
					     .seed = 1});
		for (uint32_t i = 0; i < 6; i++)
			check_io(__LINE__, &plan->phases[1 + i], names[i], "sw", 1, i, 6,
				 (struct sc_io_spec){.rw = SC_RW_RANDREAD,
						     .rwmixread_pct = 100,
						     .bs_bytes = bs[i],
						     .iodepth = qd[i],
						     .jobs = 1,
						     .size_bytes = 64 * MIB,
						     .runtime_ns = 5 * NS,
						     .direct = true,
						     .engine = SC_ENGINE_URING,
						     .seed = 2});
		/* fsync applies to the cell that writes only. */
		check_io(__LINE__, &plan->phases[7], "mix[rw=randread]", "mix", 2, 0, 2,
			 (struct sc_io_spec){.rw = SC_RW_RANDREAD,
					     .rwmixread_pct = 100,
					     .bs_bytes = 4 * KIB,
					     .iodepth = 1,
					     .jobs = 1,
					     .size_bytes = 64 * MIB,
					     .io_bytes = 128 * MIB,
					     .direct = true,
					     .engine = SC_ENGINE_URING,
					     .seed = 3});
		check_io(__LINE__, &plan->phases[8], "mix[rw=randwrite]", "mix", 2, 1, 2,
			 (struct sc_io_spec){.rw = SC_RW_RANDWRITE,
					     .rwmixread_pct = 0,
					     .bs_bytes = 4 * KIB,
					     .iodepth = 1,
					     .jobs = 1,
					     .size_bytes = 64 * MIB,
					     .io_bytes = 128 * MIB,
					     .fsync_every = 4,
					     .direct = true,
					     .engine = SC_ENGINE_URING,
					     .seed = 3});
	}
	sc_config_destroy(cfg);
}

/* Every default of a phase that says only rw. */
/* fill phases and idle steps: their defaults, a file target filled whole,
 * --set reaching them, and what they refuse. */
static void test_fill_idle(void)
{
	static const char *const sets[] = {"idle=3s", "passes=1"};
	const struct sc_plan *p;
	struct sc_config *cfg;
	char path[512];

	cfg = load_ok("targets: [{path: @D}]\nphases:\n  - {workload: fill, size: 1MiB}\n"
		      "  - idle: 90s\n  - {name: quiet, idle: 2s}\n",
		      NULL, 0, path, sizeof(path), __LINE__);
	if (!cfg)
		return;
	p = sc_config_plan(cfg);
	CHECK(p->nphases == 3, "nphases %u", p->nphases);
	CHECK(p->phases[0].workload == SC_WORKLOAD_FILL && p->phases[0].io.rw == SC_RW_WRITE &&
		  p->phases[0].io.bs_bytes == 128 * KIB && p->phases[0].io.iodepth == 32 &&
		  p->phases[0].io.jobs == 1 && p->phases[0].io.size_bytes == MIB &&
		  p->phases[0].io.io_bytes == 2 * MIB && p->phases[0].io.runtime_ns == 0,
	      "fill defaults");
	CHECK(p->phases[0].fill.passes == 2 && p->phases[0].fill.random_passes == 0 &&
		  p->phases[0].fill.random_bs_bytes == 4 * KIB &&
		  p->phases[0].fill.cliff_fraction == 0.5,
	      "fill spec defaults");
	CHECK(p->phases[1].workload == SC_WORKLOAD_IDLE && p->phases[1].io.runtime_ns == 90 * NS &&
		  !strcmp(p->phases[1].name, "phase1"),
	      "idle step: 90 s, default name");
	CHECK(!strcmp(p->phases[2].name, "quiet") && p->phases[2].io.runtime_ns == 2 * NS,
	      "named idle step");
	sc_config_destroy(cfg);
	/* a file target: each job's share of its capacity, every pass */
	cfg = load_ok("targets: [{path: @F, allow_destroy: true}]\nphases:\n"
		      "  - {workload: fill, jobs: 2, bs: 64KiB, passes: 1, random_passes: 3}\n",
		      NULL, 0, path, sizeof(path), __LINE__);
	if (cfg) {
		p = sc_config_plan(cfg);
		CHECK(p->phases[0].io.size_bytes == MIB / 2 && p->phases[0].io.io_bytes == 2 * MIB,
		      "file fill: size %" PRIu64 ", io_size %" PRIu64, p->phases[0].io.size_bytes,
		      p->phases[0].io.io_bytes);
		sc_config_destroy(cfg);
	}
	/* bare --set keys reach the phases that take them */
	cfg = load_ok("targets: [{path: @D}]\nphases:\n  - {workload: fill, size: 1MiB}\n"
		      "  - idle: 90s\n  - {rw: read, size: 1MiB}\n",
		      sets, 2, path, sizeof(path), __LINE__);
	if (cfg) {
		p = sc_config_plan(cfg);
		CHECK(p->phases[0].fill.passes == 1 && p->phases[0].io.io_bytes == MIB,
		      "--set passes=1");
		CHECK(p->phases[1].io.runtime_ns == 3 * NS, "--set idle=3s");
		sc_config_destroy(cfg);
	}
	EXPECT_ERR("targets: [{path: @D}]\nphases:\n"
		   "  - {workload: fill, size: 1MiB, bs: 4KiB, random_bs: 8KiB}\n",
		   "@P:3:55: phases.0.random_bs: random_bs 8KiB does not divide bs 4KiB");
	EXPECT_ERR("targets: [{path: @D}]\nphases:\n  - {workload: fill, size: 100KiB}\n",
		   "@P:3:28: phases.0.size: 100KiB is not a whole number of bs 128KiB");
	EXPECT_ERR("targets: [{path: @D}]\nphases:\n  - {workload: idle}\n",
		   "@P:3:5: phases.0: no idle duration");
	EXPECT_ERR("targets: [{path: @D}]\nphases:\n  - {workload: io, rw: read, idle: 5s}\n",
		   "@P:3:30: phases.0.idle: not a key of workload io (idle is for workload idle)");
	EXPECT_ERR("targets: [{path: @F}]\nphases:\n  - {workload: fill}\n",
		   "@P:3:16: phases.0.workload: a fill would overwrite the data of the file");
}

static void test_defaults(void)
{
	struct sc_config *cfg;
	char path[512];

	cfg = load_ok("targets: [{path: @D}]\nphases:\n  - rw: randrw\n", NULL, 0, path,
		      sizeof(path), __LINE__);
	if (!cfg)
		return;
	CHECK(sc_config_plan(cfg)->nphases == 1, "nphases %u", sc_config_plan(cfg)->nphases);
	check_io(__LINE__, &sc_config_plan(cfg)->phases[0], "phase0", "phase0", 0, 0, 1,
		 (struct sc_io_spec){.rw = SC_RW_RANDRW,
				     .rwmixread_pct = 50,
				     .bs_bytes = 4 * KIB,
				     .iodepth = 1,
				     .jobs = 1,
				     .size_bytes = 64 * MIB,
				     .io_bytes = 64 * MIB,
				     .direct = true,
				     .engine = SC_ENGINE_URING,
				     .seed = 1});
	CHECK(sc_config_plan(cfg)->phases[0].io.timeout_ns == 0, "no timeout by default");
	sc_config_destroy(cfg);
	/* timeout: any workload, from defaults too; longer than runtime + ramp */
	cfg = load_ok("targets: [{path: @D}]\ndefaults: {timeout: 2m}\nphases:\n"
		      "  - {rw: read, runtime: 4s, ramp: 1s, timeout: 5001ms}\n"
		      "  - {workload: checkpoint, model: llama3-8b, scale: 0.00001}\n",
		      NULL, 0, path, sizeof(path), __LINE__);
	if (!cfg)
		return;
	CHECK(sc_config_plan(cfg)->phases[0].io.timeout_ns == 5001000000ull, "timeout 5001ms");
	CHECK(sc_config_plan(cfg)->phases[1].io.timeout_ns == 120 * NS, "timeout from defaults");
	sc_config_destroy(cfg);
}

static void test_env(void)
{
	static const char yaml[] = "targets:\n"
				   "  - path: ${SC_TEST_DIR}/a$$b\n"
				   "phases:\n"
				   "  - rw: ${SC_TEST_RW:-write}\n"
				   "    bs: ${SC_TEST_BS}\n"
				   "    iodepth: ${SC_TEST_UNSET_QD:-16}\n"
				   "    size: ${SC_TEST_EMPTY:-8MiB}\n";
	struct sc_config *cfg;
	char path[512], want[512];

	setenv("SC_TEST_DIR", dir, 1);
	setenv("SC_TEST_BS", "64KiB", 1);
	setenv("SC_TEST_EMPTY", "", 1);
	unsetenv("SC_TEST_RW");
	unsetenv("SC_TEST_UNSET_QD");
	cfg = load_ok(yaml, NULL, 0, path, sizeof(path), __LINE__);
	if (cfg) {
		const struct sc_plan *plan = sc_config_plan(cfg);

		snprintf(want, sizeof(want), "%s/a$b", dir);
		CHECK(strcmp(plan->targets[0].path, want) == 0, "path %s, expected %s",
		      plan->targets[0].path, want);
		CHECK(plan->phases[0].io.rw == SC_RW_WRITE, "rw default");
		CHECK(plan->phases[0].io.bs_bytes == 64 * KIB, "bs %" PRIu64,
		      plan->phases[0].io.bs_bytes);
		CHECK(plan->phases[0].io.iodepth == 16, "iodepth %u", plan->phases[0].io.iodepth);
		CHECK(plan->phases[0].io.size_bytes == 8 * MIB, "size (empty var takes default)");
		sc_config_destroy(cfg);
	}
	EXPECT_ERR("targets: [{path: @D}]\n"
		   "phases:\n"
		   "  - rw: read\n"
		   "    bs: ${SC_TEST_NOT_SET_XYZ}\n",
		   "@P:4:9: phases.0.bs: ${SC_TEST_NOT_SET_XYZ} is not set");
	EXPECT_ERR("targets: [{path: @D}]\n"
		   "phases:\n"
		   "  - rw: read\n"
		   "    name: x${oops\n",
		   "@P:4:11: phases.0.name: unterminated ${");
	unsetenv("SC_TEST_DIR");
	unsetenv("SC_TEST_BS");
	unsetenv("SC_TEST_EMPTY");
}

static void test_set(void)
{
	static const char yaml[] = "targets:\n"
				   "  - path: @D\n"
				   "  - path: @F\n"
				   "    allow_destroy: true\n"
				   "phases:\n"
				   "  - name: seqwrite\n"
				   "    rw: write\n"
				   "    bs: 1MiB\n"
				   "    size: 16MiB\n"
				   "    io_size: 32MiB\n"
				   "  - name: randrd\n"
				   "    rw: randread\n"
				   "    runtime: 1s\n"
				   "    ramp: 1s\n";
	const char *sets[] = {
	    "phases.0.runtime=5s",   /* drops phases.0.io_size */
	    "phases.randrd.bs=8KiB", /* by name */
	    "iodepth=4",	     /* every phase */
	    "capacity=512KiB",	     /* every target */
	    "phases.1.io_size=1MiB", /* drops runtime and ramp */
	    "targets.0.keep=true",   /* creates the key */
	    "defaults.direct=false", /* creates the section */
	    "phases.seqwrite.bs=[256KiB, 1MiB]",
	};
	struct sc_config *cfg;
	char path[512], buf[600];

	cfg = load_ok(yaml, sets, sizeof(sets) / sizeof(sets[0]), path, sizeof(path), __LINE__);
	if (!cfg)
		return;
	const struct sc_plan *plan = sc_config_plan(cfg);

	CHECK(plan->ntargets == 2 && plan->targets[0].capacity_bytes == 512 * KIB &&
		  plan->targets[1].capacity_bytes == 512 * KIB,
	      "capacity set on every target");
	CHECK(plan->targets[0].keep && !plan->targets[1].keep, "targets.0.keep");
	CHECK(plan->nphases == 3, "nphases %u", plan->nphases);
	if (plan->nphases == 3) {
		for (int i = 0; i < 2; i++)
			check_io(__LINE__, &plan->phases[i],
				 i ? "seqwrite[bs=1MiB]" : "seqwrite[bs=256KiB]", "seqwrite", 0,
				 (uint32_t)i, 2,
				 (struct sc_io_spec){.rw = SC_RW_WRITE,
						     .bs_bytes = i ? MIB : 256 * KIB,
						     .iodepth = 4,
						     .jobs = 1,
						     .size_bytes = 16 * MIB,
						     .runtime_ns = 5 * NS,
						     .direct = false,
						     .engine = SC_ENGINE_URING,
						     .seed = 1});
		check_io(__LINE__, &plan->phases[2], "randrd", "randrd", 1, 0, 1,
			 (struct sc_io_spec){.rw = SC_RW_RANDREAD,
					     .rwmixread_pct = 100,
					     .bs_bytes = 8 * KIB,
					     .iodepth = 4,
					     .jobs = 1,
					     .size_bytes = 64 * MIB,
					     .io_bytes = MIB,
					     .direct = false,
					     .engine = SC_ENGINE_URING,
					     .seed = 2});
	}
	sc_config_where(cfg, "phases.0.runtime", buf, sizeof(buf));
	CHECK(strcmp(buf, "--set phases.0.runtime=5s") == 0, "where of a --set value: %s", buf);
	sc_config_where(cfg, "targets.1.capacity", buf, sizeof(buf));
	CHECK(strcmp(buf, "--set capacity=512KiB") == 0, "where of a bare --set: %s", buf);
	sc_config_destroy(cfg);

	/* Override errors. */
	{
		const char *s[] = {"foo=1"};
		EXPECT_SET_ERR(yaml, s, "--set foo=1: no phase or target accepts \"foo\"");
	}
	{
		const char *s[] = {"iodepht=4"};
		EXPECT_SET_ERR(yaml, s,
			       "--set iodepht=4: no phase or target accepts \"iodepht\" (did you "
			       "mean iodepth?)");
	}
	{
		const char *s[] = {"phases.2.bs=4KiB"};
		EXPECT_SET_ERR(yaml, s, "--set phases.2.bs=4KiB: phases has no entry \"2\"");
	}
	{
		const char *s[] = {"phases.nosuch.bs=4KiB"};
		EXPECT_SET_ERR(yaml, s,
			       "--set phases.nosuch.bs=4KiB: phases has no entry \"nosuch\"");
	}
	{
		const char *s[] = {"jobz.0.bs=4KiB"};
		EXPECT_SET_ERR(yaml, s, "--set jobz.0.bs=4KiB: no section \"jobz\"");
	}
	{
		const char *s[] = {"runtime"};
		EXPECT_SET_ERR(yaml, s, "--set runtime: expected KEY=VALUE");
	}
	/* The destroy opt-ins come from the config file only. */
	{
		const char *s[] = {"targets.0.allow_destroy=true"};
		EXPECT_SET_ERR(yaml, s,
			       "--set targets.0.allow_destroy=true: allow_destroy is never taken "
			       "from --set: write it on the target in the config file");
	}
	{
		const char *s[] = {"allow_destroy=true"};
		EXPECT_SET_ERR(yaml, s, "--set allow_destroy=true: allow_destroy is never taken");
	}
	{
		const char *s[] = {"targets.1.wipe_signatures_ok=true"};
		EXPECT_SET_ERR(yaml, s,
			       "--set targets.1.wipe_signatures_ok=true: wipe_signatures_ok is never");
	}
	{
		const char *s[] = {"phases.0.bs=12KX"};
		EXPECT_SET_ERR(
		    yaml, s,
		    "--set phases.0.bs=12KX: phases.0.bs: \"12KX\" is not a size (try 4KiB, 1MiB)");
	}
	{
		const char *s[] = {"direct=yes"};
		EXPECT_SET_ERR(yaml, s,
			       "--set direct=yes: phases.0.direct: \"yes\" is not a boolean (write "
			       "true or false)");
	}
	{
		const char *s[] = {"phases.0.bogus=1"};
		EXPECT_SET_ERR(yaml, s, "--set phases.0.bogus=1: phases.0.bogus: unknown key");
	}
	{
		const char *s[] = {"bs=[4KiB, 8KiB"};
		EXPECT_SET_ERR(yaml, s, "--set bs=[4KiB, 8KiB: not a valid list");
	}
	{
		const char *s[] = {"jobs=[1, 2]"};
		EXPECT_SET_ERR(yaml, s,
			       "--set jobs=[1, 2]: phases.0.jobs: expected a whole number, got a "
			       "list (only rw, bs and iodepth can be swept)");
	}
}

/* ---- errors: one per class, with the exact location ---- */

/* Lines 1-4 of most error configs; what follows is line 5 of phase 0. */
#define HEAD "targets:\n  - path: @D\nphases:\n  - rw: read\n"

static void test_errors(void)
{
	/* YAML syntax, with libyaml's location. */
	EXPECT_ERR("targets:\n  - path: @D\nphases:\n  - rw: [read\n",
		   "@P:5:1: YAML syntax: did not find expected ',' or ']'");
	EXPECT_ERR("targets:\n  - path: @D\n bad: x\n",
		   "@P:3:2: YAML syntax: did not find expected key");
	EXPECT_ERR("targets:\n\t- path: @D\n",
		   "@P:2:1: YAML syntax: found character that cannot start any token (a tab: YAML "
		   "indents with spaces only)");
	EXPECT_ERR("targets: []\n---\nphases: []\n", "@P:3:1: a second YAML document");
	EXPECT_ERR("- a\n- b\n", "@P:1:1: the config must be a mapping");
	/* Unknown keys, with and without a near miss. */
	EXPECT_ERR(HEAD "    iodepht: 4\n",
		   "@P:5:5: phases.0.iodepht: unknown key (did you mean iodepth?)");
	EXPECT_ERR(HEAD "    frobnicate: 4\n",
		   "@P:5:5: phases.0.frobnicate: unknown key (a phase takes");
	EXPECT_ERR(HEAD "    capacity: 4\n",
		   "@P:5:5: phases.0.capacity: unknown key (capacity is a target key");
	EXPECT_ERR("targets:\n  - path: @D\n    size: 1GiB\nphases: [{rw: read}]\n",
		   "@P:3:5: targets.0.size: unknown key (size is a phase key");
	EXPECT_ERR("target:\n  - path: @D\n",
		   "@P:1:1: target: unknown key (did you mean targets?)");
	/* Duplicate keys. */
	EXPECT_ERR(HEAD "    bs: 4KiB\n    bs: 8KiB\n",
		   "@P:6:5: phases.0.bs: duplicate key (first at line 5)");
	/* Wrong types. */
	EXPECT_ERR(HEAD "    bs: {a: 1}\n", "@P:5:9: phases.0.bs: expected a size, got a mapping");
	EXPECT_ERR(HEAD "    jobs: [1, 2]\n", "@P:5:11: phases.0.jobs: expected a whole number, "
					      "got a list (only rw, bs and iodepth can be swept)");
	EXPECT_ERR(HEAD "    bs: [4KiB, [8KiB]]\n",
		   "@P:5:16: phases.0.bs.1: expected a size, got a list");
	EXPECT_ERR("targets: /tmp\nphases: [{rw: read}]\n",
		   "@P:1:10: targets: expected a list of targets, got a value");
	EXPECT_ERR(HEAD "    direct: yes\n",
		   "@P:5:13: phases.0.direct: \"yes\" is not a boolean (write true or false)");
	EXPECT_ERR(HEAD "    jobs:\n",
		   "@P:5:10: phases.0.jobs: no value given (expected a whole number)");
	EXPECT_ERR(HEAD "    workload: ckpt\n",
		   "@P:5:15: phases.0.workload: \"ckpt\" is not a workload (known: io, "
		   "checkpoint, ingest, kvcache, fill, idle, training)");
	EXPECT_ERR(
	    HEAD "    engine: aio\n",
	    "@P:5:13: phases.0.engine: \"aio\" is not an engine (known: io_uring, psync, null, "
	    "emulated)");
	EXPECT_ERR(
	    "targets:\n  - path: @D\nphases:\n  - rw: rndread\n",
	    "@P:4:9: phases.0.rw: \"rndread\" is not an rw pattern (did you mean randread?)");
	/* Units. */
	EXPECT_ERR(HEAD "    bs: 12KX\n",
		   "@P:5:9: phases.0.bs: \"12KX\" is not a size (try 4KiB, 1MiB)");
	EXPECT_ERR(HEAD "    runtime: 10x\n",
		   "@P:5:14: phases.0.runtime: \"10x\" is not a duration (try 10s, 500ms, 2m)");
	/* Ranges. */
	EXPECT_ERR(HEAD "    iodepth: 20000\n",
		   "@P:5:14: phases.0.iodepth: 20000 is out of range (1..16384)");
	EXPECT_ERR(HEAD "    jobs: 0\n", "@P:5:11: phases.0.jobs: 0 is out of range (1..1024)");
	EXPECT_ERR(HEAD "    iodepth: -1\n", "@P:5:14: phases.0.iodepth: -1 is out of range");
	EXPECT_ERR(HEAD "    iodepth: 2.5\n",
		   "@P:5:14: phases.0.iodepth: \"2.5\" is not a whole number");
	EXPECT_ERR(HEAD "    bs: 2GiB\n", "@P:5:9: phases.0.bs: 2GiB is out of range (1B..1GiB)");
	EXPECT_ERR(HEAD "    runtime: 0s\n", "@P:5:14: phases.0.runtime: 0s is too short");
	EXPECT_ERR("targets:\n  - path: @D\nphases:\n  - rw: randrw\n    rwmixread: 101\n",
		   "@P:5:16: phases.0.rwmixread: 101 is out of range (0..100)");
	/* Impossible combinations. */
	EXPECT_ERR(HEAD "    runtime: 5s\n    io_size: 1GiB\n",
		   "@P:6:14: phases.0.io_size: runtime and io_size are alternatives");
	EXPECT_ERR(HEAD "    ramp: 2s\n", "@P:5:11: phases.0.ramp: ramp needs runtime");
	EXPECT_ERR(HEAD "    runtime: 4s\n    ramp: 1s\n    timeout: 5s\n",
		   "@P:7:14: phases.0.timeout: timeout 5.00 s is not longer than the phase's "
		   "runtime + ramp (5.00 s)");
	EXPECT_ERR("targets:\n  - path: @D\nphases:\n  - rw: write\n    rwmixread: 70\n",
		   "@P:5:16: phases.0.rwmixread: rwmixread only applies to rw: randrw or readwrite (this phase "
		   "is write)");
	EXPECT_ERR(HEAD "    fsync: 4\n",
		   "@P:5:12: phases.0.fsync: fsync needs a phase that writes (this phase is read)");
	EXPECT_ERR(HEAD "    bs: 1MiB\n    size: 64KiB\n",
		   "@P:5:9: phases.0.bs: 1MiB is larger than size 64KiB");
	EXPECT_ERR(HEAD "    bs: 64KiB\n    size: 100KiB\n",
		   "@P:6:11: phases.0.size: 100KiB is not a multiple of bs 64KiB");
	EXPECT_ERR(HEAD "    bs: 64KiB\n    io_size: 100KiB\n",
		   "@P:6:14: phases.0.io_size: 100KiB is not a multiple of bs 64KiB");
	EXPECT_ERR(HEAD "    bs: [4KiB, 128MiB]\n",
		   "@P:5:16: phases.0.bs.1: 128MiB is larger than size 64MiB");
	EXPECT_ERR(HEAD "    bs: [4KiB, 4096]\n",
		   "@P:5:16: phases.0.bs.1: \"4096\" is listed twice (also at phases.0.bs.0)");
	EXPECT_ERR("targets:\n  - path: @D\ndefaults:\n  bs: 1MiB\nphases:\n"
		   "  - name: small\n    rw: read\n    size: 64KiB\n",
		   "@P:4:7: defaults.bs: 1MiB is larger than size 64KiB, in phase small");
	EXPECT_ERR("targets:\n  - path: @D\ndefaults:\n  name: x\nphases: [{rw: read}]\n",
		   "@P:4:3: defaults.name: a name cannot be a default");
	EXPECT_ERR("targets:\n  - path: @D\nphases:\n  - bs: 4KiB\n",
		   "@P:4:5: phases.0: no rw (one of read, write, randread, randwrite, randrw, readwrite)");
	/* No targets, no phases, a name used twice. */
	EXPECT_ERR("phases:\n  - rw: read\n", "@P:1:1: targets: missing");
	EXPECT_ERR("targets: []\nphases:\n  - rw: read\n", "@P:1:10: targets: no targets");
	EXPECT_ERR("", "@P:1:1: targets: missing");
	EXPECT_ERR("targets:\n  - path: @D\n", "@P:1:1: phases: missing");
	EXPECT_ERR("targets:\n  - path: @D\nphases:\n", "@P:3:8: phases: no phases");
	EXPECT_ERR("targets:\n  - capacity: 1GiB\nphases: [{rw: read}]\n",
		   "@P:2:5: targets.0: no path");
	EXPECT_ERR("targets:\n  - path: @D\n    hosts: \"\"\nphases: [{rw: read}]\n",
		   "@P:3:12: targets.0.hosts: empty value");
	EXPECT_ERR(HEAD "    name: a\n  - name: a\n    rw: write\n",
		   "@P:6:11: phases.1.name: \"a\" is already the name of phases.0");
	EXPECT_ERR(HEAD "  - name: phase0\n    rw: write\n",
		   "@P:5:11: phases.1.name: \"phase0\" is already the name of phases.0");
	EXPECT_ERR(HEAD "    name: \"a b\"\n",
		   "@P:5:11: phases.0.name: \"a b\" is not a phase name");
	/* a checkpoint phase's directory is named after it: no way out of the run */
	EXPECT_ERR(HEAD "    name: \"..\"\n",
		   "@P:5:11: phases.0.name: \"..\" is not a phase name (start with a letter or "
		   "digit");
	EXPECT_ERR(HEAD "    name: .\n", "@P:5:11: phases.0.name: \".\" is not a phase name");
	EXPECT_ERR(HEAD "    name: .hidden\n",
		   "@P:5:11: phases.0.name: \".hidden\" is not a phase name");
	EXPECT_ERR(HEAD "    name: -x\n", "@P:5:11: phases.0.name: \"-x\" is not a phase name");
	char okpath[512];
	struct sc_config *ok =
	    load_ok(HEAD "    name: 1st_pass-v2.0\n", NULL, 0, okpath, sizeof(okpath), __LINE__);

	CHECK(ok != NULL, "a name starting with a digit, with _ - and . after it, is fine");
	sc_config_destroy(ok);
}

static void test_targets(void)
{
	/* A path under a parent that does not exist. */
	EXPECT_ERR(
	    "targets:\n  - path: @D/nope/deeper\nphases: [{rw: read}]\n",
	    "@P:2:11: targets.0.path: @D/nope/deeper does not exist, nor does its parent @D/nope");
	/* Capacity above the size of a small file. */
	EXPECT_ERR("targets:\n  - path: @F\n    capacity: 2MiB\nphases: [{rw: read}]\n",
		   "@P:3:15: targets.0.capacity: 2MiB is larger than the file @F (1MiB)");
	/* Capacity above a directory's free space. */
	EXPECT_ERR("targets:\n  - path: @D\n    capacity: 1000PiB\nphases: [{rw: read}]\n",
		   "@P:3:15: targets.0.capacity: 1000PiB is more than the ");
	/* O_DIRECT alignment. */
	EXPECT_ERR("targets:\n  - path: @F\nphases:\n  - rw: read\n    bs: 1000\n"
		   "    size: 1000000\n",
		   "@P:5:9: phases.0.bs: 1KB is not a multiple of the 512B block size of targets.0 "
		   "(@F), which direct: true needs (use a multiple of 512B, or direct: false)");
	{
		/* ... which direct: false lifts. */
		struct sc_config *cfg;
		char path[512];

		cfg = load_ok("targets:\n  - path: @F\nphases:\n  - rw: read\n    bs: 1000\n"
			      "    size: 1000000\n    direct: false\n",
			      NULL, 0, path, sizeof(path), __LINE__);
		sc_config_destroy(cfg);
	}
	/* Writing over a file without allow_destroy. */
	EXPECT_ERR("targets:\n  - path: @F\nphases:\n  - rw: [read, randwrite]\n",
		   "@P:4:16: phases.0.rw.1: randwrite would overwrite the data of the file @F "
		   "(targets.0) (set allow_destroy: true");
	/* The same path twice, and a target hosts: skips the local checks. */
	EXPECT_ERR("targets:\n  - path: @D\n  - path: @D\nphases: [{rw: read}]\n",
		   "@P:3:11: targets.1.path: @D is already targets.0");
	{
		struct sc_config *cfg;
		char path[512];

		cfg = load_ok("targets:\n  - path: /nonexistent/x/y\n    hosts: node1\n"
			      "phases: [{rw: write}]\n",
			      NULL, 0, path, sizeof(path), __LINE__);
		if (cfg)
			CHECK(sc_config_plan(cfg)->targets[0].kind == SC_TARGET_DIR &&
				  sc_config_plan(cfg)->targets[0].capacity_bytes == 0,
			      "unprobed target: dir, capacity 0");
		sc_config_destroy(cfg);
	}
	/* A config that cannot be read. */
	{
		struct sc_config *cfg = NULL;
		char err[512], path[512], want[600];
		int ret;

		snprintf(path, sizeof(path), "%s/missing.yaml", dir);
		ret = sc_config_load(&cfg, path, NULL, 0, err, sizeof(err));
		snprintf(want, sizeof(want), "%s: cannot read the config (", path);
		CHECK(ret == -ENOENT && !cfg, "missing config: %d", ret);
		CHECK(strncmp(err, want, strlen(want)) == 0, "missing config: %s", err);
	}
}

/* ---- workloads: checkpoint, ingest, kvcache ---- */

static bool same_model(const struct sc_llm *a, const struct sc_llm *b)
{
	return strcmp(a->name, b->name) == 0 && a->layers == b->layers && a->hidden == b->hidden &&
	       a->ffn_hidden == b->ffn_hidden && a->heads == b->heads &&
	       a->kv_heads == b->kv_heads && a->vocab == b->vocab &&
	       a->model_dtype_bytes == b->model_dtype_bytes &&
	       a->optim_bytes_per_param == b->optim_bytes_per_param;
}

/* checkpoints: 3 with restore: three written cells, three read back. */
static void test_checkpoint(void)
{
	static const char yaml[] = "targets: [{path: @D}]\n"
				   "phases:\n"
				   "  - rw: write\n"
				   "  - name: ck\n"
				   "    workload: checkpoint\n"
				   "    model: llama3.1-405b\n"
				   "    tp: 8\n"
				   "    pp: 32\n"
				   "    dp: 2\n"
				   "    zero: 1\n"
				   "    checkpoints: 3\n"
				   "    compute_between: 30s\n"
				   "    block_size: 4MiB\n"
				   "    scale: 0.001\n"
				   "    restore: true\n"
				   "    restore_shift: 1\n"
				   "  - rw: read\n";
	static const char *const names[] = {"ck[ckpt=1]",    "ck[ckpt=2]",    "ck[ckpt=3]",
					    "ck[restore=1]", "ck[restore=2]", "ck[restore=3]"};
	static const struct sc_llm m405 = {.name = "llama3.1-405b",
					   .layers = 126,
					   .hidden = 16384,
					   .ffn_hidden = 53248,
					   .heads = 128,
					   .kv_heads = 8,
					   .vocab = 128256,
					   .model_dtype_bytes = 2,
					   .optim_bytes_per_param = 12};
	struct sc_config *cfg;
	const struct sc_plan *plan;
	char path[512];

	cfg = load_ok(yaml, NULL, 0, path, sizeof(path), __LINE__);
	if (!cfg)
		return;
	plan = sc_config_plan(cfg);
	CHECK(plan->nphases == 8, "nphases %u", plan->nphases);
	if (plan->nphases == 8) {
		for (uint32_t c = 0; c < 6; c++) {
			const struct sc_phase *ph = &plan->phases[1 + c];
			const struct sc_ckpt_spec *ck = &ph->ckpt;
			bool restore = c >= 3;

			check_cell_io(__LINE__, ph, names[c], "ck", 1, c, 6, SC_WORKLOAD_CHECKPOINT,
				      (struct sc_io_spec){.rw = restore ? SC_RW_READ : SC_RW_WRITE,
							  .rwmixread_pct = restore ? 100 : 0,
							  .bs_bytes = 4 * MIB,
							  .iodepth = 8,
							  .jobs = 1,
							  .direct = false,
							  .engine = SC_ENGINE_URING,
							  .seed = 2});
			CHECK(same_model(&ck->model, &m405), "%s: model %s layers %u hidden %u",
			      ph->name, ck->model.name, ck->model.layers, ck->model.hidden);
			CHECK(ck->layout.tp == 8 && ck->layout.pp == 32 && ck->layout.dp == 2 &&
				  ck->layout.zero_stage == 1,
			      "%s: layout tp %u pp %u dp %u zero %u", ph->name, ck->layout.tp,
			      ck->layout.pp, ck->layout.dp, ck->layout.zero_stage);
			CHECK(ck->checkpoints == 3 && ck->index == c % 3 + 1, "%s: %u of %u",
			      ph->name, ck->index, ck->checkpoints);
			CHECK(ck->restore == restore, "%s: restore %d", ph->name, ck->restore);
			CHECK(ck->restore_shift == (restore ? 1u : 0u), "%s: restore_shift %u",
			      ph->name, ck->restore_shift);
			CHECK(ck->compute_before_ns == (!restore && c > 0 ? 30 * NS : 0),
			      "%s: compute_before %" PRIu64, ph->name, ck->compute_before_ns);
			CHECK(ck->scale == 0.001, "%s: scale %g", ph->name, ck->scale);
			CHECK(ck->fsync == !restore, "%s: fsync %d", ph->name, ck->fsync);
		}
		check_io(__LINE__, &plan->phases[7], "phase2", "phase2", 2, 0, 1,
			 (struct sc_io_spec){.rw = SC_RW_READ,
					     .rwmixread_pct = 100,
					     .bs_bytes = 4 * KIB,
					     .iodepth = 1,
					     .jobs = 1,
					     .size_bytes = 64 * MIB,
					     .io_bytes = 64 * MIB,
					     .direct = true,
					     .engine = SC_ENGINE_URING,
					     .seed = 3});
	}
	sc_config_destroy(cfg);

	/* An inline model, every other key at its default; the MLPerf
	 * spelling of 405b names the catalogue entry. */
	cfg = load_ok(
	    "targets: [{path: @D}]\n"
	    "phases:\n"
	    "  - workload: checkpoint\n"
	    "    model: {layers: 4, hidden: 512, ffn_hidden: 2048, heads: 8, vocab: 32000,\n"
	    "            dtype: fp32}\n"
	    "  - workload: checkpoint\n"
	    "    model: llama3-405b\n"
	    "    scale: 1e-4\n"
	    "    fsync: false\n"
	    "    direct: true\n",
	    NULL, 0, path, sizeof(path), __LINE__);
	if (!cfg)
		return;
	plan = sc_config_plan(cfg);
	CHECK(plan->nphases == 2, "nphases %u", plan->nphases);
	if (plan->nphases == 2) {
		static const struct sc_llm inl = {.name = "inline",
						  .layers = 4,
						  .hidden = 512,
						  .ffn_hidden = 2048,
						  .heads = 8,
						  .kv_heads = 8,
						  .vocab = 32000,
						  .model_dtype_bytes = 4,
						  .optim_bytes_per_param = 12};
		const struct sc_ckpt_spec *ck = &plan->phases[0].ckpt;

		check_cell_io(__LINE__, &plan->phases[0], "phase0[ckpt=1]", "phase0", 0, 0, 1,
			      SC_WORKLOAD_CHECKPOINT,
			      (struct sc_io_spec){.rw = SC_RW_WRITE,
						  .bs_bytes = MIB,
						  .iodepth = 8,
						  .jobs = 1,
						  .direct = false,
						  .engine = SC_ENGINE_URING,
						  .seed = 1});
		CHECK(same_model(&ck->model, &inl), "inline model %s heads %u kv %u dtype %u",
		      ck->model.name, ck->model.heads, ck->model.kv_heads,
		      ck->model.model_dtype_bytes);
		CHECK(ck->layout.tp == 1 && ck->layout.pp == 1 && ck->layout.dp == 0 &&
			  ck->layout.zero_stage == 0,
		      "default layout tp %u pp %u dp %u zero %u", ck->layout.tp, ck->layout.pp,
		      ck->layout.dp, ck->layout.zero_stage);
		CHECK(ck->checkpoints == 1 && ck->index == 1 && !ck->restore &&
			  ck->compute_before_ns == 0 && ck->scale == 1.0 && ck->fsync,
		      "defaults: %u/%u restore %d compute %" PRIu64 " scale %g fsync %d", ck->index,
		      ck->checkpoints, ck->restore, ck->compute_before_ns, ck->scale, ck->fsync);
		ck = &plan->phases[1].ckpt;
		CHECK(strcmp(ck->model.name, "llama3.1-405b") == 0, "alias: %s", ck->model.name);
		CHECK(ck->scale == 1e-4 && !ck->fsync && plan->phases[1].io.direct,
		      "scale %g fsync %d direct %d", ck->scale, ck->fsync,
		      plan->phases[1].io.direct);
	}
	sc_config_destroy(cfg);
}

#define CKPT_HEAD                                                                                  \
	"targets:\n  - path: @D\nphases:\n  - workload: checkpoint\n    model: llama3-8b\n"

/* procedure: mlperf: 10 write cells then 10 read cells, fsync on the
 * writes, the catalogue model's MLPerf layout (llama3-8b: TP1 PP1 DP8
 * ZeRO-3) unless a layout key is given; what contradicts it exits 2 at
 * the key that says so. */
static void test_mlperf_procedure(void)
{
	struct sc_config *cfg;
	const struct sc_plan *plan;
	char path[512];

	cfg = load_ok(CKPT_HEAD "    procedure: mlperf\n", NULL, 0, path, sizeof(path), __LINE__);
	if (!cfg)
		return;
	plan = sc_config_plan(cfg);
	CHECK(plan->nphases == 20, "nphases %u, want 10 writes + 10 reads", plan->nphases);
	for (uint32_t c = 0; c < plan->nphases && c < 20; c++) {
		const struct sc_ckpt_spec *ck = &plan->phases[c].ckpt;
		bool restore = c >= 10;

		CHECK(ck->procedure == SC_PROCEDURE_MLPERF && ck->checkpoints == 10 &&
			  ck->index == c % 10 + 1 && ck->restore == restore &&
			  ck->fsync == !restore && ck->serialize == SC_SERIALIZE_RAW,
		      "cell %u: procedure %d, %u of %u, restore %d, fsync %d", c, ck->procedure,
		      ck->index, ck->checkpoints, ck->restore, ck->fsync);
		CHECK(ck->layout.tp == 1 && ck->layout.pp == 1 && ck->layout.dp == 8 &&
			  ck->layout.zero_stage == 3,
		      "cell %u: layout tp %u pp %u dp %u zero %u", c, ck->layout.tp, ck->layout.pp,
		      ck->layout.dp, ck->layout.zero_stage);
		CHECK(plan->phases[c].io.compressible_pct == 0 && plan->phases[c].io.dedupe_pct == 0 &&
			  !plan->phases[c].io.reuse_buffers,
		      "cell %u: fresh incompressible data", c);
	}
	sc_config_destroy(cfg);

	/* a layout key given: the layout is the config's, dp from the ranks */
	cfg = load_ok(CKPT_HEAD "    procedure: mlperf\n    zero: 1\n    checkpoints: 2\n", NULL, 0,
		      path, sizeof(path), __LINE__);
	if (!cfg)
		return;
	plan = sc_config_plan(cfg);
	CHECK(plan->nphases == 4, "nphases %u, want 2 + 2", plan->nphases);
	if (plan->nphases) {
		const struct sc_ckpt_spec *ck = &plan->phases[0].ckpt;

		CHECK(ck->layout.tp == 1 && ck->layout.pp == 1 && ck->layout.dp == 0 &&
			  ck->layout.zero_stage == 1,
		      "given layout tp %u pp %u dp %u zero %u", ck->layout.tp, ck->layout.pp,
		      ck->layout.dp, ck->layout.zero_stage);
	}
	sc_config_destroy(cfg);

	EXPECT_ERR("targets:\n  - path: @D\nphases:\n  - workload: checkpoint\n"
		   "    model: {layers: 4, hidden: 512, ffn_hidden: 2048, heads: 8, vocab: 32000}\n"
		   "    procedure: mlperf\n",
		   "@P:6:16: phases.0.procedure: procedure: mlperf takes the layout MLPerf gives a "
		   "catalogue model (llama3-8b, llama3-70b, llama3.1-405b, llama3-1t), and this "
		   "model is not one: give tp, pp, dp and zero");
	EXPECT_ERR(CKPT_HEAD "    procedure: mlperf\n    restore: false\n",
		   "@P:7:14: phases.0.restore: procedure: mlperf reads every checkpoint back: leave "
		   "restore out (or use procedure: none)");
	EXPECT_ERR(CKPT_HEAD "    procedure: mlperf\n    serialize: torch\n",
		   "@P:7:16: phases.0.serialize: procedure: mlperf streams raw bytes: use serialize: "
		   "raw or leave it out");
	EXPECT_ERR(CKPT_HEAD "    procedure: mlperf\n    compressible: 50%\n",
		   "@P:7:19: phases.0.compressible: procedure: mlperf writes incompressible, unique "
		   "bytes: leave compressible out");
	EXPECT_ERR(CKPT_HEAD "    procedure: mlperff\n",
		   "@P:6:16: phases.0.procedure: \"mlperff\" is not a procedure");
}

static void test_checkpoint_errors(void)
{
	EXPECT_ERR("targets:\n  - path: @D\nphases:\n  - workload: checkpoint\n    model: gpt-4\n",
		   "@P:5:12: phases.0.model: \"gpt-4\" is not a known model (known: llama3-8b, "
		   "llama3-70b, llama3.1-405b, llama3-1t; or describe one inline: {layers, hidden, "
		   "ffn_hidden, heads, kv_heads, vocab, dtype})");
	EXPECT_ERR(
	    "targets:\n  - path: @D\nphases:\n  - workload: checkpoint\n    model: llama3-7b\n",
	    "@P:5:12: phases.0.model: \"llama3-7b\" is not a known model (did you mean "
	    "llama3-8b? known: llama3-8b, llama3-70b, llama3.1-405b, llama3-1t;");
	EXPECT_ERR("targets:\n  - path: @D\nphases:\n  - workload: checkpoint\n    tp: 2\n",
		   "@P:4:5: phases.0: no model (a checkpoint phase needs model: one of llama3-8b, "
		   "llama3-70b, llama3.1-405b, llama3-1t, or an inline mapping");
	/* Keys of other workloads name their workload; bs hints block_size. */
	EXPECT_ERR(CKPT_HEAD "    bs: 1MiB\n",
		   "@P:6:5: phases.0.bs: not a key of workload checkpoint (use block_size here; "
		   "bs is for workload io, kvcache, fill)");
	EXPECT_ERR(CKPT_HEAD "    runtime: 10s\n",
		   "@P:6:5: phases.0.runtime: not a key of workload checkpoint (runtime is for "
		   "workload io, ingest, kvcache)");
	EXPECT_ERR(HEAD "    scale: 0.5\n",
		   "@P:5:5: phases.0.scale: not a key of workload io (scale is for workload "
		   "checkpoint)");
	EXPECT_ERR("targets:\n  - path: @D\ndefaults:\n  workload: checkpoint\nphases:\n"
		   "  - rw: read\n",
		   "@P:6:5: phases.0.rw: not a key of workload checkpoint, from defaults.workload "
		   "(rw is for workload io, kvcache)");
	/* The key list of an unknown key is the workload's. */
	EXPECT_ERR(CKPT_HEAD "    frobnicate: 1\n",
		   "@P:6:5: phases.0.frobnicate: unknown key (a phase takes, for workload "
		   "checkpoint: name, workload, iodepth, jobs, fsync, direct, engine, seed, "
		   "stonewall, model, tp, pp, dp, zero, layout, keep_last, checkpoints, "
		   "compute_between, block_size, scale, restore, restore_shift, async, on_error, "
		   "timeout, inject, emulate, serialize, procedure, compressible, dedupe, "
		   "reuse_buffers, huge_buffers, submit_batch, sqpoll, sqpoll_cpu, hipri, "
		   "passthrough, cpus, numa, expect)");
	EXPECT_ERR(CKPT_HEAD "    checkpoint: 3\n",
		   "@P:6:5: phases.0.checkpoint: unknown key (did you mean checkpoints?)");
	/* serialize: raw or torch; torch writes buffered files */
	EXPECT_ERR(CKPT_HEAD "    serialize: pickle\n",
		   "@P:6:16: phases.0.serialize: \"pickle\" is not a serialize mode (known: raw, "
		   "torch)");
	EXPECT_ERR(CKPT_HEAD "    serialize: torch\n    direct: true\n",
		   "@P:6:16: phases.0.serialize: serialize: torch writes through the page cache as "
		   "torch.save does, but this phase has direct: true (leave direct out, or use "
		   "serialize: raw)");
	EXPECT_ERR(CKPT_HEAD "    serialize: torch\n    engine: null\n",
		   "@P:6:16: phases.0.serialize: serialize: torch writes real files, but engine null "
		   "writes none (use engine io_uring or psync, or serialize: raw)");
	/* Values. */
	EXPECT_ERR(CKPT_HEAD "    scale: 2\n",
		   "@P:6:12: phases.0.scale: 2 is out of range (more than 0, at most 1)");
	EXPECT_ERR(CKPT_HEAD "    scale: 0\n",
		   "@P:6:12: phases.0.scale: 0 is out of range (more than 0, at most 1)");
	EXPECT_ERR(CKPT_HEAD "    scale: 1%\n",
		   "@P:6:12: phases.0.scale: \"1%\" is not a number (try 0.01 or 1e-4)");
	EXPECT_ERR(CKPT_HEAD "    scale: nan\n",
		   "@P:6:12: phases.0.scale: \"nan\" is not a number");
	EXPECT_ERR(CKPT_HEAD "    zero: 4\n", "@P:6:11: phases.0.zero: 4 is out of range (0..3)");
	EXPECT_ERR(CKPT_HEAD "    checkpoints: 0\n",
		   "@P:6:18: phases.0.checkpoints: 0 is out of range (1..10000)");
	EXPECT_ERR(
	    CKPT_HEAD "    fsync: 4\n",
	    "@P:6:12: phases.0.fsync: \"4\" is not a boolean (a checkpoint fsyncs every file "
	    "or none: write true or false; fsync: N is for io and kvcache phases)");
	EXPECT_ERR("targets:\n  - path: @D\nphases:\n  - rw: write\n    fsync: true\n",
		   "@P:5:12: phases.0.fsync: \"true\" is not a whole number (fsync: N fsyncs after "
		   "every N writes; true or false is for checkpoint phases)");
	EXPECT_ERR(CKPT_HEAD "    restore_shift: 1\n",
		   "@P:6:20: phases.0.restore_shift: restore_shift needs restore: true");
	/* No sweeps: a checkpoint's cells are its checkpoints. */
	EXPECT_ERR(CKPT_HEAD "    block_size: [1MiB, 4MiB]\n",
		   "@P:6:17: phases.0.block_size: got a list, but a checkpoint phase is not swept "
		   "(give one value; its cells are its checkpoints)");
	EXPECT_ERR(CKPT_HEAD "    iodepth: [1, 8]\n",
		   "@P:6:14: phases.0.iodepth: got a list, but a checkpoint phase is not swept");
	EXPECT_ERR("targets:\n  - path: @D\ndefaults:\n  iodepth: [1, 8]\nphases:\n"
		   "  - workload: checkpoint\n    model: llama3-8b\n    name: ck\n",
		   "@P:4:12: defaults.iodepth: got a list, but a checkpoint phase is not swept "
		   "(give one value; its cells are its checkpoints), in phase ck");
	/* The layout, reported at the key that breaks it. */
	EXPECT_ERR(CKPT_HEAD "    tp: 3\n",
		   "@P:6:9: phases.0.tp: tp 3 must divide the 32 attention heads of llama3-8b");
	EXPECT_ERR(CKPT_HEAD "    pp: 33\n",
		   "@P:6:9: phases.0.pp: pp 33 exceeds the 32 layers of llama3-8b");
	EXPECT_ERR(CKPT_HEAD "    pp: 2\n    zero: 3\n",
		   "@P:7:11: phases.0.zero: ZeRO-3 does not combine with pipeline parallelism");
	EXPECT_ERR(CKPT_HEAD "    tp: 8\n    pp: 32\n    dp: 4294967295\n",
		   "@P:8:9: phases.0.dp: tp 8 x pp 32 x dp 4294967295 ranks is more than 2^32");
	/* Inline models. */
	EXPECT_ERR("targets:\n  - path: @D\nphases:\n  - workload: checkpoint\n"
		   "    model: {layers: 2, hidden: 64, ffn_hidden: 128, vocab: 100}\n",
		   "@P:5:12: phases.0.model: the inline model has no heads (give layers, hidden, "
		   "ffn_hidden, heads and vocab; kv_heads defaults to heads, dtype to bf16)");
	EXPECT_ERR("targets:\n  - path: @D\nphases:\n  - workload: checkpoint\n"
		   "    model: {layers: 2, hidden: 64, ffn_hidden: 128, heads: 4, vocab: 100,\n"
		   "            dtype: int8}\n",
		   "@P:6:20: phases.0.model.dtype: \"int8\" is not a dtype (known: fp16, bf16, "
		   "fp32)");
	EXPECT_ERR("targets:\n  - path: @D\nphases:\n  - workload: checkpoint\n"
		   "    model: {layrs: 2}\n",
		   "@P:5:13: phases.0.model.layrs: unknown key (did you mean layers?)");
	EXPECT_ERR("targets:\n  - path: @D\nphases:\n  - workload: checkpoint\n"
		   "    model: {layers: 2, hidden: 64, ffn_hidden: 128, heads: 4, kv_heads: 3,\n"
		   "            vocab: 100}\n",
		   "@P:5:12: phases.0.model: inline: kv_heads 3 must divide the 4 attention heads");
	/* Targets: writing over a file, and O_DIRECT alignment. */
	EXPECT_ERR("targets:\n  - path: @F\nphases:\n  - workload: checkpoint\n"
		   "    model: llama3-8b\n",
		   "@P:4:15: phases.0.workload: a checkpoint would overwrite the data of the file "
		   "@F (targets.0) (set allow_destroy: true");
	EXPECT_ERR("targets:\n  - path: @F\n    allow_destroy: true\nphases:\n"
		   "  - workload: checkpoint\n    model: llama3-8b\n    direct: true\n"
		   "    block_size: 1000\n",
		   "@P:8:17: phases.0.block_size: 1KB is not a multiple of the 512B block size of "
		   "targets.0 (@F), which direct: true needs");
}

static void test_ingest(void)
{
	struct sc_config *cfg;
	const struct sc_plan *plan;
	char path[512];

	cfg = load_ok("targets: [{path: @D}]\n"
		      "phases:\n"
		      "  - workload: ingest\n"
		      "  - name: timed\n"
		      "    workload: ingest\n"
		      "    files: 1000\n"
		      "    file_size: 150MiB\n"
		      "    sample_size: 150MiB\n"
		      "    batch: 4\n"
		      "    compute_per_batch: 250ms\n"
		      "    runtime: 20s\n"
		      "    prefetch: 0\n"
		      "    step_barrier: false\n"
		      "    jobs: 2\n"
		      "    iodepth: 4\n"
		      "    direct: false\n"
		      "    engine: psync\n"
		      "    seed: 9\n",
		      NULL, 0, path, sizeof(path), __LINE__);
	if (!cfg)
		return;
	plan = sc_config_plan(cfg);
	CHECK(plan->nphases == 2, "nphases %u", plan->nphases);
	if (plan->nphases == 2) {
		const struct sc_ingest_spec *in = &plan->phases[0].ingest;

		check_cell_io(__LINE__, &plan->phases[0], "phase0", "phase0", 0, 0, 1,
			      SC_WORKLOAD_INGEST,
			      (struct sc_io_spec){.rw = SC_RW_RANDREAD,
						  .rwmixread_pct = 100,
						  .bs_bytes = 128 * KIB,
						  .iodepth = 64,
						  .jobs = 8,
						  .direct = true,
						  .engine = SC_ENGINE_URING,
						  .seed = 1});
		CHECK(in->files == 64 && in->file_bytes == 64 * MIB &&
			  in->sample_bytes == 128 * KIB && in->batch == 32 &&
			  in->compute_per_batch_ns == 0 && in->epochs == 1 && in->prefetch == 2 &&
			  in->step_barrier,
		      "ingest defaults: files %u file %" PRIu64 " sample %" PRIu64
		      " batch %u compute %" PRIu64 " epochs %u prefetch %u step_barrier %d",
		      in->files, in->file_bytes, in->sample_bytes, in->batch,
		      in->compute_per_batch_ns, in->epochs, in->prefetch, in->step_barrier);
		in = &plan->phases[1].ingest;
		check_cell_io(__LINE__, &plan->phases[1], "timed", "timed", 1, 0, 1,
			      SC_WORKLOAD_INGEST,
			      (struct sc_io_spec){.rw = SC_RW_RANDREAD,
						  .rwmixread_pct = 100,
						  .bs_bytes = 150 * MIB,
						  .iodepth = 4,
						  .jobs = 2,
						  .runtime_ns = 20 * NS,
						  .direct = false,
						  .engine = SC_ENGINE_PSYNC,
						  .seed = 9});
		CHECK(in->files == 1000 && in->file_bytes == 150 * MIB &&
			  in->sample_bytes == 150 * MIB && in->batch == 4 &&
			  in->compute_per_batch_ns == NS / 4 && in->epochs == 0 &&
			  in->prefetch == 0 && !in->step_barrier,
		      "ingest: files %u file %" PRIu64 " sample %" PRIu64
		      " batch %u compute %" PRIu64 " epochs %u prefetch %u step_barrier %d",
		      in->files, in->file_bytes, in->sample_bytes, in->batch,
		      in->compute_per_batch_ns, in->epochs, in->prefetch, in->step_barrier);
	}
	sc_config_destroy(cfg);

	EXPECT_ERR("targets:\n  - path: @D\nphases:\n  - workload: ingest\n    bs: 4KiB\n",
		   "@P:5:5: phases.0.bs: not a key of workload ingest (use sample_size here; bs is "
		   "for workload io, kvcache, fill)");
	EXPECT_ERR("targets:\n  - path: @D\nphases:\n  - workload: ingest\n    runtime: 5s\n"
		   "    epochs: 2\n",
		   "@P:6:13: phases.0.epochs: runtime and epochs are alternatives");
	EXPECT_ERR("targets:\n  - path: @D\nphases:\n  - workload: ingest\n    file_size: 100KiB\n",
		   "@P:5:16: phases.0.file_size: 100KiB is smaller than sample_size 128KiB");
	EXPECT_ERR("targets:\n  - path: @D\nphases:\n  - workload: ingest\n    file_size: 1MiB\n"
		   "    sample_size: 96KiB\n",
		   "@P:5:16: phases.0.file_size: 1MiB is not a multiple of sample_size 96KiB");
	EXPECT_ERR(
	    "targets:\n  - path: @D\nphases:\n  - workload: ingest\n    sample_size: 96KiB\n",
	    "@P:5:18: phases.0.sample_size: 96KiB does not divide file_size 64MiB");
	EXPECT_ERR("targets:\n  - path: @D\nphases:\n  - workload: ingest\n    iodepth: [8, 16]\n",
		   "@P:5:14: phases.0.iodepth: got a list, but an ingest phase is not swept (give "
		   "one value)");
	EXPECT_ERR("targets:\n  - path: @F\nphases:\n  - workload: ingest\n    file_size: 1000000\n"
		   "    sample_size: 1000\n",
		   "@P:6:18: phases.0.sample_size: 1KB is not a multiple of the 512B block size of "
		   "targets.0 (@F), which direct: true needs");
}

/* A training phase's plan spec and io spec as the config leaves them
 * (files 0 until the ranks are placed, accelerators and client_memory
 * then too). */
static void check_training(int line, const struct sc_phase *ph, struct sc_training_spec want,
			   uint32_t jobs, uint32_t iodepth, bool direct)
{
	const struct sc_training_spec *t = &ph->training;

	if (ph->workload != SC_WORKLOAD_TRAINING || ph->io.rw != SC_RW_RANDREAD ||
	    ph->io.rwmixread_pct != 100 || ph->io.bs_bytes != want.transfer_bytes ||
	    ph->io.jobs != jobs || ph->io.iodepth != iodepth || ph->io.direct != direct ||
	    ph->io.runtime_ns || ph->io.io_bytes || ph->ncells != 1)
		check_fail(__FILE__, line, NULL,
			   "phase %s: workload %d rw %d bs %" PRIu64 " jobs %u qd %u direct %d "
			   "runtime %" PRIu64 " io %" PRIu64 " ncells %u",
			   ph->name, (int)ph->workload, (int)ph->io.rw, ph->io.bs_bytes,
			   ph->io.jobs, ph->io.iodepth, ph->io.direct, ph->io.runtime_ns,
			   ph->io.io_bytes, ph->ncells);
	if (t->benchmark != want.benchmark || t->accelerator != want.accelerator ||
	    t->files != want.files || t->samples_per_file != want.samples_per_file ||
	    t->record_bytes != want.record_bytes ||
	    t->record_stdev_bytes != want.record_stdev_bytes || t->batch != want.batch ||
	    t->prefetch_size != want.prefetch_size || t->computation_ns != want.computation_ns ||
	    t->epochs != want.epochs || t->au != want.au ||
	    t->transfer_bytes != want.transfer_bytes || t->accelerators != 0 ||
	    t->client_memory_bytes != want.client_memory_bytes)
		check_fail(__FILE__, line, NULL,
			   "phase %s training\n"
			   "  got:      %u %u files %" PRIu64 " spf %u rec %" PRIu64 " sd %" PRIu64
			   " batch %u prefetch %u compute %" PRIu64 " epochs %u au %g xfer %" PRIu64
			   " acc %u mem %" PRIu64 "\n"
			   "  expected: %u %u files %" PRIu64 " spf %u rec %" PRIu64 " sd %" PRIu64
			   " batch %u prefetch %u compute %" PRIu64 " epochs %u au %g xfer %" PRIu64
			   " acc 0 mem %" PRIu64,
			   ph->name, t->benchmark, t->accelerator, t->files, t->samples_per_file,
			   t->record_bytes, t->record_stdev_bytes, t->batch, t->prefetch_size,
			   t->computation_ns, t->epochs, t->au, t->transfer_bytes, t->accelerators,
			   t->client_memory_bytes, want.benchmark, want.accelerator, want.files,
			   want.samples_per_file, want.record_bytes, want.record_stdev_bytes,
			   want.batch, want.prefetch_size, want.computation_ns, want.epochs,
			   want.au, want.transfer_bytes, want.client_memory_bytes);
}

/* workload: training: every pair v3.0 has fills each value from its
 * workload file; a value the phase (or defaults:) gives wins; a pair
 * without a file needs every value, named by what is missing. */
static void test_training(void)
{
	const struct sc_mlperf_workload *all;
	struct sc_config *cfg;
	char path[512], text[512];
	uint32_t n;

	all = sc_mlperf_all(&n);
	CHECK(n == 13, "v3.0 has 13 workload files, the table %u", n);
	for (uint32_t k = 0; k < n; k++) {
		const struct sc_mlperf_workload *w = &all[k];

		snprintf(text, sizeof(text),
			 "targets: [{path: @D}]\nphases:\n  - workload: training\n"
			 "    benchmark: %s\n    accelerator: %s\n",
			 sc_mlperf_benchmark_name(w->benchmark),
			 sc_mlperf_accelerator_name(w->accelerator));
		cfg = load_ok(text, NULL, 0, path, sizeof(path), __LINE__);
		if (!cfg)
			continue;
		check_training(
		    __LINE__, &sc_config_plan(cfg)->phases[0],
		    (struct sc_training_spec){.benchmark = w->benchmark,
					      .accelerator = w->accelerator,
					      .samples_per_file = w->samples_per_file,
					      .record_bytes = w->record_bytes,
					      .record_stdev_bytes = w->record_stdev_bytes,
					      .batch = w->batch,
					      .prefetch_size = w->prefetch_size,
					      .computation_ns = w->computation_ns,
					      .epochs = w->epochs,
					      .au = w->au,
					      .transfer_bytes = MIB},
		    w->read_threads, 8, false);
		sc_config_destroy(cfg);
	}

	/* unet3d b200 by hand (docs/workloads.md's row), and each value
	 * overridden, epochs from defaults: (a value given as well) */
	cfg = load_ok("targets: [{path: @D}]\n"
		      "defaults: {epochs: 3}\n"
		      "phases:\n"
		      "  - workload: training\n"
		      "    benchmark: unet3d\n"
		      "    accelerator: b200\n"
		      "  - name: mine\n"
		      "    workload: training\n"
		      "    benchmark: retinanet\n"
		      "    accelerator: mi355\n"
		      "    files: 123\n"
		      "    samples_per_file: 2\n"
		      "    record_size: 100KB\n"
		      "    record_size_stdev: 1KB\n"
		      "    batch: 64\n"
		      "    jobs: 3\n"
		      "    prefetch_size: 0\n"
		      "    computation_time: 10ms\n"
		      "    au: 0.5\n"
		      "    transfer_size: 256KiB\n"
		      "    client_memory: 64GiB\n"
		      "    iodepth: 4\n"
		      "    direct: true\n",
		      NULL, 0, path, sizeof(path), __LINE__);
	if (cfg) {
		const struct sc_plan *plan = sc_config_plan(cfg);

		CHECK(plan->nphases == 2, "nphases %u", plan->nphases);
		check_training(__LINE__, &plan->phases[0],
			       (struct sc_training_spec){.benchmark = SC_MLPERF_UNET3D,
							 .accelerator = SC_MLPERF_B200,
							 .samples_per_file = 1,
							 .record_bytes = 146600628,
							 .record_stdev_bytes = 68341808,
							 .batch = 7,
							 .prefetch_size = 2,
							 .computation_ns = 162000000,
							 .epochs = 3,
							 .au = 0.90,
							 .transfer_bytes = MIB},
			       4, 8, false);
		CHECK(plan->phases[0].io.engine == SC_ENGINE_URING && plan->phases[0].io.seed == 1,
		      "training: io_uring, seed 1 + its index");
		if (plan->nphases == 2)
			check_training(
			    __LINE__, &plan->phases[1],
			    (struct sc_training_spec){.benchmark = SC_MLPERF_RETINANET,
						      .accelerator = SC_MLPERF_MI355,
						      .files = 123,
						      .samples_per_file = 2,
						      .record_bytes = 100000,
						      .record_stdev_bytes = 1000,
						      .batch = 64,
						      .prefetch_size = 0,
						      .computation_ns = 10000000,
						      .epochs = 3,
						      .au = 0.5,
						      .transfer_bytes = 256 * KIB,
						      .client_memory_bytes = 64 * 1024 * MIB},
			    3, 4, true);
		sc_config_destroy(cfg);
	}

	/* no workload file: every value given is a workload of its own,
	 * stdev 0 and DLIO's prefetch_size of 2 unless given */
#define CUSTOM                                                                                     \
	"    samples_per_file: 1\n    record_size: 300KB\n    batch: 16\n    jobs: 4\n"            \
	"    computation_time: 10ms\n    epochs: 2\n    au: 0.8\n    files: 1000\n"
	cfg = load_ok(
	    "targets: [{path: @D}]\nphases:\n"
	    "  - workload: training\n    benchmark: retinanet\n    accelerator: h100\n" CUSTOM
	    "  - workload: training\n" CUSTOM,
	    NULL, 0, path, sizeof(path), __LINE__);
	if (cfg) {
		const struct sc_plan *plan = sc_config_plan(cfg);
		struct sc_training_spec want = {.benchmark = SC_MLPERF_RETINANET,
						.accelerator = SC_MLPERF_H100,
						.files = 1000,
						.samples_per_file = 1,
						.record_bytes = 300000,
						.batch = 16,
						.prefetch_size = 2,
						.computation_ns = 10000000,
						.epochs = 2,
						.au = 0.8,
						.transfer_bytes = MIB};

		check_training(__LINE__, &plan->phases[0], want, 4, 8, false);
		want.benchmark = SC_MLPERF_BENCHMARK_COUNT;
		want.accelerator = SC_MLPERF_ACCELERATOR_COUNT;
		if (plan->nphases == 2)
			check_training(__LINE__, &plan->phases[1], want, 4, 8, false);
		sc_config_destroy(cfg);
	}
	/* files below the rules' minimum loads: the ranks' check says by
	 * how much (tests/integration/test_training_config.sh) */
	cfg = load_ok("targets: [{path: @D}]\nphases:\n  - workload: training\n"
		      "    benchmark: unet3d\n    accelerator: b200\n    files: 1\n",
		      NULL, 0, path, sizeof(path), __LINE__);
	if (cfg)
		CHECK(sc_config_plan(cfg)->phases[0].training.files == 1, "files 1 kept");
	sc_config_destroy(cfg);

#define TRAIN "targets:\n  - path: @D\nphases:\n  - workload: training\n"
	EXPECT_ERR(TRAIN "    benchmark: retinanet\n    accelerator: h100\n    batch: 8\n",
		   "@P:6:18: phases.0.accelerator: MLPerf Storage v3.0 has no workload file for "
		   "retinanet on h100 (it has retinanet on b200, mi355): pick one of those, or "
		   "give every value (missing: samples_per_file, record_size, jobs, "
		   "computation_time, epochs, au, files)");
	EXPECT_ERR(TRAIN "    benchmark: flux\n    epochs: 1\n",
		   "@P:5:16: phases.0.benchmark: no accelerator: MLPerf Storage v3.0 has no "
		   "workload file for flux without one (it has flux on b200, mi355): add "
		   "accelerator:, or give every value (missing: samples_per_file, record_size, "
		   "batch, jobs, computation_time, au, files)");
	EXPECT_ERR(TRAIN "    accelerator: a100\n    files: 5\n",
		   "@P:5:18: phases.0.accelerator: no benchmark: MLPerf Storage v3.0 has no "
		   "workload file for a100 without one (it has unet3d, resnet50, cosmoflow on "
		   "a100): add benchmark:, or give every value (missing: samples_per_file, "
		   "record_size, batch, jobs, computation_time, epochs, au)");
	EXPECT_ERR(TRAIN "    batch: 8\n",
		   "@P:4:15: phases.0.workload: no benchmark and accelerator: MLPerf Storage v3.0 "
		   "takes a training phase's values from their workload file (it has unet3d on "
		   "b200, h100, a100; retinanet on b200, mi355; resnet50 on h100, a100; cosmoflow "
		   "on h100, a100; flux on b200, mi355; dlrm on b200, mi355): add both, or give "
		   "every value (missing: samples_per_file, record_size, jobs, ");
	EXPECT_ERR(TRAIN "    benchmark: unet3x\n    accelerator: b200\n",
		   "@P:5:16: phases.0.benchmark: \"unet3x\" is not a benchmark of MLPerf Storage "
		   "v3.0 (did you mean unet3d?)");
	EXPECT_ERR(TRAIN "    benchmark: bert\n    accelerator: b200\n",
		   "@P:5:16: phases.0.benchmark: \"bert\" is not a benchmark of MLPerf Storage "
		   "v3.0 (known: unet3d, retinanet, resnet50, cosmoflow, flux, dlrm)");
	EXPECT_ERR(TRAIN "    benchmark: unet3d\n    accelerator: tpu-v5\n",
		   "@P:6:18: phases.0.accelerator: \"tpu-v5\" is not an accelerator of MLPerf "
		   "Storage v3.0 (known: b200, mi355, h100, a100)");
#define UNET TRAIN "    benchmark: unet3d\n    accelerator: b200\n"
	EXPECT_ERR(UNET "    runtime: 10s\n",
		   "@P:7:5: phases.0.runtime: not a key of workload training (use epochs here; "
		   "runtime is for workload io, ingest, kvcache)");
	EXPECT_ERR(UNET "    bs: 1MiB\n",
		   "@P:7:5: phases.0.bs: not a key of workload training (use transfer_size here");
	EXPECT_ERR(UNET "    rw: read\n", "@P:7:5: phases.0.rw: not a key of workload training");
	EXPECT_ERR(UNET "    au: 90%\n",
		   "@P:7:9: phases.0.au: \"90%\" is not a number (try 0.01 or 1e-4)");
	EXPECT_ERR(UNET "    au: 0\n",
		   "@P:7:9: phases.0.au: 0 is out of range (more than 0, at most 1)");
	EXPECT_ERR(UNET "    prefetch_size: 1025\n",
		   "@P:7:20: phases.0.prefetch_size: 1025 is out of range (0..1024)");
	EXPECT_ERR(UNET "    files: 4294967296\n",
		   "@P:7:12: phases.0.files: 4294967296 is out of range (1..4294967295)");
	EXPECT_ERR("targets:\n  - path: @D\nphases:\n  - workload: ingest\n    files: 65537\n",
		   "@P:5:12: phases.0.files: 65537 is out of range (1..65536)");
	EXPECT_ERR(UNET "    files: 0\n",
		   "@P:7:12: phases.0.files: 0 is out of range (1..4294967295)");
	EXPECT_ERR(UNET "    iodepth: [4, 8]\n",
		   "@P:7:14: phases.0.iodepth: got a list, but a training phase is not swept");
	EXPECT_ERR(UNET "    samples_per_file: 4294967295\n    record_size: 8GiB\n",
		   "@P:8:18: phases.0.record_size: samples_per_file 4294967295 x record_size 8GiB "
		   "is more than 2^64 bytes a file");
	EXPECT_ERR(UNET "    files: 4294967295\n    record_size: 1TiB\n",
		   "@P:7:12: phases.0.files: 4294967295 files of 1099510579200 B on average are "
		   "more than 2^64 bytes");
	EXPECT_ERR(UNET "    expect: {max_write_p99: 5ms}\n",
		   "@P:7:14: phases.0.expect.max_write_p99: the p99 latency of writes needs a "
		   "phase that writes, and this one only reads");
	EXPECT_ERR("targets:\n  - path: @D\nmemory_per_rank: 4MiB\nphases:\n"
		   "  - workload: training\n    benchmark: unet3d\n    accelerator: b200\n",
		   "@P:5:5: phases.0.iodepth: jobs 4 x iodepth 8 x transfer_size 1MiB = 32MiB of "
		   "I/O buffers per rank, more than memory_per_rank 4MiB");
	EXPECT_ERR("targets:\n  - path: @F\nphases:\n  - workload: training\n"
		   "    benchmark: unet3d\n    accelerator: b200\n    direct: true\n"
		   "    transfer_size: 1000\n",
		   "@P:8:20: phases.0.transfer_size: 1KB is not a multiple of the 512B block "
		   "size of targets.0 (@F), which direct: true needs");
	EXPECT_ERR("targets:\n  - path: @D\nphases:\n  - workload: ingest\n"
		   "    computation_time: 1s\n",
		   "@P:5:5: phases.0.computation_time: not a key of workload ingest (use "
		   "compute_per_batch here; computation_time is for workload training)");
	EXPECT_ERR("targets:\n  - path: @D\nphases:\n  - workload: ingest\n    benchmark: unet3d\n",
		   "@P:5:5: phases.0.benchmark: not a key of workload ingest (benchmark is for "
		   "workload training)");
	EXPECT_ERR("targets:\n  - path: @D\nmodel: {nodes: [8]}\nphases:\n"
		   "  - workload: training\n    benchmark: unet3d\n    accelerator: b200\n",
		   "@P:3:1: model: the model projects checkpoint and ingest phases, not training "
		   "phases yet");
	/* expect: min_au, a threshold of the phase's AU */
	cfg = load_ok(UNET "    expect: {min_au: 90%}\n", NULL, 0, path, sizeof(path), __LINE__);
	if (cfg) {
		const struct sc_phase *ph = &sc_config_plan(cfg)->phases[0];

		CHECK(ph->nexpect == 1 && ph->expect[0].metric == SC_EXPECT_MIN_AU &&
			  ph->expect[0].value == 0.9,
		      "training: expect min_au 90%%");
	}
	sc_config_destroy(cfg);
#undef UNET
#undef TRAIN
#undef CUSTOM
}

static void test_kvcache_rate(void)
{
	struct sc_config *cfg;
	const struct sc_plan *plan;
	char path[512];

	cfg = load_ok("targets: [{path: @D}]\n"
		      "phases:\n"
		      "  - workload: kvcache\n"
		      "  - name: kv\n"
		      "    workload: kvcache\n"
		      "    rate: 5000/s\n"
		      "    runtime: 10s\n"
		      "    bs: [4KiB, 16KiB]\n"
		      "  - rw: randread\n"
		      "    rate: 200\n",
		      NULL, 0, path, sizeof(path), __LINE__);
	if (!cfg)
		return;
	plan = sc_config_plan(cfg);
	CHECK(plan->nphases == 4, "nphases %u", plan->nphases);
	if (plan->nphases == 4) {
		check_cell_io(__LINE__, &plan->phases[0], "phase0", "phase0", 0, 0, 1,
			      SC_WORKLOAD_KVCACHE,
			      (struct sc_io_spec){.rw = SC_RW_RANDRW,
						  .rwmixread_pct = 70,
						  .bs_bytes = 4 * KIB,
						  .iodepth = 128,
						  .jobs = 8,
						  .size_bytes = 1024 * MIB,
						  .io_bytes = 1024 * MIB,
						  .direct = true,
						  .engine = SC_ENGINE_URING,
						  .seed = 1});
		for (uint32_t c = 0; c < 2; c++)
			check_cell_io(__LINE__, &plan->phases[1 + c],
				      c ? "kv[bs=16KiB]" : "kv[bs=4KiB]", "kv", 1, c, 2,
				      SC_WORKLOAD_KVCACHE,
				      (struct sc_io_spec){.rw = SC_RW_RANDRW,
							  .rwmixread_pct = 70,
							  .bs_bytes = c ? 16 * KIB : 4 * KIB,
							  .iodepth = 128,
							  .jobs = 8,
							  .size_bytes = 1024 * MIB,
							  .runtime_ns = 10 * NS,
							  .direct = true,
							  .engine = SC_ENGINE_URING,
							  .seed = 2,
							  .rate_iops = 5000});
		check_io(__LINE__, &plan->phases[3], "phase2", "phase2", 2, 0, 1,
			 (struct sc_io_spec){.rw = SC_RW_RANDREAD,
					     .rwmixread_pct = 100,
					     .bs_bytes = 4 * KIB,
					     .iodepth = 1,
					     .jobs = 1,
					     .size_bytes = 64 * MIB,
					     .io_bytes = 64 * MIB,
					     .direct = true,
					     .engine = SC_ENGINE_URING,
					     .seed = 3,
					     .rate_iops = 200});
	}
	sc_config_destroy(cfg);

	EXPECT_ERR(HEAD "    rate: fast\n",
		   "@P:5:11: phases.0.rate: \"fast\" is not a rate (write I/Os per second per "
		   "rank: 5000/s, or 0 for a closed loop)");
	EXPECT_ERR(HEAD "    rate: 5000/m\n", "@P:5:11: phases.0.rate: \"5000/m\" is not a rate");
	EXPECT_ERR(HEAD "    rate: 2000000000/s\n",
		   "@P:5:11: phases.0.rate: 2000000000/s is out of range (0/s..1000000000/s)");
	EXPECT_ERR("targets:\n  - path: @D\nphases:\n  - workload: kvcache\n    rw: read\n"
		   "    rwmixread: 90\n",
		   "@P:6:16: phases.0.rwmixread: rwmixread only applies to rw: randrw");
}

/* Defaults and bare --set keys reach the phases whose workload takes
 * them, with their kind of value. */
static void test_workload_set(void)
{
	static const char yaml[] = "targets: [{path: @D}]\n"
				   "defaults:\n"
				   "  fsync: false\n" /* checkpoint phases only */
				   "  iodepth: 16\n"  /* every phase */
				   "phases:\n"
				   "  - name: wr\n"
				   "    rw: write\n"
				   "    io_size: 1MiB\n"
				   "  - name: ck\n"
				   "    workload: checkpoint\n"
				   "    model: llama3-8b\n"
				   "  - name: in\n"
				   "    workload: ingest\n"
				   "    epochs: 3\n"
				   "  - name: kv\n"
				   "    workload: kvcache\n";
	const char *sets[] = {
	    "scale=0.01",     /* checkpoint only: io would refuse it */
	    "runtime=5s",     /* io (drops io_size), ingest (drops epochs), kvcache */
	    "fsync=2",	      /* io and kvcache: a count */
	    "restore=true",   /* checkpoint */
	    "iodepth=[4, 8]", /* a sweep: io and kvcache only */
	};
	struct sc_config *cfg;
	const struct sc_plan *plan;
	char path[512], buf[600];

	cfg = load_ok(yaml, sets, sizeof(sets) / sizeof(sets[0]), path, sizeof(path), __LINE__);
	if (!cfg)
		return;
	plan = sc_config_plan(cfg);
	/* wr: 2 cells, ck: 2 (written, restored), in: 1, kv: 2. */
	CHECK(plan->nphases == 7, "nphases %u", plan->nphases);
	if (plan->nphases == 7) {
		const struct sc_phase *p = plan->phases;

		CHECK(strcmp(p[0].name, "wr[iodepth=4]") == 0 && p[0].io.runtime_ns == 5 * NS &&
			  p[0].io.io_bytes == 0 && p[0].io.fsync_every == 2,
		      "wr: %s runtime %" PRIu64 " io %" PRIu64 " fsync %u", p[0].name,
		      p[0].io.runtime_ns, p[0].io.io_bytes, p[0].io.fsync_every);
		CHECK(strcmp(p[2].name, "ck[ckpt=1]") == 0 &&
			  strcmp(p[3].name, "ck[restore=1]") == 0,
		      "ck cells %s %s", p[2].name, p[3].name);
		CHECK(p[2].ckpt.scale == 0.01 && !p[2].ckpt.fsync && p[2].io.iodepth == 16 &&
			  p[2].io.runtime_ns == 0,
		      "ck: scale %g fsync %d iodepth %u runtime %" PRIu64, p[2].ckpt.scale,
		      p[2].ckpt.fsync, p[2].io.iodepth, p[2].io.runtime_ns);
		CHECK(strcmp(p[4].name, "in") == 0 && p[4].io.runtime_ns == 5 * NS &&
			  p[4].ingest.epochs == 0 && p[4].io.iodepth == 16,
		      "in: %s runtime %" PRIu64 " epochs %u iodepth %u", p[4].name,
		      p[4].io.runtime_ns, p[4].ingest.epochs, p[4].io.iodepth);
		CHECK(strcmp(p[6].name, "kv[iodepth=8]") == 0 && p[6].io.runtime_ns == 5 * NS &&
			  p[6].io.fsync_every == 2 && p[6].io.iodepth == 8,
		      "kv: %s runtime %" PRIu64 " fsync %u iodepth %u", p[6].name,
		      p[6].io.runtime_ns, p[6].io.fsync_every, p[6].io.iodepth);
	}
	sc_config_where(cfg, "phases.ck.scale", buf, sizeof(buf));
	CHECK(strcmp(buf, "--set scale=0.01") == 0, "where phases.ck.scale: %s", buf);
	sc_config_destroy(cfg);

	/* fsync=true is a checkpoint's kind of fsync. */
	{
		const char *s[] = {"fsync=true"};

		cfg = load_ok("targets: [{path: @D}]\nphases:\n  - rw: write\n"
			      "  - workload: checkpoint\n    model: llama3-8b\n    fsync: false\n",
			      s, 1, path, sizeof(path), __LINE__);
		if (cfg) {
			plan = sc_config_plan(cfg);
			CHECK(plan->phases[0].io.fsync_every == 0 && plan->phases[1].ckpt.fsync,
			      "fsync=true: io %u, checkpoint %d", plan->phases[0].io.fsync_every,
			      plan->phases[1].ckpt.fsync);
		}
		sc_config_destroy(cfg);
	}
	/* A default fsync reaches the phases whose kind of fsync it is. */
	for (int b = 0; b < 2; b++) {
		char yml[256];

		snprintf(yml, sizeof(yml),
			 "targets: [{path: @D}]\ndefaults:\n  fsync: %s\nphases:\n  - rw: write\n"
			 "  - workload: checkpoint\n    model: llama3-8b\n",
			 b ? "false" : "4");
		cfg = load_ok(yml, NULL, 0, path, sizeof(path), __LINE__);
		if (cfg) {
			plan = sc_config_plan(cfg);
			CHECK(plan->phases[0].io.fsync_every == (b ? 0u : 4u) &&
				  plan->phases[1].ckpt.fsync == (b == 0),
			      "defaults fsync %s: io %u, checkpoint %d", b ? "false" : "4",
			      plan->phases[0].io.fsync_every, plan->phases[1].ckpt.fsync);
		}
		sc_config_destroy(cfg);
	}
	EXPECT_ERR("targets: [{path: @D}]\ndefaults:\n  fsync: yes\nphases: [{rw: write}]\n",
		   "@P:3:10: defaults.fsync: \"yes\" is not a whole number");
	{
		const char *s[] = {"scale=0.01"};

		EXPECT_SET_ERR(HEAD, s,
			       "--set scale=0.01: no phase accepts \"scale\" (it is a key of "
			       "workload checkpoint; the phases here are io)");
	}
	{
		const char *s[] = {"scale=2"};

		EXPECT_SET_ERR(CKPT_HEAD, s,
			       "--set scale=2: phases.0.scale: 2 is out of range (more than 0, at "
			       "most 1)");
	}
	{
		const char *s[] = {"epochs=2"};

		cfg = load_ok("targets: [{path: @D}]\nphases:\n  - workload: ingest\n"
			      "    runtime: 5s\n",
			      s, 1, path, sizeof(path), __LINE__);
		if (cfg)
			CHECK(sc_config_plan(cfg)->phases[0].ingest.epochs == 2 &&
				  sc_config_plan(cfg)->phases[0].io.runtime_ns == 0,
			      "epochs=2 replaces runtime");
		sc_config_destroy(cfg);
	}
}

/* memory_per_rank: a budget a run may raise, on the command line too; a
 * ramp must be shorter than the runtime. */
static void test_limits(void)
{
	static const char *const big =
	    "memory_per_rank: 8GiB\n"
	    "targets:\n  - path: @D\nphases:\n"
	    "  - rw: read\n    jobs: 4\n    iodepth: 1024\n    bs: 1MiB\n    size: 1GiB\n";
	struct sc_config *cfg;
	char path[512];

	cfg = load_ok(big, NULL, 0, path, sizeof(path), __LINE__);
	if (cfg)
		CHECK(sc_config_plan(cfg)->phases[0].io.iodepth == 1024, "4 GiB of buffers fit 8GiB");
	sc_config_destroy(cfg);
	{
		const char *s[] = {"memory_per_rank=16GiB"};

		cfg = load_ok(big, s, 1, path, sizeof(path), __LINE__);
		sc_config_destroy(cfg);
	}
	{
		const char *s[] = {"memory_per_rank=4095MiB"};

		EXPECT_SET_ERR(big, s,
			       "@P:7:14: phases.0.iodepth: jobs 4 x iodepth 1024 x bs 1MiB = 4GiB of "
			       "I/O buffers per rank, more than memory_per_rank 4095MiB");
	}
	/* exactly the budget fits */
	{
		const char *s[] = {"memory_per_rank=4GiB"};

		cfg = load_ok(big, s, 1, path, sizeof(path), __LINE__);
		sc_config_destroy(cfg);
	}
	cfg = load_ok("targets:\n  - path: @D\nphases:\n  - rw: read\n    runtime: 2s\n"
		      "    ramp: 1999ms\n",
		      NULL, 0, path, sizeof(path), __LINE__);
	sc_config_destroy(cfg);
	EXPECT_ERR("targets:\n  - path: @D\nphases:\n  - rw: read\n    runtime: 2s\n"
		   "    ramp: 2s\n",
		   "@P:6:11: phases.0.ramp: ramp 2.00 s is not shorter than runtime 2.00 s");
}

/* inject: every or probability, an errno by name or number, in every
 * workload and from defaults; each mistake at its key. */
/* cpus and numa: from defaults and per phase, into every cell of a sweep
 * and every workload's phases; bad values at their file:line:col. */
static void test_placement_keys(void)
{
	const struct sc_plan *p;
	struct sc_config *cfg;
	char path[512];

	cfg = load_ok("targets: [{path: @D}]\n"
		      "defaults:\n  cpus: 0-3,8\n"
		      "phases:\n"
		      "  - {rw: read, bs: [4KiB, 8KiB]}\n"
		      "  - {rw: write, cpus: \"1\", numa: drive}\n"
		      "  - {workload: fill, size: 1MiB, numa: none}\n"
		      "  - idle: 1s\n",
		      NULL, 0, path, sizeof(path), __LINE__);
	if (!cfg)
		return;
	p = sc_config_plan(cfg);
	CHECK(p->nphases == 5, "nphases %u", p->nphases);
	for (uint32_t i = 0; i < 2 && p->nphases == 5; i++)
		CHECK(!strcmp(p->phases[i].io.cpus, "0-3,8") &&
			  p->phases[i].io.numa == SC_NUMA_NONE,
		      "cell %u: cpus from defaults, got \"%s\"", i, p->phases[i].io.cpus);
	if (p->nphases == 5) {
		CHECK(!strcmp(p->phases[2].io.cpus, "1") && p->phases[2].io.numa == SC_NUMA_DRIVE,
		      "the phase's own cpus and numa");
		CHECK(!strcmp(p->phases[3].io.cpus, "0-3,8"), "a fill phase takes the default");
		CHECK(!p->phases[4].io.cpus[0], "an idle step has no job threads to place");
	}
	sc_config_destroy(cfg);
	EXPECT_ERR(HEAD "    cpus: 3-1\n",
		   "@P:5:11: phases.0.cpus: \"3-1\" is not a CPU list at \"3-1\" (CPUs and ranges "
		   "joined by commas: 0-3,8)");
	EXPECT_ERR("targets:\n  - path: @D\ndefaults:\n  cpus: 1,1\nphases:\n  - rw: read\n",
		   "@P:4:9: defaults.cpus: \"1,1\" lists CPU 1 twice");
	EXPECT_ERR(HEAD "    cpus: [1, 2]\n",
		   "@P:5:11: phases.0.cpus: expected a text value, got a list");
	EXPECT_ERR(
	    HEAD "    numa: local\n",
	    "@P:5:11: phases.0.numa: \"local\" is not a numa placement (known: none, drive)");
}

static void test_inject(void)
{
	static const char *const sets[] = {"phases.1.inject.every=7"};
	struct sc_config *cfg;
	char path[512];

	cfg = load_ok("targets: [{path: @D}]\n"
		      "defaults:\n  inject: {probability: 0.001, errno: enodata}\n"
		      "phases:\n"
		      "  - rw: read\n    inject: {every: 1000, errno: EIO}\n"
		      "  - rw: write\n    inject: {every: 9223372036854775808, errno: 84}\n"
		      "  - {rw: read}\n"
		      "  - {workload: checkpoint, model: llama3-8b, scale: 0.00001}\n"
		      "  - {rw: read, inject: {every: 3}}\n",
		      sets, 1, path, sizeof(path), __LINE__);
	if (cfg) {
		const struct sc_plan *p = sc_config_plan(cfg);
		const struct sc_inject *i0 = &p->phases[0].io.inject, *i1 = &p->phases[1].io.inject,
				       *i2 = &p->phases[2].io.inject, *i3 = &p->phases[3].io.inject,
				       *i4 = &p->phases[p->nphases - 1].io.inject;

		CHECK(i0->every == 1000 && i0->ppm == 0 && i0->errno_val == EIO, "every 1000 EIO");
		CHECK(i1->every == 7 && i1->errno_val == EILSEQ,
		      "--set every=7 over 2^63, errno 84 (EILSEQ): %" PRIu64 " %d", i1->every,
		      i1->errno_val);
		CHECK(i2->every == 0 && i2->ppm == 1000 && i2->errno_val == ENODATA,
		      "from defaults: 0.001 = 1000 ppm, ENODATA by any case: %u %d", i2->ppm,
		      i2->errno_val);
		CHECK(i3->ppm == 1000 && i3->errno_val == ENODATA, "a checkpoint cell injects too");
		CHECK(i4->every == 3 && i4->errno_val == EIO, "errno defaults to EIO");
	}
	sc_config_destroy(cfg);
	EXPECT_ERR(HEAD "    inject: EIO\n",
		   "@P:5:13: phases.0.inject: expected a mapping {every: N, errno: EIO} or "
		   "{probability: P, errno: EIO}, got a value");
	EXPECT_ERR(HEAD "    inject: {errno: EIO}\n",
		   "@P:5:13: phases.0.inject: inject needs every: N");
	EXPECT_ERR(HEAD "    inject: {every: 0}\n",
		   "@P:5:21: phases.0.inject.every: 0 is out of range (1..9223372036854775808)");
	EXPECT_ERR(HEAD "    inject: {every: 9223372036854775809}\n",
		   "@P:5:21: phases.0.inject.every: 9223372036854775809 is out of range");
	EXPECT_ERR(HEAD "    inject: {every: 2, probability: 0.5}\n",
		   "@P:5:24: phases.0.inject.probability: every and probability are alternatives");
	EXPECT_ERR(HEAD "    inject: {probability: 0}\n",
		   "@P:5:27: phases.0.inject.probability: 0 is out of range (more than 0, at most 1)");
	EXPECT_ERR(HEAD "    inject: {probability: 1e-7}\n",
		   "@P:5:27: phases.0.inject.probability: 1e-7 is below one in a million");
	EXPECT_ERR(HEAD "    inject: {every: 5, errno: EIOO}\n",
		   "@P:5:31: phases.0.inject.errno: \"EIOO\" is not an errno name (did you mean "
		   "EIO?)");
	EXPECT_ERR(HEAD "    inject: {every: 5, errno: 255}\n",
		   "@P:5:31: phases.0.inject.errno: 255 is not an errno (a name such as EIO, or "
		   "1..254)");
	EXPECT_ERR(HEAD "    inject: {every: 5, erno: EIO}\n",
		   "@P:5:24: phases.0.inject.erno: unknown key (did you mean errno?)");
	EXPECT_ERR("targets: [{path: @D}]\ndefaults:\n  inject: [1]\nphases: [{rw: read}]\n",
		   "@P:3:11: defaults.inject: expected a mapping");
}

/* The io_uring options: parsed from a phase and from defaults into the
 * plan, and what goes with them checked at the key. */
static void test_uring_opts(void)
{
	static const char *const sets[] = {"phases.2.hipri=false"};
	struct sc_config *cfg;
	char path[512];

	cfg = load_ok("targets: [{path: @D}]\n"
		      "defaults:\n  sqpoll: true\n"
		      "phases:\n"
		      "  - {rw: read, sqpoll_cpu: 1, hipri: true}\n"
		      "  - {rw: read, sqpoll: false, passthrough: true}\n"
		      "  - {rw: read, hipri: true}\n"
		      "  - {workload: checkpoint, model: llama3-8b, scale: 0.00001, sqpoll: false}\n",
		      sets, 1, path, sizeof(path), __LINE__);
	if (cfg) {
		const struct sc_plan *p = sc_config_plan(cfg);
		const struct sc_io_spec *a = &p->phases[0].io, *b = &p->phases[1].io,
					*c = &p->phases[2].io, *d = &p->phases[3].io;

		CHECK(a->sqpoll && a->sqpoll_cpu == 1 && a->hipri && !a->passthrough,
		      "sqpoll from defaults, its CPU, hipri: %d %d %d %d", a->sqpoll,
		      a->sqpoll_cpu, a->hipri, a->passthrough);
		CHECK(!b->sqpoll && b->sqpoll_cpu == -1 && !b->hipri && b->passthrough,
		      "the phase's sqpoll: false wins; no CPU is -1; passthrough: %d %d %d",
		      b->sqpoll, b->sqpoll_cpu, b->passthrough);
		CHECK(c->sqpoll && c->sqpoll_cpu == -1 && !c->hipri, "--set hipri=false: %d",
		      c->hipri);
		CHECK(!d->sqpoll && !d->hipri && !d->passthrough, "a checkpoint cell takes them too");
	}
	sc_config_destroy(cfg);
	EXPECT_ERR(HEAD "    sqpoll: yes\n",
		   "@P:5:13: phases.0.sqpoll: \"yes\" is not a boolean (write true or false)");
	EXPECT_ERR(HEAD "    sqpoll: true\n    sqpoll_cpu: -1\n",
		   "@P:6:17: phases.0.sqpoll_cpu: -1 is out of range (0..8191)");
	EXPECT_ERR(HEAD "    sqpoll: true\n    sqpoll_cpu: 8192\n",
		   "@P:6:17: phases.0.sqpoll_cpu: 8192 is out of range (0..8191)");
	EXPECT_ERR(HEAD "    sqpoll_cpu: 2\n",
		   "@P:5:17: phases.0.sqpoll_cpu: sqpoll_cpu places the kernel thread that "
		   "sqpoll: true starts, but this phase has no sqpoll (add sqpoll: true, or leave "
		   "sqpoll_cpu out)");
	EXPECT_ERR(HEAD "    direct: false\n    hipri: true\n",
		   "@P:6:12: phases.0.hipri: hipri: true polls for completions, which only "
		   "O_DIRECT I/O has, but this phase has direct: false (set direct: true, or leave "
		   "hipri out)");
	EXPECT_ERR("targets: [{path: @D}]\ndefaults: {hipri: true}\n"
		   "phases: [{rw: read, direct: false}]\n",
		   "@P:2:19: defaults.hipri: hipri: true polls for completions, which only "
		   "O_DIRECT I/O has, but this phase has direct: false (set direct: true, or leave "
		   "hipri out), in phase phase0");
	EXPECT_ERR(HEAD "    engine: psync\n    passthrough: true\n",
		   "@P:6:18: phases.0.passthrough: passthrough is an option of engine io_uring, "
		   "but this phase's engine is psync (set engine: io_uring, or leave passthrough "
		   "out)");
	EXPECT_ERR(HEAD "    engine: null\n    sqpoll: true\n",
		   "@P:6:13: phases.0.sqpoll: sqpoll is an option of engine io_uring, but this "
		   "phase's engine is null (set engine: io_uring, or leave sqpoll out)");
	EXPECT_ERR(HEAD "    hipri: [true]\n",
		   "@P:5:12: phases.0.hipri: expected true or false, got a list");
}

int main(void)
{
	FILE *f;

	check_mkdtemp(dir, sizeof(dir), "test_config");
	snprintf(file_tgt, sizeof(file_tgt), "%s/target.img", dir);
	f = fopen(file_tgt, "w");
	if (!f || ftruncate(fileno(f), (off_t)MIB) != 0) {
		perror(file_tgt);
		return 1;
	}
	fclose(f);

	test_full_plan();
	test_sweep();
	test_defaults();
	test_fill_idle();
	test_env();
	test_set();
	test_errors();
	test_targets();
	test_checkpoint();
	test_checkpoint_errors();
	test_mlperf_procedure();
	test_ingest();
	test_training();
	test_kvcache_rate();
	test_workload_set();
	test_limits();
	test_inject();
	test_uring_opts();
	test_placement_keys();

	check_rmtree(dir);
	return check_exit("test_config");
}
