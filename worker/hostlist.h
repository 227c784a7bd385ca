/* hostlist.h -- host name patterns as cluster configs write them.
 *
 * A pattern is a comma-separated list of items; an item matches a host
 * name as a shell glob (* ? and [abc] character classes) in which a
 * bracket of numbers is a numeric range list, as Slurm writes them:
 * "gpu[01-16]" matches gpu01..gpu16 (a zero-padded bound fixes the
 * width), "node[1-4,8]" node1..node4 and node8, "rack[1-2]-gpu*" mixes
 * both.  Commas inside brackets belong to the bracket.
 */
#ifndef SC_HOSTLIST_H
#define SC_HOSTLIST_H

#include <stddef.h>

/* 1 when host matches pattern, else 0. */
int sc_hostlist_match(const char *pattern, const char *host);

/* 0 when pattern is well formed; else -EINVAL with the reason in err
 * (an unclosed bracket, an empty item, a range whose low end is above its
 * high end). */
int sc_hostlist_check(const char *pattern, char *err, size_t errlen);

#endif
