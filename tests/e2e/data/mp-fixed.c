/* The message-passing pattern of the LWN article, correctly ordered. */
#include <kcsan/lkmm.h>

int y, ready;

void publish(void)
{
	y = 1;
	smp_store_release(&ready, 1);
}

int consume(void)
{
	while (!smp_load_acquire(&ready))
		;
	return y;
}
