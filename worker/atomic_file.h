/* atomic_file.h -- a file written whole or not at all, or appended to.  In the worker, the
 * lowest room, so that every file a run leaves (the results file in
 * proto/results_file.c, the report files in coordinator/report/) is written
 * the one way. */
#ifndef SC_ATOMIC_FILE_H
#define SC_ATOMIC_FILE_H

#include <stddef.h>

/* Writes data to dir/name through a temporary file, fsync and rename (the
 * folder fsynced too), so a reader sees the old file or the new one, never
 * a part; dir (NULL or "": ".") and its missing parents are made, 0755, and
 * the file is 0644.  0, -EINVAL for a name that is empty or holds a '/',
 * or another -errno. */
int sc_atomic_file_write(const char *dir, const char *name, const void *data, size_t len);

/* A piece of a file: len bytes at data or, when file is set, the whole of
 * the file of that name in the same folder. */
struct sc_atomic_piece {
	const void *data;
	size_t len;
	const char *file;
};

/* sc_atomic_file_write of the pieces pc[0..npc) one after the other (a
 * file piece copied in the kernel where it can, never read whole into
 * memory).  0, -EINVAL for a name (or a piece's file name) that is empty
 * or holds a '/', -ENOENT for a piece's file that is not there, or
 * another -errno. */
int sc_atomic_file_write_pieces(const char *dir, const char *name,
				const struct sc_atomic_piece *pc, size_t npc);

/* Appends data to dir/name, which must exist and be a regular file (a
 * symbolic link: -ELOOP, never followed; a device, FIFO or socket:
 * -EINVAL), and flushes it to the drive
 * (fdatasync): all of it or, on an error, none (the file is cut back to
 * its length before; a crash while appending can still leave a part of
 * data at its end, which a reader of the file must allow for).  0 or
 * -errno. */
int sc_atomic_file_append(const char *dir, const char *name, const void *data, size_t len);

#endif
