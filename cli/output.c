/* cli/output.c — writing a report over a path without damaging what is
 * there (see output.h for the rules and why). */
#include "output.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analyzer/model/facts.h"   /* xstrdup */

/* Does the file behind FD start with SQLite's header?  (Reads with
 * pread: the offset stays where it was.) */
static int is_sqlite(int fd)
{
	static const char magic[16] = "SQLite format 3";
	char head[16];

	return pread(fd, head, sizeof head, 0) == (ssize_t)sizeof head && memcmp(head, magic, sizeof head) == 0;
}

/* Is the file ST the database DB_PATH (or one of its -wal/-shm files)? */
static int is_database(const struct stat *st, const char *db_path)
{
	static const char *const suffixes[] = { "", "-wal", "-shm", "-journal" };
	struct stat ds;

	if (!db_path)
		return 0;
	for (size_t i = 0; i < sizeof suffixes / sizeof *suffixes; i++) {
		char *p = malloc(strlen(db_path) + 10);
		int same;

		if (!p)
			return 0;
		sprintf(p, "%s%s", db_path, suffixes[i]);
		same = stat(p, &ds) == 0 && ds.st_dev == st->st_dev && ds.st_ino == st->st_ino;
		free(p);
		if (same)
			return 1;
	}
	return 0;
}

/* A temporary file in the directory of PATH with mode MODE (and, when we
 * may, owner UID:GID).  Returns its descriptor and sets *TMP. */
static int make_temp(const char *path, mode_t mode, const struct stat *owner, char **tmp)
{
	const char *slash = strrchr(path, '/');
	size_t dirlen = slash ? (size_t)(slash - path + 1) : 0;
	int fd;

	*tmp = malloc(strlen(path) + sizeof ".tmp.XXXXXX" + 2);
	if (!*tmp)
		return -1;
	memcpy(*tmp, path, dirlen);
	sprintf(*tmp + dirlen, ".%s.tmp.XXXXXX", path + dirlen);
	fd = mkstemp(*tmp);
	if (fd < 0) {
		free(*tmp);
		*tmp = NULL;
		return -1;
	}
	/* The owner first: fchown may clear set-id bits that fchmod sets. */
	if (owner && fchown(fd, owner->st_uid, owner->st_gid) < 0)
		(void)0;        /* not ours to give away: the file stays ours */
	if (fchmod(fd, mode) < 0) {
		int e = errno;

		close(fd);
		unlink(*tmp);
		free(*tmp);
		*tmp = NULL;
		errno = e;
		return -1;
	}
	return fd;
}

int output_open(struct output_file *o, const char *path, const char *db_path, char *err, size_t errlen)
{
	struct stat st;
	char *target;
	int fd = -1, exists;
	mode_t mask;

	memset(o, 0, sizeof *o);
	/* A link is followed to what it names; a dangling one to the file it
	 * would create. */
	target = realpath(path, NULL);
	if (!target) {
		struct stat ls;

		target = xstrdup(path);
		if (lstat(path, &ls) == 0 && S_ISLNK(ls.st_mode)) {
			/* Dangling: opening through the link creates its target. */
			mask = umask(0);
			umask(mask);
			fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOCTTY, 0666 & ~mask);
			goto opened;
		}
	}
	exists = stat(target, &st) == 0;
	if (!exists && errno != ENOENT) {
		snprintf(err, errlen, "cannot write '%s': %s", path, strerror(errno));
		free(target);
		return -1;
	}
	if (exists && S_ISREG(st.st_mode) && is_database(&st, db_path)) {
		snprintf(err, errlen, "refusing to write the report over the database '%s'", path);
		free(target);
		return -1;
	}
	if (exists && (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))) {
		fd = open(target, O_WRONLY | O_NOCTTY);
	} else if (exists && !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "cannot write '%s': %s", path,
			 S_ISDIR(st.st_mode) ? "it is a directory" : "not a regular file, a device or a FIFO");
		free(target);
		return -1;
	} else if (exists) {
		fd = open(target, O_RDONLY | O_NOCTTY);
		if (fd >= 0 && is_sqlite(fd)) {
			close(fd);
			snprintf(err, errlen, "refusing to write the report over the SQLite database '%s'", path);
			free(target);
			return -1;
		}
		if (fd >= 0)
			close(fd);
		if (st.st_nlink > 1) {
			/* Renaming would cut the file off from its other names. */
			fd = open(target, O_WRONLY | O_TRUNC | O_NOCTTY);
		} else {
			fd = make_temp(target, st.st_mode & 07777, &st, &o->tmp);
		}
	} else {
		mask = umask(0);
		umask(mask);
		fd = make_temp(target, 0666 & ~mask, NULL, &o->tmp);
	}
opened:
	if (fd < 0 || !(o->stream = fdopen(fd, "w"))) {
		int e = errno;

		snprintf(err, errlen, "cannot write '%s': %s", path, strerror(e));
		if (fd >= 0)
			close(fd);
		if (o->tmp) {
			unlink(o->tmp);
			free(o->tmp);
			o->tmp = NULL;
		}
		free(target);
		return -1;
	}
	o->path = target;
	return 0;
}

int output_close(struct output_file *o, int failed)
{
	if (fflush(o->stream) != 0 && !failed)
		failed = errno ? errno : EIO;
	if (o->tmp && !failed && fsync(fileno(o->stream)) != 0)
		failed = errno;
	if (fclose(o->stream) != 0 && !failed)
		failed = errno ? errno : EIO;
	if (o->tmp) {
		if (!failed && rename(o->tmp, o->path) != 0)
			failed = errno;
		if (failed)
			unlink(o->tmp);
		free(o->tmp);
	}
	free(o->path);
	memset(o, 0, sizeof *o);
	return failed;
}
