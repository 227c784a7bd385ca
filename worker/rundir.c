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
		    plan->phases[p].workload != SC_WORKLOAD_INGEST)
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

/* Removes everything in directory dirfd: symlinks and files are unlinked,
 * directories opened with O_NOFOLLOW and emptied first.  0 or the first
 * -errno (it goes on with the rest). */
static int remove_below(int dirfd, int depth)
{
	int dup_fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC), rc = 0;
	struct dirent *e;
	DIR *d;

	if (dup_fd < 0)
		return -errno;
	d = fdopendir(dup_fd);
	if (!d) {
		close(dup_fd);
		return -errno;
	}
	while ((e = readdir(d)) != NULL) {
		struct stat st;
		int r = 0;

		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (fstatat(dirfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
			r = errno == ENOENT ? 0 : -errno;
		} else if (S_ISDIR(st.st_mode)) {
			int sub = depth < REMOVE_DEPTH_MAX
				      ? openat(dirfd, e->d_name,
					       O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
				      : -1;

			if (sub < 0) {
				r = depth < REMOVE_DEPTH_MAX ? -errno : -ELOOP;
			} else {
				r = remove_below(sub, depth + 1);
				close(sub);
			}
			if (!r && unlinkat(dirfd, e->d_name, AT_REMOVEDIR) != 0 && errno != ENOENT)
				r = -errno;
		} else if (unlinkat(dirfd, e->d_name, 0) != 0 && errno != ENOENT) {
			r = -errno;
		}
		if (r && !rc)
			rc = r;
	}
	closedir(d);
	return rc;
}

int sc_rundir_remove(struct sc_rundir *rd)
{
	const char *name;
	struct stat mine, there;
	int rc;

	if (!rd->created || rd->fd < 0)
		return 0;
	rd->created = false;
	rc = remove_below(rd->fd, 0);
	name = strrchr(rd->path, '/') + 1; /* sc_layout_run_dir: TARGET/NAME */
	if (fstat(rd->fd, &mine) != 0)
		return rc ? rc : -errno;
	/* remove the directory by name only if the name still means it */
	if (fstatat(rd->parent_fd, name, &there, AT_SYMLINK_NOFOLLOW) != 0)
		return rc ? rc : (errno == ENOENT ? 0 : -errno);
	if (there.st_dev != mine.st_dev || there.st_ino != mine.st_ino)
		return rc ? rc : -ESTALE;
	if (!rc && unlinkat(rd->parent_fd, name, AT_REMOVEDIR) != 0)
		rc = -errno;
	return rc;
}
