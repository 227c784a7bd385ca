/* guard.c -- whether a target may be written: opt-ins, signatures
 * (libblkid), the O_EXCL claim, and the last check at open (whether a
 * device or file is in use: guard_use.c). */
#include "guard.h"

#include <blkid.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "engine/engine.h"

/* Files and devices approved for writing in this process (one target per
 * rank, so a few are plenty). */
#define MAX_APPROVED 16

/* ---- which phases write ---- */

bool sc_guard_phase_writes(const struct sc_phase *ph)
{
	switch (ph->workload) {
	case SC_WORKLOAD_CHECKPOINT:
		return !ph->ckpt.restore && sc_engine_uses_files(ph->io.engine);
	case SC_WORKLOAD_INGEST:
	case SC_WORKLOAD_TRAINING:
		return true; /* lays out its dataset when it is not there */
	default:
		return sc_rw_writes(ph->io.rw) && !ph->io.verify_only &&
		       sc_engine_uses_files(ph->io.engine);
	}
}

int sc_guard_first_writer(const struct sc_plan *plan)
{
	for (uint32_t p = 0; p < plan->nphases; p++)
		if (sc_guard_phase_writes(&plan->phases[p]))
			return (int)p;
	return -1;
}

/* ---- approvals: what sc_guard_check let this process write ---- */

struct approval {
	bool block;
	dev_t rdev;       /* block */
	dev_t dev;        /* file */
	ino_t ino;
};

static struct approval approved[MAX_APPROVED];
static unsigned napproved;
static pthread_mutex_t approved_lock = PTHREAD_MUTEX_INITIALIZER;

static void approve(const struct stat *st)
{
	struct approval a = {.block = S_ISBLK(st->st_mode), .rdev = st->st_rdev,
			     .dev = st->st_dev, .ino = st->st_ino};

	pthread_mutex_lock(&approved_lock);
	if (napproved < MAX_APPROVED)
		approved[napproved++] = a;
	pthread_mutex_unlock(&approved_lock);
}

static bool is_approved(const struct stat *st)
{
	bool ok = false;

	pthread_mutex_lock(&approved_lock);
	for (unsigned i = 0; i < napproved && !ok; i++) {
		const struct approval *a = &approved[i];

		ok = S_ISBLK(st->st_mode) ? a->block && a->rdev == st->st_rdev
					  : !a->block && a->dev == st->st_dev && a->ino == st->st_ino;
	}
	pthread_mutex_unlock(&approved_lock);
	return ok;
}

/* Whether open file fd is the root of a mount (a file bind-mounted over
 * a name); false when the kernel cannot tell. */
static bool mount_root(int fd)
{
	struct statx stx;

	if (statx(fd, "", AT_EMPTY_PATH, STATX_TYPE, &stx) != 0)
		return false;
	return (stx.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT) &&
	       (stx.stx_attributes & STATX_ATTR_MOUNT_ROOT);
}

int sc_guard_check_fd(int fd, enum sc_target_kind kind, const char *path, char *why, size_t len)
{
	struct stat st;
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0 || fstat(fd, &st) != 0) {
		int err = -errno;

		snprintf(why, len, "%s: cannot examine the open file: %s", path, strerror(-err));
		return err;
	}
	if ((fl & O_ACCMODE) == O_RDONLY)
		return 0;
	if (S_ISBLK(st.st_mode) && !is_approved(&st)) {
		snprintf(why, len,
			 "%s: refusing to write: it is the block device %u:%u, which the destroy "
			 "guard did not approve for this run (did the path change after the "
			 "check?)",
			 path, major(st.st_rdev), minor(st.st_rdev));
		return -EPERM;
	}
	if (kind == SC_TARGET_FILE && (!S_ISREG(st.st_mode) || !is_approved(&st))) {
		snprintf(why, len,
			 "%s: refusing to write: it is not the file the destroy guard approved for "
			 "this run (did the path change after the check?)",
			 path);
		return -EPERM;
	}
	if (kind == SC_TARGET_DIR && S_ISREG(st.st_mode) && mount_root(fd)) {
		snprintf(why, len,
			 "%s: refusing to write: a file is mounted over it (a bind mount), so it "
			 "is not the run's own",
			 path);
		return -EPERM;
	}
	if (kind == SC_TARGET_DIR && S_ISREG(st.st_mode) && st.st_nlink > 1) {
		snprintf(why, len,
			 "%s: refusing to write: the file has other names (%ju hard links), so it "
			 "is not only the run's",
			 path, (uintmax_t)st.st_nlink);
		return -EPERM;
	}
	if (!S_ISBLK(st.st_mode) && !S_ISREG(st.st_mode)) {
		snprintf(why, len, "%s: refusing to write: neither a regular file nor a block device",
			 path);
		return -EPERM;
	}
	return 0;
}

/* ---- signatures ---- */

/* Appends ", " and item to buf (cut to len). */
static void list_add(char *buf, size_t len, const char *item)
{
	size_t used = strlen(buf);

	snprintf(buf + used, len - used, "%s%s", used ? ", " : "", item);
}

int sc_guard_signatures(int fd, char *found, size_t len)
{
	blkid_probe pr = blkid_new_probe();
	int rc, n = 0;

	found[0] = '\0';
	if (!pr)
		return -ENOMEM;
	if (blkid_probe_set_device(pr, fd, 0, 0) != 0) {
		rc = errno ? -errno : -EIO;
		goto out;
	}
	/* Every signature, as wipefs lists them: superblocks (filesystems,
	 * RAID and LVM members, swap, crypto) also with a bad checksum, and
	 * partition tables. */
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_USAGE |
						  BLKID_SUBLKS_BADCSUM);
	blkid_probe_enable_partitions(pr, 1);
	blkid_probe_set_partitions_flags(pr, BLKID_PARTS_FORCE_GPT);
	while ((rc = blkid_do_probe(pr)) == 0) {
		const char *type = NULL, *usage = NULL;
		char item[128];

		if (blkid_probe_lookup_value(pr, "TYPE", &type, NULL) == 0) {
			if (blkid_probe_lookup_value(pr, "USAGE", &usage, NULL) != 0)
				usage = "signature";
			snprintf(item, sizeof(item), "%s (%s)", type, usage);
		} else if (blkid_probe_lookup_value(pr, "PTTYPE", &type, NULL) == 0) {
			snprintf(item, sizeof(item), "a %s partition table", type);
		} else {
			continue;
		}
		if (!strstr(found, item))
			list_add(found, len, item);
		n++;
	}
	rc = rc < 0 ? -EIO : n > 0;
out:
	blkid_free_probe(pr);
	return rc;
}

/* ---- the check ---- */

/* Writes the head of every refusal: "targets.N (PATH, a KIND): ". */
static int head(char *why, size_t len, uint32_t target, const char *path, const char *kind)
{
	int n = snprintf(why, len, "targets.%u (%s, a %s): ", target, path, kind);

	return n < 0 ? 0 : (size_t)n >= len ? (int)len - 1 : n;
}

int sc_guard_check(const struct sc_plan *plan, uint32_t target, int *claim, char *why,
		   size_t len)
{
	const struct sc_target_spec *t = &plan->targets[target];
	int w = sc_guard_first_writer(plan), fd = -1, cfd = -1, rc;
	const char *kind;
	char reason[2048];
	struct stat st, fst;
	size_t h;

	if (claim)
		*claim = -1;
	if (stat(t->path, &st) != 0)
		return 0; /* nothing there to destroy: a directory to create */
	if (w < 0 || (!S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode)))
		return 0;
	kind = S_ISBLK(st.st_mode) ? "block device" : "file";
	h = (size_t)head(why, len, target, t->path, kind);
	if (!t->allow_destroy || !plan->allow_destroy) {
		snprintf(why + h, len - h,
			 "phase %s writes to it, which destroys what it holds; refused: %s",
			 plan->phases[w].name,
			 t->allow_destroy
			     ? "the target says allow_destroy: true but the command line lacks "
			       "--allow-destroy (add it if its data may go)"
			     : "set allow_destroy: true on that target and add --allow-destroy to "
			       "the command line, if its data may go");
		return -EPERM;
	}
	if (S_ISREG(st.st_mode)) {
		fd = open(t->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
		if (fd >= 0 && mount_root(fd)) {
			snprintf(why + h, len - h,
				 "refused although both opt-ins are given: a file is mounted over "
				 "it (a bind mount), so writing it would write that file: name "
				 "the file itself, not a mount of it");
			close(fd);
			return -EPERM;
		}
		if (fd >= 0)
			close(fd);
		fd = -1;
		rc = sc_guard_file_in_use("", &st, reason, sizeof(reason));
		if (rc) {
			snprintf(why + h, len - h, "refused although both opt-ins are given: %s",
				 reason);
			return rc;
		}
		approve(&st);
		return 0;
	}
	/* Everything below looks at one open descriptor of the device, so a
	 * path that changes meanwhile cannot make us approve another one. */
	fd = open(t->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0 || fstat(fd, &fst) != 0 || !S_ISBLK(fst.st_mode) || fst.st_rdev != st.st_rdev) {
		rc = fd < 0 ? -errno : -EAGAIN;
		snprintf(why + h, len - h, "cannot examine it (%s)",
			 fd < 0 ? strerror(-rc) : "it changed while being checked");
		goto out;
	}
	rc = sc_guard_device_in_use("", fst.st_rdev, t->path, reason, sizeof(reason));
	if (rc) {
		snprintf(why + h, len - h, "refused although both opt-ins are given: %s", reason);
		goto out;
	}
	if (claim) {
		/* Held until the run ends: no mount, mkfs, md, dm or another
		 * O_EXCL opener can take the device from under the run. */
		cfd = open(t->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_EXCL);
		if (cfd < 0) {
			rc = -errno;
			snprintf(why + h, len - h,
				 "refused although both opt-ins are given: it cannot be opened "
				 "exclusively (O_EXCL: %s): something holds it (a mount in another "
				 "mount namespace, device-mapper, md, LVM, mkfs or another "
				 "benchmark), or two targets of this host name the same device",
				 strerror(-rc));
			goto out;
		}
		if (fstat(cfd, &st) != 0 || st.st_rdev != fst.st_rdev) {
			rc = -EAGAIN;
			snprintf(why + h, len - h, "cannot examine it (it changed while being checked)");
			goto out;
		}
	}
	rc = sc_guard_signatures(fd, reason, sizeof(reason));
	if (rc < 0) {
		snprintf(why + h, len - h,
			 "cannot read its signatures (%s), so it is not known to be unused",
			 strerror(-rc));
		goto out;
	}
	if (rc > 0 && !t->wipe_signatures_ok) {
		snprintf(why + h, len - h,
			 "refused although both opt-ins are given: it carries %s (libblkid; wipefs "
			 "-n %s lists them); if that may be overwritten, set wipe_signatures_ok: "
			 "true on that target",
			 reason, t->path);
		rc = -EPERM;
		goto out;
	}
	rc = 0;
	approve(&fst);
	if (claim) {
		*claim = cfd;
		cfd = -1;
	}
	why[0] = '\0';
out:
	if (cfd >= 0)
		close(cfd);
	if (fd >= 0)
		close(fd);
	return rc;
}
