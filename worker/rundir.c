/* rundir.c -- the run's own directory on a directory target, and opening
 * below a directory without following a symlink. */
#include "rundir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/engine.h"

/* Holds the run key while the ranks check that they share one directory. */
#define MARKER_NAME ".ssdcluster-run"
/* The run directory is the user's alone. */
#define RUN_DIR_MODE 0700u
/* A target directory made for the run (its parent exists). */
#define TARGET_DIR_MODE 0755u
/* Files the run creates (inside its 0700 directory, or the dataset). */
#define FILE_MODE 0644u
/* Room for "ssdcluster-<run id>". */
#define RUN_DIR_NAME_MAX 256
/* What to do about a run directory that is not this run's. */
#define NOT_OURS_HINT                                                                              \
	"nothing was written; choose another --run-id (or remove it if it is a leftover "          \
	"of yours)"
/* The run makes two levels of directories below its own; removal goes no
 * deeper than this into what someone else may have put there. */
#define REMOVE_DEPTH_MAX 16

void sc_rundir_init(struct sc_rundir *rd)
{
	memset(rd, 0, sizeof(*rd));
	rd->fd = -1;
	rd->parent_fd = -1;
}

void sc_rundir_exit(struct sc_rundir *rd)
{
	if (rd->fd >= 0)
		close(rd->fd);
	if (rd->parent_fd >= 0)
		close(rd->parent_fd);
	rd->fd = -1;
	rd->parent_fd = -1;
}

bool sc_rundir_needed(const struct sc_plan *plan, uint32_t target)
{
	if (plan->targets[target].kind != SC_TARGET_DIR)
		return false;
	for (uint32_t p = 0; p < plan->nphases; p++)
		if (sc_engine_uses_files(plan->phases[p].io.engine) &&
		    plan->phases[p].workload != SC_WORKLOAD_INGEST &&
		    plan->phases[p].workload != SC_WORKLOAD_TRAINING)
			return true;
	return false;
}

const char *sc_rundir_strerror(int err)
{
	switch (-err) {
	case ELOOP:
		return "it is a symbolic link (the run never follows one below its directory)";
	case EPERM:
		return "it is not a regular file of this user's (or may not be written)";
	case EEXIST:
		return "it exists already (the run creates its files itself)";
	default:
		return strerror(-err);
	}
}

int sc_rundir_random_hex(char *hex, size_t nbytes)
{
	unsigned char b[64];

	if (nbytes > sizeof(b))
		return -EINVAL;
	for (size_t got = 0; got < nbytes;) {
		ssize_t n = getrandom(b + got, nbytes - got, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		got += (size_t)n;
	}
	for (size_t i = 0; i < nbytes; i++)
		snprintf(hex + 2 * i, 3, "%02x", b[i]);
	hex[2 * nbytes] = '\0';
	return 0;
}

static bool one_component(const char *name)
{
	return name[0] && !strchr(name, '/') && strcmp(name, ".") != 0 && strcmp(name, "..") != 0;
}

/* -ELOOP when name in dirfd is a symlink, else err. */
static int symlink_or(int dirfd, const char *name, int err)
{
	struct stat st;

	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode))
		return -ELOOP;
	return err;
}

int sc_rundir_openat(int dirfd, const char *name, int flags, enum sc_rundir_how how)
{
	int writes = (flags & O_ACCMODE) != O_RDONLY;
	struct stat st;
	int fd;

	if (!one_component(name))
		return -EINVAL;
	flags |= O_NOFOLLOW | O_CLOEXEC;
	if (how != SC_RUNDIR_OLD) {
		fd = openat(dirfd, name, flags | O_CREAT | O_EXCL, FILE_MODE);
		if (fd >= 0)
			return fd;
		if (errno != EEXIST)
			return -errno;
		if (how == SC_RUNDIR_NEW)
			return symlink_or(dirfd, name, -EEXIST);
	}
	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISREG(st.st_mode))
		return S_ISLNK(st.st_mode) ? -ELOOP : -EPERM;
	/* O_NONBLOCK: a FIFO swapped in after that check must not hang the open */
	fd = openat(dirfd, name, flags | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || (writes && st.st_uid != geteuid()) ||
	    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0) {
		close(fd);
		return -EPERM;
	}
	return fd;
}

int sc_rundir_subdir(int dirfd, const char *relpath, bool create, unsigned mode)
{
	char buf[4096], *save = NULL;
	int fd = dirfd;

	if (strlen(relpath) >= sizeof(buf))
		return -ENAMETOOLONG;
	memcpy(buf, relpath, strlen(relpath) + 1);
	for (char *c = strtok_r(buf, "/", &save); c; c = strtok_r(NULL, "/", &save)) {
		int next = -1, err = 0;

		if (!one_component(c))
			err = -EINVAL;
		else if (create && mkdirat(fd, c, mode) != 0 && errno != EEXIST)
			err = -errno;
		if (!err) {
			next = openat(fd, c, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			err = next < 0 ? symlink_or(fd, c, -errno) : 0;
		}
		if (fd != dirfd)
			close(fd);
		if (err)
			return err;
		fd = next;
	}
	return fd == dirfd ? -EINVAL : fd;
}

/* The target directory (the user's path: symlinks in it are the user's
 * choice), made when missing if create. */
static int open_target(struct sc_rundir *rd, const struct sc_target_spec *t, bool create, char *err,
		       size_t errlen)
{
	if (create && mkdir(t->path, TARGET_DIR_MODE) != 0 && errno != EEXIST) {
		int rc = -errno;

		snprintf(err, errlen, "%s: cannot create the target directory: %s", t->path,
			 strerror(errno));
		return rc;
	}
	rd->parent_fd = open(t->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (rd->parent_fd < 0) {
		int rc = -errno;

		snprintf(err, errlen, "%s: cannot open the target directory: %s", t->path,
			 strerror(errno));
		return rc;
	}
	return 0;
}

static int write_marker(struct sc_rundir *rd, const char *key, char *err, size_t errlen)
{
	size_t len = strlen(key);
	int fd = sc_rundir_openat(rd->fd, MARKER_NAME, O_WRONLY, SC_RUNDIR_NEW), rc = 0;

	if (fd < 0) {
		snprintf(err, errlen, "%s/%s: cannot create: %s", rd->path, MARKER_NAME,
			 sc_rundir_strerror(fd));
		return fd;
	}
	rd->marked = true;
	errno = 0;
	if (write(fd, key, len) != (ssize_t)len)
		rc = errno ? -errno : -EIO;
	if (close(fd) != 0 && !rc)
		rc = -errno;
	if (rc)
		snprintf(err, errlen, "%s/%s: cannot write: %s", rd->path, MARKER_NAME,
			 strerror(-rc));
	return rc;
}

/* rd->path and the run directory's name (name holds RUN_DIR_NAME_MAX).
 * 0 or -ENAMETOOLONG with err set. */
static int run_dir_names(struct sc_rundir *rd, const struct sc_plan *plan,
			 const struct sc_place *place, char *name, char *err, size_t errlen)
{
	if (sc_layout_run_dir(plan, place->target, rd->path, sizeof(rd->path)) ||
	    sc_layout_run_dir_name(plan, name, RUN_DIR_NAME_MAX)) {
		snprintf(err, errlen, "%s: run directory name too long",
			 plan->targets[place->target].path);
		return -ENAMETOOLONG;
	}
	return 0;
}

int sc_rundir_create(struct sc_rundir *rd, const struct sc_plan *plan, const struct sc_place *place,
		     const char *key, char *err, size_t errlen)
{
	char name[RUN_DIR_NAME_MAX];
	int rc = run_dir_names(rd, plan, place, name, err, errlen);

	if (rc)
		return rc;
	rc = open_target(rd, &plan->targets[place->target], true, err, errlen);
	if (rc)
		return rc;
	if (mkdirat(rd->parent_fd, name, RUN_DIR_MODE) != 0) {
		rc = -errno;
		snprintf(err, errlen, "%s: cannot create the run directory: %s", rd->path,
			 strerror(errno));
		return rc;
	}
	rd->created = true;
	rd->fd = openat(rd->parent_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (rd->fd < 0 || fchmod(rd->fd, RUN_DIR_MODE) != 0) {
		rc = -errno;
		snprintf(err, errlen, "%s: cannot open the run directory it just made: %s",
			 rd->path, strerror(errno));
		return rc;
	}
	return write_marker(rd, key, err, errlen);
}

/* Whether the run directory's marker holds key. */
static bool marker_holds(int dirfd, const char *key)
{
	char buf[SC_RUNDIR_KEY_LEN + 8];
	int fd = sc_rundir_openat(dirfd, MARKER_NAME, O_RDONLY, SC_RUNDIR_OLD);
	ssize_t n;

	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		return false;
	buf[n] = '\0';
	return strcmp(buf, key) == 0;
}

int sc_rundir_join(struct sc_rundir *rd, const struct sc_plan *plan, const struct sc_place *place,
		   const char *key, char *err, size_t errlen)
{
	char name[RUN_DIR_NAME_MAX];
	struct stat st;
	int rc = run_dir_names(rd, plan, place, name, err, errlen);

	if (rc)
		return rc;
	if (rd->parent_fd < 0) {
		rc = open_target(rd, &plan->targets[place->target], false, err, errlen);
		if (rc)
			return rc;
	}
	rd->fd = openat(rd->parent_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (rd->fd < 0) {
		rc = symlink_or(rd->parent_fd, name, -errno);
		if (rc == -ELOOP)
			snprintf(err, errlen,
				 "%s is a symbolic link, not this run's directory: " NOT_OURS_HINT,
				 rd->path);
		else
			snprintf(err, errlen, "%s: cannot open the run directory: %s", rd->path,
				 strerror(-rc));
		return rc;
	}
	if (fstat(rd->fd, &st) != 0 || st.st_uid != geteuid() || (st.st_mode & 077) != 0 ||
	    !marker_holds(rd->fd, key)) {
		close(rd->fd);
		rd->fd = -1;
		snprintf(err, errlen, "%s exists and is not this run's directory: " NOT_OURS_HINT,
			 rd->path);
		return -EEXIST;
	}
	return 0;
}

int sc_rundir_open_kept(struct sc_rundir *rd, const struct sc_plan *plan,
			const struct sc_place *place, char *err, size_t errlen)
{
	char name[RUN_DIR_NAME_MAX];
	int rc = run_dir_names(rd, plan, place, name, err, errlen);

	if (!rc)
		rc = open_target(rd, &plan->targets[place->target], false, err, errlen);
	if (rc)
		return rc;
	rd->fd = openat(rd->parent_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (rd->fd >= 0)
		return 0;
	rc = symlink_or(rd->parent_fd, name, -errno);
	if (rc == -ENOENT)
		snprintf(err, errlen,
			 "%s: no kept run of that id here (verify_only re-reads the directory a run "
			 "given --run-id %s left with keep: true)",
			 rd->path, plan->run_id);
	else
		snprintf(err, errlen, "%s: cannot open the kept run directory: %s", rd->path,
			 sc_rundir_strerror(rc));
	return rc;
}

int sc_rundir_unmark(struct sc_rundir *rd)
{
	if (!rd->marked)
		return 0;
	rd->marked = false;
	return unlinkat(rd->fd, MARKER_NAME, 0) == 0 ? 0 : -errno;
}

/* What removal asks statx for: the type, the device, the mount id. */
#define REMOVE_STATX_MASK (STATX_BASIC_STATS | STATX_MNT_ID)
/* Why removal left an entry (rd->left). */
#define LEFT_OTHER_FS	 "a mount point (another filesystem)"
#define LEFT_OTHER_MOUNT "a mount point (another mount of this filesystem, e.g. a bind mount)"
#define LEFT_OTHER_DEV	 "on another filesystem (another device number, not a mount point)"
#define LEFT_MOUNTED_NOW "a mount point (mounted while it was being removed)"
#define LEFT_TOO_DEEP	 "deeper than removal goes (16 directories)"

/* A removal under way: the run directory's own mount, and what it left. */
struct sweep {
	struct statx home; /* the run directory */
	struct sc_rundir_left *left;
	char rel[SC_RUNDIR_LEFT_PATH_MAX]; /* the directory being emptied,
					    * relative to the run directory */
	int err;			   /* the first -errno of an entry left,
					    * but -EXDEV */
};

/* NULL when stx, an entry below the run directory (not followed), is on
 * the run directory's own mount; else why removal leaves it.  The mount
 * id tells a bind mount of this filesystem apart; without it (an old
 * kernel) the device number and the mount-root attribute do. */
static const char *elsewhere(const struct statx *home, const struct statx *stx)
{
	bool root = (stx->stx_attributes_mask & STATX_ATTR_MOUNT_ROOT) &&
		    (stx->stx_attributes & STATX_ATTR_MOUNT_ROOT);

	if (stx->stx_dev_major != home->stx_dev_major || stx->stx_dev_minor != home->stx_dev_minor)
		return root ? LEFT_OTHER_FS : LEFT_OTHER_DEV;
	if (root || ((home->stx_mask & stx->stx_mask & STATX_MNT_ID) &&
		     stx->stx_mnt_id != home->stx_mnt_id))
		return LEFT_OTHER_MOUNT;
	return NULL;
}

/* Notes that entry name of the directory being emptied stays: why (NULL:
 * err says), and err (-EXDEV: on another mount or filesystem). */
static void leave(struct sweep *w, const char *name, const char *why, int err)
{
	struct sc_rundir_left *l = w->left;

	l->n++;
	if (err == -EXDEV)
		l->elsewhere++;
	else if (!w->err)
		w->err = err;
	if (l->named < SC_RUNDIR_LEFT_NAMED) {
		char *path = l->entry[l->named].path;
		size_t cap = sizeof(l->entry[0].path);

		if (snprintf(path, cap, "%s%s%s", w->rel, w->rel[0] ? "/" : "", name) >= (int)cap)
			memcpy(path + cap - 4, "...", 4); /* cut, and says so */
		l->entry[l->named].why = why;
		l->entry[l->named].err = err;
		l->named++;
	}
}

/* Notes that unlinking entry name failed with errno: EBUSY means it is a
 * mount point now (mounted since it was looked at). */
static void leave_errno(struct sweep *w, const char *name)
{
	if (errno == EBUSY)
		leave(w, name, LEFT_MOUNTED_NOW, -EXDEV);
	else
		leave(w, name, NULL, -errno);
}

static int remove_below(struct sweep *w, int dirfd, int depth);

/* Empties and removes directory name of dirfd, once the opened directory
 * is known to be on the run directory's mount still: it may have become
 * a mount point since it was looked at. */
static void remove_dir(struct sweep *w, int dirfd, const char *name, int depth)
{
	size_t len = strlen(w->rel);
	struct statx stx;
	const char *why;
	int sub, rc;

	if (depth >= REMOVE_DEPTH_MAX) {
		leave(w, name, LEFT_TOO_DEEP, -ELOOP);
		return;
	}
	sub = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (sub < 0) {
		if (errno != ENOENT)
			leave(w, name, NULL, -errno);
		return;
	}
	if (statx(sub, "", AT_EMPTY_PATH, REMOVE_STATX_MASK, &stx) != 0) {
		leave(w, name, NULL, -errno);
	} else if ((why = elsewhere(&w->home, &stx)) != NULL) {
		leave(w, name, why, -EXDEV);
	} else {
		snprintf(w->rel + len, sizeof(w->rel) - len, "%s%s", len ? "/" : "", name);
		rc = remove_below(w, sub, depth + 1);
		w->rel[len] = '\0';
		if (rc < 0)
			leave(w, name, NULL, rc);
		else if (rc == 0 && unlinkat(dirfd, name, AT_REMOVEDIR) != 0 && errno != ENOENT)
			leave_errno(w, name);
	}
	close(sub);
}

/* Removes everything in directory dirfd that is on the run directory's
 * mount: symlinks and files are unlinked, directories emptied first;
 * what is elsewhere is left.  0 when nothing is left in it, 1 when
 * something is (noted), -errno when it cannot be read (not noted). */
static int remove_below(struct sweep *w, int dirfd, int depth)
{
	int dup_fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC), rc;
	unsigned left_before = w->left->n;
	struct dirent *e;
	DIR *d;

	if (dup_fd < 0)
		return -errno;
	d = fdopendir(dup_fd);
	if (!d) {
		rc = -errno;
		close(dup_fd);
		return rc;
	}
	while ((e = readdir(d)) != NULL) {
		struct statx stx;
		const char *why;

		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (statx(dirfd, e->d_name, AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT,
			  REMOVE_STATX_MASK, &stx) != 0) {
			if (errno != ENOENT)
				leave(w, e->d_name, NULL, -errno);
		} else if ((why = elsewhere(&w->home, &stx)) != NULL) {
			leave(w, e->d_name, why, -EXDEV);
		} else if (S_ISDIR(stx.stx_mode)) {
			remove_dir(w, dirfd, e->d_name, depth);
		} else if (unlinkat(dirfd, e->d_name, 0) != 0 && errno != ENOENT) {
			leave_errno(w, e->d_name);
		}
	}
	closedir(d);
	return w->left->n != left_before;
}

int sc_rundir_remove(struct sc_rundir *rd)
{
	struct sweep w = {.left = &rd->left};
	const char *name;
	struct stat mine, there;
	int rc;

	memset(&rd->left, 0, sizeof(rd->left));
	if (!rd->created || rd->fd < 0)
		return 0;
	rd->created = false;
	if (statx(rd->fd, "", AT_EMPTY_PATH, REMOVE_STATX_MASK, &w.home) != 0)
		return -errno;
	rc = remove_below(&w, rd->fd, 0);
	if (rd->left.elsewhere)
		return -EXDEV;
	if (rc)
		return rc < 0 ? rc : w.err;
	name = strrchr(rd->path, '/') + 1; /* sc_layout_run_dir: TARGET/NAME */
	if (fstat(rd->fd, &mine) != 0)
		return -errno;
	/* remove the directory by name only if the name still means it */
	if (fstatat(rd->parent_fd, name, &there, AT_SYMLINK_NOFOLLOW) != 0)
		return errno == ENOENT ? 0 : -errno;
	if (there.st_dev != mine.st_dev || there.st_ino != mine.st_ino)
		return -ESTALE;
	return unlinkat(rd->parent_fd, name, AT_REMOVEDIR) == 0 ? 0 : -errno;
}

/* "x: why, y: why, and 2 more": the entries l names. */
static void left_list(const struct sc_rundir_left *l, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < l->named && used < len; i++)
		used += (size_t)snprintf(
		    buf + used, len - used, "%s%s: %s", i ? ", " : "", l->entry[i].path,
		    l->entry[i].why ? l->entry[i].why : strerror(-l->entry[i].err));
	if (l->n > l->named && used < len)
		snprintf(buf + used, len - used, ", and %u more", l->n - l->named);
}

const char *sc_rundir_left_text(const struct sc_rundir *rd, int err, char *buf, size_t len)
{
	const struct sc_rundir_left *l = &rd->left;
	char list[SC_RUNDIR_LEFT_NAMED * (SC_RUNDIR_LEFT_PATH_MAX + 80) + 32];
	const char *it = l->n == 1 ? "it" : "them";

	left_list(l, list, sizeof(list));
	if (err == -EXDEV && l->elsewhere == l->n)
		snprintf(buf, len,
			 "left %u entr%s in %s that %s on another mount (%s; unmount %s, then "
			 "remove the directory): nothing on %s was removed",
			 l->n, l->n == 1 ? "y" : "ies", rd->path, l->n == 1 ? "is" : "are", list,
			 it, it);
	else if (err == -EXDEV)
		snprintf(buf, len,
			 "left %u entries in %s, %u of them on another mount, nothing on which was "
			 "removed (%s); unmount those, then remove the directory",
			 l->n, rd->path, l->elsewhere, list);
	else if (err == -ESTALE)
		snprintf(buf, len,
			 "%s is no longer the directory the run made (renamed, replaced, or "
			 "something is mounted on it): left as it is",
			 rd->path);
	else if (l->n)
		snprintf(buf, len, "could not remove %u entr%s in %s (%s): the directory is left",
			 l->n, l->n == 1 ? "y" : "ies", rd->path, list);
	else
		snprintf(buf, len, "could not remove %s: %s", rd->path, strerror(-err));
	return buf;
}
