/* analyzer/frontend/extract_asm_text.c — the text of an asm statement, as
 * clang prints it: its template and operands taken apart, what its
 * instructions do (an atomic read-modify-write, a fence, neither), and
 * which operands name memory.  Pure string work, no libclang:
 * extract_asm.c asks it about the statements it walks.
 *
 * An atomic instruction: x86's lock prefix, or xchg (locked by itself);
 * arm64's exclusive pairs and LSE atomics (their a and l forms acquire and
 * release); ARMv7's ldrex/strex, PowerPC's lwarx/stwcx. and RISC-V's AMOs
 * and lr/sc (.aq, .rl).  A fence: mfence, sfence, lfence, dmb and dsb with
 * their options, sync, lwsync, eieio, RISC-V's fence, and an x86 locked
 * instruction that names no operand in memory (lock; addl $0, (%rsp)). */
#include "extract_asm_text.h"
#include "analyzer/model/facts.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

void asm_parts_free(struct asm_parts *p)
{
	for (int i = 0; i < p->nops; i++) {
		free(p->ops[i].constraint);
		free(p->ops[i].expr);
	}
	free(p->ops);
	free(p->template);
	memset(p, 0, sizeof *p);
}

static const char *skip_space(const char *s)
{
	while (*s && isspace((unsigned char)*s))
		s++;
	return s;
}

/* The end of the string literal that starts at S (its closing quote's
 * successor), or NULL if it does not close. */
static const char *literal_end(const char *s)
{
	char q = *s++;

	for (; *s && *s != q; s++)
		if (*s == '\\' && s[1])
			s++;
	return *s ? s + 1 : NULL;
}

/* Appends the contents of the literals at *S (adjacent ones joined, as
 * they are left escaped) to a new string; *S moves past them. */
static char *read_literals(const char **s)
{
	char *out = xstrdup("");
	const char *p = skip_space(*s);

	while (*p == '"') {
		const char *e = literal_end(p);
		char *joined;

		if (!e)
			break;
		joined = xasprintf("%s%.*s", out, (int)(e - p - 2), p + 1);
		free(out);
		out = joined;
		p = skip_space(e);
	}
	*s = p;
	return out;
}

/* The end of the parenthesised text at S ('(' ... ')'), literals
 * skipped, or NULL. */
static const char *group_end(const char *s)
{
	int depth = 0;

	for (; *s; s++) {
		if (*s == '"' || *s == '\'') {
			const char *e = literal_end(s);

			if (!e)
				return NULL;
			s = e - 1;
		} else if (*s == '(') {
			depth++;
		} else if (*s == ')' && --depth == 0) {
			return s + 1;
		}
	}
	return NULL;
}

/* Reads the operands' list at *S (up to a ':' or the closing ')') into
 * P; *S moves to that delimiter.  Returns -1 on text it cannot read. */
static int read_operands(const char **s, int output, struct asm_parts *p)
{
	const char *q = skip_space(*s);

	while (*q && *q != ':' && *q != ')') {
		struct asm_operand op = { output, NULL, NULL };
		const char *e;

		if (*q == '[') {                       /* [name] */
			q = strchr(q, ']');
			if (!q)
				return -1;
			q = skip_space(q + 1);
		}
		if (*q != '"')
			return -1;
		op.constraint = read_literals(&q);
		if (*q != '(' || !(e = group_end(q))) {
			free(op.constraint);
			return -1;
		}
		op.expr = xasprintf("%.*s", (int)(e - q - 2), q + 1);
		grow(&p->ops, &p->cap, p->nops + 1, sizeof *p->ops);
		p->ops[p->nops++] = op;
		q = skip_space(e);
		if (*q == ',')
			q = skip_space(q + 1);
	}
	*s = q;
	return 0;
}

int asm_parse(const char *text, struct asm_parts *out)
{
	const char *s = skip_space(text);

	memset(out, 0, sizeof *out);
	if (strncmp(s, "asm", 3) != 0)
		return -1;
	s += 3;
	/* qualifiers: volatile, inline, goto (clang prints them spelled so) */
	for (;;) {
		s = skip_space(s);
		if (strncmp(s, "volatile", 8) == 0)
			s += 8;
		else if (strncmp(s, "inline", 6) == 0)
			s += 6;
		else if (strncmp(s, "goto", 4) == 0)
			s += 4;
		else
			break;
	}
	if (*s != '(')
		return -1;
	s++;
	out->template = read_literals(&s);
	/* outputs, then inputs; the clobbers and labels are not needed */
	for (int section = 0; section < 2 && *s == ':'; section++) {
		s++;
		if (read_operands(&s, section == 0, out) < 0) {
			asm_parts_free(out);
			return -1;
		}
	}
	return 0;
}

/* ---- the instructions ---- */

/* Fences, by mnemonic and (for arm64's dmb and dsb) option. */
static enum ord fence_of(const char *mn, const char *rest)
{
	if (strcmp(mn, "mfence") == 0 || strcmp(mn, "sync") == 0 || strcmp(mn, "hwsync") == 0)
		return ORD_FULL;
	if (strcmp(mn, "sfence") == 0 || strcmp(mn, "eieio") == 0)
		return ORD_WMB;
	if (strcmp(mn, "lfence") == 0)
		return ORD_RMB;
	if (strcmp(mn, "lwsync") == 0)
		return ORD_ACQ_REL;
	if (strcmp(mn, "dmb") == 0 || strcmp(mn, "dsb") == 0) {
		/* dmb ish, dmb sy: full; the st variants order stores, the ld
		 * variants loads against everything after */
		if (strstr(rest, "st"))
			return ORD_WMB;
		if (strstr(rest, "ld"))
			return ORD_RMB;
		return ORD_FULL;
	}
	if (strcmp(mn, "fence") == 0) {        /* RISC-V: fence rw,rw; fence w,w */
		if (!*rest || strncmp(rest, "rw,rw", 5) == 0 || strncmp(rest, "iorw,iorw", 9) == 0)
			return ORD_FULL;
		if (strncmp(rest, "w,w", 3) == 0)
			return ORD_WMB;
		if (strncmp(rest, "r,r", 3) == 0 || strncmp(rest, "r,rw", 4) == 0)
			return ORD_RMB;
	}
	return ORD_NONE;
}

/* Which fence is strongest, for a template with several: a full one, then
 * the others in a fixed order. */
static int fence_rank(enum ord o)
{
	switch (o) {
	case ORD_FULL: return 4;
	case ORD_WMB: return 3;
	case ORD_RMB: return 2;
	case ORD_ACQ_REL: return 1;
	default: return 0;
	}
}

static int starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* An arm64 atomic: an exclusive load or store, or an LSE atomic.  Sets
 * *ACQ and *REL from the mnemonic's a and l. */
static int arm64_atomic(const char *mn, int *acq, int *rel)
{
	static const char *const lse[] = { "cas", "swp", "ldadd", "ldclr", "ldeor", "ldset",
					   "ldsmax", "ldsmin", "ldumax", "ldumin" };

	if (starts(mn, "ldxr") || starts(mn, "ldxp") || starts(mn, "stxr") || starts(mn, "stxp"))
		return 1;
	if (starts(mn, "ldaxr") || starts(mn, "ldaxp")) {
		*acq = 1;
		return 1;
	}
	if (starts(mn, "stlxr") || starts(mn, "stlxp")) {
		*rel = 1;
		return 1;
	}
	for (size_t i = 0; i < sizeof lse / sizeof *lse; i++)
		if (starts(mn, lse[i])) {
			/* casal, swpa, ldaddl, casalb: a and l after the base */
			const char *tail = mn + strlen(lse[i]);

			*acq |= tail[0] == 'a';
			*rel |= tail[0] == 'l' || (tail[0] == 'a' && tail[1] == 'l');
			return 1;
		}
	return 0;
}

/* Exclusive loads and stores of the other architectures (ARMv7's ldrex,
 * PowerPC's lwarx/stwcx., RISC-V's lr/sc and AMOs). */
static int other_atomic(const char *mn)
{
	static const char *const v[] = { "ldrex", "strex", "lwarx", "ldarx", "lbarx", "lharx",
					 "stwcx.", "stdcx.", "stbcx.", "sthcx.", "lr.w", "lr.d",
					 "sc.w", "sc.d", "amo" };

	for (size_t i = 0; i < sizeof v / sizeof *v; i++)
		if (starts(mn, v[i]))
			return 1;
	return 0;
}

/* An arithmetic mnemonic, between an exclusive load and store: the RMW
 * counts (tally.c) rather than claims. */
static int arithmetic(const char *mn)
{
	return starts(mn, "add") || starts(mn, "sub") || starts(mn, "inc") || starts(mn, "dec");
}

/* The next word of *P (nul-terminated in place), or NULL at its end; *P
 * moves past it and the spaces after it. */
static char *next_word(char **p)
{
	char *w = (char *)skip_space(*p);
	size_t n = strcspn(w, " \t");

	if (!*w)
		return NULL;
	*p = (char *)skip_space(w + n + (w[n] != '\0'));
	w[n] = '\0';
	return w;
}

void asm_atomicity_of(const char *template, struct asm_atomicity *out)
{
	char *t = xstrdup(template ? template : "");
	int locked = 0, acq = 0, rel = 0, full_rmw = 0;
	enum ord fence = ORD_NONE;
	char *rmw = NULL, *arith = NULL;

	memset(out, 0, sizeof *out);
	/* One instruction per piece: ';', newlines written "\n" in the
	 * printed literal, or real ones; a "\t" is a space. */
	for (char *p = t; *p; p++) {
		if (*p == '\\' && (p[1] == 'n' || p[1] == 't')) {
			p[0] = p[1] == 'n' ? ';' : ' ';
			p[1] = ' ';
		} else {
			*p = (char)tolower((unsigned char)*p);
		}
	}
	for (char *save = NULL, *ins = strtok_r(t, ";\n", &save); ins; ins = strtok_r(NULL, ";\n", &save)) {
		char *rest = ins, *mn = next_word(&rest);
		enum ord f;

		while (mn && mn[strlen(mn) - 1] == ':')
			mn = next_word(&rest);      /* a label ("1:") */
		if (!mn)
			continue;
		out->instructions++;
		if (strcmp(mn, "lock") == 0) {
			/* x86: "lock; cmpxchgl ..." or "lock cmpxchgl ..." */
			locked = 1;
			if ((mn = next_word(&rest)) != NULL && !rmw)
				rmw = xstrdup(mn);
			continue;
		}
		if (locked && !rmw) {
			rmw = xstrdup(mn);          /* the instruction after "lock;" */
			continue;
		}
		if (starts(mn, "xchg") && !rmw) {
			full_rmw = 1;               /* x86: locked by itself */
			rmw = xstrdup(mn);
			/* (with memory: an operand, or an address in the text;
			 * xchg %%ebx, %1 around cpuid swaps two registers) */
			out->register_xchg = !strchr(rest, '(');
			continue;
		}
		if (arm64_atomic(mn, &acq, &rel) || other_atomic(mn)) {
			/* RISC-V: amoswap.w.aq, sc.d.rl, amoadd.w.aqrl */
			acq |= strstr(mn, ".aq") != NULL;
			rel |= strstr(mn, ".rl") != NULL || strstr(mn, ".aqrl") != NULL;
			free(rmw);
			rmw = xstrdup(mn);          /* the last: the store's */
			continue;
		}
		if (rmw && !arith && arithmetic(mn))
			arith = xstrdup(mn);
		f = fence_of(mn, rest);
		if (fence_rank(f) > fence_rank(fence))
			fence = f;
	}
	if (locked)
		full_rmw = 1;
	out->fence = locked ? ORD_FULL : fence;
	out->atomic = rmw != NULL;
	if (rmw) {
		/* the arithmetic between an exclusive load and store names a
		 * counting RMW; x86's and LSE's mnemonics name themselves */
		out->name = xasprintf("asm %s", arith && !full_rmw ? arith : rmw);
		out->ord = full_rmw || fence == ORD_FULL ? ORD_FULL
			: (acq && rel) || fence == ORD_ACQ_REL ? ORD_ACQ_REL
			: acq ? ORD_ACQUIRE : rel ? ORD_RELEASE : ORD_RELAXED;
	} else {
		/* x86's "lock; addl $0, (%rsp)" is a full fence */
		out->ord = locked ? ORD_FULL : fence;
	}
	free(rmw);
	free(arith);
	free(t);
}

/* ---- the operands ---- */

/* Is constraint C of a memory operand?  Only constraints that allow
 * memory alone count ("rm" lets the compiler pick a register).  'Q' is
 * memory on arm64 and 'A' on RISC-V, register classes on x86: they count
 * only among those architectures' instructions (EXTRA, from
 * asm_arch_memory_letters). */
int asm_memory_constraint(const char *c, const char *extra)
{
	int memory = 0;

	for (; *c; c++) {
		if (strchr("=+&%*#?!, ", *c))
			continue;
		if (*c == 'm' || *c == 'o' || *c == 'V' || strchr(extra, *c))
			memory = 1;
		else
			return 0;
	}
	return memory;
}

/* The architecture's own memory constraints that TEMPLATE's instructions
 * tell: "Q" for arm64's (an exclusive, an LSE atomic, an acquire load or
 * release store), "A" for RISC-V's AMOs and reservations, else none. */
const char *asm_arch_memory_letters(const char *template)
{
	static const char *const arm64[] = { "ldxr", "ldaxr", "stxr", "stlxr", "ldar", "ldapr", "stlr",
					     "cas", "swp", "ldadd", "ldset", "ldclr", "ldeor" };
	static const char *const riscv[] = { "amo", "lr.w", "lr.d", "sc.w", "sc.d" };

	for (size_t i = 0; i < sizeof arm64 / sizeof *arm64; i++)
		if (strstr(template, arm64[i]))
			return "Q";
	for (size_t i = 0; i < sizeof riscv / sizeof *riscv; i++)
		if (strstr(template, riscv[i]))
			return "A";
	return "";
}

/* The order of a single load or store instruction of TEMPLATE: arm64's
 * acquire loads and release stores, else none. */
enum ord asm_access_order(const char *template, int write)
{
	if (!write && (strstr(template, "ldar") || strstr(template, "ldapr")))
		return ORD_ACQUIRE;
	if (write && strstr(template, "stlr"))
		return ORD_RELEASE;
	return ORD_RELAXED;
}

static int ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* Does the word at S of TEXT start a statement: nothing but white space
 * between it and the line's start, a brace, a ';' or a label's ':'?  A
 * register variable's asm label is printed after its declarator
 * (register int r = 1 asm("r12");): no statement. */
static int starts_statement(const char *text, const char *s)
{
	while (s > text && (s[-1] == ' ' || s[-1] == '\t'))
		s--;
	return s == text || strchr("\n{};:", s[-1]) != NULL;
}

/* (see extract_asm_text.h) Only a word "asm" that starts a statement,
 * outside string literals, counts. */
const char *asm_nth(const char *text, int n)
{
	for (const char *s = text; *s; s++) {
		if (*s == '"' || *s == '\'') {
			const char *e = literal_end(s);

			if (!e)
				return NULL;
			s = e - 1;
		} else if (strncmp(s, "asm", 3) == 0 && (s == text || !ident_char(s[-1])) &&
			   !ident_char(s[3]) && starts_statement(text, s)) {
			if (n-- == 0)
				return s;
		}
	}
	return NULL;
}
