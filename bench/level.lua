--- bench/level.lua - game levels (issue 12): the cost per agent of a level
-- program against the level's geometry, side by side in one process.
--
--   LUA_PATH='lua/?.lua;lua/?/init.lua;bench/?.lua;;' LUA_CPATH='build/lua5.4/?.so;;' \
--     lua5.4 bench/level.lua full|smoke [raycast-tool]
--
-- 10,000 agents (smoke: 300) in a 400 x 400 level (smoke: 70 x 70) holding
-- 10 / 100 / 1,000 / 10,000 obstacles and as many walls; program: priority
-- of avoid_walls, avoid_obstacles, separation 1.5 and follow of a looped
-- path. Then, at the same N: the same level in an unbounded world, bench/'s
-- flocking program, and the mixes of flocking with other entries. Every
-- figure is ns per agent per step (median of R rounds, each round running
-- every case in turn, a few steps each); ratios are taken within a round. Ends with
-- "N passed, N failed" over the targets (smoke: over sanity checks only).
local steer = require "steer"
package.path = "bench/?.lua;" .. package.path
local median = require("stats").median
local clock = os.clock -- CPU time of this process: fairer on a shared machine

local MODE = arg[1]
assert(MODE == "full" or MODE == "smoke", "usage: level.lua full|smoke [raycast-tool]")
local FULL = MODE == "full"
local N = FULL and 10000 or 300
local SIDE = FULL and 400 or 70
local COUNTS = FULL and { 10, 100, 1000, 10000 } or { 10, 100 }
local CHUNK = FULL and 10 or 2 -- steps each case takes in its turn
local ROUNDS = FULL and 10 or 1
local FRESH = 2                 -- rounds a world runs before it is built anew
local DT = 0.1

-- a portable generator (the same level under every interpreter)
local seed = 12345
local function rand()
  seed = (seed * 1103515245 + 12345) % 4294967296
  return seed / 4294967296
end

local function level_program(path)
  return steer.program{
    combine = "priority",
    { "avoid_walls" },
    { "avoid_obstacles" },
    { "separation", radius = 1.5 },
    { "follow", path = path },
  }
end

local FLOCK = {
  combine = "weighted",
  { "separation", radius = 1.5, weight = 1.5 },
  { "alignment", radius = 5 },
  { "cohesion", radius = 5 },
}
local MIXES = {
  flocking = FLOCK,
  ["flocking + wander"] = { combine = "weighted",
    { "separation", radius = 1.5, weight = 1.5 }, { "alignment", radius = 5 },
    { "cohesion", radius = 5 }, { "wander" } },
  ["separation + seek"] = { combine = "weighted",
    { "separation", radius = 1.5, weight = 1.5 }, { "seek", target = { SIDE / 2, SIDE / 2 } } },
  wander = { { "wander" } },
}

-- the crowd: positions and velocities, the same for every case
local crowd = { x = {}, y = {}, vx = {}, vy = {}, max_speed = 2.5, max_force = 4 }
for i = 1, N do
  crowd.x[i], crowd.y[i] = rand() * SIDE, rand() * SIDE
  local a = rand() * 2 * math.pi
  crowd.vx[i], crowd.vy[i] = math.cos(a) * 2, math.sin(a) * 2
end

local function add_geometry(w, count)
  for _ = 1, count do
    w:add_obstacle{ x = rand() * SIDE, y = rand() * SIDE, radius = 0.5 + rand() * 1.5 }
  end
  for _ = 1, count do
    local x, y, a, l = rand() * SIDE, rand() * SIDE, rand() * 2 * math.pi, 1 + rand() * 5
    w:add_wall{ x1 = x, y1 = y, x2 = x + math.cos(a) * l, y2 = y + math.sin(a) * l }
  end
end

local loop = steer.path{ { SIDE * 0.2, SIDE * 0.2 }, { SIDE * 0.8, SIDE * 0.2 },
  { SIDE * 0.8, SIDE * 0.8 }, { SIDE * 0.2, SIDE * 0.8 }, loop = true }

--- A fresh world for a case: def, geometry count, program.
local function build(def, count, program)
  seed = 777 -- every case gets the same level for a count
  local w = steer.world(def)
  add_geometry(w, count)
  w:add_many(crowd, program)
  w:step(DT) -- warm: caches, buffers
  return w
end

--- ns per agent per step of CHUNK steps.
local function time(w)
  collectgarbage("collect")
  local t0 = clock()
  for _ = 1, CHUNK do w:step(DT) end
  return (clock() - t0) / (CHUNK * N) * 1e9
end

local torus = { bounds = { SIDE, SIDE }, wrap = true, capacity = N }
local bounded = { bounds = { SIDE, SIDE }, capacity = N }
local cases = {}
for _, c in ipairs(COUNTS) do
  cases[#cases + 1] = { name = ("level %d+%d, torus"):format(c, c), def = torus, count = c,
    program = level_program(loop) }
end
local big = COUNTS[#COUNTS]
cases[#cases + 1] = { name = ("level %d+%d, bounded"):format(big, big), def = bounded,
  count = big, program = level_program(loop) }
cases[#cases + 1] = { name = ("level %d+%d, unbounded"):format(big, big), def = { capacity = N },
  count = big, program = level_program(loop) }
for _, name in ipairs{ "flocking", "flocking + wander", "separation + seek", "wander" } do
  cases[#cases + 1] = { name = name, def = torus, count = 0, program = steer.program(MIXES[name]) }
end

-- Every case has its world at once and they take turns, CHUNK steps each,
-- so the figures a ratio compares are taken a fraction of a second apart
-- (a shared machine's speed drifts over seconds); every FRESH rounds the
-- worlds start again from the same state.
local samples, worlds = {}, {}
for _, c in ipairs(cases) do samples[c.name] = {} end
for r = 1, ROUNDS do
  if (r - 1) % FRESH == 0 then
    for k, c in ipairs(cases) do
      if worlds[k] then worlds[k]:close() end
      worlds[k] = build(c.def, c.count, c.program)
    end
  end
  for k = 0, #cases - 1 do -- each round starts one case later
    local at = (k + r - 1) % #cases + 1
    samples[cases[at].name][r] = time(worlds[at])
  end
end
for _, w in ipairs(worlds) do w:close() end


--- The median over rounds of a / b, each taken within its round.
local function ratio(a, b)
  local t = {}
  for r = 1, ROUNDS do t[r] = samples[a][r] / samples[b][r] end
  return median(t)
end

print(("bench/level (%s): N = %d, level %d x %d, %d rounds of %d steps per case, %s"):format(
  MODE, N, SIDE, SIDE, ROUNDS, CHUNK, _VERSION))
print(("%-34s %12s"):format("case", "ns/agent"))
for _, c in ipairs(cases) do
  print(("%-34s %12.1f"):format(c.name, median(samples[c.name])))
end

local passed, failed = 0, 0
local function target(what, value, limit)
  local ok = value <= limit
  print(("%-60s %6.2f  (target <= %.2f) %s"):format(what, value, limit,
    FULL and (ok and "met" or "NOT MET") or ""))
  if FULL then
    if ok then passed = passed + 1 else failed = failed + 1 end
  end
end

local small = ("level %d+%d, torus"):format(COUNTS[1], COUNTS[1])
local large = ("level %d+%d, torus"):format(big, big)
print()
target(("%d+%d geometry / %d+%d"):format(big, big, COUNTS[1], COUNTS[1]), ratio(large, small), 1.3)
target("unbounded / bounded (same crowd and level)",
  ratio(("level %d+%d, unbounded"):format(big, big), ("level %d+%d, bounded"):format(big, big)), 1.1)
target("level program / flocking", ratio(large, "flocking"), 2)
for _, m in ipairs{ "flocking + wander", "separation + seek", "wander" } do
  target(m .. " / flocking", ratio(m, "flocking"), 1.2)
end

-- world:raycast against 10,000 walls (smoke: 100), timed in Lua, and the C
-- tool's indexed / brute-force figures when it was built
do
  local walls = FULL and 10000 or 100
  seed = 4242
  local w = steer.world{ bounds = { SIDE, SIDE } }
  for _ = 1, walls do
    local x, y, a, l = rand() * SIDE, rand() * SIDE, rand() * 2 * math.pi, 1 + rand() * 5
    w:add_wall{ x1 = x, y1 = y, x2 = x + math.cos(a) * l, y2 = y + math.sin(a) * l }
  end
  local rays, hits = FULL and 100000 or 1000, 0
  local rx = {}
  for i = 1, 4 * rays do rx[i] = rand() * SIDE end
  local passes = {} -- the median of three passes over the rays (a shared machine)
  for pass = 1, FULL and 3 or 1 do
    collectgarbage("collect")
    hits = 0
    local t0 = clock()
    for i = 0, rays - 1 do
      if w:raycast(rx[4 * i + 1], rx[4 * i + 2], rx[4 * i + 3], rx[4 * i + 4]) then hits = hits + 1 end
    end
    passes[pass] = (clock() - t0) / rays * 1e6
  end
  local us = median(passes)
  print(("world:raycast, %d walls, random rays across the level: %.3f us each (%d%% hit)"):format(
    walls, us, math.floor(100 * hits / rays)))
  target("world:raycast us (10,000 walls, from Lua)", us, 1)
  local tool = arg[2]
  if tool then
    local p = io.popen(tool .. " " .. walls .. " " .. SIDE)
    local out = p:read("*a")
    p:close()
    io.write(out)
  end
end

if not FULL then
  -- smoke: every figure is a finite positive number
  for _, c in ipairs(cases) do
    local v = median(samples[c.name])
    if v > 0 and v < math.huge then passed = passed + 1 else failed = failed + 1 end
  end
end
print(("%d passed, %d failed"):format(passed, failed))
-- a plain end closes the Lua state (worlds and programs freed: leak checkers)
if failed > 0 then os.exit(1) end
