--- bench/level_ab.lua - two builds of steer side by side in one Lua state,
-- on the cases of bench/level (a tool for changes that aim at its targets).
--
--   LUA_PATH='lua/?.lua;lua/?/init.lua;bench/?.lua;;' lua5.4 bench/level_ab.lua \
--     DIR_A DIR_B ROUNDS CASE...
--
-- DIR_A and DIR_B each hold a steer/core.so (e.g. build/lua5.4 and a copy
-- of another build). CASE is a program name, with the level's obstacle and
-- wall count after a colon: L (the level program), AWAOF (priority of
-- avoid_walls, avoid_obstacles, follow), SF (priority of separation,
-- follow), flock, fw (flocking + wander); e.g. L:10 L:10000 flock. Every
-- case is built with both modules and the rounds alternate them, so a
-- ratio B / A is taken a fraction of a second apart within one process.
local median = require("stats").median
local dirs = { arg[1], arg[2] }
local ROUNDS = tonumber(arg[3])
assert(dirs[1] and dirs[2] and ROUNDS and arg[4],
  "usage: level_ab.lua DIR_A DIR_B ROUNDS CASE... (see the file's head)")
local function load_steer(dir)
  for k in pairs(package.loaded) do if k:match("^steer") then package.loaded[k] = nil end end
  package.cpath = dir .. "/?.so;;"
  return require "steer"
end
local S = { load_steer(dirs[1]), load_steer(dirs[2]) }
local setup = require "level_setup"
local N, SIDE, DT = 10000, 400, setup.DT
local crowd = setup.crowd(N, SIDE)
-- the short case names and bench/level's programs
local NAMES = { L = "level", AWAOF = "level without separation", SF = "separation, follow",
  flock = "flocking", fw = "flocking + wander" }
local function prog(steer, name)
  local program = setup.programs(SIDE, setup.loop(steer, SIDE))[NAMES[name]]
  assert(program, "unknown case " .. name)
  return steer.program(program)
end
local cases = {}
for i = 4, #arg do
  local name, count = arg[i]:match("^(%w+):?(%d*)$")
  for v = 1, 2 do cases[#cases + 1] = { label = arg[i], v = v, name = name, count = tonumber(count) or 0 } end
end
local ws = {}
local function build(c)
  local steer = S[c.v]
  local w = steer.world{ bounds = { SIDE, SIDE }, wrap = true, capacity = N }
  setup.add_geometry(w, c.count, SIDE)
  w:add_many(crowd, prog(steer, c.name))
  w:step(DT)
  return w
end
local s = {}
for k = 1, #cases do s[k] = {} end
for r = 1, ROUNDS do
  if (r - 1) % 2 == 0 then for k, c in ipairs(cases) do if ws[k] then ws[k]:close() end; ws[k] = build(c) end end
  for j = 0, #cases - 1 do
    local k = (j + r - 1) % #cases + 1
    collectgarbage("collect")
    local t0 = os.clock()
    for _ = 1, 10 do ws[k]:step(DT) end
    s[k][r] = (os.clock() - t0) / (10 * N) * 1e9
  end
end
for k = 1, #cases, 2 do
  local rt = {}
  for r = 1, ROUNDS do rt[r] = s[k + 1][r] / s[k][r] end
  print(("%-12s A %7.1f  B %7.1f  B/A %.3f"):format(cases[k].label, median(s[k]), median(s[k + 1]), median(rt)))
end
-- level/flock per version if both present
local function find(label, v) for k, c in ipairs(cases) do if c.label == label and c.v == v then return k end end end
local L, F = find("L:10000", 1), find("flock", 1)
if L and F then
  for v = 0, 1 do
    local rt = {}
    for r = 1, ROUNDS do rt[r] = s[L + v][r] / s[F + v][r] end
    print(("level/flock %s: %.3f"):format(v == 0 and "A" or "B", median(rt)))
  end
end
