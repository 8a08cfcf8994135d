/* runtime/strbuf.c — appending to a fixed buffer (strbuf.h). */
#include "strbuf.h"

#include <stdarg.h>
#include <stdio.h>

void rt_bprintf(struct rt_buf *b, const char *fmt, ...)
{
	va_list ap;
	int r;

	if (b->n >= sizeof(b->s) - 1)
		return;
	va_start(ap, fmt);
	r = vsnprintf(b->s + b->n, sizeof(b->s) - b->n, fmt, ap);
	va_end(ap);
	if (r > 0)
		b->n += (size_t)r < sizeof(b->s) - b->n ? (size_t)r : sizeof(b->s) - b->n - 1;
}
