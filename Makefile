# steer - build the C module for each Lua, run the specs under each.
#   make setup      install the Debian packages the build and tests need
#   make            build/lua5.4/steer/core.so and build/luajit/steer/core.so
#   make test       the busted suite under Lua 5.4 and LuaJIT
#   make check      every suite (CHECKS), ending with "N passed, N failed"
#   make demo       examples/chase.lua: a line per change of the pursuer's behavior
CC ?= cc
CFLAGS ?= -O2 -g
WARN = -std=c99 -Wall -Wextra -Werror -Wmissing-prototypes
SO_FLAGS = -fPIC -fvisibility=hidden -shared -pthread
LUAS ?= lua5.4 luajit

CORE_SRC = $(filter-out csrc/binding/%,$(wildcard csrc/*.c))
BIND_SRC = $(wildcard csrc/binding/*.c)
HEADERS = $(wildcard csrc/*.h csrc/binding/*.h)

# the interpreter that runs each build
RUN_lua5.4 = lua5.4
RUN_luajit = luajit
RUN_lua5.1 = lua5.1

# suites `make check` runs; mk/*.mk fragments add theirs
CHECKS = test
PACKAGES = build-essential pkg-config lua5.4 liblua5.4-dev luajit \
  libluajit-5.1-dev lua-busted luarocks lua5.1 liblua5.1-0-dev \
  valgrind clang libclang-rt-14-dev love xvfb
SUDO = $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all test check setup demo clean
all: $(foreach v,$(LUAS),build/$(v)/steer/core.so)

build/%/steer/core.so: $(CORE_SRC) $(BIND_SRC) $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(WARN) $(CFLAGS) $(SO_FLAGS) $$(pkg-config --cflags $*) \
	  -o $@ $(CORE_SRC) $(BIND_SRC) -lm -lpthread

test: all
	sh spec/run.sh $(LUAS)

check:
	bash spec/check.sh $(CHECKS)

setup:
	$(SUDO) apt-get update -q
	DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -q \
	  --no-install-recommends $(PACKAGES)

demo: build/lua5.4/steer/core.so
	LUA_PATH='lua/?.lua;lua/?/init.lua;;' LUA_CPATH='build/lua5.4/?.so;;' \
	  lua5.4 examples/chase.lua

clean:
	rm -rf build

# further targets (sanitizers, fuzzing, benchmarks, LÖVE) live in mk/*.mk
-include $(wildcard mk/*.mk)
