# sanitize.mk - sanitizer, valgrind and fuzzing targets (included by the
# top Makefile).
#   make asan          ASan+UBSan builds for every Lua, whole busted suite
#   make valgrind      -O1 -g build, whole busted suite under memcheck
#   make valgrind-ci   the same without the slowest spec files (VG_CI_SKIP),
#                      which `make check` runs: those run in full under ASan
#   make fuzz          the Lua API fuzzer, FUZZ_CALLS (10^6) calls per Lua,
#                      against the ASan builds
#   make fuzz-c        libFuzzer over the C core for FUZZ_SECONDS (60)
#   make fuzz-c-ci     the same for FUZZ_C_RUNS runs from a fixed seed
# Each ends with the line "N passed, N failed" and fails when N failed > 0.

SAN_CC ?= gcc
# float-cast-overflow is UB that -fsanitize=undefined leaves out on gcc
# -DSTEER_DEBUG turns on the core's STEER_ASSERTs (csrc/invariant.h)
SAN_FLAGS ?= -O1 -g -fno-omit-frame-pointer -DSTEER_DEBUG \
  -fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=all
VG_FLAGS ?= -O1 -g
FUZZ_CALLS ?= 1000000
FUZZ_SEED ?=
FUZZ_SECONDS ?= 60
FUZZ_CC ?= clang
# open findings are kept out of the harness's inputs; -DFUZZ_STRICT fuzzes
# them too (fuzz/README.md)
FUZZ_CFLAGS ?=

# what `make check` runs: the suite under ASan/UBSan and valgrind, 100,000
# fuzzer calls per interpreter from a fixed seed, and libFuzzer's runs from
# a fixed seed (about a minute): a check must pass or fail alike on every
# machine. Exploring, with new inputs each time, is `make fuzz-c`'s job.
CHECKS += asan valgrind-ci fuzz-ci fuzz-c-ci
FUZZ_C_RUNS ?= 8000
FUZZ_C_SEED ?= 20261205

# spec files that take most of memcheck's time (brute-force oracles, whole
# maps, random call sequences, 100 dropped worlds, the reference's examples,
# crowds kept in arenas for thousands of steps, ORCA crowds crossing for
# hundreds of steps, collide's oracle over random tile levels and 5,000
# agents on two threads, nav:path's ends and clearance against brute force
# on hundreds of random grids, steer's sine against libm's at 31,000
# angles (108 s under memcheck for one interpreter), ORCA's push parting
# piles of hundreds): `make check` runs them under ASan and plain only;
# `make valgrind` runs all. valgrind-ci also leaves out --track-origins
# (which only explains an error found; `make valgrind` keeps it).
VG_CI_SKIP ?= query_spec snapshot_spec fuzz_spec api_doc_spec levels_spec \
  gc_memory_spec contain_arena_spec orca_spec collide_spec nav_ends_spec \
  trig_spec orca_push_spec love_scene_nav_spec

.PHONY: asan valgrind valgrind-ci fuzz fuzz-ci fuzz-c fuzz-c-ci

# The shortest stem wins, so these beat the top Makefile's build/%/... rule.
build/asan-%/steer/core.so: $(CORE_SRC) $(BIND_SRC) $(HEADERS)
	@mkdir -p $(@D)
	$(SAN_CC) $(WARN) $(SAN_FLAGS) $(SO_FLAGS) $$(pkg-config --cflags $*) \
	  -o $@ $(CORE_SRC) $(BIND_SRC) -lm

build/vg-%/steer/core.so: $(CORE_SRC) $(BIND_SRC) $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(WARN) $(VG_FLAGS) $(SO_FLAGS) $$(pkg-config --cflags $*) \
	  -o $@ $(CORE_SRC) $(BIND_SRC) -lm

asan: $(foreach v,$(LUAS),build/asan-$(v)/steer/core.so)
	SAN_CC=$(SAN_CC) sh spec/fuzz/run.sh asan $(LUAS)

valgrind: $(foreach v,$(LUAS),build/vg-$(v)/steer/core.so)
	sh spec/fuzz/run.sh valgrind $(LUAS)

valgrind-ci: $(foreach v,$(LUAS),build/vg-$(v)/steer/core.so)
	BUSTED_OPTS="$(BUSTED_OPTS) $(foreach f,$(VG_CI_SKIP),--exclude-pattern=$(f))" \
	  STEER_VG_ORIGINS=no sh spec/fuzz/run.sh valgrind $(LUAS)

fuzz: $(foreach v,$(LUAS),build/asan-$(v)/steer/core.so)
	SAN_CC=$(SAN_CC) sh spec/fuzz/fuzz.sh asan $(FUZZ_CALLS) "$(FUZZ_SEED)" $(LUAS)

fuzz-ci:
	$(MAKE) --no-print-directory fuzz FUZZ_CALLS=100000 FUZZ_SEED=20261129

# FUZZ_CFLAGS is part of the target's recipe: force a rebuild when it changes;
# the harness is fuzz_core.c plus the parts it includes (fuzz/*.h)
build/fuzz/fuzz_core: fuzz/fuzz_core.c $(wildcard fuzz/*.h) $(CORE_SRC) $(HEADERS) \
  build/fuzz/flags
	@mkdir -p $(@D)
	$(FUZZ_CC) $(WARN) -O1 -g -fno-omit-frame-pointer -DSTEER_DEBUG \
	  -fsanitize=fuzzer,address,undefined,float-cast-overflow \
	  -fno-sanitize-recover=all $(FUZZ_CFLAGS) -o $@ fuzz/fuzz_core.c \
	  $(CORE_SRC) -lm -pthread

# rewritten only when FUZZ_CFLAGS changes, so the harness rebuilds then
.PHONY: fuzz-flags
build/fuzz/flags: fuzz-flags
	@mkdir -p build/fuzz
	@echo '$(FUZZ_CFLAGS)' | cmp -s - $@ || echo '$(FUZZ_CFLAGS)' > $@

fuzz-c: build/fuzz/fuzz_core
	sh fuzz/run.sh $(FUZZ_SECONDS)

fuzz-c-ci: build/fuzz/fuzz_core
	FUZZ_RUNS=$(FUZZ_C_RUNS) FUZZ_RANDOM_SEED=$(FUZZ_C_SEED) sh fuzz/run.sh
