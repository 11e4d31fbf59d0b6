# isocheck — one entry point: all, debug, test, bench, fuzz, install, clean.
#
#   make              optimized binaries in build/        (-O2 -DNDEBUG)
#   make debug        checked binaries in build/debug/    (asserts, ASan+UBSan)
#   make test         debug build, every cmocka suite, the end-to-end cases
#   make bench        benchmarks in bench/ (long; results to doc/benchmarks.md)
#   make fuzz         fuzz every reader (long; installs clang if missing)
#   make deps         install what is missing to build and test (apt; sudo only when not root)
#   make install PREFIX=/usr/local
#
# Sources are found by wildcard: a new module foo.c in solver/, theory/ or
# frontend/ joins its library; tests/test_*.c each become one test binary.

CC      ?= cc
PREFIX  ?= /usr/local
WARN    := -Wall -Wextra -Werror -Wshadow -Wno-unused-function
BASE    := -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE $(WARN) -Iinclude -I. -MMD -MP
REL_CFLAGS := $(BASE) -O2 -DNDEBUG -fPIC
DBG_CFLAGS := $(BASE) -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined -DGSAT_DEBUG
DBG_LDFLAGS := -fsanitize=address,undefined
LDLIBS  := -lm

GSAT_SRC := $(filter-out %_main.c,$(wildcard solver/*.c theory/*.c))
ISO_SRC  := $(filter-out %_main.c frontend/cli_%.c,$(wildcard frontend/*.c))
CLI_SRC  := $(wildcard frontend/cli_*.c)
WORK_SRC := $(wildcard bench/workload/*.c)
TEST_SRC := $(wildcard tests/test_*.c)

obj = $(patsubst %.c,$(1)/obj/%.o,$(2))

REL := build
DBG := build/debug

.PHONY: all debug test unit e2e bench fuzz deps install clean
all: $(REL)/gsat $(REL)/isocheck $(REL)/libgsat.a $(REL)/libisocheck.a $(REL)/libgsat.so $(REL)/libisocheck.so
debug: $(DBG)/gsat $(DBG)/isocheck $(patsubst tests/%.c,$(DBG)/tests/%,$(TEST_SRC))

$(REL)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(REL_CFLAGS) $(CFLAGS) -c $< -o $@
$(DBG)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(DBG_CFLAGS) $(CFLAGS) -c $< -o $@

define libs_for # $(1) = build dir, $(2) = compiler flags
$(1)/libgsat.a: $(call obj,$(1),$(GSAT_SRC))
	@rm -f $$@; ar rcs $$@ $$^
$(1)/libisocheck.a: $(call obj,$(1),$(ISO_SRC))
	@rm -f $$@; ar rcs $$@ $$^
$(1)/libworkload.a: $(call obj,$(1),$(WORK_SRC)) $(1)/obj/.dir
	@rm -f $$@; ar rcs $$@ $$(filter %.o,$$^)
$(1)/obj/.dir:
	@mkdir -p $$(dir $$@); touch $$@
endef
$(eval $(call libs_for,$(REL)))
$(eval $(call libs_for,$(DBG)))

$(REL)/libgsat.so: $(call obj,$(REL),$(GSAT_SRC))
	$(CC) -shared -o $@ $^ $(LDLIBS)
$(REL)/libisocheck.so: $(call obj,$(REL),$(ISO_SRC)) $(REL)/libgsat.so
	$(CC) -shared -o $@ $(call obj,$(REL),$(ISO_SRC)) -L$(REL) -lgsat $(LDLIBS)

$(REL)/gsat: $(REL)/obj/solver/gsat_main.o $(REL)/libgsat.a
	$(CC) -o $@ $^ $(LDLIBS)
$(REL)/isocheck: $(REL)/obj/frontend/isocheck_main.o $(call obj,$(REL),$(CLI_SRC)) $(REL)/libworkload.a $(REL)/libisocheck.a $(REL)/libgsat.a
	$(CC) -o $@ $^ $(LDLIBS)
$(DBG)/gsat: $(DBG)/obj/solver/gsat_main.o $(DBG)/libgsat.a
	$(CC) $(DBG_LDFLAGS) -o $@ $^ $(LDLIBS)
$(DBG)/isocheck: $(DBG)/obj/frontend/isocheck_main.o $(call obj,$(DBG),$(CLI_SRC)) $(DBG)/libworkload.a $(DBG)/libisocheck.a $(DBG)/libgsat.a
	$(CC) $(DBG_LDFLAGS) -o $@ $^ $(LDLIBS)

$(DBG)/tests/test_%: $(DBG)/obj/tests/test_%.o $(DBG)/libworkload.a $(DBG)/libisocheck.a $(DBG)/libgsat.a
	@mkdir -p $(dir $@)
	$(CC) $(DBG_LDFLAGS) -o $@ $^ -lcmocka $(LDLIBS)

# Every cmocka suite, then the end-to-end cases; any failure fails the target.
test: debug
	@fail=0; for t in $(patsubst tests/%.c,$(DBG)/tests/%,$(TEST_SRC)); do \
	  echo "== $$t"; ASAN_OPTIONS=detect_leaks=1 $$t || fail=1; done; \
	echo "== end-to-end"; GSAT=$(DBG)/gsat ISOCHECK=$(DBG)/isocheck tests/e2e/run.sh || fail=1; \
	if [ $$fail = 0 ]; then echo "make test: all suites passed"; else echo "make test: FAILURES"; exit 1; fi

bench: all
	bench/run-all.sh

fuzz:
	sh .ci/deps fuzz
	bench/fuzz.sh

deps:
	sh .ci/deps

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 755 $(REL)/gsat $(REL)/isocheck $(DESTDIR)$(PREFIX)/bin/
	install -m 644 $(REL)/libgsat.a $(REL)/libisocheck.a $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(REL)/libgsat.so $(REL)/libisocheck.so $(DESTDIR)$(PREFIX)/lib/
	install -m 644 include/gsat.h $(wildcard include/isocheck.h) $(DESTDIR)$(PREFIX)/include/
	for pc in $(wildcard doc/*.pc.in); do sed 's|@PREFIX@|$(PREFIX)|g' $$pc > $(DESTDIR)$(PREFIX)/lib/pkgconfig/$$(basename $$pc .in); done

clean:
	rm -rf build

-include $(shell find build -name '*.d' 2>/dev/null)
