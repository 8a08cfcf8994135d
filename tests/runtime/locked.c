/*
 * locked.c — plain data under pthread synchronisation must never be
 * reported (the runtime models unlock/post/cond_wait as releases), while
 * the same data without the lock must be (basic KCSAN race detection).
 *
 *   ./locked mutex|spin|rwlock|sem|cond|none SECONDS
 * (cond: mutex plus pthread_cond_timedwait/broadcast inside the section)
 * Prints "reports=N"; for "none" it stops at the first report.
 */
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <kcsan/lkmm.h>

unsigned long kcsan_rt_reports(void);
void *worker(void *arg);
void bump(void);

static long counter;		/* plain, protected by the selected lock */
static long shadow[4];		/* more plain data inside the critical section */
static int stop;
static const char *mode;
static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static pthread_rwlock_t rwlock = PTHREAD_RWLOCK_INITIALIZER;
static pthread_spinlock_t spin;
static sem_t sem;

__attribute__((noinline)) void bump(void)
{
	switch (mode[0]) {
	case 'c':
	case 'm': pthread_mutex_lock(&mutex); break;
	case 's': if (mode[1] == 'p') pthread_spin_lock(&spin); else sem_wait(&sem); break;
	case 'r': pthread_rwlock_wrlock(&rwlock); break;
	default: break;
	}
	counter++;
	shadow[counter & 3] = counter;
	switch (mode[0]) {
	case 'c':
		/* cond_wait releases the mutex: the delayed counter++ must
		 * end there too, as another thread then enters. */
		if (counter & 1) {
			struct timespec ts;

			clock_gettime(CLOCK_REALTIME, &ts);
			ts.tv_nsec += 100 * 1000;
			if (ts.tv_nsec >= 1000000000) {
				ts.tv_sec++;
				ts.tv_nsec -= 1000000000;
			}
			pthread_cond_timedwait(&cond, &mutex, &ts);
		} else {
			pthread_cond_broadcast(&cond);
		}
		counter++;
		pthread_mutex_unlock(&mutex);
		break;
	case 'm': pthread_mutex_unlock(&mutex); break;
	case 's': if (mode[1] == 'p') pthread_spin_unlock(&spin); else sem_post(&sem); break;
	case 'r': pthread_rwlock_unlock(&rwlock); break;
	default: break;
	}
}

void *worker(void *arg)
{
	(void)arg;
	while (!READ_ONCE(stop))
		bump();
	return NULL;
}

int main(int argc, char **argv)
{
	double limit = argc > 2 ? atof(argv[2]) : 2.0;
	struct timespec t0, t;
	pthread_t th[3];
	int i;

	mode = argc > 1 ? argv[1] : "mutex";
	pthread_spin_init(&spin, PTHREAD_PROCESS_PRIVATE);
	sem_init(&sem, 0, 1);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < 3; i++)
		pthread_create(&th[i], NULL, worker, NULL);
	do {
		struct timespec ts = { 0, 10 * 1000 * 1000 };

		nanosleep(&ts, NULL);
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((double)(t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) / 1e9 < limit &&
		 !(strcmp(mode, "none") == 0 && kcsan_rt_reports() > 0));
	WRITE_ONCE(stop, 1);
	for (i = 0; i < 3; i++)
		pthread_join(th[i], NULL);
	printf("reports=%lu\n", kcsan_rt_reports());
	return 0;
}
