/*
 * limitation: W18 (docs/limitations.md)
 * lkmm: no-race
 * about: list_move_tail() is a static inline that nothing calls. It is analysed
 *        as an entry point that any thread may run, without the lock that the
 *        only real caller of __list_del() holds.
 */
#include <kcsan/lkmm.h>
#include <pthread.h>
struct list_head { struct list_head *next, *prev; };
static inline void __list_del(struct list_head *prev, struct list_head *next)
{
	next->prev = prev;
	prev->next = next;
}
static inline void list_move_tail(struct list_head *e, struct list_head *h)
{
	__list_del(e->prev, e->next);
	e->prev = h->prev; e->next = h; h->prev->next = e; h->prev = e;
}
static struct list_head a_list = { &a_list, &a_list };
static pthread_mutex_t a_lock = PTHREAD_MUTEX_INITIALIZER;
static void *a_thread(void *arg)
{
	pthread_mutex_lock(&a_lock);
	if (a_list.next != &a_list)
		__list_del(a_list.next->prev, a_list.next->next);
	pthread_mutex_unlock(&a_lock);
	return arg;
}
int main(void)
{
	pthread_t t[2];
	pthread_create(&t[0], 0, a_thread, 0);
	pthread_create(&t[1], 0, a_thread, 0);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], 0);
	return 0;
}
