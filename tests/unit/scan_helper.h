/* tests/unit/scan_helper.h — run the real scanner (libclang, SQLite) over
 * small C sources written to a temporary directory and compare its findings
 * with markers written in the sources:
 *     / *W* /  missing-release expected on this line (the plain access)
 *     / *R* /  missing-acquire expected on this line (the plain read)
 *     / *B* /  unpaired-barrier expected on this line (the barrier)
 *     / *D* /  data-race expected on this line (the unprotected access)
 *     / *F* /  missing-full-barrier expected on this line (the store)
 * (written without the spaces).  A source with no marker must give no
 * finding.  Every case is a real scan into a real database. */
#ifndef KCSAN_TEST_SCAN_HELPER_H
#define KCSAN_TEST_SCAN_HELPER_H

struct src {
	const char *name;   /* file name, e.g. "writer.c" */
	const char *text;
};

/* Scans the sources together (one tree) and checks every marker against
 * the findings; fails the current Criterion test with a description of the
 * difference.  EXTRA_PROFILE may be NULL or a profile text. */
void expect_findings(const struct src *srcs, int n, const char *extra_profile);

/* The findings of the last expect_findings/expect_one, one a line:
 * "message|variable|flag|fix" (for tests of the wording). */
const char *last_findings_text(void);

/* Convenience for one file. */
void expect_one(const char *text);

/* Runs the front end alone (real libclang, the built-in profiles, no
 * database) over TEXT, one C file, into FACTS; the caller facts_free()s
 * them.  For tests of what the front end records. */
struct tu_facts;
void extract_text(const char *text, struct tu_facts *facts);

/* A main() that starts two threads running FN (a function name, as a
 * string literal) and joins them: the end of many test programs. */
#define MAIN_TWO_THREADS(fn) \
	"int main(void) { pthread_t t[2]; for (int i = 0; i < 2; i++) pthread_create(&t[i], 0, " fn ", 0);\n" \
	"  for (int i = 0; i < 2; i++) pthread_join(t[i], 0); return 0; }\n"

#endif
