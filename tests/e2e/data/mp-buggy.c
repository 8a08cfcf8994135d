/* The message-passing pattern of the LWN article, without ordering. */
#include <kcsan/lkmm.h>

int x, flag;

void writer(void)
{
	x = 1;
	WRITE_ONCE(flag, 1);
}

int reader(void)
{
	while (!READ_ONCE(flag))
		;
	return x;
}
