/* io_opts.c -- the I/O options a rank could not use, and why (io_opts.h). */
#include "io_opts.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *const opt_names[SC_IO_OPT_COUNT] = {
    [SC_IO_OPT_SQPOLL] = "sqpoll",
    [SC_IO_OPT_HIPRI] = "hipri",
    [SC_IO_OPT_PASSTHRU] = "passthrough",
    [SC_IO_OPT_CPUS] = "cpus",
    [SC_IO_OPT_NUMA] = "numa",
    [SC_IO_OPT_HUGE] = "huge_buffers",
};

const char *sc_io_opt_name(enum sc_io_opt opt)
{
	return (unsigned)opt < SC_IO_OPT_COUNT ? opt_names[opt] : "?";
}

void sc_io_opts_init(struct sc_io_opts *o)
{
	memset(o, 0, sizeof(*o));
	pthread_mutex_init(&o->lock, NULL);
}

void sc_io_opts_destroy(struct sc_io_opts *o)
{
	pthread_mutex_destroy(&o->lock);
}

void sc_io_opts_ask(struct sc_io_opts *o, enum sc_io_opt opt)
{
	if ((unsigned)opt >= SC_IO_OPT_COUNT)
		return;
	pthread_mutex_lock(&o->lock);
	o->asked |= 1u << opt;
	pthread_mutex_unlock(&o->lock);
}

void sc_io_opts_unavailable(struct sc_io_opts *o, enum sc_io_opt opt, const char *fmt, ...)
{
	char why[SC_IO_OPT_NOTE_MAX];
	size_t len;
	va_list ap;

	if ((unsigned)opt >= SC_IO_OPT_COUNT)
		return;
	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	pthread_mutex_lock(&o->lock);
	if (!(o->unavailable & (1u << opt))) {
		o->unavailable |= 1u << opt;
		len = strlen(o->note);
		snprintf(o->note + len, sizeof(o->note) - len, "%s%s: %s", len ? "; " : "",
			 opt_names[opt], why);
	}
	pthread_mutex_unlock(&o->lock);
}

/* The start of a "<name>: " entry of note at or after from (at note's
 * start or after "; "), or NULL; any known option when opt is
 * SC_IO_OPT_COUNT. */
static const char *entry(const char *note, const char *from, enum sc_io_opt opt, size_t *name_len)
{
	for (const char *p = from; *p; p++) {
		if (p != note && (p < note + 2 || p[-2] != ';' || p[-1] != ' '))
			continue;
		for (int o = 0; o < SC_IO_OPT_COUNT; o++) {
			size_t n = strlen(opt_names[o]);

			if ((opt == SC_IO_OPT_COUNT || (int)opt == o) &&
			    strncmp(p, opt_names[o], n) == 0 && p[n] == ':' && p[n + 1] == ' ') {
				*name_len = n + 2;
				return p;
			}
		}
	}
	return NULL;
}

char *sc_io_opts_why(const char *note, enum sc_io_opt opt, char *buf, size_t len)
{
	const char *at, *next;
	size_t n, skip;

	if (!len)
		return buf;
	buf[0] = '\0';
	if ((unsigned)opt >= SC_IO_OPT_COUNT || !(at = entry(note, note, opt, &skip)))
		return buf;
	at += skip;
	next = entry(note, at, SC_IO_OPT_COUNT, &skip);
	n = next ? (size_t)(next - 2 - at) : strlen(at);
	if (n >= len)
		n = len - 1;
	memcpy(buf, at, n);
	buf[n] = '\0';
	return buf;
}
