# tmpy: plain Makefile. `make` builds build/libtmrt.a; `make test` runs everything.
CC      ?= gcc
CFLAGS  ?= -O2 -g
CFLAGS  += -std=gnu11 -Wall -Wextra -Werror -pthread -fno-strict-aliasing
CPPFLAGS += -Iruntime
LDLIBS  += -pthread

BUILD   := build
RT_SRC  := $(wildcard runtime/*.c)
RT_OBJ  := $(patsubst runtime/%.c,$(BUILD)/runtime/%.o,$(RT_SRC))
RT_HDR  := $(wildcard runtime/*.h)
LIB     := $(BUILD)/libtmrt.a

CTESTS  := $(patsubst tests/c/%.c,$(BUILD)/tests/%,$(wildcard tests/c/*.c))
BENCHES := $(patsubst bench/%.c,$(BUILD)/bench/%,$(wildcard bench/*.c))
DEMO    := $(BUILD)/bench/tmrt_demo

.PHONY: all test demo bench check-valgrind clean setup
all: $(LIB) $(DEMO)

$(BUILD)/runtime/%.o: runtime/%.c $(RT_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(LIB): $(RT_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/tests/%: tests/c/%.c tests/c/testutil.h $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $< -o $@ $(LIB) $(LDLIBS)

$(BUILD)/bench/%: bench/%.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $< -o $@ $(LIB) $(LDLIBS)

demo: $(DEMO)
	./$(DEMO)

# Installs what the tests need, once (a fresh machine has gcc, make, python3).
setup:
	@python3 -c 'import pytest' 2>/dev/null || python3 -m pip install --quiet pytest

test: setup $(LIB) $(DEMO) $(CTESTS)
	python3 -m pytest -q tests

bench: $(BENCHES)
	bench/run.sh

check-valgrind: $(CTESTS)
	TMPY_VALGRIND=1 python3 -m pytest -q tests -k valgrind

clean:
	rm -rf $(BUILD)
