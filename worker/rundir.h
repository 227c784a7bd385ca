/* rundir.h -- the run's own directory on a directory target, and opening
 * files and subdirectories below a directory without following a symlink.
 *
 * A run writes into TARGET/ssdcluster-RUN_ID only.  One rank per node and
 * target (slot 0) creates it, exclusively and mode 0700, and writes a
 * marker holding a random key that only this run's ranks know; after a
 * barrier every other rank of that target (on this node, or on another node
 * that sees the same storage) opens it and checks the marker, so that a
 * directory someone else made, or a symlink planted in its place, is
 * refused before anything is written.  After a second barrier the creators
 * remove the marker.  Everything below the run directory is reached from
 * its descriptor with openat/mkdirat and O_NOFOLLOW: the user's target path
 * may hold symlinks, nothing below the run directory is ever followed.  At
 * the end the creator, and only the creator, removes the directory.
 */
#ifndef SC_RUNDIR_H
#define SC_RUNDIR_H

#include <stdbool.h>
#include <stddef.h>

#include "layout.h"
#include "plan.h"

/* Random bytes in a run key (its hex text is twice as long). */
#define SC_RUNDIR_KEY_BYTES 16u
/* Characters of a key's hex text, with its terminating NUL. */
#define SC_RUNDIR_KEY_LEN (2u * SC_RUNDIR_KEY_BYTES + 1u)

/* Entries of the run directory a removal left that it names (it counts
 * them all). */
#define SC_RUNDIR_LEFT_NAMED 4u
/* Room for one such entry's path, relative to the run directory. */
#define SC_RUNDIR_LEFT_PATH_MAX 256u

/* What sc_rundir_remove left in place, and why.  An entry is counted once:
 * a directory left for what is in it is not, the entry in it is. */
struct sc_rundir_left {
	unsigned n;	    /* entries left */
	unsigned elsewhere; /* of them, on another mount or filesystem: never
			     * unlinked, never entered */
	unsigned named;	    /* entries in entry[], in the order found */
	struct {
		char path[SC_RUNDIR_LEFT_PATH_MAX]; /* "x", "a/b" (cut if longer) */
		const char *why;		    /* static text, e.g. "a mount point
						     * (another filesystem)"; NULL: err */
		int err;			    /* -EXDEV: on another mount or
						     * filesystem; else the -errno of
						     * removing it */
	} entry[SC_RUNDIR_LEFT_NAMED];
};

/* A rank's run directory (caller-owned; _init before use, _exit after). */
struct sc_rundir {
	int fd;			    /* the run directory (O_DIRECTORY | O_NOFOLLOW), -1: none */
	int parent_fd;		    /* the target directory holding it, -1: none */
	bool created;		    /* this process made it: only then does _remove remove it */
	bool marked;		    /* the marker is still in it */
	char path[4096];	    /* TARGET/ssdcluster-RUN_ID, for messages */
	struct sc_rundir_left left; /* what the last _remove left */
};

void sc_rundir_init(struct sc_rundir *rd);

/* Closes what rd holds (removes nothing). */
void sc_rundir_exit(struct sc_rundir *rd);

/* True when the ranks on target write a run directory there: a directory
 * target and a phase that stores files in it (io, kvcache or checkpoint, not
 * through the null engine).  Ingest and training keep their datasets
 * outside the run. */
bool sc_rundir_needed(const struct sc_plan *plan, uint32_t target);

/* Creator (slot 0 of a node on the target): makes the target directory if
 * it is missing (its parent exists), then its run directory, exclusively,
 * mode 0700, and the marker holding key.  0; -EEXIST when the run directory
 * exists already (another node of this run may have made it on storage
 * both see: _join decides); or -errno.  err says what and where. */
int sc_rundir_create(struct sc_rundir *rd, const struct sc_plan *plan, const struct sc_place *place,
		     const char *key, char *err, size_t errlen);

/* Every rank without rd->fd, once every creator is done: opens the run
 * directory without following a symlink and checks that it is this run's
 * (owned by this user, mode 0700, marker holding key).  0 or -errno
 * (-EEXIST: it exists but is not this run's), with err set. */
int sc_rundir_join(struct sc_rundir *rd, const struct sc_plan *plan, const struct sc_place *place,
		   const char *key, char *err, size_t errlen);

/* A run that re-reads a kept run (every phase verify_only), every rank on a
 * directory target: opens the kept run directory TARGET/ssdcluster-RUN_ID,
 * not through a symlink at that name, to read the files in it.  Nothing
 * is created or marked, and _remove leaves it alone.  0 or -errno
 * (-ENOENT: no run of that id was kept here), with err set. */
int sc_rundir_open_kept(struct sc_rundir *rd, const struct sc_plan *plan,
			const struct sc_place *place, char *err, size_t errlen);

/* Creator, once every rank has joined: removes the marker.  0 or -errno. */
int sc_rundir_unmark(struct sc_rundir *rd);

/* Removes the run directory with everything in it if this process created
 * it (else does nothing and returns 0).  It stays on the run directory's
 * own mount: an entry on another mount (a mount point: a bind mount of a
 * directory or a file, another filesystem) or with another device number
 * is left in place, neither unlinked nor entered, and so are the
 * directories holding it and the run directory.  Symlinks inside are
 * unlinked, never followed; a run directory swapped for another one (or
 * with something mounted on its name) is left alone (-ESTALE).  rd->left
 * says what was left and why.  0; -EXDEV when it left an entry on another
 * mount or filesystem; or the first other -errno.  Whatever could be
 * removed is gone. */
int sc_rundir_remove(struct sc_rundir *rd);

/* What the last sc_rundir_remove of rd, which returned err (< 0), left,
 * why, and what to do, as one line of text without "ssdcluster: " or a
 * newline, e.g. "left 1 entry in T/ssdcluster-ID that is on another mount
 * (x: a mount point (...); unmount it, then remove the directory): nothing
 * on it was removed".  Returns buf. */
const char *sc_rundir_left_text(const struct sc_rundir *rd, int err, char *buf, size_t len);

/* How sc_rundir_openat treats a name. */
enum sc_rundir_how {
	SC_RUNDIR_NEW, /* create it; it must not exist */
	SC_RUNDIR_OLD, /* it must exist */
	SC_RUNDIR_ANY, /* create it, or reopen it if it exists */
};

/* Opens the regular file `name` (one path component) in directory dirfd
 * with flags (access mode, O_DIRECT, ...), O_NOFOLLOW and O_CLOEXEC added;
 * created with O_CREAT | O_EXCL, mode 0644.  An existing file reopened for
 * writing must belong to this user.  A descriptor, or -ELOOP (a symlink),
 * -EEXIST (SC_RUNDIR_NEW and it exists), -EPERM (not a regular file, or
 * someone else's to write), -EINVAL (not one component), or -errno. */
int sc_rundir_openat(int dirfd, const char *name, int flags, enum sc_rundir_how how);

/* Opens directory relpath ("a/b/c", components neither "." nor "..") below
 * dirfd, one component at a time with O_NOFOLLOW; with create, makes the
 * missing ones (mode) first.  A descriptor, or -ELOOP (a component is a
 * symlink), -EINVAL (a bad component), or -errno. */
int sc_rundir_subdir(int dirfd, const char *relpath, bool create, unsigned mode);

/* What a negative return of these functions means, for messages. */
const char *sc_rundir_strerror(int err);

/* Fills hex with 2 * nbytes hex digits of getrandom(2) bits and a NUL
 * (hex holds 2 * nbytes + 1).  0 or -errno. */
int sc_rundir_random_hex(char *hex, size_t nbytes);

#endif
