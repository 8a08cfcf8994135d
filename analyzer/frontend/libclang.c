/*
 * libclang.c — loads libclang when the first clang_* call is made, and
 * fills the table of libclang.h with its functions.
 *
 * The library is $KCSAN_LIBCLANG when set (and then only that one: the
 * user asked for it), else the one the build found (KCSAN_LIBCLANG, an
 * absolute path from the Makefile), else whatever the dynamic linker finds
 * as libclang.so.1 or libclang.so.  RTLD_NOW: a function missing from this
 * libclang is reported here, with its name, not as a crash in mid-scan.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "libclang.h"

#ifndef KCSAN_LIBCLANG
#define KCSAN_LIBCLANG "libclang.so.1"
#endif

struct kcsan_libclang kcsan_libclang_table;
int kcsan_libclang_loaded;

static pthread_once_t once = PTHREAD_ONCE_INIT;

/* The library's name as the messages give it. */
static const char *libclang_name = KCSAN_LIBCLANG;

static void *open_libclang(void)
{
	static const char *const names[] = { KCSAN_LIBCLANG, "libclang.so.1", "libclang.so" };
	const char *env = getenv("KCSAN_LIBCLANG");
	void *h = NULL;
	size_t i;

	if (env && *env) {
		libclang_name = env;
		return dlopen(env, RTLD_NOW | RTLD_LOCAL);
	}
	for (i = 0; i < sizeof(names) / sizeof(names[0]) && !h; i++)
		h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
	return h;
}

static void load_once(void)
{
	void *h = open_libclang();

	if (!h) {
		fprintf(stderr, "kcsan-scan: cannot load libclang: %s\n", dlerror());
		exit(2);
	}
#define KCSAN_LIBCLANG_RESOLVE(f)						\
	if (!(*(void **)&kcsan_libclang_table.f##_fn = dlsym(h, #f))) {	\
		fprintf(stderr, "kcsan-scan: libclang (%s) has no %s\n",	\
			libclang_name, #f);					\
		exit(2);							\
	}
	KCSAN_LIBCLANG_FUNCS(KCSAN_LIBCLANG_RESOLVE)
#undef KCSAN_LIBCLANG_RESOLVE
	__atomic_store_n(&kcsan_libclang_loaded, 1, __ATOMIC_RELEASE);
}

void kcsan_libclang_load(void)
{
	pthread_once(&once, load_once);
}
