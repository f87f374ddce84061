# tmpy: plain Makefile. `make` builds both runtime libraries and the demo;
# `make test` runs everything.
CC       ?= gcc
CFLAGS   ?= -O2 -g
# -Wno-unused-parameter: functions called through one signature (the VM's cfunc, the
# runtime's callbacks) need not use every parameter (CPython builds so too).
CFLAGS   += -std=gnu11 -Wall -Wextra -Wno-unused-parameter -Werror -pthread -fno-strict-aliasing
CPPFLAGS += -Iruntime
LDLIBS   += -pthread

BUILD   := build
RT_SRC  := $(wildcard runtime/*.c)
RT_HDR  := $(wildcard runtime/*.h)
# One source, two configurations: the GIL build and the STM build.
GIL_OBJ := $(patsubst runtime/%.c,$(BUILD)/gil/%.o,$(RT_SRC))
STM_OBJ := $(patsubst runtime/%.c,$(BUILD)/stm/%.o,$(RT_SRC))
LIB_GIL := $(BUILD)/libtmrt.a
LIB_STM := $(BUILD)/libtmrt-stm.a

# The interpreter: vm/ (the eval core) and its folders compiler/, objects/,
# modules/ on the GIL runtime is build/tmpy-gil. Includes name a header of
# another folder by its path under vm/ ("objects/strobj.h").
VM_DIRS  := vm vm/rt vm/compiler vm/objects vm/modules vm/modules/sre
VM_SRC   := $(foreach d,$(VM_DIRS),$(wildcard $(d)/*.c))
VM_HDR   := $(foreach d,$(VM_DIRS),$(wildcard $(d)/*.h))
VM_GIL_OBJ := $(patsubst vm/%.c,$(BUILD)/vm/%.o,$(VM_SRC))
TMPY_GIL := $(BUILD)/tmpy-gil
# The same sources on the STM runtime: build/tmpy.
VM_STM_OBJ := $(patsubst vm/%.c,$(BUILD)/vm-stm/%.o,$(VM_SRC))
TMPY_STM := $(BUILD)/tmpy
# CPython's pure-Python standard library goes on sys.path after lib/
# (`make TMPY_STDLIBDIR=...` at build time, TMPY_STDLIB at run time).
TMPY_STDLIBDIR ?= /usr/lib/python3.11
VM_CPPFLAGS := -Ivm -Iruntime -DTMPY_LIBDIR='"$(CURDIR)/lib"' -DTMPY_STDLIBDIR='"$(TMPY_STDLIBDIR)"'
VM_LDLIBS := -lgmp -lz -lssl -lcrypto -lexpat -lm

# tests/c/test_X.c runs against the GIL build as build/tests/test_X and, if
# its name is in BOTH_TESTS or starts with test_stm_, against the STM build
# as build/tests/test_X-stm.
BOTH_TESTS := test_segment test_gc test_weak
ALL_CTESTS := $(patsubst tests/c/%.c,%,$(wildcard tests/c/test_*.c))
GIL_TESTS  := $(filter-out test_stm_%,$(ALL_CTESTS))
STM_TESTS  := $(filter test_stm_%,$(ALL_CTESTS)) $(BOTH_TESTS)
CTESTS     := $(GIL_TESTS:%=$(BUILD)/tests/%) $(STM_TESTS:%=$(BUILD)/tests/%-stm)
BENCHES    := $(patsubst bench/%.c,$(BUILD)/bench/%,$(wildcard bench/*.c))
DEMO       := $(BUILD)/bench/tmrt_demo $(BUILD)/bench/parallel_demo $(BUILD)/bench/parallel_demo-stm

.PHONY: all test test-packages demo bench bench-memory check-valgrind clean setup
all: $(LIB_GIL) $(LIB_STM) $(DEMO) $(TMPY_GIL) $(TMPY_STM)

$(BUILD)/gil/%.o: runtime/%.c $(RT_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -DTM_STM=0 $(CFLAGS) -c $< -o $@

$(BUILD)/stm/%.o: runtime/%.c $(RT_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -DTM_STM=1 $(CFLAGS) -c $< -o $@

$(LIB_GIL): $(GIL_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/vm/%.o: vm/%.c $(VM_HDR) $(RT_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(VM_CPPFLAGS) -DTM_STM=0 $(CFLAGS) -c $< -o $@

$(TMPY_GIL): $(VM_GIL_OBJ) $(LIB_GIL)
	$(CC) $(CFLAGS) $(VM_GIL_OBJ) -o $@ $(LIB_GIL) $(VM_LDLIBS) $(LDLIBS)

$(BUILD)/vm-stm/%.o: vm/%.c $(VM_HDR) $(RT_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(VM_CPPFLAGS) -DTM_STM=1 $(CFLAGS) -c $< -o $@

# C memory of aborted transactions (vm/rt/txmalloc.c): the allocation calls of
# vm/ (not of the runtime, whose own lists must survive aborts) are wrapped,
# in one relocatable link of the vm/ objects.
TXMALLOC_WRAP := -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free,--wrap=strdup,--wrap=strndup
$(BUILD)/vm-stm.o: $(VM_STM_OBJ)
	$(CC) -r $(TXMALLOC_WRAP) $(VM_STM_OBJ) -o $@
$(TMPY_STM): $(BUILD)/vm-stm.o $(LIB_STM)
	$(CC) $(CFLAGS) $(BUILD)/vm-stm.o -o $@ $(LIB_STM) $(VM_LDLIBS) $(LDLIBS)

$(LIB_STM): $(STM_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/tests/%-stm: tests/c/%.c tests/c/testutil.h $(LIB_STM)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -DTM_STM=1 $(CFLAGS) $< -o $@ $(LIB_STM) $(LDLIBS)

$(BUILD)/tests/%: tests/c/%.c tests/c/testutil.h $(LIB_GIL)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -DTM_STM=0 $(CFLAGS) $< -o $@ $(LIB_GIL) $(LDLIBS)

# bench/X.c built against the STM library as build/bench/X-stm.
$(BUILD)/bench/%-stm: bench/%.c bench/benchutil.h $(LIB_STM)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -DTM_STM=1 $(CFLAGS) $< -o $@ $(LIB_STM) $(LDLIBS)

# bench/stm_*.c measure the STM build.
$(BUILD)/bench/stm_%: bench/stm_%.c bench/benchutil.h $(LIB_STM)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -DTM_STM=1 $(CFLAGS) $< -o $@ $(LIB_STM) $(LDLIBS)

$(BUILD)/bench/%: bench/%.c bench/benchutil.h $(LIB_GIL)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -DTM_STM=0 $(CFLAGS) $< -o $@ $(LIB_GIL) $(LDLIBS)

demo: $(DEMO) $(TMPY_GIL) $(TMPY_STM)
	bench/demo.sh

# Installs what the tests need, once (a fresh machine has gcc, make, python3).
setup:
	@python3 -c 'import pytest' 2>/dev/null || python3 -m pip install --quiet pytest
	@python3 -c 'import xdist' 2>/dev/null || python3 -m pip install --quiet pytest-xdist
	@test -f /usr/include/gmp.h -o -f /usr/include/x86_64-linux-gnu/gmp.h || \
	  { (apt-get update && apt-get install -y libgmp-dev) || (sudo apt-get update && sudo apt-get install -y libgmp-dev); }
	@test -f /usr/include/zlib.h -a -f /usr/include/openssl/evp.h || \
	  { (apt-get update && apt-get install -y zlib1g-dev libssl-dev) || (sudo apt-get update && sudo apt-get install -y zlib1g-dev libssl-dev); }
	@test -f /usr/include/expat.h || \
	  { (apt-get update && apt-get install -y libexpat1-dev) || (sudo apt-get update && sudo apt-get install -y libexpat1-dev); }
	@test -f $(TMPY_STDLIBDIR)/os.py -a -f $(TMPY_STDLIBDIR)/asyncio/base_events.py || \
	  { (apt-get update && apt-get install -y libpython3.11-minimal libpython3.11-stdlib) || \
	    (sudo apt-get update && sudo apt-get install -y libpython3.11-minimal libpython3.11-stdlib); }
	@test -f $(TMPY_STDLIBDIR)/test/test_grammar.py || \
	  { (apt-get update && apt-get install -y libpython3.11-testsuite) || \
	    (sudo apt-get update && sudo apt-get install -y libpython3.11-testsuite); }

# The differential programs, CPython's test modules and every test that runs
# single programs with no timing or stress in them (most of the suite's time)
# on TEST_WORKERS pytest-xdist workers; then the rest, whose concurrency and
# stress tests want the cores to themselves (the runtime's C tests of
# test_runtime.py are single-threaded, or threaded without timing, and
# valgrind runs one thread at a time: they run in the first pass).
TEST_WORKERS ?= 3
PARALLEL_TESTS = tests/test_py.py tests/test_cpython_suite.py tests/test_ast_stdlib.py tests/test_fuzz_builtins.py \
  tests/test_fuzz_compile.py tests/test_venv_pip.py tests/test_stdlib_compile.py tests/test_docs.py \
  tests/test_layers.py tests/test_includes.py tests/test_globals.py tests/test_run_module.py tests/test_site.py \
  tests/test_traceback_markers.py tests/test_excgroup_traceback.py tests/test_match_complex.py \
  tests/test_re_random.py tests/test_re_sre_code.py tests/test_deep_iterators.py tests/test_finalizer_warnings.py \
  tests/test_runtime.py tests/test_fuzz_parse.py
# The set-up first (it may install headers the build needs), then the build
# on every core (TEST_JOBS), then the tests.
TEST_JOBS ?= $(shell nproc)
test:
	@$(MAKE) --no-print-directory setup
	@$(MAKE) --no-print-directory -j$(TEST_JOBS) all $(CTESTS)
	@status=0; \
	python3 -m pytest -q -n $(TEST_WORKERS) --durations=10 $(PARALLEL_TESTS) || status=1; \
	python3 -m pytest -q --durations=30 tests $(addprefix --ignore=,$(PARALLEL_TESTS)) || status=1; \
	exit $$status

# Popular packages' own test suites under both builds (tests/packages/; downloads
# cached in ~/.cache/tmpy-packages; minutes): not part of `make test` (there,
# TMPY_PACKAGE_TESTS=1 runs them as tests/test_packages.py).
test-packages: setup all
	python3 tests/packages/run.py --out bench/results/packages.txt

bench: $(BENCHES) $(TMPY_GIL) $(TMPY_STM)
	bench/run.sh
	bench/py_single.py
	bench/py_sync.py --tmpy $(TMPY_GIL)
	bench/py_stm.py
	bench/parallel.py

# bench/parallel/*.py at 1-8 threads under build/tmpy, build/tmpy-gil and python3:
# bench/results/parallel.txt and parallel.png.
bench-parallel: $(TMPY_GIL) $(TMPY_STM)
	bench/parallel.py

# Peak RSS and time of bench's held programs (word count, tree building, ray
# tracing, a 200 MB file read) under python3, tmpy-gil and tmpy: bench/results/memory.txt.
bench-memory: $(TMPY_GIL) $(TMPY_STM)
	bench/memory.py

check-valgrind: setup all $(CTESTS)
	python3 -m pytest -q tests -k valgrind

clean:
	rm -rf $(BUILD)
