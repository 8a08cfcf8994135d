/* bl_fence.h — named wrappers around the LKMM write/read barriers. */
#ifndef BL_FENCE_H
#define BL_FENCE_H
#include <kcsan/lkmm.h>

static inline void publish_fence(void)
{
	smp_wmb();
}

static inline void consume_fence(void)
{
	smp_rmb();
}
#endif
