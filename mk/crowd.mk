# Crowds crossing (issue 13, bench/crowd/): steer's ORCA, avoid_agents and
# separation side by side with RVO2 (../shared/peers/RVO2, built -O2 when the
# folder exists; "peer not found, skipped" otherwise).
#   make bench-crowd        circle N = 100, 250, 1000 and blocks, 3 seeds (~10 min)
#   make bench-crowd-smoke  circle N = 100, one seed; last line "N passed, N failed"
CROWD_OUT = build/bench/crowd
RVO2_DIR ?= ../shared/peers/RVO2
CROWD_ENV = LUA_PATH='lua/?.lua;lua/?/init.lua;bench/crowd/?.lua;;' \
  LUA_CPATH='build/lua5.4/?.so;;'
CROWD_DRIVER = $(if $(wildcard $(RVO2_DIR)/src/RVO.h),$(CROWD_OUT)/rvo2_driver)

CHECKS += bench-crowd-smoke

.PHONY: bench-crowd bench-crowd-smoke

$(CROWD_OUT)/rvo2_driver: bench/crowd/rvo2_driver.cc
	@mkdir -p $(@D)
	g++ -O2 -DRVO_STATIC_DEFINE -I$(RVO2_DIR)/src -o $@ $< $(RVO2_DIR)/src/*.cc

bench-crowd: build/lua5.4/steer/core.so $(CROWD_DRIVER)
	$(CROWD_ENV) lua5.4 bench/crowd/crowd.lua full $(CROWD_DRIVER)

bench-crowd-smoke: build/lua5.4/steer/core.so $(CROWD_DRIVER)
	$(CROWD_ENV) lua5.4 bench/crowd/crowd.lua smoke $(CROWD_DRIVER)

# ORCA's nearest-neighbor search against brute force (spec/orca_spec.lua runs it)
.PHONY: nearest-oracle
build/spec/nearest_oracle: spec/c/nearest_oracle.c spec/c/oracle.h $(CORE_SRC) $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(WARN) -O2 -g -pthread -Icsrc -o $@ spec/c/nearest_oracle.c $(CORE_SRC) -lm

nearest-oracle: build/spec/nearest_oracle
	build/spec/nearest_oracle

# the linear program's clip in SSE2 lanes against its scalar loop, bit for
# bit (spec/orca_spec.lua runs it); the oracle includes csrc/orca.c itself
.PHONY: orca-clip-oracle
build/spec/orca_clip_oracle: spec/c/orca_clip_oracle.c spec/c/oracle.h $(CORE_SRC) $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(WARN) -O2 -g -pthread -Icsrc -o $@ spec/c/orca_clip_oracle.c \
	  $(filter-out csrc/orca.c,$(CORE_SRC)) -lm

orca-clip-oracle: build/spec/orca_clip_oracle
	build/spec/orca_clip_oracle
