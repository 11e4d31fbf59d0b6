# isocheck — one entry point: all, debug, test, bench, fuzz, install, clean.
#
#   make              optimized binaries in build/        (-O2 -DNDEBUG)
#   make debug        checked binaries in build/debug/    (asserts, ASan+UBSan)
#   make test         debug build, the layering and size checks, every cmocka suite, the end-to-end cases
#   make bench        benchmarks in bench/ (long; results to doc/benchmarks.md)
#   make fuzz         fuzz every reader (long; installs clang if missing)
#   make deps         install what is missing to build and test (apt; sudo only when not root)
#   make install PREFIX=/usr/local      (make uninstall PREFIX=... removes exactly those files)
#   make jni          build/jni/libmonosat.so for MonoSAT's Java API (needs a JDK)
#
# Sources are found by wildcard: a new module foo.c in io/, solver/ or
# theory/ joins libgsat, one in frontend/ or a frontend/ subfolder joins
# libisocheck, workload/ and programs/ go into the programs only (parts and
# what each may include: doc/architecture.md, tests/layering.sh);
# tests/test_*.c each become one test binary.
#
# Libraries: every object is compiled with hidden visibility and only the
# public API (GSAT_API, ISOCHECK_API, IPASIR_API, MONOSAT_API in include/)
# is exported.  The programs and the tests link internal archives
# (build/obj/lib*.a, all names linkable); the public static libraries are
# one prelinked object each whose hidden names are made local, so they
# cannot clash with a user's own functions either (doc/library.md).

CC      ?= cc
PREFIX  ?= /usr/local
WARN    := -Wall -Wextra -Werror -Wshadow
BASE    := -std=c11 -pthread -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE $(WARN) -Iinclude -I. -MMD -MP
REL_CFLAGS := $(BASE) -O2 -DNDEBUG -fPIC -fvisibility=hidden
DBG_CFLAGS := $(BASE) -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined -DGSAT_DEBUG -fvisibility=hidden
DBG_LDFLAGS := -fsanitize=address,undefined
LDLIBS  := -lm -pthread

IO_SRC   := $(wildcard io/*.c)
GSAT_SRC := $(IO_SRC) $(wildcard solver/*.c theory/*.c) $(wildcard compat/ipasir/*.c)
MONOSAT_SRC := $(wildcard compat/monosat/*.c)
JNI_SRC  := $(wildcard compat/monosat/jni/*.c)
ISO_SRC  := $(wildcard frontend/*.c frontend/*/*.c)
PROG_SRC := $(filter-out %_main.c,$(wildcard programs/*.c))
WORK_SRC := $(wildcard workload/*.c)
TEST_SRC := $(wildcard tests/test_*.c)

obj = $(patsubst %.c,$(1)/obj/%.o,$(2))

REL := build
DBG := build/debug
SO_VERSION := $(shell sed -n 's/^\#define ISOCHECK_VERSION "\(.*\)"/\1/p' include/version.h)
SO_MAJOR   := $(firstword $(subst ., ,$(SO_VERSION)))
PUBLIC_LIBS := $(foreach l,gsat isocheck,$(REL)/lib$(l).a $(REL)/lib$(l).so.$(SO_VERSION) $(REL)/lib$(l).so.$(SO_MAJOR) $(REL)/lib$(l).so) \
               $(REL)/monosat/libmonosat.so

.PHONY: all debug test layering sizes unit e2e bench fuzz deps install uninstall man clean jni jni-check
all: $(REL)/gsat $(REL)/isocheck $(PUBLIC_LIBS)
debug: $(DBG)/gsat $(DBG)/isocheck $(patsubst tests/%.c,$(DBG)/tests/%,$(TEST_SRC))

# Objects depend on the Makefile too: a change of flags (such as the
# visibility the libraries rely on) must rebuild them.
$(REL)/obj/%.o: %.c Makefile
	@mkdir -p $(dir $@)
	$(CC) $(REL_CFLAGS) $(CFLAGS) -c $< -o $@
$(DBG)/obj/%.o: %.c Makefile
	@mkdir -p $(dir $@)
	$(CC) $(DBG_CFLAGS) $(CFLAGS) -c $< -o $@

# Internal archives: every module, every name linkable (programs, tests).
# The engine also comes prelinked into one object whose internal names
# are local (gsat_engine.o): what libgsat.a holds, and what the layers
# built on it link, since their own names may be the engine's internal
# ones (MonoSAT's API has a backtrack()).  libmonosat.a is such a layer:
# its objects and the engine prelinked, only MonoSAT's names left global.
ENGINE_LOCAL := -w -L 'gsat_*' -L 'ipasir_*'
define libs_for # $(1) = build dir
$(1)/obj/libgsat.a: $(call obj,$(1),$(GSAT_SRC))
	@rm -f $$@; ar rcs $$@ $$^
$(1)/obj/gsat_engine.o: $(call obj,$(1),$(GSAT_SRC))
	$(LD) -r -o $$@ $$^
	objcopy --localize-hidden $$@
$(1)/obj/monosat_layer.o: $(call obj,$(1),$(MONOSAT_SRC)) $(1)/obj/gsat_engine.o
	$(LD) -r -o $$@ $$^
	objcopy --localize-hidden $(ENGINE_LOCAL) $$@
$(1)/obj/libmonosat.a: $(1)/obj/monosat_layer.o
	@rm -f $$@; ar rcs $$@ $$^
$(1)/obj/libisocheck.a: $(call obj,$(1),$(ISO_SRC))
	@rm -f $$@; ar rcs $$@ $$^
$(1)/obj/libprograms.a: $(call obj,$(1),$(PROG_SRC))
	@rm -f $$@; ar rcs $$@ $$^
$(1)/obj/libworkload.a: $(call obj,$(1),$(WORK_SRC)) $(1)/obj/.dir
	@rm -f $$@; ar rcs $$@ $$(filter %.o,$$^)
$(1)/obj/.dir:
	@mkdir -p $$(dir $$@); touch $$@
endef
$(eval $(call libs_for,$(REL)))
$(eval $(call libs_for,$(DBG)))

# Public static libraries: one prelinked object each, hidden names local;
# libisocheck embeds the engine and localizes the engine's API too, so it
# never clashes with libgsat.a linked beside it.
$(REL)/libgsat.a: $(REL)/obj/gsat_engine.o
	@rm -f $@; ar rcs $@ $^
$(REL)/libisocheck.a: $(call obj,$(REL),$(ISO_SRC)) $(REL)/obj/libgsat.a
	$(LD) -r -o $(@:.a=.o) $^
	objcopy --localize-hidden $(ENGINE_LOCAL) $(@:.a=.o)
	@rm -f $@; ar rcs $@ $(@:.a=.o); rm -f $(@:.a=.o)

# Public shared libraries, versioned (soname lib*.so.$(SO_MAJOR)).  The
# engine inside libisocheck is linked from the internal archive with
# --exclude-libs, so it is not exported from there.
SO_LDFLAGS = -shared -Wl,--no-undefined -Wl,-soname,$(notdir $(basename $(basename $@)))
$(REL)/libgsat.so.$(SO_VERSION): $(call obj,$(REL),$(GSAT_SRC))
	$(CC) $(SO_LDFLAGS) -o $@ $^ $(LDLIBS)
$(REL)/libisocheck.so.$(SO_VERSION): $(call obj,$(REL),$(ISO_SRC)) $(REL)/obj/libgsat.a
	$(CC) $(SO_LDFLAGS) -o $@ $^ -Wl,--exclude-libs,ALL $(LDLIBS)
$(REL)/%.so.$(SO_MAJOR): $(REL)/%.so.$(SO_VERSION)
	ln -sf $(notdir $<) $@
$(REL)/%.so: $(REL)/%.so.$(SO_VERSION)
	ln -sf $(notdir $<) $@
# MonoSAT's C API over gsat (compat/monosat; doc/backend.md), and the same
# with the JNI layer for MonoSAT's Java classes (`make jni`).
$(REL)/monosat/libmonosat.so: $(REL)/obj/monosat_layer.o
	@mkdir -p $(dir $@)
	$(CC) -shared -Wl,--no-undefined -o $@ $^ $(LDLIBS)

JAVA_HOME ?= $(patsubst %/bin/javac,%,$(realpath $(shell command -v javac 2>/dev/null)))
JNI_CFLAGS := -I$(JAVA_HOME)/include -I$(JAVA_HOME)/include/linux
$(REL)/obj/compat/monosat/jni/%.o: CFLAGS += $(JNI_CFLAGS)
jni: $(REL)/jni/libmonosat.so
$(REL)/jni/libmonosat.so: $(REL)/obj/monosat_layer.o $(call obj,$(REL),$(JNI_SRC))
	@mkdir -p $(dir $@)
	$(CC) -shared -Wl,--no-undefined -o $@ $^ $(LDLIBS)
$(call obj,$(REL),$(JNI_SRC)): | jni-check
jni-check:
	@[ -f "$(JAVA_HOME)/include/jni.h" ] || { echo "make jni: no jni.h under JAVA_HOME='$(JAVA_HOME)' (install a JDK or set JAVA_HOME)"; exit 2; }

$(REL)/gsat: $(REL)/obj/programs/gsat_main.o $(REL)/obj/libprograms.a $(REL)/obj/libgsat.a
	$(CC) -o $@ $^ $(LDLIBS)
$(REL)/isocheck: $(REL)/obj/programs/isocheck_main.o $(REL)/obj/libprograms.a $(REL)/obj/libworkload.a $(REL)/obj/libisocheck.a $(REL)/obj/libgsat.a
	$(CC) -o $@ $^ $(LDLIBS)
$(DBG)/gsat: $(DBG)/obj/programs/gsat_main.o $(DBG)/obj/libprograms.a $(DBG)/obj/libgsat.a
	$(CC) $(DBG_LDFLAGS) -o $@ $^ $(LDLIBS)
$(DBG)/isocheck: $(DBG)/obj/programs/isocheck_main.o $(DBG)/obj/libprograms.a $(DBG)/obj/libworkload.a $(DBG)/obj/libisocheck.a $(DBG)/obj/libgsat.a
	$(CC) $(DBG_LDFLAGS) -o $@ $^ $(LDLIBS)

$(DBG)/tests/test_%: $(DBG)/obj/tests/test_%.o $(DBG)/obj/libprograms.a $(DBG)/obj/libworkload.a $(DBG)/obj/libisocheck.a $(DBG)/obj/libgsat.a
	@mkdir -p $(dir $@)
	$(CC) $(DBG_LDFLAGS) -o $@ $^ -lcmocka $(LDLIBS)
# The test objects are not intermediates: a second `make test` rebuilds nothing.
.SECONDARY: $(call obj,$(DBG),$(TEST_SRC))
# MonoSAT's API names include the engine's backtrack(): only this suite
# links the layer (whose copy of the engine is sealed), and no other does.
$(DBG)/tests/test_monosat: $(DBG)/obj/tests/test_monosat.o $(DBG)/obj/libmonosat.a $(DBG)/obj/libgsat.a
	@mkdir -p $(dir $@)
	$(CC) $(DBG_LDFLAGS) -o $@ $^ -lcmocka $(LDLIBS)

# The layering of #include lines (tests/layering.sh, doc/architecture.md),
# the limits on file and function length (tests/sizes.sh), every cmocka
# suite and every end-to-end case, one queue drawn by two workers
# (tests/run_tests.sh; TEST_JOBS=1 for one); any failure fails the target.
layering:
	@sh tests/layering.sh
sizes:
	@sh tests/sizes.sh
test: debug all
	@sh tests/run_tests.sh $(DBG) $(patsubst tests/%.c,$(DBG)/tests/%,$(TEST_SRC))

bench: all
	bench/run-all.sh

fuzz:
	sh .ci/deps fuzz
	bench/fuzz.sh

deps:
	sh .ci/deps

# Shared libraries keep their soname links; MonoSAT's C API goes to
# lib/gsat/ (beside, not over, a real MonoSAT; doc/backend.md).
install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/lib/pkgconfig \
	           $(DESTDIR)$(PREFIX)/lib/gsat $(DESTDIR)$(PREFIX)/include/gsat
	install -m 755 $(REL)/gsat $(REL)/isocheck $(DESTDIR)$(PREFIX)/bin/
	install -m 644 $(REL)/libgsat.a $(REL)/libisocheck.a $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(REL)/libgsat.so.$(SO_VERSION) $(REL)/libisocheck.so.$(SO_VERSION) $(DESTDIR)$(PREFIX)/lib/
	for l in gsat isocheck; do for n in so.$(SO_MAJOR) so; do \
	  ln -sf lib$$l.so.$(SO_VERSION) $(DESTDIR)$(PREFIX)/lib/lib$$l.$$n; done; done
	install -m 755 $(REL)/monosat/libmonosat.so $(DESTDIR)$(PREFIX)/lib/gsat/
	install -m 644 include/gsat.h include/isocheck.h include/ipasir.h $(DESTDIR)$(PREFIX)/include/
	install -m 644 include/monosat.h $(DESTDIR)$(PREFIX)/include/gsat/
	for pc in $(wildcard doc/*.pc.in); do sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(SO_VERSION)|g' $$pc > $(DESTDIR)$(PREFIX)/lib/pkgconfig/$$(basename $$pc .in); done
	install -d $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 644 $(REL)/man/isocheck.1 $(REL)/man/gsat.1 $(DESTDIR)$(PREFIX)/share/man/man1/

# Manual pages, made from the binaries' own --help (doc/man/mkman.sh).
man: $(REL)/man/isocheck.1 $(REL)/man/gsat.1
$(REL)/man/%.1: $(REL)/% doc/man/mkman.sh
	@mkdir -p $(dir $@)
	sh doc/man/mkman.sh $< $* > $@.tmp && mv $@.tmp $@
install: man

# Removes what install puts there, by name, and the directories it made
# only if they are then empty; nothing else.
INSTALLED := bin/gsat bin/isocheck lib/libgsat.a lib/libisocheck.a \
  $(foreach l,gsat isocheck,lib/lib$(l).so.$(SO_VERSION) lib/lib$(l).so.$(SO_MAJOR) lib/lib$(l).so) \
  lib/gsat/libmonosat.so include/gsat.h include/isocheck.h include/ipasir.h include/gsat/monosat.h \
  $(patsubst doc/%.pc.in,lib/pkgconfig/%.pc,$(wildcard doc/*.pc.in)) share/man/man1/isocheck.1 share/man/man1/gsat.1
uninstall:
	for f in $(INSTALLED); do rm -f $(DESTDIR)$(PREFIX)/$$f; done
	-rmdir $(DESTDIR)$(PREFIX)/lib/gsat $(DESTDIR)$(PREFIX)/include/gsat 2>/dev/null || true

clean:
	rm -rf build

-include $(shell find build -name '*.d' 2>/dev/null)
