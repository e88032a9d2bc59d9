# Benchmarks (bench/, docs/PERFORMANCE.md): boids flocking run by steer's
# world:step, by pure Lua (naive and tuned, Lua 5.4 and LuaJIT) and by a
# plain C loop, timed side by side and checked to compute the same thing.
#   make bench         N = 1,000 / 10,000 / 100,000, cold and warm (~15 min)
#   make bench-smoke   the same at tiny N in seconds; last line "N passed, N failed"
# The initial and warm states are cached in build/bench/state/.

BENCH_OUT = build/bench
BENCH_N ?= 1000 10000 100000
BENCH_SMOKE_N ?= 200
BENCH_CFLAGS ?= -O2
BENCH_LUA = lua5.4
BENCH_C = bench/c/boids.c bench/c/state.c bench/c/measure.c bench/c/main.c
BENCH_H = $(wildcard bench/c/*.h)
BENCH_WARM_STEPS = $(shell $(BENCH_LUA) -e 'package.path="bench/?.lua"; print(require("workload").WARM_STEPS)')
BENCH_TOOLS = $(BENCH_OUT)/boids $(BENCH_OUT)/boids-strict $(BENCH_OUT)/check

CHECKS += bench-smoke

.PHONY: bench bench-smoke bench-tools bench-ffi
.PRECIOUS: $(BENCH_OUT)/state/cold_%.txt $(BENCH_OUT)/state/warm_%.txt

bench-tools: $(BENCH_TOOLS)

# contestant (d), timed
$(BENCH_OUT)/boids: $(BENCH_C) $(BENCH_H)
	@mkdir -p $(@D)
	$(CC) $(WARN) $(BENCH_CFLAGS) -o $@ $(BENCH_C) -lm

# contestant (d) without FMA contraction: the reference of the checks
$(BENCH_OUT)/boids-strict: $(BENCH_C) $(BENCH_H)
	@mkdir -p $(@D)
	$(CC) $(WARN) $(BENCH_CFLAGS) -ffp-contract=off -o $@ $(BENCH_C) -lm

$(BENCH_OUT)/check: bench/c/check.c bench/c/state.c $(BENCH_H)
	@mkdir -p $(@D)
	$(CC) $(WARN) -O2 -o $@ bench/c/check.c bench/c/state.c -lm

$(BENCH_OUT)/state/cold_%.txt: bench/workload.lua
	@mkdir -p $(@D)
	$(BENCH_LUA) bench/workload.lua gen $* $@

# the warm state: the cold one after the warm-up, computed once by (d)
$(BENCH_OUT)/state/warm_%.txt: $(BENCH_OUT)/state/cold_%.txt $(BENCH_OUT)/boids-strict
	$(BENCH_OUT)/boids-strict $< $(BENCH_WARM_STEPS) $@ >/dev/null

bench: all $(BENCH_TOOLS) $(foreach n,$(BENCH_N),$(BENCH_OUT)/state/cold_$(n).txt $(BENCH_OUT)/state/warm_$(n).txt)
	CC='$(CC)' BENCH_CFLAGS='$(BENCH_CFLAGS)' LUA_PATH='bench/?.lua;;' $(BENCH_LUA) bench/bench.lua full --n '$(BENCH_N)'

bench-smoke: all $(BENCH_TOOLS) $(foreach n,$(BENCH_SMOKE_N),$(BENCH_OUT)/state/cold_$(n).txt $(BENCH_OUT)/state/warm_$(n).txt)
	CC='$(CC)' BENCH_CFLAGS='$(BENCH_CFLAGS)' LUA_PATH='bench/?.lua;;' $(BENCH_LUA) bench/bench.lua smoke --n '$(BENCH_SMOKE_N)'

# per-agent calls under LuaJIT: classic binding vs the FFI fast path vs the
# same calls from C (bench/ffi/)
$(BENCH_OUT)/ffi-calls: bench/ffi/calls.c $(CORE_SRC) $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(WARN) -O2 -pthread -Icsrc -o $@ bench/ffi/calls.c $(CORE_SRC) -lm

bench-ffi: build/luajit/steer/core.so $(BENCH_OUT)/ffi-calls
	LUA_PATH='lua/?.lua;lua/?/init.lua;;' LUA_CPATH='build/luajit/?.so;;' \
	  luajit bench/ffi/calls.lua $(BENCH_OUT)/ffi-calls
