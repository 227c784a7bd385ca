/* test_atomic_file.c -- a file written whole or not at all: made with its
 * missing folders, replaced whole, no temporary left beside it, an empty
 * file, a name with a slash refused, a file in the way of the folder. */
#include "atomic_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

int main(void)
{
	char tmp[256], dir[320], path[400], names[256];
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

	/* a file in the way of the directory */
	snprintf(dir, sizeof(dir), "%s/a/b/c/x.txt", tmp);
	rc = sc_atomic_file_write(dir, "y", "x", 1);
	CHECK(rc == -ENOTDIR, "directory is a file: %d", rc);
	check_rmtree(tmp);
	return check_exit("test_atomic_file");
}
