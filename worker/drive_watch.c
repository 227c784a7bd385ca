/* drive_watch.c -- a rank's drive telemetry over one phase: identity once,
 * health log before and after, temperature sampled on a thread of its own
 * (drive_watch.h). */
#include "drive_watch.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "nvme_health.h"
#include "telemetry.h"

/* Samples kept before the first growth (a minute at SC_TEMP_SAMPLE_NS). */
#define SAMPLES_INITIAL 256u

struct sc_drive_watch {
	const struct sc_telemetry *t; /* the process's probe of its target */
	struct sc_drive_health before[SC_DRIVES_MAX];
	pthread_t thread;
	bool started;
	pthread_mutex_t lock;
	pthread_cond_t cond; /* on CLOCK_MONOTONIC */
	bool stop;
	struct sc_temp_sample *samples;
	size_t n, cap;
};

/* The target this process probed, and what it found: a rank keeps its
 * target for the whole run, so the walk is done once. */
static struct sc_telemetry probed;
static char probed_path[PATH_MAX];
static bool probed_any;

static const struct sc_telemetry *probe_once(const struct sc_plan *plan, uint32_t p,
					     const struct sc_place *place)
{
	const struct sc_phase *ph = &plan->phases[p];
	const char *path =
	    place->target < plan->ntargets ? plan->targets[place->target].path : NULL;
	static struct sc_telemetry none;

	if (ph->io.engine == SC_ENGINE_EMULATED || ph->io.engine == SC_ENGINE_NULL || !path) {
		snprintf(none.none, sizeof(none.none),
			 "no NVMe telemetry: engine %s does no I/O on the target",
			 sc_engine_name(ph->io.engine));
		return &none;
	}
	if (!probed_any || strcmp(path, probed_path)) {
		sc_telemetry_probe(SC_TELEMETRY_SYSFS, path, &probed);
		snprintf(probed_path, sizeof(probed_path), "%s", path);
		probed_any = true;
	}
	return &probed;
}

/* Reads drive d's health log (through its controller) into h. */
static void read_health(const struct sc_drive *d, struct sc_drive_health *h)
{
	char dev[SC_DRIVE_NAME_MAX + sizeof("/dev/")];

	if (!d->controller[0]) {
		memset(h, 0, sizeof(*h));
		snprintf(h->reason, sizeof(h->reason),
			 "health log not read: no controller found for %s in sysfs", d->device);
		return;
	}
	snprintf(dev, sizeof(dev), "/dev/%s", d->controller);
	sc_nvme_health_read(dev, h);
}

/* Appends a sample; one that finds no memory is dropped (its second then
 * says "none", which is what is known). */
static void keep_sample(struct sc_drive_watch *w, uint64_t t_ns, uint64_t mk)
{
	if (w->n == w->cap) {
		size_t cap = w->cap ? w->cap * 2 : SAMPLES_INITIAL;
		struct sc_temp_sample *s = realloc(w->samples, cap * sizeof(*s));

		if (!s)
			return;
		w->samples = s;
		w->cap = cap;
	}
	w->samples[w->n++] = (struct sc_temp_sample){t_ns, mk};
}

static void *sampler_main(void *arg)
{
	struct sc_drive_watch *w = arg;
	uint64_t next = sc_now_ns();

	pthread_mutex_lock(&w->lock);
	do { /* one reading at least, however soon the stop comes */
		uint64_t now, mk;
		struct timespec ts;

		pthread_mutex_unlock(&w->lock);
		now = sc_now_ns();
		mk = sc_telemetry_temp_mk(w->t);
		pthread_mutex_lock(&w->lock);
		keep_sample(w, now, mk);
		next += SC_TEMP_SAMPLE_NS;
		ts.tv_sec = (time_t)(next / SC_NS_PER_S);
		ts.tv_nsec = (long)(next % SC_NS_PER_S);
		while (!w->stop && sc_now_ns() < next)
			pthread_cond_timedwait(&w->cond, &w->lock, &ts);
	} while (!w->stop);
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

/* Starts the sampler when a drive has a temperature to read. */
static void start_sampler(struct sc_drive_watch *w)
{
	pthread_condattr_t attr;
	sigset_t all, old;
	bool any = false;

	for (uint32_t i = 0; i < w->t->ndrives; i++)
		any |= w->t->temp_path[i][0] != '\0';
	pthread_mutex_init(&w->lock, NULL);
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&w->cond, &attr);
	pthread_condattr_destroy(&attr);
	if (!any)
		return;
	/* like the job threads, it takes no signals: they are the caller's */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	w->started = pthread_create(&w->thread, NULL, sampler_main, w) == 0;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

int sc_drive_watch_begin(struct sc_drive_watch **out, const struct sc_plan *plan, uint32_t p,
			 const struct sc_place *place)
{
	return sc_drive_watch_begin_with(out, probe_once(plan, p, place));
}

int sc_drive_watch_begin_with(struct sc_drive_watch **out, const struct sc_telemetry *t)
{
	struct sc_drive_watch *w = calloc(1, sizeof(*w));

	*out = NULL;
	if (!w)
		return -ENOMEM;
	w->t = t;
	for (uint32_t i = 0; i < w->t->ndrives; i++)
		read_health(&w->t->drives[i], &w->before[i]);
	start_sampler(w);
	*out = w;
	return 0;
}

void sc_drive_watch_fill_seconds(const struct sc_temp_sample *s, size_t n, uint64_t origin_ns,
				 struct sc_second *sec, uint32_t nsec)
{
	for (size_t i = 0; i < n; i++) {
		uint64_t k;

		if (s[i].t_ns < origin_ns || !s[i].mk)
			continue;
		k = (s[i].t_ns - origin_ns) / SC_NS_PER_S;
		if (k < nsec && s[i].mk > sec[k].max_temp_mk)
			sec[k].max_temp_mk = s[i].mk;
	}
}

int sc_drive_watch_end(struct sc_drive_watch *w, uint64_t origin_ns, struct sc_rank_result *r)
{
	const struct sc_telemetry *t;
	int rc = 0;

	if (!w)
		return 0;
	t = w->t;
	pthread_mutex_lock(&w->lock);
	w->stop = true;
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
	if (w->started)
		pthread_join(w->thread, NULL);
	if (r->seconds)
		sc_drive_watch_fill_seconds(w->samples, w->n, origin_ns, r->seconds, r->nseconds);
	snprintf(r->telemetry_none, sizeof(r->telemetry_none), "%s", t->ndrives ? "" : t->none);
	if (t->ndrives) {
		r->drives = calloc(t->ndrives, sizeof(*r->drives));
		if (r->drives) {
			r->ndrives = t->ndrives;
			memcpy(r->drives, t->drives, t->ndrives * sizeof(*r->drives));
			for (uint32_t i = 0; i < t->ndrives; i++) {
				r->drives[i].before = w->before[i];
				read_health(&r->drives[i], &r->drives[i].after);
			}
		} else {
			snprintf(r->telemetry_none, sizeof(r->telemetry_none),
				 "no NVMe telemetry: out of memory");
			rc = -ENOMEM;
		}
	}
	pthread_mutex_destroy(&w->lock);
	pthread_cond_destroy(&w->cond);
	free(w->samples);
	free(w);
	return rc;
}
