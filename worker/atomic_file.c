/* atomic_file.c -- a file written whole or not at all: through a
 * temporary file in its folder, fsync and rename; or appended to, cut back
 * on an error; or made of pieces, some copied from files (atomic_file.h). */
#include "atomic_file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* mkdir -p: creates dir and its missing parents.  0 or -errno. */
static int mkdir_p(const char *dir)
{
	char buf[PATH_MAX];
	struct stat st;
	size_t n = strlen(dir);

	if (n >= sizeof(buf))
		return -ENAMETOOLONG;
	memcpy(buf, dir, n + 1);
	for (size_t i = 1; i <= n; i++) {
		if (buf[i] != '/' && buf[i] != '\0')
			continue;
		if (buf[i - 1] == '/')
			continue; /* "a//b" */
		buf[i] = '\0';
		if (mkdir(buf, 0755) && errno != EEXIST)
			return -errno;
		buf[i] = i < n ? '/' : '\0';
	}
	if (stat(dir, &st))
		return -errno;
	return S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
}

static int write_all(int fd, const void *data, size_t len)
{
	const char *p = data;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Copies the whole of dir/name to fd's end: in the kernel
 * (copy_file_range) where it can, else read and write. */
static int copy_from(int fd, const char *dir, const char *name)
{
	char path[PATH_MAX], buf[1 << 16];
	int src, err = 0;
	ssize_t n;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >= sizeof(path))
		return -ENAMETOOLONG;
	src = open(path, O_RDONLY | O_CLOEXEC);
	if (src < 0)
		return -errno;
	while ((n = copy_file_range(src, NULL, fd, NULL, SIZE_MAX >> 2, 0)) > 0)
		;
	if (n < 0 && errno != EXDEV && errno != EINVAL && errno != ENOSYS &&
	    errno != EOPNOTSUPP)
		err = -errno;
	while (!err && n < 0 && (n = read(src, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		err = n < 0 ? -errno : write_all(fd, buf, (size_t)n);
		n = -1; /* until read says the end */
	}
	close(src);
	return err;
}

/* The pieces of the new file, in order. */
static int write_pieces(int fd, const char *dir, const struct sc_atomic_piece *pc, size_t npc)
{
	int err = 0;

	for (size_t i = 0; i < npc && !err; i++)
		err = pc[i].file ? copy_from(fd, dir, pc[i].file)
				 : write_all(fd, pc[i].data, pc[i].len);
	return err;
}

int sc_atomic_file_write_pieces(const char *dir, const char *name,
				const struct sc_atomic_piece *pc, size_t npc)
{
	char path[PATH_MAX], tmp[PATH_MAX];
	int fd, dfd, err;

	if (!dir || !dir[0])
		dir = ".";
	if (!name || !name[0] || strchr(name, '/'))
		return -EINVAL;
	for (size_t i = 0; i < npc; i++)
		if (pc[i].file && (!pc[i].file[0] || strchr(pc[i].file, '/')))
			return -EINVAL;
	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >= sizeof(path) ||
	    (size_t)snprintf(tmp, sizeof(tmp), "%s/.%s.XXXXXX", dir, name) >= sizeof(tmp))
		return -ENAMETOOLONG;
	err = mkdir_p(dir);
	if (err)
		return err;

	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* mkostemp makes it 0600; results are for everyone who may read dir */
	if (fchmod(fd, 0644)) {
		err = -errno;
		goto out_close;
	}
	err = write_pieces(fd, dir, pc, npc);
	if (err)
		goto out_close;
	if (fsync(fd)) {
		err = -errno;
		goto out_close;
	}
	if (close(fd)) {
		fd = -1;
		err = -errno;
		goto out_unlink;
	}
	fd = -1;
	if (rename(tmp, path)) {
		err = -errno;
		goto out_unlink;
	}
	/* make the rename itself durable */
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return -errno;
	err = fsync(dfd) && errno != EINVAL ? -errno : 0;
	close(dfd);
	return err;

out_close:
	close(fd);
out_unlink:
	unlink(tmp);
	return err;
}

int sc_atomic_file_write(const char *dir, const char *name, const void *data, size_t len)
{
	struct sc_atomic_piece pc = {.data = data, .len = len};

	return sc_atomic_file_write_pieces(dir, name, &pc, 1);
}

int sc_atomic_file_append(const char *dir, const char *name, const void *data, size_t len)
{
	char path[PATH_MAX];
	struct stat st;
	int fd, err;

	if (!dir || !dir[0])
		dir = ".";
	if (!name || !name[0] || strchr(name, '/'))
		return -EINVAL;
	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >= sizeof(path))
		return -ENAMETOOLONG;
	/* a result file only: never through a link, never a device */
	fd = open(path, O_WRONLY | O_APPEND | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		err = -errno;
		goto out_close;
	}
	if (!S_ISREG(st.st_mode)) {
		err = -EINVAL;
		goto out_close;
	}
	err = write_all(fd, data, len);
	if (!err && fdatasync(fd))
		err = -errno;
	/* a full drive wrote a part: the file as it was */
	if (err && ftruncate(fd, st.st_size) == 0)
		(void)fdatasync(fd);
out_close:
	if (close(fd) && !err)
		err = -errno;
	return err;
}
