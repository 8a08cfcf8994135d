// plugin/kcsan_asm.cpp — the LLVM pass plugin that `kcsan-scan cc` loads
// into clang (-fpass-plugin): a call to the runtime's barrier hook,
// __kcsan_asm_barrier(KIND), before every inline assembly statement that is
// a barrier (issue 13, item 4; docs/design.md §5).
//
// Why a pass: ThreadSanitizer's instrumentation sees no inline assembly, and
// a fence that compiles to nothing on x86 (Concurrency Kit's
// ck_pr_fence_store, "" with a memory clobber) has no code address at all,
// so neither the instrumentation nor a map of the code can find it.  In the
// IR the asm statement is still there, with its text, its clobbers and the
// function it was written in, at every optimisation level.
//
// Which asm is a barrier, and of what kind (the same rules as the scan's,
// analyzer/frontend/extract_expr.c walk_asm, and its profiles):
//   1. asm in a function a profile names (ck_pr_fence_store barrier wmb,
//      ck_pr_cas_ptr rmw relaxed): the profile's ordering, whatever the
//      instruction -- the profile states the contract the code relies on on
//      every architecture (ck_pr_fence_store is a real fence on arm64; a
//      relaxed ck_pr_cas orders nothing there, lock prefix or not).  The
//      names come from $KCSAN_ASM_BARRIERS, "name=kind,..." (kind: mb, wmb,
//      rmb, release, none), written by `kcsan-scan cc` from the profiles.
//   2. otherwise the instruction: mfence, a lock prefix, xchg (always locked
//      with a memory operand; in inline asm it has one, as "+m"),
//      dmb ish, sync, fence rw,rw: full; sfence, dmb ishst, fence w,w: wmb;
//      lfence, dmb ishld, fence r,r: rmb; lwsync: release.
//   3. anything else -- an empty asm with a "memory" clobber, cpu_relax's
//      pause -- is a compiler barrier, which orders nothing at run time.
// The pass runs at the start of the pipeline, before inlining, so that the
// function an asm was written in is still its own (at -O0 too); the hook
// call is inlined with it.
//
// The hook only ends the calling thread's delayed access (weakmem.c); a
// program built without the plugin (gcc, another LLVM) still links, and
// then relies on focus's map of the scan's barrier sites (focus.c).
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"

#include <cctype>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

using namespace llvm;

namespace {

// The runtime's kinds (runtime/asmbarrier.c): 0 is "not a barrier".
enum Kind { K_NONE = 0, K_MB = 1, K_WMB = 2, K_RMB = 3, K_RELEASE = 4 };

// $KCSAN_ASM_BARRIERS, parsed once per compiler process.
static const std::map<std::string, int> &profileNames()
{
	static std::map<std::string, int> names;
	static bool parsed;
	if (parsed)
		return names;
	parsed = true;
	const char *env = getenv("KCSAN_ASM_BARRIERS");
	std::string s = env ? env : "";
	size_t pos = 0;
	while (pos < s.size()) {
		size_t end = s.find(',', pos);
		if (end == std::string::npos)
			end = s.size();
		std::string item = s.substr(pos, end - pos);
		size_t eq = item.find('=');
		if (eq != std::string::npos) {
			std::string k = item.substr(eq + 1);
			int kind = k == "mb" ? K_MB : k == "wmb" ? K_WMB : k == "rmb" ? K_RMB :
				   k == "release" ? K_RELEASE : K_NONE;
			names[item.substr(0, eq)] = kind;
		}
		pos = end + 1;
	}
	return names;
}

// The asm text, lower case, white space folded to single spaces, and each
// instruction (separated by ';' or a new line) as a list of words.
static std::vector<std::vector<std::string>> instructions(StringRef text)
{
	std::vector<std::vector<std::string>> out(1);
	std::string word;
	auto flush = [&] {
		if (!word.empty())
			out.back().push_back(word);
		word.clear();
	};
	for (char c : text) {
		if (c == ';' || c == '\n') {
			flush();
			out.emplace_back();
		} else if (isspace((unsigned char)c) || c == ',') {
			flush();
		} else {
			word += (char)tolower((unsigned char)c);
		}
	}
	flush();
	return out;
}

static bool startsWith(const std::string &s, const char *p)
{
	return s.compare(0, strlen(p), p) == 0;
}

// Rule 2: the kind of the strongest fence instruction in the text.
static int instructionKind(StringRef text)
{
	int kind = K_NONE;
	auto stronger = [&](int k) {
		if (kind == K_NONE || k == K_MB)
			kind = k;
	};
	for (const auto &insn : instructions(text)) {
		if (insn.empty())
			continue;
		const std::string &m = insn[0];
		if (m == "lock" || m == "mfence" || m == "sync" || m == "hwsync" ||
		    startsWith(m, "xchg") ||	/* with memory: locked */
		    (m == "dmb" && insn.size() > 1 && (insn[1] == "ish" || insn[1] == "sy")) ||
		    (m == "fence" && insn.size() > 2 && insn[1] == "rw" && insn[2] == "rw"))
			stronger(K_MB);
		else if (m == "sfence" || m == "eieio" ||
			 (m == "dmb" && insn.size() > 1 && insn[1] == "ishst") ||
			 (m == "fence" && insn.size() > 2 && insn[1] == "w" && insn[2] == "w"))
			stronger(K_WMB);
		else if (m == "lfence" ||
			 (m == "dmb" && insn.size() > 1 && insn[1] == "ishld") ||
			 (m == "fence" && insn.size() > 2 && insn[1] == "r" && insn[2] == "r"))
			stronger(K_RMB);
		else if (m == "lwsync")
			stronger(K_RELEASE);
	}
	return kind;
}

struct KcsanAsmPass : PassInfoMixin<KcsanAsmPass> {
	PreservedAnalyses run(Module &M, ModuleAnalysisManager &)
	{
		const auto &names = profileNames();
		std::vector<std::pair<CallBase *, int>> sites;

		for (Function &F : M) {
			auto named = names.find(F.getName().str());
			for (BasicBlock &BB : F)
				for (Instruction &I : BB) {
					auto *CB = dyn_cast<CallBase>(&I);
					if (!CB || !CB->isInlineAsm())
						continue;
					auto *IA = cast<InlineAsm>(CB->getCalledOperand());
					int kind = named != names.end() ? named->second
									: instructionKind(IA->getAsmString());
					if (kind != K_NONE)
						sites.push_back({ CB, kind });
				}
		}
		if (sites.empty())
			return PreservedAnalyses::all();
		LLVMContext &C = M.getContext();
		FunctionCallee hook = M.getOrInsertFunction(
			"__kcsan_asm_barrier", Type::getVoidTy(C), Type::getInt32Ty(C));
		for (auto &s : sites) {
			IRBuilder<> B(s.first);
			CallInst *call = B.CreateCall(hook, { B.getInt32(s.second) });
			call->setDebugLoc(s.first->getDebugLoc());
		}
		return PreservedAnalyses::none();
	}
	static bool isRequired() { return true; }	// at -O0 and in optnone functions too
};

} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo()
{
	return { LLVM_PLUGIN_API_VERSION, "kcsan-asm", "1", [](PassBuilder &PB) {
			 PB.registerPipelineStartEPCallback(
				 [](ModulePassManager &MPM, OptimizationLevel) {
					 MPM.addPass(KcsanAsmPass());
				 });
		 } };
}
