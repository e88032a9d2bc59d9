--- bench/level_ab.lua - two builds of steer in turn on the cases of
-- bench/level (a tool for changes that aim at its targets).
--
--   LUA_PATH='lua/?.lua;lua/?/init.lua;bench/?.lua;;' lua5.4 bench/level_ab.lua \
--     DIR_A DIR_B ROUNDS CASE...
--
-- DIR_A and DIR_B each hold a steer/core.so (e.g. build/lua5.4 and a copy
-- of another build). CASE is a program name, with the level's obstacle and
-- wall count after a colon: L (the level program), AWAOF (priority of
-- avoid_walls, avoid_obstacles, follow), SF (priority of separation,
-- follow), flock, fw (flocking + wander); e.g. L:10 L:10000 flock.
--
-- Each round runs a process of each build, in turn (which goes first
-- alternates); a process builds every case and times 10 steps of each, so
-- a ratio B / A is taken from two processes a few seconds apart. One Lua
-- state cannot hold two builds: their types share their metatables' names,
-- so the second build's methods would run on the first's worlds (until
-- session 45 this tool did so, and measured one build twice).
local median = require("stats").median
local setup = require "level_setup"
local N, SIDE, DT = 10000, 400, setup.DT
local NAMES = { L = "level", AWAOF = "level without separation", SF = "separation, follow",
  flock = "flocking", fw = "flocking + wander" }

local function parse(list)
  local cases = {}
  for _, label in ipairs(list) do
    local name, count = label:match("^(%w+):?(%d*)$")
    assert(NAMES[name], "unknown case " .. label)
    cases[#cases + 1] = { label = label, name = name, count = tonumber(count) or 0 }
  end
  return cases
end

if arg[1] == "--child" then -- one build: ns per agent per step of each case
  package.cpath = arg[2] .. "/?.so;;"
  local steer = require "steer"
  local crowd = setup.crowd(N, SIDE)
  local rest = {}
  for i = 3, #arg do rest[#rest + 1] = arg[i] end
  for _, c in ipairs(parse(rest)) do
    local w = steer.world{ bounds = { SIDE, SIDE }, wrap = true, capacity = N }
    setup.add_geometry(w, c.count, SIDE)
    w:add_many(crowd, steer.program(setup.programs(SIDE, setup.loop(steer, SIDE))[NAMES[c.name]]))
    w:step(DT)
    collectgarbage("collect")
    local t0 = os.clock()
    for _ = 1, 10 do w:step(DT) end
    print(c.label, (os.clock() - t0) / (10 * N) * 1e9)
    w:close()
  end
  return
end

local dirs = { arg[1], arg[2] }
local ROUNDS = tonumber(arg[3])
assert(dirs[1] and dirs[2] and ROUNDS and arg[4],
  "usage: level_ab.lua DIR_A DIR_B ROUNDS CASE... (see the file's head)")
local labels = {}
for i = 4, #arg do labels[#labels + 1] = arg[i] end
local cases = parse(labels)
local lua = arg[-1] or "lua5.4"
local s = { {}, {} } -- s[v][label][round]
for v = 1, 2 do for _, c in ipairs(cases) do s[v][c.label] = {} end end
for r = 1, ROUNDS do
  for j = 0, 1 do
    local v = (r + j) % 2 + 1
    local p = assert(io.popen(("%s %s --child %s %s"):format(lua, arg[0], dirs[v],
      table.concat(labels, " "))))
    for line in p:lines() do
      local label, ns = line:match("^(%S+)%s+(%S+)$")
      if label then s[v][label][r] = tonumber(ns) end
    end
    assert(p:close(), "a child process failed")
  end
end
for _, c in ipairs(cases) do
  local rt = {}
  for r = 1, ROUNDS do rt[r] = s[2][c.label][r] / s[1][c.label][r] end
  print(("%-12s A %7.1f  B %7.1f  B/A %.3f"):format(c.label, median(s[1][c.label]),
    median(s[2][c.label]), median(rt)))
end
-- level/flock per build when both were run
if s[1]["L:10000"] and s[1].flock then
  for v = 1, 2 do
    local rt = {}
    for r = 1, ROUNDS do rt[r] = s[v]["L:10000"][r] / s[v].flock[r] end
    print(("level/flock %s: %.3f"):format(v == 1 and "A" or "B", median(rt)))
  end
end
