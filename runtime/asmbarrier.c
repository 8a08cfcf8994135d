/*
 * asmbarrier.c — __kcsan_asm_barrier(KIND): the ordering of a barrier
 * written as inline assembly, which the -fsanitize=thread instrumentation
 * never sees.  `kcsan-scan cc` compiles with clang and the plugin of
 * plugin/kcsan_asm.cpp, which puts a call to this hook before every asm
 * statement that is a barrier (named by a profile, or a fence / lock
 * instruction): ck_pr_fence_store(), an empty asm on x86, then ends the
 * thread's delayed write as smp_wmb() does, in focus and --no-focus runs
 * alike.  Focus's static barrier sites (focus.c) remain for objects built
 * without the plugin (gcc); a barrier applied twice ends nothing more.
 *
 * KIND (the plugin's numbers): 1 full, 2 wmb, 3 rmb, 4 release; anything
 * else is ignored.  The hook is called at every execution of such an asm,
 * so its first test is the thread's delayed access: usually there is none.
 */
#include "fastpath.h"
#include "kcsan_rt.h"

#define ABI __attribute__((visibility("default")))

ABI void __kcsan_asm_barrier(int kind);

ABI void __kcsan_asm_barrier(int kind)
{
	struct kcsan_ctx *ctx = &kcsan_tls;

	/* No delayed access (also a thread not yet set up), or called from
	 * inside the runtime: nothing to end. */
	if (__builtin_expect(!ctx->reorder.size, 1) || ctx->in_rt)
		return;
	switch (kind) {
	case 1:
		kcsan_barrier(ctx, KCSAN_BARRIER_MB);
		break;
	case 2:
		kcsan_barrier(ctx, KCSAN_BARRIER_WMB);
		break;
	case 3:
		kcsan_barrier(ctx, KCSAN_BARRIER_RMB);
		break;
	case 4:
		kcsan_barrier(ctx, KCSAN_BARRIER_RELEASE);
		break;
	default:
		break;
	}
}
