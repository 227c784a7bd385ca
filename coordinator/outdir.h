/* outdir.h -- the results folder: on rank 0, before any I/O, checked to be
 * apart from every target and run directory of the run, then made and
 * proved writable; removed again when the run leaves it empty.
 *
 * A folder inside a directory target is refused because the run's files
 * live there (its run directory is removed at the end, and with it
 * anything written below it); a folder that is, or lies below, a file or
 * device target cannot exist; a folder holding a target would mix the
 * results with what is measured.  Paths compare by identity where rank 0
 * can see the target (a symlink or a bind mount of it is the same
 * directory) and by their text where it cannot.
 */
#ifndef SC_OUTDIR_H
#define SC_OUTDIR_H

#include <stdbool.h>
#include <stddef.h>

#include "plan.h"

/* Room for a results folder's path, as given or resolved. */
#define SC_OUTDIR_PATH_MAX 4096

/* Where a folder stands against a target. */
enum sc_outdir_rel {
	SC_OUTDIR_APART = 0,
	SC_OUTDIR_SAME,	  /* the same path */
	SC_OUTDIR_INSIDE, /* the folder lies below the target */
	SC_OUTDIR_AROUND, /* the folder holds the target */
};

/* Where path a stands against path b, by their text, one component at a
 * time ("/a/bc" is apart from "/a/b"; everything is inside "/").  Both
 * must be clean absolute paths, as sc_outdir_lexical makes them. */
enum sc_outdir_rel sc_outdir_relation(const char *a, const char *b);

/* path made absolute against cwd (when it is relative) and clean by its
 * text alone: no "." or empty components, ".." takes the previous one
 * away (never past "/"), no trailing '/'.  0 or -ENAMETOOLONG. */
int sc_outdir_lexical(const char *path, const char *cwd, char *buf, size_t len);

/* The results folder of a run (caller-owned; sc_outdir_check fills it). */
struct sc_outdir {
	const char *path;		/* as given: where results are written */
	bool given;			/* named by --output (else the default) */
	char canon[SC_OUTDIR_PATH_MAX]; /* its deepest existing ancestor
					 * resolved (realpath), the rest clean */
	size_t exist_len;		/* canon[0, exist_len) exists */
	size_t made_len, made_end;	/* the folders sc_outdir_create made:
					 * canon[0, made_len) the topmost,
					 * canon[0, made_end) the deepest; 0 none */
};

/* Checks that folder path (given: named by --output) is apart from every
 * target of plan and every run directory of this run: not one of them,
 * not inside one, not holding one.  A target rank 0, on host, can reach
 * is compared by (st_dev, st_ino) with every existing ancestor of the
 * folder and the folder with every ancestor of the target, then by the
 * resolved text; a target on other hosts by its clean text against both
 * the folder's resolved and its clean text.  Makes nothing.  0; -EEXIST
 * when the folder meets a target, with err naming it and saying what to
 * do; or -errno (cwd unknown, a path too long) with err. */
int sc_outdir_check(struct sc_outdir *od, const char *path, bool given, const struct sc_plan *plan,
		    const char *host, char *err, size_t errlen);

/* After sc_outdir_check: makes the folder and its missing parents (mode
 * 0755), then proves it a writable directory by writing a block to a
 * temporary file in it, syncing and removing it.  Whatever it made is
 * removed again when it fails.  0, or -ENOTDIR (the folder or an ancestor
 * is not a directory), -EROFS, -ENOSPC, -EACCES, ... with err saying
 * which path and why. */
int sc_outdir_create(struct sc_outdir *od, char *err, size_t errlen);

/* Removes the folders sc_outdir_create made, deepest first, while they
 * are empty: a run refused after it leaves nothing behind.  Does nothing
 * for a folder that existed, or holds anything. */
void sc_outdir_discard(struct sc_outdir *od);

/* True when dir/results.json is there (a regular file). */
bool sc_outdir_has_results(const char *dir);

#endif
