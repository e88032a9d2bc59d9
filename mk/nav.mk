# Navigation benchmarks (bench/nav/bench.lua, docs/API.md section 16): nav:path
# against Jumper's A* and JPS (../shared/peers/jumper, skipped when absent)
# on the Moving AI maps of ../shared/nav, flow fields of those maps, and a
# crowd following one field against bench/'s flocking program.
#   make bench-nav        under LuaJIT and Lua 5.4: NAV_SCENARIOS (200) per
#                         map, a crowd of NAV_CROWD (10,000); Jumper under
#                         Lua 5.4 takes several minutes
#   make bench-nav-smoke  2 scenarios per map, a crowd of 500, both
#                         interpreters, in seconds; last line "N passed, N failed"
NAV_SCENARIOS ?= 200
NAV_CROWD ?= 10000
NAV_LUAS ?= luajit lua5.4

CHECKS += bench-nav-smoke

.PHONY: bench-nav bench-nav-smoke

bench-nav: all
	@for lua in $(NAV_LUAS); do \
	  LUA_PATH='lua/?.lua;lua/?/init.lua;;' LUA_CPATH="build/$$lua/?.so;;" \
	    $$lua bench/nav/bench.lua $(NAV_SCENARIOS) $(NAV_CROWD) || exit 1; \
	done

bench-nav-smoke: all
	@p=0; f=0; for lua in $(NAV_LUAS); do \
	  if LUA_PATH='lua/?.lua;lua/?/init.lua;;' LUA_CPATH="build/$$lua/?.so;;" \
	    $$lua bench/nav/bench.lua 2 500; then p=$$((p + 1)); else f=$$((f + 1)); fi; \
	done; echo "$$p passed, $$f failed"; [ $$f -eq 0 ]
