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
local N, SIDE, DT = 10000, 400, 0.1
local seed
local function rand() seed = (seed * 1103515245 + 12345) % 4294967296; return seed / 4294967296 end
seed = 12345
local crowd = { x = {}, y = {}, vx = {}, vy = {}, max_speed = 2.5, max_force = 4 }
for i = 1, N do
  crowd.x[i], crowd.y[i] = rand() * SIDE, rand() * SIDE
  local a = rand() * 2 * math.pi
  crowd.vx[i], crowd.vy[i] = math.cos(a) * 2, math.sin(a) * 2
end
local function add_geometry(w, count)
  for _ = 1, count do w:add_obstacle{ x = rand() * SIDE, y = rand() * SIDE, radius = 0.5 + rand() * 1.5 } end
  for _ = 1, count do
    local x, y, a, l = rand() * SIDE, rand() * SIDE, rand() * 2 * math.pi, 1 + rand() * 5
    w:add_wall{ x1 = x, y1 = y, x2 = x + math.cos(a) * l, y2 = y + math.sin(a) * l }
  end
end
local function prog(steer, name)
  local loop = steer.path{ { SIDE * 0.2, SIDE * 0.2 }, { SIDE * 0.8, SIDE * 0.2 },
    { SIDE * 0.8, SIDE * 0.8 }, { SIDE * 0.2, SIDE * 0.8 }, loop = true }
  local AW, AO, S, F = { "avoid_walls" }, { "avoid_obstacles" }, { "separation", radius = 1.5 }, { "follow", path = loop }
  local P = {
    L = { combine = "priority", AW, AO, S, F },
    AWAOF = { combine = "priority", AW, AO, F },
    SF = { combine = "priority", S, F },
    flock = { combine = "weighted", { "separation", radius = 1.5, weight = 1.5 }, { "alignment", radius = 5 }, { "cohesion", radius = 5 } },
    fw = { combine = "weighted", { "separation", radius = 1.5, weight = 1.5 }, { "alignment", radius = 5 }, { "cohesion", radius = 5 }, { "wander" } },
  }
  return steer.program(P[name])
end
local cases = {}
for i = 4, #arg do
  local name, count = arg[i]:match("^(%w+):?(%d*)$")
  for v = 1, 2 do cases[#cases + 1] = { label = arg[i], v = v, name = name, count = tonumber(count) or 0 } end
end
local ws = {}
local function build(c)
  local steer = S[c.v]
  seed = 777
  local w = steer.world{ bounds = { SIDE, SIDE }, wrap = true, capacity = N }
  add_geometry(w, c.count); w:add_many(crowd, prog(steer, c.name)); w:step(DT); return w
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
