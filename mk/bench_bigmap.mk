# bench_bigmap.mk - a big level with a small crowd: the step's cost follows
# the agents, not the cells (100 agents in 100 x 100 to 2,000 x 2,000);
# part of `make bench`.
#   make bench-bigmap   prints the table and the ratios (bound: 3x)

.PHONY: bench-bigmap
bench: bench-bigmap

bench-bigmap: build/lua5.4/steer/core.so
	LUA_PATH='lua/?.lua;lua/?/init.lua;;' LUA_CPATH='build/lua5.4/?.so;;' \
	  lua5.4 bench/bigmap.lua 5 3
