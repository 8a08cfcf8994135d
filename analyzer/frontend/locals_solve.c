/* analyzer/frontend/locals_solve.c — solving the points-to constraints of a
 * function's locals (locals_int.h): every set grows until each
 * constraint holds, and a local escapes when its address is in a set that
 * escapes.  The sets only grow, so this ends; functions have at most a
 * few hundred locals and some thousands of constraints. */
#include "locals_int.h"

int locals_each_atom(const uint64_t *s, int words, int (*fn)(void *, int), void *arg)
{
	for (int w = 0; w < words; w++)
		for (uint64_t bits = s[w]; bits; bits &= bits - 1) {
			int r = fn(arg, w * 64 + __builtin_ctzll(bits));

			if (r)
				return r;
		}
	return 0;
}

static void escape(struct locals *l, int n);
static void merge(struct locals *l, int into, int from);

struct step { struct locals *l; int kind, node; };

/* One atom of the set a constraint reads (see locals_solve). */
static int apply_atom(void *arg, int atom)
{
	struct step *st = arg;
	struct locals *l = st->l;
	int var = atom == OTHER || atom % 2 == 0 ? -1 : (atom - 1) / 2;

	switch (st->kind) {
	case C_ESC:                          /* the address of VAR escapes */
		if (var >= 0 && !l->esc[var]) {
			l->esc[var] = 1;
			l->changed = 1;
		}
		break;
	case C_LOAD:                         /* NODE gets what VAR holds */
		if (var >= 0)
			merge(l, st->node, var);
		else
			set_bit(l, st->node, OTHER);
		break;
	case C_STORE:                        /* VAR gets what NODE holds */
		if (var >= 0)
			merge(l, var, st->node);
		else
			escape(l, st->node);    /* into memory of no local */
		break;
	case C_CLOBBER:                      /* anything may be stored in VAR */
		if (var >= 0)
			set_bit(l, var, OTHER);
		break;
	}
	return 0;
}

/* Every address in node N's set escapes. */
static void escape(struct locals *l, int n)
{
	struct step st = { l, C_ESC, n };

	locals_each_atom(set_of(l, n), l->words, apply_atom, &st);
}

static void merge(struct locals *l, int into, int from)
{
	uint64_t *d = set_of(l, into);
	const uint64_t *s = set_of(l, from);

	for (int w = 0; w < l->words; w++)
		if (s[w] & ~d[w]) {
			d[w] |= s[w];
			l->changed = 1;
		}
}

void locals_solve(struct locals *l)
{
	do {
		l->changed = 0;
		for (int i = 0; i < l->ncs; i++) {
			const struct constraint *c = &l->cs[i];
			struct step st = { l, c->kind, c->a };

			switch (c->kind) {
			case C_COPY:
				merge(l, c->a, c->b);
				break;
			case C_LOAD:                 /* a = *b */
				locals_each_atom(set_of(l, c->b), l->words, apply_atom, &st);
				break;
			case C_STORE:                /* *a = b */
				st.node = c->b;
				locals_each_atom(set_of(l, c->a), l->words, apply_atom, &st);
				break;
			default:
				locals_each_atom(set_of(l, c->a), l->words, apply_atom, &st);
				break;
			}
		}
		/* What an escaping local holds can be read and replaced by
		 * anyone. */
		for (int i = 0; i < l->nvars; i++)
			if (l->esc[i]) {
				set_bit(l, i, OTHER);
				escape(l, i);
			}
	} while (l->changed);
}

