/* tests/unit/test_handshake.c — a reader learns from a flag only what its
 * access runs on (analyzer/findings/pairing.c, learns_from_the_flag): a
 * counter both sides bump on the way, whose value the reader's access does
 * not depend on, publishes nothing, so the writer needs no release for it;
 * the same counter waited for is a handshake.  Real scans, through
 * scan_helper.c. */
#include <criterion/criterion.h>

#include "scan_helper.h"

#define HEAD "#include <kcsan/lkmm.h>\n#include <pthread.h>\n" \
	"static int ready, data, seen, last; static atomic_t ops;\n"
/* The end of the reader (its read of 'data') and a main() running the
 * writer and the reader in two threads. */
#define READ_DATA_AND_RUN_BOTH \
	"	seen = data;\n" \
	"	return a;\n" \
	"}\n" \
	"int main(void) { pthread_t t[2];\n" \
	"  pthread_create(&t[0], 0, writer, 0); pthread_create(&t[1], 0, reader, 0);\n" \
	"  pthread_join(t[0], 0); pthread_join(t[1], 0); return seen; }\n"

/* The handshake is 'ready' (release, acquire); both sides count their
 * operation with an atomic increment on the way, the writer's before its
 * release.  The reader's full-barrier
 * increment orders its read of 'data' after it, and its value is tested,
 * but the read runs whatever the count was: the count publishes nothing. */
static const char counted_on_the_way[] = HEAD
	"static void *writer(void *a) {\n"
	"	data = 1;\n"
	"	atomic_inc(&ops);\n"
	"	smp_store_release(&ready, 1);\n"
	"	return a;\n"
	"}\n"
	"static void *reader(void *a) {\n"
	"	while (!smp_load_acquire(&ready))\n"
	"		;\n"
	"	if (atomic_inc_return(&ops) == 2)\n"
	"		last = 1;\n"
	READ_DATA_AND_RUN_BOTH;

/* The reader waits for the count instead: now it is the handshake, and
 * the writer's unordered increment does not publish 'data'. */
static const char counted_and_waited_for[] = HEAD
	"static void *writer(void *a) {\n"
	"	data = 1; /*W*/\n"
	"	atomic_inc(&ops);\n"
	"	return a;\n"
	"}\n"
	"static void *reader(void *a) {\n"
	"	while (atomic_inc_return(&ops) < 2)\n"
	"		;\n"
	READ_DATA_AND_RUN_BOTH;

Test(handshake, a_counter_bumped_on_the_way_publishes_nothing)
{
	expect_one(counted_on_the_way);
}

Test(handshake, the_same_counter_waited_for_publishes)
{
	expect_one(counted_and_waited_for);
}
