/* tests/unit/test_asm.c — inline assembly (analyzer/frontend/extract_asm.c):
 * an asm statement taken apart into its template and operands, what its
 * instructions do (an atomic RMW, a fence, neither), the events the front
 * end records for its memory operands, and the detectors on programs whose
 * atomics are hand-written asm, both ways.  The front-end and detector
 * tests are real scans, through scan_helper.c. */
#include <criterion/criterion.h>
#include <string.h>

#include "scan_helper.h"
#include "analyzer/model/facts.h"
#include "analyzer/frontend/extract_asm_text.h"

#define HEAD "#include <kcsan/lkmm.h>\n#include <pthread.h>\n"

/* DPDK's x86 compare-and-swap, its lock prefix behind a macro. */
#define CMPSET \
	"#define MPLOCKED \"lock ; \"\n" \
	"static inline int cmpset(volatile unsigned *dst, unsigned exp, unsigned src) {\n" \
	"	unsigned char res;\n" \
	"	asm volatile(MPLOCKED \"cmpxchgl %[src], %[dst];\" \"sete %[res];\"\n" \
	"		     : [res] \"=a\" (res), [dst] \"=m\" (*dst)\n" \
	"		     : [src] \"r\" (src), \"a\" (exp), \"m\" (*dst) : \"memory\");\n" \
	"	return res;\n" \
	"}\n"

/* ---- taking a statement apart ---- */

Test(asm, a_statement_is_taken_into_template_and_operands)
{
	struct asm_parts p;

	cr_assert_eq(asm_parse("asm volatile (\"lock ; cmpxchgw %[src], %[dst];sete %[res];\" : [res] \"=a\" (res), "
			       "[dst] \"=m\" (*dst) : [src] \"r\" (src), \"a\" (f(a, \")\")), \"m\" (*dst) : \"memory\");",
			       &p), 0);
	cr_assert_str_eq(p.template, "lock ; cmpxchgw %[src], %[dst];sete %[res];");
	cr_assert_eq(p.nops, 5);
	cr_assert(p.ops[0].output && p.ops[1].output && !p.ops[2].output && !p.ops[4].output);
	cr_assert_str_eq(p.ops[1].constraint, "=m");
	cr_assert_str_eq(p.ops[1].expr, "*dst");
	cr_assert_str_eq(p.ops[3].expr, "f(a, \")\")");
	cr_assert_str_eq(p.ops[4].constraint, "m");
	asm_parts_free(&p);
	cr_assert_eq(asm_parse("asm (\"mfence\" :  :  : \"memory\");", &p), 0);
	cr_assert_eq(p.nops, 0);
	asm_parts_free(&p);
	cr_assert_eq(asm_parse("int x;", &p), -1);
	/* a register variable's asm label is no statement */
	cr_assert_str_eq(asm_nth("void f() {\n    register int r = 1 asm(\"r12\");\n"
				 "    asm volatile (\"nop\");\n    char *s = \"asm (\";\n    asm (\"\");\n}", 1),
			 "asm (\"\");\n}");
	cr_assert_eq(asm_parse("asm volatile (\"\" : \"=m\" x);", &p), -1);
}

/* ---- what the instructions do ---- */

static void expect_atomicity(const char *template, int atomic, enum ord ord, const char *name)
{
	struct asm_atomicity a;

	asm_atomicity_of(template, &a);
	cr_expect_eq(a.atomic, atomic, "%s: atomic %d", template, a.atomic);
	cr_expect_eq(a.ord, (int)ord, "%s: ord %d", template, a.ord);
	if (name)
		cr_expect(a.name && strcmp(a.name, name) == 0, "%s: name %s", template, a.name);
	else
		cr_expect_null(a.name, "%s: name %s", template, a.name);
	free(a.name);
}

Test(asm, the_instructions_say_atomic_fence_or_neither)
{
	expect_atomicity("lock ; cmpxchgw %[src], %[dst];sete %[res];", 1, ORD_FULL, "asm cmpxchgw");
	expect_atomicity("lock xaddl %0, %1", 1, ORD_FULL, "asm xaddl");
	/* xchg is locked by itself; labels come before instructions */
	expect_atomicity("1:\\nxchg %[locked], %[lv]\\ntest %[lv], %[lv]\\njz 3f\\n2:\\npause\\njmp 1b\\n3:\\n", 1,
			 ORD_FULL, "asm xchg");
	/* a locked add to the stack: a full fence */
	expect_atomicity("lock addl $0, -128(%%rsp); ", 1, ORD_FULL, "asm addl");
	expect_atomicity("mfence", 0, ORD_FULL, NULL);
	/* a tab between mnemonic and operands, and dmb's option */
	expect_atomicity("lock;\\tcmpxchgl\\t%2,%1", 1, ORD_FULL, "asm cmpxchgl");
	expect_atomicity("dmb\\tishst", 0, ORD_WMB, NULL);
	expect_atomicity("dmb ishst", 0, ORD_WMB, NULL);
	expect_atomicity("dmb ishld", 0, ORD_RMB, NULL);
	expect_atomicity("dmb ish", 0, ORD_FULL, NULL);
	expect_atomicity("lwsync", 0, ORD_ACQ_REL, NULL);
	expect_atomicity("", 0, ORD_NONE, NULL);
	expect_atomicity("movl %1, %0", 0, ORD_NONE, NULL);
	/* arm64: an exclusive pair around an add counts; its a and l order */
	expect_atomicity("1: ldaxr %w0, %2\\n add %w0, %w0, %w3\\n stlxr %w1, %w0, %2\\n cbnz %w1, 1b", 1,
			 ORD_ACQ_REL, "asm add");
	expect_atomicity("ldxr %0, %2\\n stxr %w1, %3, %2", 1, ORD_RELAXED, "asm stxr");
	expect_atomicity("casal %w0, %w2, %1", 1, ORD_ACQ_REL, "asm casal");
	expect_atomicity("swpa %w2, %w0, %1", 1, ORD_ACQUIRE, "asm swpa");
	/* RISC-V's AMOs and PowerPC's reservations between lwsyncs */
	expect_atomicity("amoadd.w.aqrl %0, %2, %1", 1, ORD_ACQ_REL, "asm amoadd.w.aqrl");
	expect_atomicity("amoswap.w.aq %0, %2, %1", 1, ORD_ACQUIRE, "asm amoswap.w.aq");
	expect_atomicity("lwsync\\n1: lwarx %0,0,%2\\n stwcx. %3,0,%2\\n bne- 1b\\n isync", 1, ORD_ACQ_REL,
			 "asm stwcx.");
}

/* ---- the events of a statement ---- */

/* The access events of function FN of FACTS, in order, into OUT (at most
 * MAX); their count. */
static int accesses_of(const struct tu_facts *facts, const char *fn, const struct event **out, int max)
{
	int n = 0;

	for (int g = 0; g < facts->nfunctions; g++) {
		const struct function *f = &facts->functions[g];

		if (strcmp(f->name, fn) != 0)
			continue;
		for (int b = 0; b < f->nblocks; b++)
			for (int k = 0; k < f->blocks[b].nevents; k++)
				if (f->blocks[b].events[k].kind == EV_ACCESS && n < max)
					out[n++] = &f->blocks[b].events[k];
	}
	return n;
}

/* Runs the front end over TEXT into *F and lists function FN's access
 * events (accesses_of); their count. */
static int scan_accesses(const char *text, struct tu_facts *f, const char *fn, const struct event **out, int max)
{
	extract_text(text, f);
	cr_assert_null(f->diagnostics, "%s", f->diagnostics);
	return accesses_of(f, fn, out, max);
}

Test(asm, a_locked_compare_and_swap_is_one_marked_rmw_of_its_memory_operand)
{
	struct tu_facts f = { 0 };
	const struct event *e[4];
	int n;

	n = scan_accesses(CMPSET, &f, "cmpset", e, 4);
	/* "=m" (*dst) and "m" (*dst): one access */
	cr_assert_eq(n, 1, "%d accesses", n);
	cr_assert_eq(e[0]->access, ACC_RMW);
	cr_assert(e[0]->marked);
	cr_assert_eq(e[0]->ord, ORD_FULL);
	cr_assert_str_eq(e[0]->name, "asm cmpxchgl");
	cr_assert_str_eq(e[0]->display, "*dst");
	cr_assert_not(e[0]->discarded, "its old value comes out in a register");
	facts_free(&f);
}

Test(asm, a_template_built_from_a_macro_parameter_is_read_expanded)
{
	struct tu_facts f = { 0 };
	const struct event *e[4];
	int n;

	/* Concurrency Kit's way: the mnemonic is an argument of the macro
	 * that defines the function. */
	n = scan_accesses("#define FAS(S, T, I) static T fas_##S(T *target, T v) {\\\n"
			  "	__asm__ __volatile__(I \" %0, %1\" : \"+m\" (*target), \"+q\" (v) : : \"memory\");\\\n"
			  "	return v; }\n"
			  "FAS(int, int, \"xchgl\")\n", &f, "fas_int", e, 4);
	cr_assert_eq(n, 1, "%d accesses", n);
	cr_assert_eq(e[0]->access, ACC_RMW);
	cr_assert(e[0]->marked);
	cr_assert_str_eq(e[0]->name, "asm xchgl");
	facts_free(&f);
}

Test(asm, other_memory_operands_are_marked_single_accesses)
{
	struct tu_facts f = { 0 };
	const struct event *e[8];
	int n;

	n = scan_accesses("int x, y, z;\n"
			  "void f(int v) {\n"
			  "	asm volatile(\"movl %1, %0\" : \"=m\" (x) : \"r\" (v));\n"
			  "	asm volatile(\"movl %1, %0\" : \"=r\" (z) : \"m\" (y));\n"
			  "}\n", &f, "f", e, 8);
	cr_assert_eq(n, 3, "%d accesses", n);
	cr_assert(e[0]->marked && e[0]->access == ACC_WRITE && strcmp(e[0]->display, "x") == 0);
	cr_assert_eq(e[0]->ord, ORD_RELAXED);
	cr_assert(e[1]->marked && e[1]->access == ACC_READ && strcmp(e[1]->display, "y") == 0);
	/* a register output is stored by the compiler's code: plain */
	cr_assert(!e[2]->marked && e[2]->access == ACC_WRITE && strcmp(e[2]->display, "z") == 0);
	facts_free(&f);
}

/* An empty template touches no memory: "+m" (x) only tells the compiler
 * that x may have changed (a compiler barrier on one object). */
Test(asm, an_empty_template_makes_no_access)
{
	struct tu_facts f = { 0 };
	const struct event *e[4];
	int n;

	n = scan_accesses("int x;\n"
			  "void f(void) { asm volatile(\"\" : \"+m\" (x)); }\n", &f, "f", e, 4);
	cr_assert_eq(n, 0, "%d accesses", n);
	facts_free(&f);
}

/* 'Q' is memory among arm64's instructions, a register class among
 * x86's. */
Test(asm, an_arm64_q_operand_is_memory_and_an_x86_one_a_register)
{
	struct tu_facts f = { 0 };
	const struct event *e[4];
	int n;

	n = scan_accesses("int word;\n"
			  "int add(int v) { int old, tmp;\n"
			  "	asm volatile(\"1: ldxr %w0, %2\\n add %w1, %w0, %w3\\n stxr %w1, %w1, %2\\n cbnz %w1, 1b\"\n"
			  "		     : \"=&r\" (old), \"=&r\" (tmp), \"+Q\" (word) : \"r\" (v));\n"
			  "	return old; }\n"
			  "void set(int v) { asm volatile(\"movb %b0, %b0\" : \"+Q\" (v)); word = v; }\n", &f, "add", e, 4);
	cr_assert_eq(n, 1, "%d accesses", n);
	cr_assert(e[0]->marked && e[0]->access == ACC_RMW && strcmp(e[0]->name, "asm add") == 0, "%s", e[0]->name);
	n = accesses_of(&f, "set", e, 4);
	cr_assert_eq(n, 1, "%d accesses: only word = v", n);
	cr_assert(!e[0]->marked && e[0]->access == ACC_WRITE);
	facts_free(&f);
}

/* cpuid's wrapper swaps ebx by xchg between registers: no fence, no
 * access; an xchg naming memory in its text is a full fence. */
Test(asm, an_exchange_of_registers_is_no_fence)
{
	struct tu_facts f = { 0 };
	const struct event *e[4];
	int n, nb = 0;

	n = scan_accesses("void f(unsigned *a, unsigned *b) {\n"
			  "	asm volatile(\"xchgl %%ebx, %1; cpuid; xchgl %%ebx, %1\" : \"=a\" (*a), \"=r\" (*b) : \"0\" (1));\n"
			  "	asm volatile(\"xchgl %0, (%1)\" : \"+r\" (*a) : \"r\" (b) : \"memory\");\n"
			  "}\n", &f, "f", e, 4);
	/* *a and *b written from registers; *a read into one and written back */
	cr_assert_eq(n, 4, "%d accesses", n);
	for (int b = 0; b < f.functions[0].nblocks; b++)
		for (int k = 0; k < f.functions[0].blocks[b].nevents; k++) {
			const struct event *ev = &f.functions[0].blocks[b].events[k];

			if (ev->kind == EV_BARRIER)
				cr_assert_eq(ev->ord, nb++ == 0 ? ORD_NONE : ORD_FULL, "barrier %d: ord %d", nb, ev->ord);
		}
	cr_assert_eq(nb, 2);
	facts_free(&f);
}

/* ---- the detectors, both ways ---- */

/* A counter bumped by a locked increment is atomic; its plain twin loses
 * updates. */
Test(asm, a_locked_increment_is_atomic_silent)
{
	expect_one(HEAD "long hits;\n"
		   "static void *worker(void *a) { asm volatile(\"lock; incq %0\" : \"+m\" (hits)); return a; }\n"
		   MAIN_TWO_THREADS("worker"));
}

Test(asm, the_plain_increment_twin_races)
{
	expect_one(HEAD "long hits;\n"
		   "static void *worker(void *a) { hits++; /*D*/ return a; }\n"
		   MAIN_TWO_THREADS("worker"));
}

/* A flag published by an exchange (a full barrier on x86) orders the data
 * before it; published by a plain mov in asm, it orders nothing. */
Test(asm, data_published_by_an_asm_exchange_silent)
{
	expect_one(HEAD "int x, flag;\n"
		   "void writer(void) { int one = 1; x = 1;\n"
		   "	asm volatile(\"xchgl %0, %1\" : \"+m\" (flag), \"+r\" (one) : : \"memory\"); }\n"
		   "int reader(void) { while (!smp_load_acquire(&flag)); return x; }\n");
}

Test(asm, data_published_by_an_asm_mov_is_unordered)
{
	expect_one(HEAD "int x, flag;\n"
		   "void writer(void) { x = 1; /*W*/\n"
		   "	asm volatile(\"movl %1, %0\" : \"=m\" (flag) : \"r\" (1) : \"memory\"); }\n"
		   "int reader(void) { while (!smp_load_acquire(&flag)); return x; }\n");
}
