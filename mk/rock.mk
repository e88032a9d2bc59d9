# make rock: the rockspec installs offline with `luarocks make` (builtin build)
# into a scratch tree for Lua 5.4 and 5.1, and the installed module loads and works.
CHECKS += rock

.PHONY: rock
rock:
	@sh spec/rock.sh
