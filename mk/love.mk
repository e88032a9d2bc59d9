# LÖVE demo, its screenshot test, and the headless pictures of docs/img.
#   make love          run examples/love (LuaJIT build)
#   make love-test     every scene under Xvfb, checked from the screenshots,
#                      from the repo and from a shipped copy
#   make love-dist     the folder a user ships: $(LOVE_DIST)
#   make pictures      docs/img/*.svg: trajectories of the textbook behaviors
LOVE_DIST ?= build/love-dist/steer-demo

CHECKS += love-test

.PHONY: love love-test love-dist pictures

love: build/luajit/steer/core.so
	love examples/love

love-test: build/luajit/steer/core.so
	sh tools/love-test.sh

love-dist: build/luajit/steer/core.so
	sh tools/love-dist.sh $(LOVE_DIST)

pictures: build/lua5.4/steer/core.so
	LUA_PATH='lua/?.lua;lua/?/init.lua;;' LUA_CPATH='build/lua5.4/?.so;;' \
	  lua5.4 tools/pictures.lua docs/img
