# A crowd through one door (bench/doorway.lua): steer's ORCA side by side
# with RVO2 (../shared/peers/RVO2, our driver bench/doorway_rvo2.cc built -O2
# when the folder exists; "peer not found, skipped" otherwise), steer's
# separation and avoid_agents for reference. Not part of `make bench` or CI
# (the full table takes about 8 minutes).
#   make bench-doorway    N = 100, 300; doors 32, 48, 64 px; seeds 1-3 (~8 minutes)
#   DOORWAY_SIZES=300 DOORWAY_DOORS=32 DOORWAY_SEEDS=1 make bench-doorway
#   (also DOORWAY_CONFIGS=default,short and DOORWAY_VARIANTS=orca_default,separation)
DOORWAY_OUT = build/bench/doorway
RVO2_DIR ?= ../shared/peers/RVO2
DOORWAY_DRIVER = $(if $(wildcard $(RVO2_DIR)/src/RVO.h),$(DOORWAY_OUT)/rvo2_driver)

.PHONY: bench-doorway

$(DOORWAY_OUT)/rvo2_driver: bench/doorway_rvo2.cc
	@mkdir -p $(@D)
	g++ -O2 -DRVO_STATIC_DEFINE -I$(RVO2_DIR)/src -o $@ $< $(RVO2_DIR)/src/*.cc

bench-doorway: build/lua5.4/steer/core.so $(DOORWAY_DRIVER)
	LUA_PATH='lua/?.lua;lua/?/init.lua;;' LUA_CPATH='build/lua5.4/?.so;;' \
	  lua5.4 bench/doorway.lua $(DOORWAY_DRIVER)
