# formation.mk - the formation assignment benchmark (issue 15):
#   make bench-formation   time per f:reassign() by size (bench/formation.lua)
.PHONY: bench-formation
bench-formation: build/lua5.4/steer/core.so
	LUA_PATH='lua/?.lua;lua/?/init.lua;;' LUA_CPATH='build/lua5.4/?.so;;' \
	  lua5.4 bench/formation.lua
