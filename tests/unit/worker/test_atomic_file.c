/* test_atomic_file.c -- a file written whole or not at all: made with its
 * missing folders, replaced whole, no temporary left beside it, an empty
 * file, a name with a slash refused, a file in the way of the folder; one
 * made of pieces (memory and a file of the folder copied whole), a piece's
 * file missing or named with a slash refused with the old file kept; an
 * append through a symbolic link or to a device refused, the file behind
 * it untouched. */
#include "atomic_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "check.h"

/* Whether file path holds exactly want. */
static int holds(const char *path, const char *want)
{
	char buf[64] = "";
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return strcmp(buf, want) == 0;
}

static long long file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) ? -1 : (long long)st.st_size;
}

int main(void)
{
	char tmp[256], dir[320], path[400], names[256], other[420];
	int rc;

	check_mkdtemp(tmp, sizeof(tmp), "atomic_file");
	snprintf(dir, sizeof(dir), "%s/a/b/c", tmp);
	rc = sc_atomic_file_write(dir, "x.txt", "old contents\n", 13);
	CHECK(rc == 0, "write into a missing directory: %d", rc);
	rc = sc_atomic_file_write(dir, "x.txt", "new\n", 4);
	CHECK(rc == 0, "replace: %d", rc);
	snprintf(path, sizeof(path), "%s/x.txt", dir);
	CHECK(holds(path, "new\n"), "replaced contents");
	check_list_dir(dir, names, sizeof(names));
	CHECK(!strcmp(names, "x.txt"), "no temporary left: \"%s\"", names);
	rc = sc_atomic_file_write(dir, "empty", "", 0);
	CHECK(rc == 0, "empty file: %d", rc);
	CHECK(sc_atomic_file_write(dir, "a/b", "x", 1) == -EINVAL, "name with a slash");
	CHECK(sc_atomic_file_write(dir, "", "x", 1) == -EINVAL, "empty name");

	/* pieces: memory, a file of the folder copied whole, memory */
	{
		struct sc_atomic_piece pc[] = {{.data = "head ", .len = 5},
					       {.file = "x.txt"},
					       {.data = "tail\n", .len = 5}};
		char big[200000];

		rc = sc_atomic_file_write_pieces(dir, "pieces", pc, 3);
		CHECK(rc == 0, "pieces: %d", rc);
		snprintf(path, sizeof(path), "%s/pieces", dir);
		CHECK(holds(path, "head new\ntail\n"), "pieces joined in order");
		pc[1].file = "missing";
		CHECK(sc_atomic_file_write_pieces(dir, "pieces", pc, 3) == -ENOENT,
		      "a piece's file that is not there");
		CHECK(holds(path, "head new\ntail\n"), "the old file kept after a failed write");
		pc[1].file = "../x.txt";
		CHECK(sc_atomic_file_write_pieces(dir, "pieces", pc, 3) == -EINVAL,
		      "a piece's file name with a slash");
		/* a file piece larger than one copy's buffer */
		memset(big, 'b', sizeof(big));
		CHECK(sc_atomic_file_write(dir, "big", big, sizeof(big)) == 0, "big");
		pc[1].file = "big";
		CHECK(sc_atomic_file_write_pieces(dir, "pieces", pc, 3) == 0, "big piece");
		CHECK(file_size(path) == 5 + sizeof(big) + 5, "big piece: %lld bytes",
		      (long long)file_size(path));
		check_list_dir(dir, names, sizeof(names));
		CHECK(!strstr(names, ".pieces"), "no temporary left: \"%s\"", names);
	}

	/* appends: to a regular file; never through a link nor to a device */
	snprintf(path, sizeof(path), "%s/outside", tmp);
	CHECK(sc_atomic_file_write(tmp, "outside", "secret\n", 7) == 0, "outside");
	CHECK(sc_atomic_file_append(dir, "x.txt", "more\n", 5) == 0, "append");
	snprintf(other, sizeof(other), "%s/x.txt", dir);
	CHECK(holds(other, "new\nmore\n"), "appended");
	snprintf(other, sizeof(other), "%s/link", dir);
	CHECK(symlink(path, other) == 0, "symlink");
	rc = sc_atomic_file_append(dir, "link", "x", 1);
	CHECK(rc == -ELOOP && holds(path, "secret\n"),
	      "an append through a link: %d, the file behind it untouched", rc);
	snprintf(other, sizeof(other), "%s/null", dir);
	if (mknod(other, S_IFCHR | 0600, makedev(1, 3)) == 0) {
		rc = sc_atomic_file_append(dir, "null", "x", 1);
		CHECK(rc == -EINVAL, "an append to a device: %d", rc);
	}

	/* a file in the way of the directory */
	snprintf(dir, sizeof(dir), "%s/a/b/c/x.txt", tmp);
	rc = sc_atomic_file_write(dir, "y", "x", 1);
	CHECK(rc == -ENOTDIR, "directory is a file: %d", rc);
	check_rmtree(tmp);
	return check_exit("test_atomic_file");
}
