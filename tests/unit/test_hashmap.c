/* tests/unit/test_hashmap.c — the analyser's one hash map
 * (analyzer/model/hashmap.c): number and string keys, through many
 * growths, keep their values; absent keys are absent; string keys are
 * compared, not only hashed. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/model/hashmap.h"
#include "analyzer/model/pairset.h"

#define N 5000

Test(hashmap, number_keys_survive_growth)
{
	struct hashmap m = { 0 };
	int added;

	for (int i = 0; i < N; i++) {
		*hashmap_put(&m, hashmap_pair(i, i % 7), &added) = 3 * i;
		cr_assert(added);
	}
	cr_assert_eq(*hashmap_put(&m, hashmap_pair(10, 3), &added), 30);
	cr_assert(!added, "a key is added once");
	for (int i = 0; i < N; i++) {
		intptr_t *v = hashmap_get(&m, hashmap_pair(i, i % 7));

		cr_assert(v && *v == 3 * i, "key %d", i);
	}
	cr_assert_null(hashmap_get(&m, hashmap_pair(3, 4)), "(3, 4) was never put");
	cr_assert_eq(m.used, N);
	hashmap_free(&m);
	cr_assert_null(hashmap_get(&m, 1), "an empty map has nothing");
}

Test(hashmap, string_keys_are_compared_not_only_hashed)
{
	struct hashmap m = { 0 };
	static char keys[N][24];

	for (int i = 0; i < N; i++) {
		snprintf(keys[i], sizeof keys[i], "c:@S@n%d@FI@x", i);
		*hashmap_put_str(&m, keys[i], NULL) = i;
	}
	for (int i = 0; i < N; i++) {
		char probe[24];

		snprintf(probe, sizeof probe, "c:@S@n%d@FI@x", i);   /* another copy */
		cr_assert_eq(*hashmap_get_str(&m, probe), i);
	}
	cr_assert_null(hashmap_get_str(&m, "c:@S@n@FI@x"));
	hashmap_free(&m);
}

Test(hashmap, fnv1a_known_values)
{
	/* the published FNV-1a 64 test vectors */
	cr_assert_eq(fnv1a(FNV1A_START, "", 0), 0xcbf29ce484222325ULL);
	cr_assert_eq(fnv1a(FNV1A_START, "a", 1), 0xaf63dc4c8601ec8cULL);
	cr_assert_eq(fnv1a(FNV1A_START, "foobar", 6), 0x85944171f73967e8ULL);
}

Test(hashmap, pairset_replaces_and_misses)
{
	struct pairset s = { 0 };

	cr_assert_eq(pairset_get(&s, 1, 2), -1);
	pairset_put(&s, 1, 2, 5);
	pairset_put(&s, 2, 1, 6);
	pairset_put(&s, 1, 2, 7);
	cr_assert_eq(pairset_get(&s, 1, 2), 7);
	cr_assert_eq(pairset_get(&s, 2, 1), 6);
	pairset_free(&s);
}

/* A grouped set (pairset.h) holds what a flat one holds, whatever the
 * order of the asks: runs of one group (its last group remembered), groups
 * added while another is remembered, and misses in a group or of one. */
Test(hashmap, grouped_pairsets_hold_what_flat_ones_do)
{
	enum pairset_layout layouts[] = { PAIRSET_BY_FIRST, PAIRSET_BY_SECOND };

	for (int l = 0; l < 2; l++) {
		struct pairset flat = { 0 }, s = { .layout = layouts[l] };

		for (int i = 0; i < N; i++) {
			int a = i % 37, b = (i * 7919) % 1000;

			pairset_put(&flat, a, b, i);
			pairset_put(&s, a, b, i);
			cr_assert_eq(pairset_get(&s, b % 37, a), pairset_get(&flat, b % 37, a));
		}
		for (int a = 0; a < 40; a++)
			for (int b = 0; b < 1000; b++)
				cr_assert_eq(pairset_get(&s, a, b), pairset_get(&flat, a, b), "(%d, %d)", a, b);
		cr_assert_eq(pairset_get(&s, 38, 1), -1, "a group never made");
		pairset_free(&s);
		pairset_free(&flat);
		cr_assert_eq(pairset_get(&s, 1, 2), -1, "a freed set has nothing");
	}
}
