/* runtime/strbuf.h — a string built in a fixed buffer, for the runtime's
 * reports and database records.  The runtime must not allocate while it
 * reports (it may be inside malloc, or in a thread that holds the
 * allocator's lock when a watchpoint fires), so text is formatted into a
 * buffer on the stack and silently truncated when it is full. */
#ifndef KCSAN_RT_STRBUF_H
#define KCSAN_RT_STRBUF_H

#include <stddef.h>

struct rt_buf {
	char s[4096];
	size_t n;          /* length so far; s is always NUL-terminated */
};

/* Appends printf-style text to B, truncating at the end of the buffer. */
__attribute__((format(printf, 2, 3)))
void rt_bprintf(struct rt_buf *b, const char *fmt, ...);

#endif
