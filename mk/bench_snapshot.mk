# bench_snapshot.mk - world:snapshot() stays linear in agents, programs and
# paths (issue 11): 64,000 agents with a program each against 64,000 sharing
# one, timed side by side; part of `make bench`.
#   make bench-snapshot   prints the times and ratios (bound: 3x)

.PHONY: bench-snapshot
bench: bench-snapshot

bench-snapshot: build/lua5.4/steer/core.so
	LUA_PATH='lua/?.lua;lua/?/init.lua;;' LUA_CPATH='build/lua5.4/?.so;;' \
	  lua5.4 bench/snapshot.lua 64000 3
