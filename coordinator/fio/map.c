/* map.c -- a fio job file as an ssdcluster config (map.h). */
#include "fio/map.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fio/options.h"
#include "fio/values.h"

#define KB_BASE	 1024u
#define NS_PER_S UINT64_C(1000000000)

/* The config being written, and what it knows of the job file. */
struct out {
	struct sc_fio_yaml *y;
	size_t cap;
	uint32_t linecap;
	size_t notes_len;
	char *err;
	size_t errlen;
	int rc;		       /* the first failure to grow a buffer */
	struct sc_fio_opt job; /* the job section's [name] line: where a value
				* from no option came from */
};

/* The one target every job uses. */
struct target {
	char path[4096];
	const struct sc_fio_opt *from; /* filename or directory, NULL: the cwd */
	bool dir;		       /* a directory target */
	bool exists_file;	       /* file or block device: its size */
	uint64_t capacity;
};

static int grow(struct out *o, size_t more)
{
	struct sc_fio_yaml *y = o->y;
	char *t;

	if (y->len + more + 1 <= o->cap)
		return 0;
	o->cap = (y->len + more + 1) * 2;
	t = realloc(y->text, o->cap);
	if (!t)
		return o->rc = -ENOMEM;
	y->text = t;
	return 0;
}

/* One line of the config, from option src (NULL: from none). */
static void line(struct out *o, const struct sc_fio_opt *src, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void line(struct out *o, const struct sc_fio_opt *src, const char *fmt, ...)
{
	struct sc_fio_yaml *y = o->y;
	char buf[8192];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (o->rc || n < 0 || grow(o, (size_t)n + 1))
		return;
	if (y->nlines == o->linecap) {
		uint32_t cap = o->linecap ? o->linecap * 2 : 64;
		const char **f = realloc(y->src_file, cap * sizeof(*f));
		uint32_t *l = f ? realloc(y->src_line, cap * sizeof(*l)) : NULL;

		if (f)
			y->src_file = f;
		if (!f || !l) {
			o->rc = -ENOMEM;
			return;
		}
		y->src_line = l;
		o->linecap = cap;
	}
	memcpy(y->text + y->len, buf, (size_t)n);
	y->len += (size_t)n;
	y->text[y->len++] = '\n';
	y->text[y->len] = '\0';
	if (!src && o->job.file)
		src = &o->job;
	y->src_file[y->nlines] = src ? src->file : NULL;
	y->src_line[y->nlines] = src ? src->line : 0;
	y->nlines++;
}

static void note(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void note(struct out *o, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	size_t n;
	char *t;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	n = strlen(buf);
	t = realloc(o->y->notes, o->notes_len + n + 2);
	if (!t) {
		o->rc = -ENOMEM;
		return;
	}
	memcpy(t + o->notes_len, buf, n);
	o->notes_len += n;
	t[o->notes_len++] = '\n';
	t[o->notes_len] = '\0';
	o->y->notes = t;
}

/* "FILE:LINE" of an option, or "--set K=V" for an override (line 0). */
static const char *where(const struct sc_fio_opt *opt, char *buf, size_t len)
{
	if (opt->line)
		snprintf(buf, len, "%s:%u", opt->file, opt->line);
	else
		snprintf(buf, len, "%s", opt->file);
	return buf;
}

static int refuse(struct out *o, const struct sc_fio_job *j, const struct sc_fio_opt *opt,
		  const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static int refuse(struct out *o, const struct sc_fio_job *j, const struct sc_fio_opt *opt,
		  const char *fmt, ...)
{
	char at[4200];
	va_list ap;
	int n;

	if (opt)
		where(opt, at, sizeof(at));
	else
		snprintf(at, sizeof(at), "%s:%u", j->file, j->line);
	n = snprintf(o->err, o->errlen, "%s: job %s: ", at, j->name);
	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < o->errlen)
		vsnprintf(o->err + n, o->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* The last of j's options among the names of one option (its aliases). */
static const struct sc_fio_opt *opt_of(const struct sc_fio_job *j, const char *const *names)
{
	for (uint32_t i = j->nopts; i-- > 0;)
		for (const char *const *k = names; *k; k++)
			if (strcmp(j->opts[i].key, *k) == 0)
				return &j->opts[i];
	return NULL;
}

#define OPT(j, ...) opt_of((j), (const char *const[]){__VA_ARGS__, NULL})

/* fio's boolean: a flag alone, or a number (nonzero: on). */
static bool is_on(const struct sc_fio_opt *opt)
{
	return opt && (!opt->value || strtoul(opt->value, NULL, 0) != 0);
}

/* A YAML double-quoted scalar of s (with $ doubled: the config expands
 * ${VAR} again, and the job file's were expanded already). */
static const char *quoted(const char *s, char *buf, size_t len)
{
	size_t at = 0;

	buf[at++] = '"';
	for (; *s && at + 4 < len; s++) {
		if (*s == '"' || *s == '\\')
			buf[at++] = '\\';
		if (*s == '$')
			buf[at++] = '$';
		buf[at++] = *s;
	}
	buf[at++] = '"';
	buf[at] = '\0';
	return buf;
}

/* A size as the config writes it: the largest binary unit that divides it. */
static const char *size_text(uint64_t v, char *buf, size_t len)
{
	static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
	int u = 0;

	while (u < 5 && v && v % 1024 == 0) {
		v /= 1024;
		u++;
	}
	snprintf(buf, len, "%llu%s", (unsigned long long)v, unit[u]);
	return buf;
}

static const char *time_text(uint64_t ns, char *buf, size_t len)
{
	static const char *const unit[] = {"ns", "us", "ms", "s"};
	int u = 0;

	while (u < 3 && ns && ns % 1000 == 0) {
		ns /= 1000;
		u++;
	}
	snprintf(buf, len, "%llu%s", (unsigned long long)ns, unit[u]);
	return buf;
}

static int size_opt(struct out *o, const struct sc_fio_job *j, const struct sc_fio_opt *opt,
		    uint64_t *v)
{
	if (!opt->value || strchr(opt->value, '%'))
		return refuse(o, j, opt,
			      "%s=%s: ssdcluster fio takes a size here (not a flag, not a "
			      "percentage of the file)",
			      opt->key, opt->value ? opt->value : "");
	if (sc_fio_size_parse(opt->value, KB_BASE, v))
		return refuse(o, j, opt, "%s=%s: not a size (fio's: 4k, 1m, 10g)", opt->key,
			      opt->value);
	return 0;
}

static int count_opt(struct out *o, const struct sc_fio_job *j, const struct sc_fio_opt *opt,
		     uint64_t lo, uint64_t hi, uint64_t *v)
{
	char *end;
	unsigned long long n;

	if (!opt->value)
		return refuse(o, j, opt, "%s needs a value", opt->key);
	errno = 0;
	n = strtoull(opt->value, &end, 0);
	if (errno || end == opt->value || *end || n < lo || n > hi)
		return refuse(o, j, opt, "%s=%s: expected a whole number from %llu to %llu",
			      opt->key, opt->value, (unsigned long long)lo, (unsigned long long)hi);
	*v = n;
	return 0;
}

/* An option's value that fio lets differ for reads and writes ("4k,8k"):
 * the one value, or a refusal when they differ. */
static int one_value(struct out *o, const struct sc_fio_job *j, const struct sc_fio_opt *opt,
		     char *buf, size_t len)
{
	const char *v = opt->value ? opt->value : "";
	const char *comma = strchr(v, ',');

	if (!comma) {
		snprintf(buf, len, "%s", v);
		return 0;
	}
	snprintf(buf, len, "%.*s", (int)(comma - v), v);
	for (const char *p = comma; p; p = strchr(p + 1, ',')) {
		size_t n = strcspn(p + 1, ",");

		if (n && (n != strlen(buf) || strncmp(p + 1, buf, n) != 0))
			return refuse(o, j, opt,
				      "%s=%s: different values for reads and writes are not run "
				      "(give one value)",
				      opt->key, v);
	}
	return 0;
}

/* ---- the target ---- */

static int device_bytes(const char *path, uint64_t *bytes)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int rc = 0;

	if (fd < 0)
		return -errno;
	if (ioctl(fd, BLKGETSIZE64, bytes) != 0)
		rc = -errno;
	close(fd);
	return rc;
}

/* Job j's target into t.  0 or -EINVAL. */
static int job_target(struct out *o, const struct sc_fio_job *j, struct target *t)
{
	const struct sc_fio_opt *fn = OPT(j, "filename"), *dir = OPT(j, "directory");
	struct stat st;

	memset(t, 0, sizeof(*t));
	if (dir && (!dir->value || !*dir->value || strchr(dir->value, ':')))
		return refuse(o, j, dir, "directory=%s: give one directory",
			      dir->value ? dir->value : "");
	if (!fn) {
		snprintf(t->path, sizeof(t->path), "%s", dir ? dir->value : ".");
		t->from = dir;
		t->dir = true;
		return 0;
	}
	if (!fn->value || !*fn->value || strchr(fn->value, ':'))
		return refuse(o, j, fn,
			      "filename=%s: give one file (fio's a:b lists of files are not run)",
			      fn->value ? fn->value : "");
	if (dir && fn->value[0] != '/')
		snprintf(t->path, sizeof(t->path), "%s/%s", dir->value, fn->value);
	else
		snprintf(t->path, sizeof(t->path), "%s", fn->value);
	t->from = fn;
	if (stat(t->path, &st) != 0) {
		if (errno != ENOENT)
			return refuse(o, j, fn, "filename=%s: %s", t->path, strerror(errno));
		/* fio would make the file: the jobs get files of their own in
		 * its folder instead (the run's, removed after it) */
		char *slash = strrchr(t->path, '/');

		if (!slash)
			snprintf(t->path, sizeof(t->path), ".");
		else if (slash == t->path)
			t->path[1] = '\0';
		else
			*slash = '\0';
		t->dir = true;
		return 0;
	}
	if (S_ISDIR(st.st_mode))
		return refuse(o, j, fn, "filename=%s is a directory (use directory=)", t->path);
	if (S_ISBLK(st.st_mode)) {
		int rc = device_bytes(t->path, &t->capacity);

		if (rc)
			return refuse(o, j, fn, "filename=%s: cannot read its size (%s)", t->path,
				      strerror(-rc));
	} else if (S_ISREG(st.st_mode)) {
		t->capacity = (uint64_t)st.st_size;
	} else {
		return refuse(o, j, fn, "filename=%s: not a file, block device or directory",
			      t->path);
	}
	t->exists_file = true;
	return 0;
}

/* ---- one job section as a phase ---- */

struct phase {
	enum sc_fio_rw rw;
	uint32_t every;
	uint64_t bs, jobs, iodepth, size, offset, offset_inc;
	bool random, writes, reads, psync, verify, randommap, direct;
	bool mix;	  /* bssplit or bsrange: I/Os of several sizes */
	uint64_t mean_bs; /* the mean I/O size (bs without a mix) */
	const char *engine;
};

static const char *const rw_yaml[SC_FIO_RW_COUNT] = {
    [SC_FIO_READ] = "read",	      [SC_FIO_WRITE] = "write",	 [SC_FIO_RANDREAD] = "randread",
    [SC_FIO_RANDWRITE] = "randwrite", [SC_FIO_RW] = "readwrite", [SC_FIO_RANDRW] = "randrw",
};

/* A phase name from s: [A-Za-z0-9][A-Za-z0-9_.-]{0,63}, different from the
 * names before it (names[0..n)). */
static void phase_name(const char *s, char names[][65], uint32_t n, char *out)
{
	size_t at = 0;

	for (; *s && at < 60; s++) {
		char ch = *s;
		bool alnum = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
			     (ch >= '0' && ch <= '9');

		if (at == 0 && !alnum)
			out[at++] = 'j';
		out[at++] = alnum || ch == '_' || ch == '.' || ch == '-' ? ch : '_';
	}
	if (!at)
		out[at++] = 'j';
	out[at] = '\0';
	for (uint32_t k = 2, i = 0; i < n; i++)
		if (strcmp(names[i], out) == 0) {
			snprintf(out + at, 65 - at, "-%u", k++);
			i = (uint32_t)-1; /* check the new name against all again */
		}
}

static int map_rw(struct out *o, const struct sc_fio_job *j, struct phase *p)
{
	const struct sc_fio_opt *rw = OPT(j, "rw", "readwrite");
	const struct sc_fio_opt *mixr = OPT(j, "rwmixread"), *mixw = OPT(j, "rwmixwrite");
	uint64_t pct = 50;
	int rc;

	p->rw = SC_FIO_READ; /* fio's default */
	p->every = 1;
	if (rw && (!rw->value || sc_fio_rw_parse(rw->value, &p->rw, &p->every)))
		return refuse(o, j, rw,
			      "%s=%s: not a pattern ssdcluster runs (read, write, randread, "
			      "randwrite, rw/readwrite, randrw; with :N, random ones only)",
			      rw->key, rw->value ? rw->value : "");
	p->random = p->rw == SC_FIO_RANDREAD || p->rw == SC_FIO_RANDWRITE || p->rw == SC_FIO_RANDRW;
	p->reads = p->rw != SC_FIO_WRITE && p->rw != SC_FIO_RANDWRITE;
	p->writes = p->rw != SC_FIO_READ && p->rw != SC_FIO_RANDREAD;
	if (p->every > 1 && !p->random)
		return refuse(o, j, rw,
			      "%s=%s: a sequential pattern's :N (holes between I/Os) is not run",
			      rw->key, rw->value);
	line(o, rw, "    rw: %s", rw_yaml[p->rw]);
	if (p->every > 1)
		line(o, rw, "    random_every: %u", p->every);
	if (p->rw != SC_FIO_RW && p->rw != SC_FIO_RANDRW)
		return 0;
	/* fio: the later of rwmixread and rwmixwrite sets the split */
	if (mixr && (!mixw || mixr > mixw)) {
		rc = count_opt(o, j, mixr, 0, 100, &pct);
	} else if (mixw) {
		rc = count_opt(o, j, mixw, 0, 100, &pct);
		pct = 100 - pct;
	} else {
		rc = 0;
	}
	if (rc)
		return rc;
	line(o, mixr && (!mixw || mixr > mixw) ? mixr : mixw, "    rwmixread: %llu",
	     (unsigned long long)pct);
	return 0;
}

static int map_bs(struct out *o, const struct sc_fio_job *j, struct phase *p)
{
	const struct sc_fio_opt *bs = OPT(j, "bs", "blocksize"), *range = OPT(j, "bsrange");
	const struct sc_fio_opt *split = OPT(j, "bssplit");
	char v[256], t[64];
	uint64_t lo, hi;
	int rc;

	p->bs = 4096; /* fio's default */
	if (split) {
		uint64_t sz[SC_FIO_BSSPLIT_MAX];
		uint32_t pct[SC_FIO_BSSPLIT_MAX], n;

		if (!split->value || sc_fio_bssplit_parse(split->value, KB_BASE, sz, pct, &n))
			return refuse(o, j, split,
				      "bssplit=%s: not a bssplit ssdcluster runs (size/percent "
				      "entries joined by ':', one list for reads and writes)",
				      split->value ? split->value : "");
		/* one size with all the I/Os is that bs */
		for (uint32_t i = 0; i < n; i++)
			if (pct[i] == 100) {
				p->bs = p->mean_bs = sz[i];
				line(o, split, "    bs: %s", size_text(p->bs, t, sizeof(t)));
				return 0;
			}
		/* the regions are sized by the largest; rates by the mean */
		line(o, split, "    bssplit:");
		p->bs = 0;
		p->mix = true;
		for (uint32_t i = 0; i < n; i++) {
			if (pct[i])
				line(o, split, "      %s: %u", size_text(sz[i], t, sizeof(t)),
				     pct[i]);
			if (pct[i] && sz[i] > p->bs)
				p->bs = sz[i];
			p->mean_bs += sz[i] * pct[i] / 100;
		}
		return 0;
	}
	if (range && (!bs || range > bs)) {
		if ((rc = one_value(o, j, range, v, sizeof(v))))
			return rc;
		if (sc_fio_range_parse(v, KB_BASE, &lo, &hi))
			return refuse(o, j, range, "bsrange=%s: not a size range (4k-64k)", v);
		if (lo != hi) { /* sizes uniform over the multiples of lo */
			char h[64];

			line(o, range, "    bsrange: [%s, %s]", size_text(lo, t, sizeof(t)),
			     size_text(hi, h, sizeof(h)));
			p->bs = hi;
			p->mean_bs = (lo + hi / lo * lo) / 2;
			p->mix = true;
			return 0;
		}
		p->bs = p->mean_bs = lo;
		line(o, range, "    bs: %s", size_text(p->bs, t, sizeof(t)));
		return 0;
	}
	if (bs) {
		struct sc_fio_opt one = *bs;

		if ((rc = one_value(o, j, bs, v, sizeof(v))))
			return rc;
		one.value = v;
		if ((rc = size_opt(o, j, &one, &p->bs)))
			return rc;
	}
	p->mean_bs = p->bs;
	line(o, bs, "    bs: %s", size_text(p->bs, t, sizeof(t)));
	return 0;
}

/* Whether job j runs O_DIRECT: the later of direct= and buffered=, else
 * fio's default, buffered. */
static bool job_direct(const struct sc_fio_job *j, const struct sc_fio_opt **from)
{
	const struct sc_fio_opt *direct = OPT(j, "direct"), *buffered = OPT(j, "buffered");

	if (direct && (!buffered || direct > buffered)) {
		*from = direct;
		return is_on(direct);
	}
	*from = buffered;
	return buffered && !is_on(buffered);
}

static int map_engine(struct out *o, const struct sc_fio_job *j, struct phase *p)
{
	const struct sc_fio_opt *eng = OPT(j, "ioengine"), *qd = OPT(j, "iodepth"), *from;
	const char *v = eng && eng->value ? eng->value : "psync"; /* fio's default */
	const char *ours;
	int rc;

	if (strcmp(v, "libaio") == 0 && !job_direct(j, &from)) {
		/* Linux completes buffered libaio I/O inside io_submit: fio
		 * never has more than one in flight (its HOWTO: queued only
		 * with direct=1), so its figures are a synchronous engine's */
		note(o,
		     "job %s: ioengine=libaio with buffered I/O runs as psync at depth 1: "
		     "Linux does buffered libaio I/O inside io_submit, one at a time "
		     "(direct=1 queues it)",
		     j->name);
		ours = "psync";
	} else if (strcmp(v, "io_uring") == 0 || strcmp(v, "libaio") == 0)
		ours = "io_uring";
	else if (strcmp(v, "null") == 0)
		ours = "null";
	else if (strcmp(v, "psync") == 0 || strcmp(v, "sync") == 0 || strcmp(v, "pvsync") == 0)
		ours = "psync";
	else
		return refuse(o, j, eng,
			      "ioengine=%s: not an engine ssdcluster runs (io_uring; libaio "
			      "runs as io_uring, psync, sync and pvsync as psync; null)",
			      v);
	p->psync = strcmp(ours, "psync") == 0;
	p->engine = ours;
	line(o, eng, "    engine: %s", ours);
	p->iodepth = 1;
	if (qd && (rc = count_opt(o, j, qd, 1, 16384, &p->iodepth)))
		return rc;
	if (p->psync && p->iodepth > 1) {
		if (strcmp(v, "libaio") != 0)
			note(o,
			     "job %s: iodepth=%llu with ioengine=%s runs at depth 1, as fio "
			     "runs a synchronous engine",
			     j->name, (unsigned long long)p->iodepth, v);
		p->iodepth = 1;
	}
	line(o, qd, "    iodepth: %llu", (unsigned long long)p->iodepth);
	return 0;
}

/* Whether job j verifies what it writes (verify=crc32c). */
static bool verifies(const struct sc_fio_job *j)
{
	const struct sc_fio_opt *ver = OPT(j, "verify");

	return ver && ver->value && strcmp(ver->value, "crc32c") == 0;
}

/* size, offset, offset_increment, io_size and loops. */
static int map_region(struct out *o, const struct sc_fio_job *j, const struct target *t,
		      struct phase *p)
{
	const struct sc_fio_opt *size = OPT(j, "size"), *off = OPT(j, "offset");
	const struct sc_fio_opt *inc = OPT(j, "offset_increment");
	const struct sc_fio_opt *ios = OPT(j, "io_size", "io_limit"), *loops = OPT(j, "loops");
	uint64_t io = 0, nloops = 1;
	char s[64];
	int rc;

	p->offset = p->offset_inc = 0;
	if (off && (rc = size_opt(o, j, off, &p->offset)))
		return rc;
	if (inc && (rc = size_opt(o, j, inc, &p->offset_inc)))
		return rc;
	if (t->dir && (p->offset || p->offset_inc))
		return refuse(o, j, off ? off : inc,
			      "offset and offset_increment need a filename= of an existing "
			      "file or block device (each job has a file of its own here)");
	if (size) {
		if ((rc = size_opt(o, j, size, &p->size)))
			return rc;
	} else if (t->exists_file) {
		/* fio: the whole file from offset; the jobs' regions as they are */
		uint64_t used = p->offset + (p->jobs - 1) * p->offset_inc;

		if (used >= t->capacity)
			return refuse(o, j, t->from,
				      "%s holds %llu bytes, less than offset and "
				      "offset_increment place the jobs at",
				      t->path, (unsigned long long)t->capacity);
		p->size = (t->capacity - used) / p->bs * p->bs;
	} else {
		return refuse(o, j, NULL,
			      "no size=: fio needs one for a file it makes, and so does "
			      "ssdcluster fio");
	}
	if (p->size % p->bs) {
		p->size -= p->size % p->bs;
		note(o,
		     "job %s: size rounded down to %llu bytes, a multiple of bs, as fio "
		     "does",
		     j->name, (unsigned long long)p->size);
	}
	line(o, size, "    size: %s", size_text(p->size, s, sizeof(s)));
	if (!t->dir && !inc && verifies(j) && p->writes) {
		/* a block two jobs write cannot be checked: fio's jobs share the
		 * region, here each verifying job (and rank) writes its own */
		p->offset_inc = p->size;
		note(o,
		     "job %s: verify=crc32c: each job and each rank of a node writes a "
		     "region of its own (offset_increment=size), so that none overwrites "
		     "what another verifies; fio's jobs share one",
		     j->name);
	}
	if (!t->dir) {
		line(o, off, "    offset: %s", size_text(p->offset, s, sizeof(s)));
		line(o, inc, "    offset_increment: %s", size_text(p->offset_inc, s, sizeof(s)));
	}
	if (ios && (rc = size_opt(o, j, ios, &io)))
		return rc;
	if (loops && (rc = count_opt(o, j, loops, 1, UINT32_MAX, &nloops)))
		return rc;
	if (!io && nloops > 1)
		io = p->size;
	if (io && nloops > 1 && io > UINT64_MAX / nloops)
		return refuse(o, j, loops, "loops=%llu: io_size x loops is past 2^64 bytes",
			      (unsigned long long)nloops);
	if (io)
		line(o, ios ? ios : loops, "    io_size: %s", size_text(io * nloops, s, sizeof(s)));
	return 0;
}

/* runtime, time_based and ramp_time. */
static int map_time(struct out *o, const struct sc_fio_job *j, const struct phase *p)
{
	const struct sc_fio_opt *rt = OPT(j, "runtime", "timeout");
	const struct sc_fio_opt *tb = OPT(j, "time_based"), *ramp = OPT(j, "ramp_time");
	uint64_t ns = 0, ramp_ns = 0;
	char s[64];

	(void)p;
	if (rt && (!rt->value || sc_fio_time_parse(rt->value, NS_PER_S, &ns)))
		return refuse(o, j, rt, "%s=%s: not a time (fio's: 60, 10m, 500ms)", rt->key,
			      rt->value ? rt->value : "");
	if (ramp && (!ramp->value || sc_fio_time_parse(ramp->value, NS_PER_S, &ramp_ns)))
		return refuse(o, j, ramp, "ramp_time=%s: not a time",
			      ramp->value ? ramp->value : "");
	if (is_on(tb) && !ns)
		return refuse(o, j, tb, "time_based without runtime= would run for ever");
	if (ns && is_on(tb)) {
		line(o, rt, "    runtime: %s", time_text(ns, s, sizeof(s)));
		if (ramp_ns)
			line(o, ramp, "    ramp: %s", time_text(ramp_ns, s, sizeof(s)));
		return 0;
	}
	if (ramp_ns)
		return refuse(o, j, ramp,
			      "ramp_time without time_based: ssdcluster ramps only time-based "
			      "phases (add time_based)");
	if (ns)
		line(o, rt, "    runtime_max: %s", time_text(ns, s, sizeof(s)));
	return 0;
}

static int map_rate(struct out *o, const struct sc_fio_job *j, const struct phase *p)
{
	const struct sc_fio_opt *rate = OPT(j, "rate"), *iops = OPT(j, "rate_iops");
	uint64_t per_job = 0;
	char v[256];
	int rc;

	if (iops && (!rate || iops > rate)) {
		struct sc_fio_opt one = *iops;

		if ((rc = one_value(o, j, iops, v, sizeof(v))))
			return rc;
		one.value = v;
		if ((rc = count_opt(o, j, &one, 1, 1000000000, &per_job)))
			return rc;
	} else if (rate) {
		struct sc_fio_opt one = *rate;
		uint64_t bps;

		if ((rc = one_value(o, j, rate, v, sizeof(v))))
			return rc;
		one.value = v;
		if ((rc = size_opt(o, j, &one, &bps)))
			return rc;
		if (bps % p->mean_bs)
			note(o,
			     "job %s: rate=%s is not a whole number of %llu-byte I/Os%s a "
			     "second: it runs at %llu",
			     j->name, v, (unsigned long long)p->mean_bs,
			     p->mix ? " (the mean size)" : "",
			     (unsigned long long)(bps / p->mean_bs));
		per_job = bps / p->mean_bs;
		if (!per_job)
			return refuse(o, j, rate, "rate=%s: less than one I/O of bs a second", v);
	} else {
		return 0;
	}
	/* fio's rate is each job's; ssdcluster's is the rank's */
	line(o, iops && (!rate || iops > rate) ? iops : rate, "    rate: %llu",
	     (unsigned long long)(per_job * p->jobs));
	note(o,
	     "job %s: the rate is held open loop (I/Os issued on schedule, not when "
	     "the last completes): fio's rate_process=poisson is closer than its default",
	     j->name);
	return 0;
}

/* fsync, end_fsync, direct, verify and the random-offset options. */
static int map_rest(struct out *o, const struct sc_fio_job *j, struct phase *p)
{
	const struct sc_fio_opt *dsrc, *fs = OPT(j, "fsync"), *efs = OPT(j, "end_fsync");
	const struct sc_fio_opt *ver = OPT(j, "verify"), *nrm = OPT(j, "norandommap");
	const struct sc_fio_opt *dist = OPT(j, "random_distribution");
	const struct sc_fio_opt *inv = OPT(j, "invalidate"), *hint = OPT(j, "fadvise_hint");
	uint64_t n;
	bool dir;
	int rc;

	dir = job_direct(j, &dsrc);
	line(o, dsrc, "    direct: %s", dir ? "true" : "false");
	p->direct = dir;
	/* fio drops each job's file from the page cache before it runs
	 * (invalidate=1, its default): buffered reads then come from the
	 * device, not from what the layout or an earlier job left cached */
	if (!dir && (!inv || is_on(inv)) && strcmp(p->engine, "null"))
		line(o, inv, "    invalidate: true");
	/* and tells the kernel the pattern (fadvise_hint=1, its default):
	 * random jobs read without readahead */
	if (!dir && (!hint || is_on(hint)) && strcmp(p->engine, "null"))
		line(o, hint, "    fadvise_hint: true");
	if (fs) {
		if ((rc = count_opt(o, j, fs, 0, UINT32_MAX, &n)))
			return rc;
		if (n && p->writes)
			line(o, fs, "    fsync: %llu", (unsigned long long)n);
	}
	if (is_on(efs) && p->writes)
		line(o, efs, "    end_fsync: true");
	p->verify = verifies(j);
	if (!p->verify && ver &&
	    !(ver->value && (!strcmp(ver->value, "0") || !strcmp(ver->value, "none"))))
		return refuse(o, j, ver, "verify=%s: ssdcluster verifies crc32c only",
			      ver->value ? ver->value : "");
	if (p->verify)
		line(o, ver, "    verify: crc32c");
	if (!p->random) {
		if (dist && dist->value && strcmp(dist->value, "random") != 0)
			return refuse(o, j, dist, "random_distribution=%s: only with a random rw",
				      dist->value);
		return 0;
	}
	/* fio keeps no map for a non-uniform distribution; a map of blocks of
	 * several sizes is not run here */
	p->randommap = !is_on(nrm) && !(dist && dist->value && strcmp(dist->value, "random"));
	if (p->randommap && p->mix) {
		p->randommap = false;
		note(o,
		     "job %s: fio's random map with several I/O sizes is not run: each "
		     "offset is drawn at random, with repeats (as fio's norandommap)",
		     j->name);
	}
	if (p->randommap) /* false is the key's default: uniform, with repeats */
		line(o, nrm, "    randommap: true");
	if (dist && dist->value && strcmp(dist->value, "random") != 0) {
		char q[512];

		line(o, dist, "    random_distribution: %s", quoted(dist->value, q, sizeof(q)));
	}
	return 0;
}

/* fio writes, then reads back what it wrote, when a writing job verifies:
 * a read phase after this one does that here. */
static int map_verify_pass(struct out *o, const struct sc_fio_job *j, const struct target *t,
			   const struct phase *p, const char *name)
{
	const struct sc_fio_opt *ver = OPT(j, "verify");
	const struct sc_fio_opt *tb = OPT(j, "time_based"), *ios = OPT(j, "io_size", "io_limit");
	char s[64];

	if (!p->verify || !p->writes)
		return 0;
	if (p->reads)
		return refuse(o, j, ver,
			      "verify with a mixed rw: ssdcluster verifies what a write phase "
			      "wrote in a read phase after it (give rw=write or randwrite)");
	if (is_on(tb) || ios || (p->random && !p->randommap))
		return refuse(o, j, ver,
			      "verify needs every block of the region written once before it "
			      "is read back: not with time_based, io_size or norandommap here");
	line(o, ver, "  - name: \"%s.verify\"", name);
	line(o, ver, "    rw: read");
	line(o, ver, "    bs: %s", size_text(p->bs, s, sizeof(s)));
	line(o, ver, "    iodepth: %llu", (unsigned long long)p->iodepth);
	line(o, ver, "    jobs: %llu", (unsigned long long)p->jobs);
	line(o, ver, "    size: %s", size_text(p->size, s, sizeof(s)));
	if (!t->dir) { /* the regions the writes had */
		line(o, ver, "    offset: %s", size_text(p->offset, s, sizeof(s)));
		line(o, ver, "    offset_increment: %s", size_text(p->offset_inc, s, sizeof(s)));
	}
	line(o, ver, "    direct: %s", p->direct ? "true" : "false");
	line(o, ver, "    engine: %s", p->engine);
	line(o, ver, "    verify: crc32c");
	return 0;
}

static int map_job(struct out *o, const struct sc_fio_job *j, const struct target *t,
		   char names[][65], uint32_t i)
{
	if (is_on(OPT(j, "gtod_reduce")))
		note(o,
		     "job %s: gtod_reduce: fio would skip most of its clock reads and report "
		     "no latencies; ssdcluster times every I/O as always (the I/O is the same)",
		     j->name);
	const struct sc_fio_opt *nj = OPT(j, "numjobs"), *nm = OPT(j, "name");
	const struct sc_fio_opt *desc = OPT(j, "description");
	struct phase p = {.jobs = 1};
	int rc;

	o->job = (struct sc_fio_opt){.file = j->file, .line = j->line};
	phase_name(nm && nm->value ? nm->value : j->name, names, i, names[i]);
	if (nj && (rc = count_opt(o, j, nj, 1, 1024, &p.jobs)))
		return rc;
	if (desc && desc->value) {
		char q[1024];

		line(o, desc, "  # %s", quoted(desc->value, q, sizeof(q)));
	}
	line(o, NULL, "  - name: \"%s\"", names[i]);
	line(o, NULL, "    workload: io");
	line(o, nj, "    jobs: %llu", (unsigned long long)p.jobs);
	if ((rc = map_rw(o, j, &p)) || (rc = map_bs(o, j, &p)) || (rc = map_engine(o, j, &p)) ||
	    (rc = map_region(o, j, t, &p)) || (rc = map_time(o, j, &p)) ||
	    (rc = map_rate(o, j, &p)) || (rc = map_rest(o, j, &p)))
		return rc;
	return map_verify_pass(o, j, t, &p, names[i]);
}

/* Whether job i starts after the jobs before it end (fio: stonewall,
 * wait_for_previous, or wait_for naming the job just before). */
static bool waits(const struct sc_fio_jobfile *f, uint32_t i)
{
	const struct sc_fio_job *j = &f->jobs[i];
	const struct sc_fio_opt *wf = OPT(j, "wait_for");

	if (i == 0 || is_on(OPT(j, "stonewall", "wait_for_previous")))
		return true;
	return wf && wf->value && strcmp(wf->value, f->jobs[i - 1].name) == 0;
}

static int same_target(struct out *o, const struct sc_fio_job *j, const struct target *a,
		       const struct target *b)
{
	if (a->dir == b->dir && strcmp(a->path, b->path) == 0)
		return 0;
	return refuse(o, j, b->from,
		      "its target %s is not the first job's, %s: ssdcluster fio runs one "
		      "file, device or directory for the whole job file",
		      b->path, a->path);
}

int sc_fio_map(const struct sc_fio_jobfile *f, bool allow_destroy, struct sc_fio_yaml *out,
	       char *err, size_t errlen)
{
	struct out o = {.y = out, .err = err, .errlen = errlen};
	struct target t, tj;
	char(*names)[65] = calloc(f->njobs ? f->njobs : 1, sizeof(*names));
	char q[8400];
	int rc = 0;

	memset(out, 0, sizeof(*out));
	if (!names)
		return -ENOMEM;
	for (uint32_t i = 0; !rc && i < f->njobs; i++) {
		rc = sc_fio_job_check(&f->jobs[i], err, errlen);
		if (!rc && !waits(f, i))
			rc = refuse(&o, &f->jobs[i], NULL,
				    "fio runs it at the same time as job %s (no stonewall "
				    "between them); ssdcluster runs one job section at a time: add "
				    "stonewall to [%s] to run it after %s, as fio then does too",
				    f->jobs[i - 1].name, f->jobs[i].name, f->jobs[i - 1].name);
		if (!rc)
			rc = job_target(&o, &f->jobs[i], i ? &tj : &t);
		if (!rc && i)
			rc = same_target(&o, &f->jobs[i], &t, &tj);
	}
	if (rc)
		goto out;
	/* as a config's target that says allow_destroy: the file or device to
	 * be written is named in the file itself, not by --set or ${VAR} */
	if (!t.dir && allow_destroy && t.from && (!t.from->line || t.from->from_env)) {
		rc = refuse(&o, &f->jobs[0], t.from,
			    "%s=%s: with --allow-destroy, the file or device to write must be "
			    "named in the job file itself, not by %s",
			    t.from->key, t.from->value, t.from->line ? "${VAR}" : "--set");
		goto out;
	}
	line(&o, NULL, "# made by ssdcluster fio from %s", f->files[0]);
	line(&o, NULL, "targets:");
	line(&o, t.from, "  - path: %s", quoted(t.path, q, sizeof(q)));
	/* no fio option says it: --allow-destroy alone decides */
	if (!t.dir)
		line(&o, t.from, "    allow_destroy: true  # written only with --allow-destroy");
	line(&o, NULL, "phases:");
	for (uint32_t i = 0; !rc && i < f->njobs; i++)
		rc = map_job(&o, &f->jobs[i], &t, names, i);
	if (!rc && o.rc)
		rc = o.rc;
	if (!rc && t.dir && t.from && !strcmp(t.from->key, "filename"))
		note(&o,
		     "filename=%s does not exist: fio would make that one file for its "
		     "jobs to share; here each job has a file of its own in %s, removed after "
		     "the run",
		     t.from->value, t.path);
out:
	free(names);
	if (!rc && !out->notes)
		out->notes = strdup("");
	if (!rc && (o.rc || !out->notes))
		rc = -ENOMEM;
	if (rc)
		sc_fio_yaml_exit(out);
	return rc;
}

int sc_fio_jobfile_override(struct sc_fio_jobfile *f, const char *set, char *err, size_t errlen)
{
	const char *eq = strchr(set, '=');
	char key[128];

	if (!eq || eq == set || (size_t)(eq - set) >= sizeof(key)) {
		snprintf(err, errlen,
			 "--set %s: expected OPTION=VALUE (a fio option: --set size=64m)", set);
		return -EINVAL;
	}
	snprintf(key, sizeof(key), "%.*s", (int)(eq - set), set);
	if (!sc_fio_option_known(key)) {
		snprintf(err, errlen, "--set %s: %s is not a fio option ssdcluster fio runs", set,
			 key);
		return -EINVAL;
	}
	for (uint32_t i = 0; i < f->njobs; i++) {
		struct sc_fio_job *j = &f->jobs[i];
		struct sc_fio_opt *opts = realloc(j->opts, (j->nopts + 1) * sizeof(*opts));

		if (!opts)
			return -ENOMEM;
		j->opts = opts;
		opts[j->nopts].key = strdup(key);
		opts[j->nopts].value = strdup(eq + 1);
		if (!opts[j->nopts].key || !opts[j->nopts].value) {
			free(opts[j->nopts].key);
			free(opts[j->nopts].value);
			return -ENOMEM;
		}
		opts[j->nopts].file = set;
		opts[j->nopts].line = 0;
		j->nopts++;
	}
	return 0;
}

void sc_fio_yaml_where(const struct sc_fio_yaml *y, const char *yaml_path, char *msg, size_t len)
{
	size_t n = strlen(yaml_path);
	unsigned long ln;
	char *end, *rest, tmp[8192];

	if (strncmp(msg, yaml_path, n) != 0 || msg[n] != ':')
		return;
	ln = strtoul(msg + n + 1, &end, 10);
	if (end == msg + n + 1 || ln == 0 || ln > y->nlines)
		return;
	rest = end;
	if (*rest == ':') /* the column */
		strtoul(rest + 1, &rest, 10);
	if (*rest == ':')
		rest++;
	while (*rest == ' ')
		rest++;
	if (y->src_file[ln - 1] && y->src_line[ln - 1])
		snprintf(tmp, sizeof(tmp), "%s:%u: %s", y->src_file[ln - 1], y->src_line[ln - 1],
			 rest);
	else if (y->src_file[ln - 1])
		snprintf(tmp, sizeof(tmp), "%s: %s", y->src_file[ln - 1], rest);
	else
		snprintf(tmp, sizeof(tmp), "line %lu of the config ssdcluster fio made: %s", ln,
			 rest);
	snprintf(msg, len, "%s", tmp);
}

void sc_fio_yaml_exit(struct sc_fio_yaml *y)
{
	free(y->text);
	free(y->src_file);
	free(y->src_line);
	free(y->notes);
	if (y->owner)
		sc_fio_jobfile_exit(y->owner);
	free(y->owner);
	memset(y, 0, sizeof(*y));
}
