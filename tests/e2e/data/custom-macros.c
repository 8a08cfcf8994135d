/* A project with its own spelling of the primitives: opaque functions that
 * the analyser cannot see into (Concurrency Kit style), wrapped in macros. */
void my_store_int(int *target, int value);
int my_load_int(const int *target);
#define STORE_SHARED(x, v) my_store_int(&(x), (v))
#define LOAD_SHARED(x) my_load_int(&(x))

int data, ready;

void produce(void)
{
	data = 42;
	STORE_SHARED(ready, 1);
}

int consume(void)
{
	while (!LOAD_SHARED(ready))
		;
	return data;
}
