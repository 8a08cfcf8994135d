/* W24: the test harness of programs a.c and b.c (see a.c): its main()
 * and threads are compiled into each program. */
#include <kcsan/lkmm.h>
#include <pthread.h>
void op(void);
int check(void);
static void *worker(void *a) { op(); return a; }
static void *checker(void *a) { (void)a; return (void *)(long)check(); }
int main(void)
{
	pthread_t t, u;

	pthread_create(&t, 0, worker, 0);
	pthread_create(&u, 0, checker, 0);
	pthread_join(t, 0);
	pthread_join(u, 0);
	return 0;
}
