/*
 * limitation: W23 (docs/limitations.md)
 * lkmm: no-race
 * about: lib_init() is a constructor; register_thread() calls it again under the
 *        registry lock, where it returns at once because init_done is set. Its
 *        write of has_membarrier is taken as concurrent with every reader.
 */
#include <kcsan/lkmm.h>
#include <pthread.h>

struct node { struct node *next; };
static struct node q_head, n1;
static int init_done, has_membarrier;
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;

void __attribute__((constructor)) lib_init(void);
void lib_init(void)
{
	if (init_done)
		return;
	init_done = 1;
	has_membarrier = 1;
}

static void register_thread(void)
{
	pthread_mutex_lock(&registry_lock);
	lib_init();
	pthread_mutex_unlock(&registry_lock);
}

static inline void read_lock(void)
{
	if (has_membarrier)
		barrier();
	else
		smp_mb();
}

static void *enqueuer(void *a)
{
	register_thread();
	WRITE_ONCE(n1.next, NULL);
	(void)cmpxchg(&q_head.next, NULL, &n1);
	return a;
}

static void *dequeuer(void *a)
{
	register_thread();
	for (int i = 0; i < 10; i++) {
		read_lock();
		if (READ_ONCE(q_head.next))
			break;
	}
	return a;
}

int main(void)
{
	pthread_t t[2];

	pthread_create(&t[0], 0, enqueuer, 0);
	pthread_create(&t[1], 0, dequeuer, 0);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], 0);
	return 0;
}
