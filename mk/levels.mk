# levels.mk - the geometry module's C oracle (spec/c/geometry_oracle.c):
# indexed queries against brute force, bit for bit. spec/levels_spec.lua
# builds and runs it; `make geometry-oracle` runs it alone.
GEO_SRC = csrc/alloc.c csrc/geo_halo.c csrc/geo_index.c csrc/geometry.c csrc/geo_sides.c csrc/raycast.c csrc/contain.c csrc/contain_index.c \
  csrc/tiles.c

.PHONY: geometry-oracle
build/spec/geometry_oracle: spec/c/geometry_oracle.c spec/c/oracle.h $(GEO_SRC) $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(WARN) -O2 -g -Icsrc -o $@ spec/c/geometry_oracle.c $(GEO_SRC) -lm

geometry-oracle: build/spec/geometry_oracle
	build/spec/geometry_oracle

# bench/level: the level benchmark (part of `make bench`; smoke run in the
# suite, spec/levels_spec.lua) and its C ray-cast tool
BENCH_LEVEL_ENV = LUA_PATH='lua/?.lua;lua/?/init.lua;bench/?.lua;;' LUA_CPATH='build/lua5.4/?.so;;'
.PHONY: bench-level
build/bench/level-raycast: bench/level/raycast.c $(CORE_SRC) $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(WARN) -O2 -pthread -Icsrc -o $@ bench/level/raycast.c $(CORE_SRC) -lm

bench-level: build/lua5.4/steer/core.so build/bench/level-raycast
	$(BENCH_LEVEL_ENV) lua5.4 bench/level.lua full build/bench/level-raycast

bench: bench-level

# the smoke level alone (also run by spec/levels_spec.lua), in `make check`
.PHONY: bench-level-smoke
CHECKS += bench-level-smoke
bench-level-smoke: build/lua5.4/steer/core.so
	$(BENCH_LEVEL_ENV) lua5.4 bench/level.lua smoke

# bench/contain: contain's cost against its region's edge count
.PHONY: bench-contain
bench-contain: build/lua5.4/steer/core.so
	$(BENCH_LEVEL_ENV) lua5.4 bench/contain.lua

bench: bench-contain
