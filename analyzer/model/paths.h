/* analyzer/model/paths.h — file names relative to the scanned tree.
 *
 * The scan records files by absolute path; findings, ids and reports
 * name them relative to the scan's root, so that they do not depend on
 * where the tree is checked out.  One rule for all of them, here. */
#ifndef KCSAN_PATHS_H
#define KCSAN_PATHS_H

/* The part of PATH below ROOT ("src/a.c" for "/r/src/a.c" under "/r" or
 * "/r/"), or NULL when PATH does not lie below ROOT.  A ROOT of "/" (or
 * empty, or NULL) has nothing below it: a path relative to the file
 * system's root says no more than the absolute one. */
const char *path_in_tree(const char *path, const char *root);

/* Absolute PATH without "." and ".." parts and repeated slashes
 * ("/t/a/b/../../api.h" is "/t/api.h"), as a new string.  Lexical, as
 * the compile database's paths are made: a header included as
 * "../../api.h" from two directories is one file, under one name. */
char *path_normalized(const char *path);

#endif
