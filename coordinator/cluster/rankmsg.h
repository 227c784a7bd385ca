/* rankmsg.h -- each rank's message (why its step failed) gathered at rank
 * 0, printed one line a rank or joined into one text.  Every rank calls
 * these together (a collective); empty messages are left out. */
#ifndef SC_RANKMSG_H
#define SC_RANKMSG_H

#include <stddef.h>

#include "cluster.h"

/* Rank 0 prints "ssdcluster: rank R: MSG" on stderr for each rank's
 * message. */
void sc_rankmsg_print(struct sc_cluster *c, const char *msg);

/* Rank 0 gets every rank's message in err as "rank R (HOST): MSG" lines
 * (cut at the last whole line that fits); err is untouched elsewhere. */
void sc_rankmsg_join(struct sc_cluster *c, const char *msg, char *err, size_t errlen);

#endif
