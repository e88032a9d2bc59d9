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
local setup = require "level_setup"
local DT = setup.DT

local loop = setup.loop(steer, SIDE)
local PROGRAMS = setup.programs(SIDE, loop)
local crowd = setup.crowd(N, SIDE)

--- A fresh world for a case: def, geometry count, program.
local function build(def, count, program)
  local w = steer.world(def)
  setup.add_geometry(w, count, SIDE) -- the same level for a count
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
    program = steer.program(PROGRAMS.level) }
end
local big = COUNTS[#COUNTS]
cases[#cases + 1] = { name = ("level %d+%d, bounded"):format(big, big), def = bounded,
  count = big, program = steer.program(PROGRAMS.level) }
cases[#cases + 1] = { name = ("level %d+%d, unbounded"):format(big, big), def = { capacity = N },
  count = big, program = steer.program(PROGRAMS.level) }
for _, name in ipairs{ "flocking", "flocking + wander", "separation + seek", "wander" } do
  cases[#cases + 1] = { name = name, def = torus, count = 0, program = steer.program(PROGRAMS[name]) }
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
  setup.seed(4242)
  local w = steer.world{ bounds = { SIDE, SIDE } }
  for _ = 1, walls do w:add_wall(setup.random_wall(SIDE)) end
  local rays, hits = FULL and 100000 or 1000, 0
  local rx = {}
  for i = 1, 4 * rays do rx[i] = setup.rand() * SIDE end
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
  -- the same rays with agents = true, the level's crowd added (a figure, no
  -- target: until session 51 each such ray scanned every agent's radius)
  w:add_many(crowd)
  local filter = { agents = true }
  for pass = 1, FULL and 3 or 1 do
    collectgarbage("collect")
    local t0 = clock()
    for i = 0, rays - 1 do w:raycast(rx[4 * i + 1], rx[4 * i + 2], rx[4 * i + 3], rx[4 * i + 4], filter) end
    passes[pass] = (clock() - t0) / rays * 1e6
  end
  print(("world:raycast with agents = true, %d agents too: %.3f us each"):format(N, median(passes)))
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
