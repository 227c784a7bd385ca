/* outdir.c -- the results folder: apart from every target, made and proved
 * writable before any I/O. */
#include "outdir.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "layout.h"

/* Bytes the write probe writes: one filesystem block, which a full
 * filesystem refuses (an empty file needs an inode only). */
#define PROBE_BYTES 4096

/* Appends the components of rest to the clean absolute path buf: "." and
 * empty ones skipped, ".." takes the last one away (never past "/").
 * 0 or -ENAMETOOLONG. */
static int append_clean(char *buf, size_t len, const char *rest)
{
	size_t n = strlen(buf);

	while (*rest) {
		size_t c = strcspn(rest, "/");

		if (c == 2 && rest[0] == '.' && rest[1] == '.') {
			while (n > 1 && buf[n - 1] != '/')
				n--;
			n = n > 1 ? n - 1 : 1;
			buf[n] = '\0';
		} else if (c && !(c == 1 && rest[0] == '.')) {
			if (n + (n > 1) + c >= len)
				return -ENAMETOOLONG;
			if (n > 1)
				buf[n++] = '/';
			memcpy(buf + n, rest, c);
			n += c;
			buf[n] = '\0';
		}
		rest += c;
		rest += *rest == '/';
	}
	return 0;
}

int sc_outdir_lexical(const char *path, const char *cwd, char *buf, size_t len)
{
	int rc;

	if (len < 2)
		return -ENAMETOOLONG;
	strcpy(buf, "/");
	rc = path[0] == '/' ? 0 : append_clean(buf, len, cwd);
	return rc ? rc : append_clean(buf, len, path);
}

enum sc_outdir_rel sc_outdir_relation(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);

	if (la == lb)
		return strcmp(a, b) == 0 ? SC_OUTDIR_SAME : SC_OUTDIR_APART;
	if (la > lb && strncmp(a, b, lb) == 0 && (lb == 1 || a[lb] == '/'))
		return SC_OUTDIR_INSIDE;
	if (lb > la && strncmp(a, b, la) == 0 && (la == 1 || b[la] == '/'))
		return SC_OUTDIR_AROUND;
	return SC_OUTDIR_APART;
}

/* Path's text made absolute as the kernel sees it: against the working
 * directory when relative, nothing else changed.  0 or -errno. */
static int absolute(const char *path, char *buf, size_t len)
{
	char cwd[PATH_MAX];

	if (path[0] == '/')
		return (size_t)snprintf(buf, len, "%s", path) < len ? 0 : -ENAMETOOLONG;
	if (!getcwd(cwd, sizeof(cwd)))
		return -errno;
	return (size_t)snprintf(buf, len, "%s/%s", cwd, path) < len ? 0 : -ENAMETOOLONG;
}

/* path resolved as far as it exists: realpath of its longest prefix that
 * resolves, then the rest made clean (what does not exist holds no
 * symlink).  *exist_len: the length of the part that exists.  0 or
 * -errno. */
static int resolve(const char *path, char *buf, size_t len, size_t *exist_len)
{
	char abs[PATH_MAX], real[PATH_MAX];
	size_t k;
	int rc = absolute(path, abs, sizeof(abs));

	if (rc)
		return rc;
	k = strlen(abs);
	for (;;) {
		char keep = abs[k];

		abs[k] = '\0';
		if (realpath(abs, real)) {
			abs[k] = keep;
			break;
		}
		abs[k] = keep;
		if (k <= 1)
			return -errno;
		while (k > 1 && abs[k - 1] == '/')
			k--; /* trailing slashes */
		while (k > 1 && abs[k - 1] != '/')
			k--; /* the last component */
		k = k > 1 ? k - 1 : 1;
	}
	if ((size_t)snprintf(buf, len, "%s", real) >= len)
		return -ENAMETOOLONG;
	*exist_len = strlen(buf);
	return append_clean(buf, len, abs + k);
}

/* The length of the ancestor of path[0, n) (itself first, up to "/") that
 * is the file st describes (same st_dev and st_ino), or 0 for none. */
static size_t same_ancestor(const char *path, size_t n, const struct stat *st)
{
	char buf[PATH_MAX];
	struct stat a;

	if (n == 0 || n >= sizeof(buf))
		return 0;
	memcpy(buf, path, n);
	buf[n] = '\0';
	for (;;) {
		if (stat(buf, &a) == 0 && a.st_dev == st->st_dev && a.st_ino == st->st_ino)
			return n;
		if (n <= 1)
			return 0;
		while (n > 1 && buf[n - 1] != '/')
			n--;
		n = n > 1 ? n - 1 : 1;
		buf[n] = '\0';
	}
}

/* What sc_outdir_check found about one target. */
struct meet {
	const struct sc_target_spec *t;
	uint32_t index;
	char canon[PATH_MAX]; /* the target, resolved (or clean, on other hosts) */
	bool remote;	      /* on other hosts: compared by text */
	size_t via;	      /* the folder's ancestor found to be the target
			       * by identity: its length in od->canon; 0 none */
	enum sc_outdir_rel rel;
};

/* A target rank 0 can reach: by identity, then by resolved text. */
static int meet_local(const struct sc_outdir *od, struct meet *m)
{
	size_t texist, full = strlen(od->canon);
	struct stat tst, ost;
	int rc = resolve(m->t->path, m->canon, sizeof(m->canon), &texist);

	if (rc)
		return rc;
	if (texist == strlen(m->canon) && stat(m->canon, &tst) == 0) {
		m->via = same_ancestor(od->canon, od->exist_len, &tst);
		if (m->via)
			m->rel = m->via == full ? SC_OUTDIR_SAME : SC_OUTDIR_INSIDE;
		else if (od->exist_len == full && stat(od->canon, &ost) == 0 &&
			 same_ancestor(m->canon, texist, &ost))
			m->rel = SC_OUTDIR_AROUND;
		if (m->rel)
			return 0;
	}
	m->rel = sc_outdir_relation(od->canon, m->canon);
	return 0;
}

/* A target on other hosts: its clean text against the folder's resolved
 * and clean text. */
static int meet_remote(const struct sc_outdir *od, struct meet *m)
{
	char cwd[PATH_MAX], clean[PATH_MAX];
	int rc;

	if (!getcwd(cwd, sizeof(cwd)))
		return -errno;
	rc = sc_outdir_lexical(m->t->path, cwd, m->canon, sizeof(m->canon));
	if (!rc)
		rc = sc_outdir_lexical(od->path, cwd, clean, sizeof(clean));
	if (rc)
		return rc;
	m->rel = sc_outdir_relation(od->canon, m->canon);
	if (!m->rel)
		m->rel = sc_outdir_relation(clean, m->canon);
	return 0;
}

/* True when the folder lies in (or is) target m's run directory. */
static bool in_run_dir(const struct sc_outdir *od, const struct sc_plan *plan, const struct meet *m)
{
	char name[256], dir[PATH_MAX];
	enum sc_outdir_rel r;

	if (m->t->kind != SC_TARGET_DIR || m->rel != SC_OUTDIR_INSIDE ||
	    sc_layout_run_dir_name(plan, name, sizeof(name)))
		return false;
	/* through the ancestor that is the target, when identity found it */
	if ((size_t)snprintf(dir, sizeof(dir), "%.*s/%s", (int)(m->via ? m->via : strlen(m->canon)),
			     m->via ? od->canon : m->canon, name) >= sizeof(dir))
		return false;
	r = sc_outdir_relation(od->canon, dir);
	return r == SC_OUTDIR_SAME || r == SC_OUTDIR_INSIDE;
}

/* err: how the folder meets target m, and what to do. */
static void describe(const struct sc_outdir *od, const struct sc_plan *plan, const struct meet *m,
		     char *err, size_t errlen)
{
	const char *kind = sc_target_kind_name(m->t->kind);
	char who[SC_OUTDIR_PATH_MAX + 64], where[PATH_MAX + 128] = "", how[PATH_MAX + 64] = "";
	char cwd[PATH_MAX], clean[PATH_MAX];

	snprintf(who, sizeof(who), "%s %s%s", od->given ? "--output" : "the results folder",
		 od->path, od->given ? "" : " (the default, as no --output was given)");
	if (m->remote)
		snprintf(where, sizeof(where), " (targets.%u, on hosts %s: compared by path)",
			 m->index, m->t->hosts);
	else
		snprintf(where, sizeof(where), " (targets.%u)", m->index);
	if (m->via && sc_outdir_relation(od->canon, m->canon) == SC_OUTDIR_APART)
		snprintf(how, sizeof(how), "; %.*s is that %s under another name (a bind mount)",
			 (int)m->via, od->canon, kind);
	else if (!getcwd(cwd, sizeof(cwd)) ||
		 sc_outdir_lexical(od->path, cwd, clean, sizeof(clean)) ||
		 strcmp(od->canon, clean) != 0)
		snprintf(how, sizeof(how), "; it resolves to %s (through a symlink)", od->canon);
	if (in_run_dir(od, plan, m))
		snprintf(err, errlen,
			 "%s is inside the run directory %s/ssdcluster-%s of target %s%s, which "
			 "the run removes at its end with everything in it%s; give --output a "
			 "folder outside %s",
			 who, m->canon, plan->run_id, m->canon, where, how, m->canon);
	else if (m->rel == SC_OUTDIR_AROUND)
		snprintf(err, errlen,
			 "%s holds the target %s %s%s%s; give --output a folder that neither "
			 "holds a target nor lies in one",
			 who, kind, m->canon, where, how);
	else
		snprintf(err, errlen, "%s %s the target %s %s%s%s%s; give --output a folder %s%s",
			 who, m->rel == SC_OUTDIR_SAME ? "is" : "is inside", kind, m->canon, where,
			 m->t->kind == SC_TARGET_DIR ? "" : ", which can hold no folder", how,
			 m->t->kind == SC_TARGET_DIR ? "outside " : "elsewhere",
			 m->t->kind == SC_TARGET_DIR ? m->canon : "");
}

int sc_outdir_check(struct sc_outdir *od, const char *path, bool given, const struct sc_plan *plan,
		    const char *host, char *err, size_t errlen)
{
	struct meet *m;
	int rc;

	memset(od, 0, sizeof(*od));
	od->path = path;
	od->given = given;
	rc = resolve(path, od->canon, sizeof(od->canon), &od->exist_len);
	if (rc) {
		snprintf(err, errlen, "%s %s: %s", given ? "--output" : "results folder", path,
			 strerror(-rc));
		return rc;
	}
	m = calloc(1, sizeof(*m));
	if (!m) {
		snprintf(err, errlen, "checking %s: %s", path, strerror(ENOMEM));
		return -ENOMEM;
	}
	for (uint32_t i = 0; !rc && i < plan->ntargets; i++) {
		memset(m, 0, sizeof(*m));
		m->t = &plan->targets[i];
		m->index = i;
		m->remote = !sc_layout_target_matches(m->t, host);
		rc = m->remote ? meet_remote(od, m) : meet_local(od, m);
		if (rc) {
			snprintf(err, errlen, "targets.%u: %s: %s", i, m->t->path, strerror(-rc));
		} else if (m->rel) {
			describe(od, plan, m, err, errlen);
			rc = -EEXIST;
		}
	}
	free(m);
	return rc;
}

/* "a regular file", "a block device", ...: what mode says a file is. */
static const char *file_kind(mode_t mode)
{
	if (S_ISREG(mode))
		return "a regular file";
	if (S_ISBLK(mode))
		return "a block device";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISSOCK(mode))
		return "a socket";
	return "not a directory";
}

/* err for path (part of the folder, n bytes of od->canon) that is no
 * directory.  -ENOTDIR. */
static int not_dir(const struct sc_outdir *od, size_t n, mode_t mode, char *err, size_t errlen)
{
	const char *who = od->given ? "--output" : "results folder";

	if (n == strlen(od->canon))
		snprintf(err, errlen, "%s %s: not a directory (it is %s)", who, od->path,
			 file_kind(mode));
	else
		snprintf(err, errlen, "%s %s: %.*s is not a directory (it is %s)", who, od->path,
			 (int)n, od->canon, file_kind(mode));
	return -ENOTDIR;
}

/* Writes PROBE_BYTES to a new temporary file in dir, syncs and removes
 * it.  0 or -errno. */
static int probe(const char *dir)
{
	static const char zeros[PROBE_BYTES];
	char tmp[PATH_MAX];
	size_t done = 0;
	int fd, rc = 0;

	if ((size_t)snprintf(tmp, sizeof(tmp), "%s/.ssdcluster-probe.XXXXXX", dir) >= sizeof(tmp))
		return -ENAMETOOLONG;
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (!rc && done < sizeof(zeros)) {
		ssize_t n = write(fd, zeros + done, sizeof(zeros) - done);

		if (n < 0 && errno != EINTR)
			rc = -errno;
		else if (n > 0)
			done += (size_t)n;
	}
	if (!rc && fsync(fd))
		rc = -errno;
	if (close(fd) && !rc)
		rc = -errno;
	if (unlink(tmp) && !rc)
		rc = -errno;
	return rc;
}

int sc_outdir_create(struct sc_outdir *od, char *err, size_t errlen)
{
	const char *who = od->given ? "--output" : "results folder";
	size_t i = od->exist_len, n = strlen(od->canon);
	char buf[SC_OUTDIR_PATH_MAX];
	struct stat st;
	int rc;

	memcpy(buf, od->canon, n + 1);
	buf[i] = '\0';
	if (stat(buf, &st)) {
		rc = -errno;
		snprintf(err, errlen, "%s %s: cannot use %s: %s", who, od->path, buf,
			 strerror(-rc));
		return rc;
	}
	if (!S_ISDIR(st.st_mode))
		return not_dir(od, i, st.st_mode, err, errlen);
	while (i < n) {
		i += od->canon[i] == '/';
		i += strcspn(od->canon + i, "/");
		memcpy(buf, od->canon, i);
		buf[i] = '\0';
		if (mkdir(buf, 0755) == 0) {
			od->made_len = od->made_len ? od->made_len : i;
			od->made_end = i;
			continue;
		}
		rc = -errno;
		if (rc == -EEXIST && stat(buf, &st) == 0 && S_ISDIR(st.st_mode))
			continue; /* made meanwhile */
		sc_outdir_discard(od);
		if (rc == -EEXIST && stat(buf, &st) == 0)
			return not_dir(od, i, st.st_mode, err, errlen);
		snprintf(err, errlen, "%s %s: cannot create %s: %s", who, od->path, buf,
			 strerror(-rc));
		return rc;
	}
	rc = probe(od->canon);
	if (rc) {
		sc_outdir_discard(od);
		snprintf(err, errlen, "%s %s: cannot write in it: %s", who, od->path,
			 strerror(-rc));
	}
	return rc;
}

void sc_outdir_discard(struct sc_outdir *od)
{
	char buf[SC_OUTDIR_PATH_MAX];
	size_t n = od->made_end;

	if (!od->made_len)
		return;
	memcpy(buf, od->canon, n);
	buf[n] = '\0';
	while (n >= od->made_len) {
		if (rmdir(buf))
			return;
		while (n > 1 && buf[n - 1] != '/')
			n--;
		n = n > 1 ? n - 1 : 0;
		buf[n] = '\0';
	}
	od->made_len = od->made_end = 0;
}

bool sc_outdir_has_results(const char *dir)
{
	char path[PATH_MAX];
	struct stat st;

	if ((size_t)snprintf(path, sizeof(path), "%s/results.json", dir) >= sizeof(path))
		return false;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}
