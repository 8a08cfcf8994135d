/* cli/output.h — writing a report to a path the user named, without
 * damaging what is there.
 *
 *   regular file     replaced atomically (a temporary file beside it,
 *                    renamed over it when complete), keeping its mode and
 *                    owner; one with other hard links is rewritten in
 *                    place, so that every name still sees the new content
 *   symbolic link    its target is written (by the same rules); the link
 *                    stays a link
 *   character device written through (/dev/null, /dev/stdout, a terminal)
 *   FIFO             written through: its reader gets the report
 *   missing          created
 *   anything else    refused (a directory, a block device, a socket)
 *
 * A SQLite database — the --db file or any other — is refused: a report
 * written over it would destroy it. */
#ifndef KCSAN_CLI_OUTPUT_H
#define KCSAN_CLI_OUTPUT_H

#include <stddef.h>
#include <stdio.h>

struct output_file {
	FILE *stream;
	char *path;     /* the file finally written (a link's target) */
	char *tmp;      /* the temporary file to rename over PATH, or NULL */
};

/* Opens PATH for writing by the rules above; DB_PATH is the database the
 * report reads (refused as a target even under another name).  Returns 0,
 * or -1 with a one-line reason in ERR and nothing changed on disk. */
int output_open(struct output_file *o, const char *path, const char *db_path, char *err, size_t errlen);

/* Flushes and closes O; when FAILED is 0 and all went well, puts the
 * temporary file in place.  On any failure the target is left as it was
 * (when it was replaced atomically) and the temporary file removed.
 * Returns 0 or an errno value. */
int output_close(struct output_file *o, int failed);

#endif
