# make rock: the README's install commands (Lua 5.4, LuaJIT), run exactly as
# written in a scratch HOME, and `luarocks make` into a scratch tree for Lua
# 5.1 (offline, builtin build); the installed module loads and works.
CHECKS += rock

.PHONY: rock
rock:
	@sh spec/rock.sh
