/*
 * tests/header/compile_all.c — uses every primitive of kcsan/lkmm.h
 * (docs/design.md §4) and checks, single-threaded, the value semantics of
 * each: what it stores, what it returns (old or new value, old bit), on several
 * scalar types, and that every macro evaluates each argument exactly once.
 *
 * Built by tests/header/run.sh with gcc and clang, -std=gnu11 -Wall -Wextra
 * -Werror, natively, with -DKCSAN_INSTRUMENTED=1 (hooks absent) and under
 * -fsanitize=thread against a stub runtime.  Prints "N passed, M failed"
 * last and exits 1 on any failure.
 */
#include <stdio.h>
#include <string.h>

#include <kcsan/lkmm.h>

static int passed, failed;

#define CHECK(cond)								\
	do {									\
		if (cond) {							\
			passed++;						\
		} else {							\
			failed++;						\
			printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);	\
		}								\
	} while (0)

/* Count how often each argument expression is evaluated (one counter per
 * argument position, so that the test itself has no unsequenced updates). */
static int ea, eb, ec;
#define A(x) (ea++, (x))
#define B(x) (eb++, (x))
#define C(x) (ec++, (x))
#define EACH_ONCE(nargs, stmt)							\
	do {									\
		ea = eb = ec = 0;						\
		stmt;								\
		CHECK(ea == 1 && eb == ((nargs) >= 2) && ec == ((nargs) >= 3));	\
	} while (0)

enum colour { RED, GREEN, BLUE };
struct pair { int a; long b; };

static void test_once_access(void)
{
	char c = 'a';
	short s = 2;
	int i = 3;
	long long ll = 1LL << 40;
	int *p = &i;
	struct pair pr = { 1, 2 };
	const volatile int cv = 7;
	volatile long vl = 9;

	CHECK(READ_ONCE(c) == 'a');
	CHECK(READ_ONCE(s) == 2);
	CHECK(READ_ONCE(i) == 3);
	CHECK(READ_ONCE(ll) == 1LL << 40);
	CHECK(READ_ONCE(p) == &i);
	CHECK(READ_ONCE(cv) == 7);
	CHECK(READ_ONCE(vl) == 9);
	CHECK(READ_ONCE(pr).b == 2);
	CHECK(sizeof(READ_ONCE(c)) == 1 && sizeof(READ_ONCE(ll)) == 8);

	WRITE_ONCE(c, 'b');
	WRITE_ONCE(s, 20);
	WRITE_ONCE(i, 30);
	WRITE_ONCE(ll, -1LL);
	WRITE_ONCE(p, NULL);
	WRITE_ONCE(vl, 90);
	WRITE_ONCE(pr, ((struct pair){ 5, 6 }));
	CHECK(c == 'b' && s == 20 && i == 30 && ll == -1LL && p == NULL);
	CHECK(vl == 90 && pr.a == 5 && pr.b == 6);

	/* READ_ONCE yields an unqualified rvalue: a const volatile source gives
	 * a plain int (assignable, address convertible to int *). */
	{
		__typeof__(READ_ONCE(cv)) t = READ_ONCE(cv);
		int *tp = &t;

		t++;
		CHECK(*tp == 8);
	}

	/* data_race: value of the expression, plain semantics. */
	CHECK(data_race(i + 1) == 31);
	CHECK(data_race(pr).a == 5);
	{
		int n = 0;

		CHECK(data_race(n++) == 0 && n == 1);
		CHECK(data_race(data_race(n) + 1) == 2);
	}
}

static void test_barriers(void)
{
	int x = 0;

	/* No value semantics; they must compile as statements and not disturb
	 * the surrounding accesses. */
	x = 1;
	barrier();
	smp_mb();
	smp_rmb();
	smp_wmb();
	mb();
	rmb();
	wmb();
	dma_rmb();
	dma_wmb();
	smp_mb__before_atomic();
	smp_mb__after_atomic();
	smp_mb__after_spinlock();
	cpu_relax();
	CHECK(x == 1);
	if (x)
		smp_mb();
	else
		smp_wmb();
	CHECK(x == 1);
}

static void test_acquire_release(void)
{
	int i = 0;
	unsigned int u = 0;
	long l = 0;
	int *p = NULL;
	const int ci = 4;
	volatile int vi = 0;

	smp_store_release(&i, 1);
	CHECK(i == 1);
	CHECK(smp_load_acquire(&i) == 1);
	smp_store_release(&u, u + 1);		/* value reads the target */
	CHECK(u == 1 && smp_load_acquire(&u) == 1);
	smp_store_release(&l, -5L);
	CHECK(smp_load_acquire(&l) == -5L);
	smp_store_release(&p, &i);
	CHECK(smp_load_acquire(&p) == &i);
	smp_store_release(&p, NULL);
	CHECK(p == NULL);
	CHECK(smp_load_acquire(&ci) == 4);
	smp_store_release(&vi, 3);
	CHECK(smp_load_acquire(&vi) == 3);

	smp_store_mb(i, 42);
	CHECK(i == 42);
	smp_store_mb(p, &i);
	CHECK(p == &i);
}

static void test_xchg_cmpxchg(void)
{
	char c = 1;
	short s = 2;
	int i = 3;
	unsigned long ul = 4;
	long long ll = 5;
	_Bool b = 0;
	enum colour col = RED;
	int *p = NULL;
	volatile int vi = 6;
	int v;

	/* xchg returns the old value and stores the new one. */
	CHECK(xchg(&c, 11) == 1 && c == 11);
	CHECK(xchg(&s, 12) == 2 && s == 12);
	CHECK(xchg(&i, 13) == 3 && i == 13);
	CHECK(xchg(&ul, 14UL) == 4 && ul == 14);
	CHECK(xchg(&ll, 1LL << 50) == 5 && ll == 1LL << 50);
	CHECK(xchg(&b, 1) == 0 && b == 1);
	CHECK(xchg(&col, BLUE) == RED && col == BLUE);
	CHECK(xchg(&p, &i) == NULL && p == &i);
	CHECK(xchg(&vi, 16) == 6 && vi == 16);
	CHECK(xchg_relaxed(&i, 20) == 13 && i == 20);
	CHECK(xchg_acquire(&i, 21) == 20 && i == 21);
	CHECK(xchg_release(&i, 22) == 21 && i == 22);

	/* cmpxchg returns the old value; it stores only if old matched. */
	CHECK(cmpxchg(&i, 22, 23) == 22 && i == 23);		/* success */
	CHECK(cmpxchg(&i, 99, 24) == 23 && i == 23);		/* failure */
	CHECK(cmpxchg_relaxed(&i, 23, 25) == 23 && i == 25);
	CHECK(cmpxchg_relaxed(&i, 0, 26) == 25 && i == 25);
	CHECK(cmpxchg_acquire(&i, 25, 27) == 25 && i == 27);
	CHECK(cmpxchg_acquire(&i, 0, 28) == 27 && i == 27);
	CHECK(cmpxchg_release(&i, 27, 29) == 27 && i == 29);
	CHECK(cmpxchg_release(&i, 0, 30) == 29 && i == 29);
	CHECK(cmpxchg(&c, 11, 'z') == 11 && c == 'z');
	CHECK(cmpxchg(&s, 12, -1) == 12 && s == -1);
	CHECK(cmpxchg(&ul, 14UL, ~0UL) == 14 && ul == ~0UL);
	CHECK(cmpxchg(&ll, 1LL << 50, 7) == 1LL << 50 && ll == 7);
	CHECK(cmpxchg(&b, 1, 0) == 1 && b == 0);
	CHECK(cmpxchg(&col, BLUE, GREEN) == BLUE && col == GREEN);
	CHECK(cmpxchg(&p, &i, NULL) == &i && p == NULL);
	CHECK(cmpxchg(&p, &i, &i) == NULL && p == NULL);
	CHECK(cmpxchg(&vi, 16, 17) == 16 && vi == 17);

	/* Result types follow *ptr. */
	CHECK(sizeof(xchg(&c, 0)) == 1 && sizeof(cmpxchg(&ll, 0, 0)) == 8);

	/* Nesting (no shadowing, no capture of each other's locals). */
	i = 1;
	v = 2;
	CHECK(xchg(&i, xchg(&v, 3)) == 1 && i == 2 && v == 3);
	CHECK(cmpxchg(&i, cmpxchg(&v, 3, 2) - 1, 5) == 2 && i == 5 && v == 2);
}

static void test_atomic_t(void)
{
	atomic_t a = ATOMIC_INIT(10);
	atomic_t arr[2] = { ATOMIC_INIT(1), ATOMIC_INIT(2) };

	CHECK(atomic_read(&a) == 10);
	CHECK(atomic_read(&arr[1]) == 2);
	atomic_set(&a, 20);
	CHECK(atomic_read(&a) == 20);
	CHECK(atomic_read_acquire(&a) == 20);
	atomic_set_release(&a, 21);
	CHECK(atomic_read(&a) == 21);

	/* Non-returning. */
	atomic_add(4, &a);
	CHECK(atomic_read(&a) == 25);
	atomic_sub(5, &a);
	CHECK(atomic_read(&a) == 20);
	atomic_inc(&a);
	CHECK(atomic_read(&a) == 21);
	atomic_dec(&a);
	CHECK(atomic_read(&a) == 20);

	/* *_return: the new value. */
	atomic_set(&a, 0);
	CHECK(atomic_add_return(5, &a) == 5);
	CHECK(atomic_add_return_relaxed(1, &a) == 6);
	CHECK(atomic_add_return_acquire(1, &a) == 7);
	CHECK(atomic_add_return_release(1, &a) == 8);
	CHECK(atomic_sub_return(2, &a) == 6);
	CHECK(atomic_sub_return_relaxed(1, &a) == 5);
	CHECK(atomic_sub_return_acquire(1, &a) == 4);
	CHECK(atomic_sub_return_release(1, &a) == 3);
	CHECK(atomic_inc_return(&a) == 4);
	CHECK(atomic_inc_return_relaxed(&a) == 5);
	CHECK(atomic_inc_return_acquire(&a) == 6);
	CHECK(atomic_inc_return_release(&a) == 7);
	CHECK(atomic_dec_return(&a) == 6);
	CHECK(atomic_dec_return_relaxed(&a) == 5);
	CHECK(atomic_dec_return_acquire(&a) == 4);
	CHECK(atomic_dec_return_release(&a) == 3);
	CHECK(atomic_read(&a) == 3);
	CHECK(atomic_dec_return(&a) == 2 && atomic_sub_return(3, &a) == -1);

	/* atomic_fetch_*: the old value. */
	atomic_set(&a, 10);
	CHECK(atomic_fetch_add(5, &a) == 10 && atomic_read(&a) == 15);
	CHECK(atomic_fetch_add_relaxed(1, &a) == 15 && atomic_read(&a) == 16);
	CHECK(atomic_fetch_add_acquire(1, &a) == 16 && atomic_read(&a) == 17);
	CHECK(atomic_fetch_add_release(1, &a) == 17 && atomic_read(&a) == 18);
	CHECK(atomic_fetch_sub(8, &a) == 18 && atomic_read(&a) == 10);
	CHECK(atomic_fetch_sub_relaxed(1, &a) == 10 && atomic_read(&a) == 9);
	CHECK(atomic_fetch_sub_acquire(1, &a) == 9 && atomic_read(&a) == 8);
	CHECK(atomic_fetch_sub_release(1, &a) == 8 && atomic_read(&a) == 7);
	atomic_set(&a, 0xff);
	CHECK(atomic_fetch_and(0x0f, &a) == 0xff && atomic_read(&a) == 0x0f);
	CHECK(atomic_fetch_and_relaxed(0x07, &a) == 0x0f && atomic_read(&a) == 0x07);
	CHECK(atomic_fetch_and_acquire(0x03, &a) == 0x07 && atomic_read(&a) == 0x03);
	CHECK(atomic_fetch_and_release(0x01, &a) == 0x03 && atomic_read(&a) == 0x01);
	CHECK(atomic_fetch_or(0x10, &a) == 0x01 && atomic_read(&a) == 0x11);
	CHECK(atomic_fetch_or_relaxed(0x20, &a) == 0x11 && atomic_read(&a) == 0x31);
	CHECK(atomic_fetch_or_acquire(0x40, &a) == 0x31 && atomic_read(&a) == 0x71);
	CHECK(atomic_fetch_or_release(0x80, &a) == 0x71 && atomic_read(&a) == 0xf1);
	CHECK(atomic_fetch_xor(0x01, &a) == 0xf1 && atomic_read(&a) == 0xf0);
	CHECK(atomic_fetch_xor_relaxed(0xf0, &a) == 0xf0 && atomic_read(&a) == 0x00);
	CHECK(atomic_fetch_xor_acquire(0x0f, &a) == 0x00 && atomic_read(&a) == 0x0f);
	CHECK(atomic_fetch_xor_release(0x0f, &a) == 0x0f && atomic_read(&a) == 0x00);

	/* atomic_xchg / atomic_cmpxchg: the old value. */
	atomic_set(&a, 1);
	CHECK(atomic_xchg(&a, 2) == 1 && atomic_read(&a) == 2);
	CHECK(atomic_xchg_relaxed(&a, 3) == 2 && atomic_read(&a) == 3);
	CHECK(atomic_xchg_acquire(&a, 4) == 3 && atomic_read(&a) == 4);
	CHECK(atomic_xchg_release(&a, 5) == 4 && atomic_read(&a) == 5);
	CHECK(atomic_cmpxchg(&a, 5, 6) == 5 && atomic_read(&a) == 6);
	CHECK(atomic_cmpxchg(&a, 0, 7) == 6 && atomic_read(&a) == 6);
	CHECK(atomic_cmpxchg_relaxed(&a, 6, 7) == 6 && atomic_read(&a) == 7);
	CHECK(atomic_cmpxchg_relaxed(&a, 0, 8) == 7 && atomic_read(&a) == 7);
	CHECK(atomic_cmpxchg_acquire(&a, 7, 8) == 7 && atomic_read(&a) == 8);
	CHECK(atomic_cmpxchg_acquire(&a, 0, 9) == 8 && atomic_read(&a) == 8);
	CHECK(atomic_cmpxchg_release(&a, 8, 9) == 8 && atomic_read(&a) == 9);
	CHECK(atomic_cmpxchg_release(&a, 0, 10) == 9 && atomic_read(&a) == 9);
	CHECK(atomic_read(&arr[0]) == 1);	/* neighbours untouched */
}

#define NBITS (3 * 8 * (int)sizeof(unsigned long))

static void test_bitops(void)
{
	unsigned long bits[3];
	const long hi = 8 * (long)sizeof(unsigned long) + 5;	/* in word 1 */

	memset(bits, 0, sizeof bits);
	set_bit(0, bits);
	set_bit(hi, bits);
	CHECK(bits[0] == 1UL && bits[1] == 1UL << 5 && bits[2] == 0);
	set_bit(0, bits);			/* idempotent */
	CHECK(bits[0] == 1UL);
	clear_bit(0, bits);
	CHECK(bits[0] == 0 && bits[1] == 1UL << 5);
	clear_bit(1, bits);			/* already clear */
	CHECK(bits[0] == 0);
	change_bit(3, bits);
	CHECK(bits[0] == 1UL << 3);
	change_bit(3, bits);
	CHECK(bits[0] == 0);

	/* test_and_*: the old value of the bit (0 or 1). */
	CHECK(test_and_set_bit(7, bits) == 0 && bits[0] == 1UL << 7);
	CHECK(test_and_set_bit(7, bits) == 1 && bits[0] == 1UL << 7);
	CHECK(test_and_clear_bit(7, bits) == 1 && bits[0] == 0);
	CHECK(test_and_clear_bit(7, bits) == 0 && bits[0] == 0);
	CHECK(test_and_change_bit(hi, bits) == 1 && bits[1] == 0);
	CHECK(test_and_change_bit(hi, bits) == 0 && bits[1] == 1UL << 5);
	CHECK(test_and_set_bit(NBITS - 1, bits) == 0 && bits[2] == 1UL << (8 * sizeof(long) - 1));

	/* Bit lock. */
	CHECK(test_and_set_bit_lock(2, bits) == 0 && bits[0] == 1UL << 2);
	CHECK(test_and_set_bit_lock(2, bits) == 1);
	clear_bit_unlock(2, bits);
	CHECK(bits[0] == 0 && bits[1] == 1UL << 5);
	CHECK(test_and_set_bit_lock(2, bits) == 0);
	clear_bit_unlock(2, bits);
	CHECK(bits[0] == 0);
}

static void test_asserts(void)
{
	int x = 1;
	long arr[4] = { 0 };
	int k = 0;

	/* Without the runtime (or uninstrumented) they are no-ops. */
	ASSERT_EXCLUSIVE_WRITER(x);
	ASSERT_EXCLUSIVE_ACCESS(x);
	ASSERT_EXCLUSIVE_WRITER(arr[k++]);
	ASSERT_EXCLUSIVE_ACCESS(arr[k++]);
	CHECK(x == 1 && k == 2);
}

/* Every macro evaluates each argument exactly once. */
static void test_evaluated_once(void)
{
	int arr[4] = { 0 };
	int *p = arr;
	int k;
	atomic_t a = ATOMIC_INIT(0);

	EACH_ONCE(1, k = READ_ONCE(*A(p)));
	EACH_ONCE(2, WRITE_ONCE(*A(p), B(1)));
	EACH_ONCE(1, k = data_race(A(arr[0])));
	EACH_ONCE(2, smp_store_release(A(p), B(2)));
	EACH_ONCE(1, k = smp_load_acquire(A(p)));
	EACH_ONCE(2, smp_store_mb(*A(p), B(3)));
	EACH_ONCE(2, k = xchg(A(p), B(4)));
	EACH_ONCE(2, k = xchg_relaxed(A(p), B(4)));
	EACH_ONCE(2, k = xchg_acquire(A(p), B(4)));
	EACH_ONCE(2, k = xchg_release(A(p), B(4)));
	EACH_ONCE(3, k = cmpxchg(A(p), B(4), C(5)));
	EACH_ONCE(3, k = cmpxchg_relaxed(A(p), B(5), C(6)));
	EACH_ONCE(3, k = cmpxchg_acquire(A(p), B(6), C(7)));
	EACH_ONCE(3, k = cmpxchg_release(A(p), B(7), C(8)));
	EACH_ONCE(1, ASSERT_EXCLUSIVE_WRITER(*A(p)));
	EACH_ONCE(1, ASSERT_EXCLUSIVE_ACCESS(*A(p)));
	CHECK(arr[0] == 8 && arr[1] == 0);

	/* The pointer expression with a side effect hits the right element. */
	p = arr;
	xchg(p++, 9);
	CHECK(arr[0] == 9 && p == arr + 1);
	cmpxchg(p++, 0, 10);
	CHECK(arr[1] == 10 && p == arr + 2);
	smp_store_release(p++, 11);
	CHECK(arr[2] == 11 && p == arr + 3);
	k = 3;
	WRITE_ONCE(arr[k++], 12);
	CHECK(arr[3] == 12 && k == 4);
	(void)atomic_read(&a);
	(void)k;
}

int main(void)
{
	test_once_access();
	test_barriers();
	test_acquire_release();
	test_xchg_cmpxchg();
	test_atomic_t();
	test_bitops();
	test_asserts();
	test_evaluated_once();
	printf("KCSAN_INSTRUMENTED=%d\n", KCSAN_INSTRUMENTED);
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
