/* jobfile.c -- a fio job file's sections and options (jobfile.h). */
#include "fio/jobfile.h"

#include <ctype.h>
#include <errno.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINE_MAX_BYTES 8192u

/* What reading one file shares with the files it includes. */
struct reader {
	struct sc_fio_jobfile *f;
	struct sc_fio_opt *global; /* the [global] options so far */
	uint32_t nglobal;
	bool in_global; /* the current section is a [global] */
	char *err;
	size_t errlen;
};

static int fail(struct reader *r, const char *file, uint32_t line, int rc, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

static int fail(struct reader *r, const char *file, uint32_t line, int rc, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(r->err, r->errlen, "%s:%u: ", file, line);

	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < r->errlen)
		vsnprintf(r->err + n, r->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return rc;
}

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/* v with every ${NAME} replaced by the environment's NAME (heap), or NULL
 * with the message in r->err. */
static char *expand(struct reader *r, const char *file, uint32_t line, const char *v)
{
	size_t cap = strlen(v) + 1, at = 0;
	char *out = malloc(cap);

	while (out && *v) {
		const char *add = v, *end;
		size_t n = 1;
		char name[256];

		if (v[0] == '$' && v[1] == '{') {
			end = strchr(v + 2, '}');
			if (!end || (size_t)(end - v - 2) >= sizeof(name) || end == v + 2) {
				free(out);
				fail(r, file, line, -EINVAL, "%s: a ${ without its name and }", v);
				return NULL;
			}
			memcpy(name, v + 2, (size_t)(end - v - 2));
			name[end - v - 2] = '\0';
			add = getenv(name);
			if (!add) {
				free(out);
				fail(
				    r, file, line, -EINVAL,
				    "${%s}: not in the environment (export it, or write the value)",
				    name);
				return NULL;
			}
			n = strlen(add);
			v = end + 1;
		} else {
			v++;
		}
		if (at + n + 1 > cap) {
			char *grown = realloc(out, cap = (at + n + 1) * 2);

			if (!grown) {
				free(out);
				return NULL;
			}
			out = grown;
		}
		memcpy(out + at, add, n);
		at += n;
	}
	if (out)
		out[at] = '\0';
	return out;
}

static int opt_push(struct sc_fio_opt **v, uint32_t *n, const struct sc_fio_opt *o)
{
	struct sc_fio_opt *grown = realloc(*v, (*n + 1) * sizeof(**v));

	if (!grown)
		return -ENOMEM;
	*v = grown;
	grown[(*n)++] = *o;
	return 0;
}

static void opt_free(struct sc_fio_opt *o)
{
	free(o->key);
	free(o->value);
}

/* A copy of opt (key and value duplicated). */
static int opt_copy(struct sc_fio_opt *to, const struct sc_fio_opt *from)
{
	*to = *from;
	to->key = strdup(from->key);
	to->value = from->value ? strdup(from->value) : NULL;
	if (!to->key || (from->value && !to->value)) {
		opt_free(to);
		return -ENOMEM;
	}
	return 0;
}

/* A new job named name, starting from the [global] options so far. */
static int job_begin(struct reader *r, const char *name, const char *file, uint32_t line)
{
	struct sc_fio_jobfile *f = r->f;
	struct sc_fio_job *grown = realloc(f->jobs, (f->njobs + 1) * sizeof(*grown)), *j;

	if (!grown)
		return -ENOMEM;
	f->jobs = grown;
	j = &grown[f->njobs++];
	memset(j, 0, sizeof(*j));
	j->name = strdup(name);
	j->file = file;
	j->line = line;
	if (!j->name)
		return -ENOMEM;
	for (uint32_t i = 0; i < r->nglobal; i++) {
		struct sc_fio_opt o;
		int rc = opt_copy(&o, &r->global[i]);

		if (rc || (rc = opt_push(&j->opts, &j->nopts, &o))) {
			if (!rc)
				opt_free(&o);
			return rc;
		}
	}
	return 0;
}

static int read_file(struct reader *r, const char *path, uint32_t depth, const char *from,
		     uint32_t from_line);

/* "include FILE" at line of file: FILE relative to file's directory. */
static int include(struct reader *r, const char *file, uint32_t line, const char *arg,
		   uint32_t depth)
{
	char *copy, *dir, path[4096];
	int rc;

	if (!*arg)
		return fail(r, file, line, -EINVAL, "include without a file");
	if (arg[0] == '/') {
		snprintf(path, sizeof(path), "%s", arg);
	} else {
		copy = strdup(file);
		if (!copy)
			return -ENOMEM;
		dir = dirname(copy);
		snprintf(path, sizeof(path), "%s/%s", dir, arg);
		free(copy);
	}
	if (depth + 1 >= SC_FIO_INCLUDE_DEPTH)
		return fail(r, file, line, -ELOOP,
			    "include %s: more than %u files deep (does it include itself?)", arg,
			    SC_FIO_INCLUDE_DEPTH);
	rc = read_file(r, path, depth + 1, file, line);
	return rc;
}

/* One line (trimmed, not a comment) of file. */
static int one_line(struct reader *r, const char *file, uint32_t line, char *s, uint32_t depth)
{
	struct sc_fio_opt o = {.file = file, .line = line};
	char *eq, *key, *val;
	int rc;

	if (s[0] == '[') {
		char *end = strchr(s, ']');

		if (!end || end[1] || end == s + 1)
			return fail(r, file, line, -EINVAL, "%s: a section is [name]", s);
		*end = '\0';
		key = trim(s + 1);
		if (!*key)
			return fail(r, file, line, -EINVAL, "an empty section name");
		r->in_global = strcmp(key, "global") == 0;
		return r->in_global ? 0 : job_begin(r, key, file, line);
	}
	/* as fio, a ';' or '#' anywhere in an option's line starts a comment
	 * ("numjobs=4 ; four threads") */
	s[strcspn(s, ";#")] = '\0';
	s = trim(s);
	if (!*s)
		return 0;
	if (strncmp(s, "include", 7) == 0 && isspace((unsigned char)s[7]))
		return include(r, file, line, trim(s + 8), depth);
	eq = strchr(s, '=');
	if (eq)
		*eq = '\0';
	key = trim(s);
	val = eq ? trim(eq + 1) : NULL;
	if (!*key)
		return fail(r, file, line, -EINVAL, "=%s: an option without its name",
			    val ? val : "");
	for (char *c = key; *c; c++)
		if (!isalnum((unsigned char)*c) && *c != '_' && *c != '-' && *c != '.')
			return fail(r, file, line, -EINVAL, "%s: not an option name", key);
	if (!r->in_global && !r->f->njobs)
		return fail(r, file, line, -EINVAL,
			    "%s: an option before any [section] (put it in [global] or a job)",
			    key);
	o.key = strdup(key);
	o.value = val ? expand(r, file, line, val) : NULL;
	o.from_env = val && strstr(val, "${") != NULL;
	if (!o.key || (val && !o.value)) {
		rc = o.key && val && !o.value && r->err[0] ? -EINVAL : -ENOMEM;
		opt_free(&o);
		return rc;
	}
	if (r->in_global)
		rc = opt_push(&r->global, &r->nglobal, &o);
	else
		rc = opt_push(&r->f->jobs[r->f->njobs - 1].opts, &r->f->jobs[r->f->njobs - 1].nopts,
			      &o);
	if (rc)
		opt_free(&o);
	return rc;
}

static int read_file(struct reader *r, const char *path, uint32_t depth, const char *from,
		     uint32_t from_line)
{
	struct sc_fio_jobfile *f = r->f;
	char **grown, *buf, *name;
	uint32_t line = 0;
	FILE *in;
	int rc = 0;

	(void)depth;
	in = fopen(path, "r");
	if (!in)
		return from
			   ? fail(r, from, from_line, -errno, "include %s: %s", path,
				  strerror(errno))
			   : (snprintf(r->err, r->errlen, "%s: %s", path, strerror(errno)), -errno);
	grown = realloc(f->files, (f->nfiles + 1) * sizeof(*grown));
	name = strdup(path);
	buf = malloc(LINE_MAX_BYTES);
	if (!grown || !name || !buf) {
		if (grown)
			f->files = grown;
		free(name);
		free(buf);
		fclose(in);
		return -ENOMEM;
	}
	f->files = grown;
	f->files[f->nfiles++] = name;
	while (!rc && fgets(buf, (int)LINE_MAX_BYTES, in)) {
		char *s;

		line++;
		if (!strchr(buf, '\n') && !feof(in)) {
			rc = fail(r, name, line, -EINVAL, "a line longer than %u bytes",
				  LINE_MAX_BYTES - 1);
			break;
		}
		s = trim(buf);
		if (!*s || *s == ';' || *s == '#')
			continue;
		rc = one_line(r, name, line, s, depth);
	}
	free(buf);
	fclose(in);
	return rc;
}

int sc_fio_jobfile_read(const char *path, struct sc_fio_jobfile *out, char *err, size_t errlen)
{
	struct reader r = {.f = out, .err = err, .errlen = errlen};
	int rc;

	memset(out, 0, sizeof(*out));
	err[0] = '\0';
	rc = read_file(&r, path, 0, NULL, 0);
	if (!rc && !out->njobs)
		rc = fail(&r, path, 1, -EINVAL,
			  "no job: a job file needs a [name] section besides [global]");
	for (uint32_t i = 0; i < r.nglobal; i++)
		opt_free(&r.global[i]);
	free(r.global);
	if (rc == -ENOMEM && !err[0])
		snprintf(err, errlen, "%s: out of memory", path);
	if (rc)
		sc_fio_jobfile_exit(out);
	return rc;
}

const struct sc_fio_opt *sc_fio_job_opt(const struct sc_fio_job *j, const char *key)
{
	for (uint32_t i = j->nopts; i-- > 0;)
		if (strcmp(j->opts[i].key, key) == 0)
			return &j->opts[i];
	return NULL;
}

void sc_fio_jobfile_exit(struct sc_fio_jobfile *f)
{
	for (uint32_t i = 0; i < f->njobs; i++) {
		for (uint32_t k = 0; k < f->jobs[i].nopts; k++)
			opt_free(&f->jobs[i].opts[k]);
		free(f->jobs[i].opts);
		free(f->jobs[i].name);
	}
	free(f->jobs);
	for (uint32_t i = 0; i < f->nfiles; i++)
		free(f->files[i]);
	free(f->files);
	memset(f, 0, sizeof(*f));
}
