/* rankmsg.c -- each rank's message (why its step failed) gathered at rank
 * 0, printed one line a rank or joined into one text. */
#include "rankmsg.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Gathers msg from every rank: rank 0 gets nranks strings in *all (free
 * with sc_cluster_free_gathered).  0 or -errno. */
static int gather(struct sc_cluster *c, const char *msg, char ***all)
{
	uint8_t **bufs = NULL;
	size_t *lens = NULL;
	int rc = sc_cluster_gather(c, (const uint8_t *)msg, strlen(msg) + 1, &bufs, &lens);

	if (rc)
		return rc;
	if (c->rank == 0) {
		*all = (char **)bufs;
		free(lens);
	}
	return 0;
}

void sc_rankmsg_print(struct sc_cluster *c, const char *msg)
{
	char **all = NULL;

	if (gather(c, msg, &all) || c->rank != 0)
		return;
	for (int r = 0; r < c->nranks; r++)
		if (all[r][0])
			fprintf(stderr, "ssdcluster: rank %d: %s\n", r, all[r]);
	sc_cluster_free_gathered(c, (uint8_t **)all, NULL);
}

void sc_rankmsg_join(struct sc_cluster *c, const char *msg, char *err, size_t errlen)
{
	char **all = NULL;
	size_t used = 0;

	if (gather(c, msg, &all) || c->rank != 0)
		return;
	err[0] = '\0';
	for (int r = 0; r < c->nranks; r++) {
		if (!all[r][0])
			continue;
		int n = snprintf(err + used, errlen - used, "%srank %d (%s): %s",
				 used ? "\n" : "", r, c->hosts[r], all[r]);

		if (n < 0 || (size_t)n >= errlen - used)
			break;
		used += (size_t)n;
	}
	sc_cluster_free_gathered(c, (uint8_t **)all, NULL);
}
