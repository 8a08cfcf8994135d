/* analyzer/findings/suppress.c — finds `kcsan-scan: ignore` markers in comments and
 * stores them (see suppress.h).
 *
 * The lexer knows just enough C to tell a comment from code: string and
 * character literals (with backslash escapes) are skipped, so a marker in
 * a string is not a suppression; `//` comments end at a newline that is
 * not escaped; `/ *` comments end at the first `* /`.  It works on the raw
 * bytes, so a marker inside a comment that the preprocessor removes (in
 * an #if 0 block) still counts: it is where a reader sees it. */
#include "suppress.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "analyzer/model/facts.h"

#define MARKER "kcsan-scan:"

static int is_kind_char(char c)
{
	return isalnum((unsigned char)c) || c == '-' || c == '_';
}

static void add_kind(struct suppression *s, const char *start, size_t n)
{
	s->kinds = xrealloc(s->kinds, (size_t)(s->nkinds + 1) * sizeof *s->kinds);
	s->kinds[s->nkinds] = xcalloc(n + 1, 1);
	memcpy(s->kinds[s->nkinds++], start, n);
}

/* Parses the markers in one comment, C[0..N), which starts on LINE at
 * column COL. */
static void scan_comment(const char *c, size_t n, int line, int col, struct suppression_list *out)
{
	for (size_t i = 0; i < n; i++) {
		size_t j;
		struct suppression *s;

		if (c[i] == '\n') {
			line++;
			col = 1;
			continue;
		}
		if (n - i < sizeof MARKER - 1 || memcmp(c + i, MARKER, sizeof MARKER - 1) != 0) {
			col++;
			continue;
		}
		j = i + sizeof MARKER - 1;
		while (j < n && (c[j] == ' ' || c[j] == '\t'))
			j++;
		if (n - j < 6 || memcmp(c + j, "ignore", 6) != 0 || (j + 6 < n && is_kind_char(c[j + 6]))) {
			col++;
			continue;
		}
		grow(&out->items, &out->cap, out->n + 1, sizeof *out->items);
		s = &out->items[out->n++];
		memset(s, 0, sizeof *s);
		s->line = line;
		s->col = col;
		j += 6;
		if (j < n && c[j] == '(') {
			size_t close = j + 1;

			while (close < n && c[close] != ')' && c[close] != '\n')
				close++;
			for (size_t k = j + 1; k < close;) {
				size_t start;

				while (k < close && !is_kind_char(c[k]))
					k++;
				start = k;
				while (k < close && is_kind_char(c[k]))
					k++;
				if (k > start)
					add_kind(s, c + start, k - start);
			}
		}
		col += (int)(j - i);
		i = j - 1;
	}
}

void suppress_parse(const char *text, size_t len, struct suppression_list *out)
{
	int line = 1, col = 1;

	for (size_t i = 0; i < len;) {
		char ch = text[i];

		if (ch == '"' || ch == '\'') {
			/* A literal: up to the matching quote or the end of the line. */
			i++;
			col++;
			while (i < len && text[i] != ch && text[i] != '\n') {
				if (text[i] == '\\' && i + 1 < len && text[i + 1] != '\n') {
					i++;
					col++;
				}
				i++;
				col++;
			}
			if (i < len && text[i] == ch) {
				i++;
				col++;
			}
		} else if (ch == '/' && i + 1 < len && (text[i + 1] == '/' || text[i + 1] == '*')) {
			int block = text[i + 1] == '*';
			size_t start = i, end = i + 2;

			if (block) {
				while (end < len && !(text[end] == '*' && end + 1 < len && text[end + 1] == '/'))
					end++;
				end = end < len ? end + 2 : len;
			} else {
				while (end < len && !(text[end] == '\n' && text[end - 1] != '\\'))
					end++;
			}
			scan_comment(text + start, end - start, line, col, out);
			for (size_t k = start; k < end; k++) {
				if (text[k] == '\n') {
					line++;
					col = 1;
				} else {
					col++;
				}
			}
			i = end;
		} else {
			if (ch == '\n') {
				line++;
				col = 1;
			} else {
				col++;
			}
			i++;
		}
	}
}

void suppress_list_free(struct suppression_list *l)
{
	for (int i = 0; i < l->n; i++) {
		for (int k = 0; k < l->items[i].nkinds; k++)
			free(l->items[i].kinds[k]);
		free(l->items[i].kinds);
	}
	free(l->items);
	memset(l, 0, sizeof *l);
}

static int store_file(sqlite3_stmt *ins, long long file_id, const char *path)
{
	struct suppression_list l = { 0 };
	FILE *f = fopen(path, "rb");
	char *text;
	size_t len;
	int rc = 0;

	if (!f)         /* a file that cannot be read any more has none */
		return 0;
	text = read_stream(f, &len);
	fclose(f);
	if (!text)
		return 0;
	suppress_parse(text, len, &l);
	free(text);
	for (int i = 0; i < l.n && rc == 0; i++) {
		const struct suppression *s = &l.items[i];

		for (int k = 0; k < (s->nkinds ? s->nkinds : 1) && rc == 0; k++) {
			sqlite3_bind_int64(ins, 1, file_id);
			sqlite3_bind_int(ins, 2, s->line);
			sqlite3_bind_int(ins, 3, s->col);
			if (s->nkinds)
				sqlite3_bind_text(ins, 4, s->kinds[k], -1, SQLITE_TRANSIENT);
			else
				sqlite3_bind_null(ins, 4);
			if (sqlite3_step(ins) != SQLITE_DONE)
				rc = -1;
			sqlite3_reset(ins);
		}
	}
	suppress_list_free(&l);
	return rc;
}

int suppress_refresh(sqlite3 *db, char *err, size_t errlen)
{
	sqlite3_stmt *files, *ins;
	int rc, status = 0;

	if (kdb_exec(db, "BEGIN IMMEDIATE; DELETE FROM suppressions", err, errlen) < 0) {
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
		return -1;
	}
	files = kdb_prepare(db, "SELECT id, path FROM files WHERE id IN (SELECT DISTINCT file_id FROM events)");
	ins = kdb_prepare(db, "INSERT INTO suppressions(file_id, line, col, kind) VALUES (?,?,?,?)");
	while (status == 0 && (rc = sqlite3_step(files)) == SQLITE_ROW)
		status = store_file(ins, sqlite3_column_int64(files, 0), (const char *)sqlite3_column_text(files, 1));
	if (status == 0 && rc != SQLITE_DONE)
		status = -1;
	if (status < 0)
		snprintf(err, errlen, "cannot store the suppressions: %s", sqlite3_errmsg(db));
	sqlite3_finalize(files);
	sqlite3_finalize(ins);
	if (status == 0 && kdb_exec(db, "COMMIT", err, errlen) < 0)
		status = -1;
	if (status < 0)
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	return status;
}
