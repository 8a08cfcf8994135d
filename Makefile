# Makefile — builds kcsan-scan, runs its tests and its demo.
#
#   make            build build/kcsan-scan
#   make demo       scan the bundled examples and print the report
#   make check      run every test: unit-check, e2e-check (deterministic
#                   end-to-end), dynamic-check (programs under the runtime,
#                   real threads), sanitize-check
#   make sanitize-check  the analyser and CLI built with AddressSanitizer and
#                   UndefinedBehaviorSanitizer (build-san/, any report
#                   fatal): unit tests, corpora and examples under them
#   WERROR=1        with any target: warnings are errors
#   make install    install under $(DESTDIR)$(PREFIX)
#   make bench-scan static-analysis speed ratios (see bench/)
#   make bench-focus runtime focus vs --no-focus on the buggy examples
#   make bench-runtime  runtime overhead: native, kcsan-scan cc, TSan
#   make bench-histfix  real historical fixes of missing ordering: parent
#                   reported on the fixed lines, fix not (bench/histfix/;
#                   HISTFIX_MIRRORS=DIR uses local bare mirrors, otherwise
#                   it clones from GitHub into build/histfix/repos)
#   make eval-examples the buggy examples found at run time and joined to
#                   their static findings, fixed twins silent in 20 runs
#   make eval-dynamic  dynamic recall / false positives on the labelled
#                   corpus, beside ThreadSanitizer's (long: ~30 min)
#
# The runtime (runtime/, build/runtime/libkcsan_rt.a) is built by 'all';
# its rules are in runtime/Makefile.inc.
#
# 'demo' and 'check' first run scripts/deps.sh, which installs missing
# Debian packages when run as root and otherwise prints the command to run.

PREFIX   ?= /usr/local
DESTDIR  ?=
LLVM_DIR ?= /usr/lib/llvm-14
CC       ?= cc
ifeq ($(origin CC),default)
CC       := gcc
endif

B        := build
CFLAGS   ?= -O2 -g
# "override": added even to CFLAGS given on the command line (the
# sanitizer build gives its own), so that every build has the warnings and
# the header dependencies (-MMD: without them a changed header left stale
# objects in build-san/).
override CFLAGS += -std=gnu11 -Wall -Wextra -pthread -MMD -MP
ifeq ($(WERROR),1)
override CFLAGS += -Werror
endif
CPPFLAGS += -I. -Idb -I$(LLVM_DIR)/include \
            -DKCSAN_INCLUDE_DIR='"$(abspath include)"' \
            -DKCSAN_INSTALLED_INCLUDE_DIR='"$(PREFIX)/share/kcsan-scan/include"' \
            -DKCSAN_INSTALLED_LIB_DIR='"$(PREFIX)/lib/kcsan-scan"'
# libclang is not linked: analyzer/frontend/libclang.c loads it when `scan` first
# needs it (libLLVM's start-up cost is not paid by run, cc and report).
LIBCLANG_SO := $(firstword $(wildcard $(LLVM_DIR)/lib/libclang.so.1 $(LLVM_DIR)/lib/libclang.so) libclang.so.1)
CPPFLAGS += -DKCSAN_LIBCLANG='"$(LIBCLANG_SO)"'
LDLIBS   += -lsqlite3 -ljansson -ldl -pthread

DB_SRC       := db/db.c db/facts.c db/findings.c db/races.c db/focus_sites.c
ANALYZER_SRC := $(wildcard analyzer/*/*.c)
CLI_SRC      := $(wildcard cli/*.c)
GEN_SRC      := $(B)/gen/schema.c $(B)/gen/profiles.c

LIB_OBJ  := $(patsubst %.c,$(B)/%.o,$(DB_SRC) $(ANALYZER_SRC)) \
            $(patsubst $(B)/gen/%.c,$(B)/gen/%.o,$(GEN_SRC))
CLI_OBJ  := $(patsubst %.c,$(B)/%.o,$(CLI_SRC))
UNIT_SRC := $(wildcard tests/unit/*.c)
UNIT_OBJ := $(patsubst %.c,$(B)/%.o,$(UNIT_SRC))
REPORT_LIB_OBJ := $(filter-out $(B)/cli/main.o,$(CLI_OBJ))

BIN      := $(B)/kcsan-scan

.DEFAULT_GOAL := all

# The inline-asm barrier plugin for clang (plugin/kcsan_asm.cpp, loaded by
# `kcsan-scan cc` with -fpass-plugin): C++ against llvm-14-dev's headers.
# Without them the rest builds, and this target says what is missing: the
# runtime then sees inline-asm barriers only through focus's map of the
# scan's barrier sites.
LLVM_CONFIG := $(LLVM_DIR)/bin/llvm-config
PLUGIN      := $(B)/kcsan-asm.so
HAVE_LLVM_DEV := $(wildcard $(LLVM_DIR)/include/llvm/Passes/PassPlugin.h)
ifneq ($(HAVE_LLVM_DEV),)
# The LLVM major version the plugin is built for: kcsan-scan cc loads it
# only into a clang of that version.
PLUGIN_LLVM_MAJOR := $(firstword $(subst ., ,$(shell $(LLVM_CONFIG) --version)))
CPPFLAGS += -DKCSAN_PLUGIN_LLVM_MAJOR=$(PLUGIN_LLVM_MAJOR)
$(PLUGIN): plugin/kcsan_asm.cpp
	@mkdir -p $(dir $@)
	$(CXX) $(patsubst -I%,-isystem %,$(shell $(LLVM_CONFIG) --cxxflags)) -O2 -Wall -Wextra \
	    $(if $(filter 1,$(WERROR)),-Werror) -fPIC -shared $< -o $@
else
.PHONY: $(PLUGIN)
$(PLUGIN):
	@echo "note: $(LLVM_DIR)/include/llvm not found (Debian: llvm-14-dev; 'make deps' installs it):" \
	      "building without the inline-asm barrier plugin, so 'kcsan-scan cc' will not see" \
	      "barriers written as inline assembly (focus still applies the scan's)"
endif

include runtime/Makefile.inc

.PHONY: all deps demo check unit-check e2e-check dynamic-check sanitize-check install uninstall clean bench-scan \
        eval-dynamic eval-examples bench-runtime bench-focus bench-histfix

all: $(BIN) $(KCSAN_RT_LIB) $(PLUGIN)

deps:
	@sh scripts/deps.sh

$(BIN): $(LIB_OBJ) $(CLI_OBJ)
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

$(B)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

$(B)/gen/%.o: $(B)/gen/%.c
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

$(B)/gen/schema.c: db/schema.sql scripts/embed-sql.sh
	@mkdir -p $(dir $@)
	sh scripts/embed-sql.sh $< kdb_schema_sql > $@

$(B)/gen/profiles.c: $(wildcard profiles/*.prof) scripts/embed-profiles.sh
	@mkdir -p $(dir $@)
	sh scripts/embed-profiles.sh profiles > $@

# Unit tests (Criterion) link the library objects and the non-main CLI objects.
$(B)/unit-tests: $(UNIT_OBJ) $(LIB_OBJ) $(REPORT_LIB_OBJ)
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS) -lcriterion

demo: deps
	@$(MAKE) --no-print-directory all
	@sh scripts/demo.sh

unit-check: $(B)/unit-tests
	$(B)/unit-tests --jobs 2

e2e-check: $(BIN)
	@sh tests/run-tests.sh

dynamic-check: $(BIN) $(KCSAN_RT_LIB)
	@sh tests/run-dynamic.sh

check: deps
	@$(MAKE) --no-print-directory all $(B)/unit-tests
	@$(MAKE) --no-print-directory unit-check
	@$(MAKE) --no-print-directory e2e-check
	@$(MAKE) --no-print-directory dynamic-check
	@$(MAKE) --no-print-directory sanitize-check

# The same sources in build-san/ with ASan and UBSan; a sanitizer report
# makes the process exit 86 (leaks: 23; tests/sanitize.sh sets that),
# which every step treats as a failure.  KCSAN_DEBUG turns on the checks
# of the analysis' invariants (analysis/sets.c).  The runtime is not built
# here: it must never be instrumented.
SAN_CFLAGS := -O1 -g -DKCSAN_DEBUG -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
sanitize-check:
	@$(MAKE) --no-print-directory B=build-san CFLAGS="$(SAN_CFLAGS)" build-san/kcsan-scan build-san/unit-tests
	@sh tests/sanitize.sh build-san

bench-scan: deps
	@$(MAKE) --no-print-directory all
	@sh bench/scan-bench.sh

bench-focus: deps
	@$(MAKE) --no-print-directory all
	@sh bench/focus-bench.sh

bench-runtime: deps
	@$(MAKE) --no-print-directory all
	@sh bench/runtime-bench.sh

bench-histfix: deps
	@$(MAKE) --no-print-directory all
	@sh bench/histfix/run.sh

eval-examples: deps
	@$(MAKE) --no-print-directory all
	@KCSAN_CC=clang sh tests/dynamic/examples.sh && KCSAN_CC=gcc sh tests/dynamic/examples.sh

# Every corpus program built with `kcsan-scan cc`, scanned and run under
# `kcsan-scan run --timeout 10` (racy: until found; correct: 20 runs), and
# the same with clang -fsanitize=thread.  EVAL_FLAGS adds scorer options.
eval-dynamic: deps
	@$(MAKE) --no-print-directory all
	@python3 tests/dynamic/score-dynamic.py --tsan --timeout 10 --fp-runs 20 \
		--min-class-recall 1 --max-fp 0 $(EVAL_FLAGS) \
		tests/corpus/[0-9]*.c tests/corpus-blind/b*.c

install: $(BIN) $(KCSAN_RT_LIB) $(PLUGIN)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
	           $(DESTDIR)$(PREFIX)/share/kcsan-scan/include/kcsan
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/kcsan-scan
	ln -sf kcsan-scan $(DESTDIR)$(PREFIX)/bin/kcsan-cc
	ln -sf kcsan-scan $(DESTDIR)$(PREFIX)/bin/kcsan-c++
	install -m 644 man/kcsan-scan.1 $(DESTDIR)$(PREFIX)/share/man/man1/kcsan-scan.1
	install -m 644 include/kcsan/*.h $(DESTDIR)$(PREFIX)/share/kcsan-scan/include/kcsan/
	install -d $(DESTDIR)$(PREFIX)/lib/kcsan-scan
	install -m 644 $(KCSAN_RT_LIB) $(DESTDIR)$(PREFIX)/lib/kcsan-scan/
	if [ -f $(PLUGIN) ]; then install -m 755 $(PLUGIN) $(DESTDIR)$(PREFIX)/lib/kcsan-scan/; fi

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/kcsan-scan $(DESTDIR)$(PREFIX)/bin/kcsan-cc \
	      $(DESTDIR)$(PREFIX)/bin/kcsan-c++ $(DESTDIR)$(PREFIX)/share/man/man1/kcsan-scan.1
	rm -rf $(DESTDIR)$(PREFIX)/share/kcsan-scan $(DESTDIR)$(PREFIX)/lib/kcsan-scan

clean:
	rm -rf $(B) build-san

-include $(shell find $(B) -name '*.d' 2>/dev/null)
