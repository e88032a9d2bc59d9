--- bench/contain.lua - what `contain` costs per agent against the size of
-- its region, side by side in one process.
--
--   LUA_PATH='lua/?.lua;lua/?/init.lua;bench/?.lua;;' LUA_CPATH='build/lua5.4/?.so;;' \
--     lua5.4 bench/contain.lua
--
-- 10,000 agents inside a round arena of 4 to 4,096 edges (radius 170 in a
-- 400 x 400 world), program priority of contain and wander; wander alone
-- for scale. A program entry's region is sorted into horizontal bands
-- (csrc/contain_index.c), so the cost should not grow with the edges: the
-- target is 4,096 edges <= 1.5 x 4 edges. Ends with "N passed, N failed".
local steer = require "steer"
package.path = "bench/?.lua;" .. package.path
local median = require("stats").median

local N, ROUNDS, CHUNK, DT = 10000, 7, 10, 0.1
local EDGES = { 4, 64, 1024, 4096 }

local seed = 99
local function rand()
  seed = (seed * 1103515245 + 12345) % 4294967296
  return seed / 4294967296
end

local function arena(k)
  local t = {}
  for i = 0, k - 1 do
    local a = 2 * math.pi * (i + 0.5) / k
    t[#t + 1], t[#t + 2] = 200 + 170 * math.cos(a), 200 + 170 * math.sin(a)
  end
  return t
end

local function build(edges)
  seed = 99
  local w = steer.world{ bounds = { 400, 400 }, capacity = N }
  local program = edges and steer.program{ combine = "priority",
    { "contain", region = arena(edges) }, { "wander" } } or steer.program{ { "wander" } }
  local crowd = { x = {}, y = {}, vx = {}, vy = {}, max_speed = 2.5, max_force = 4 }
  for i = 1, N do
    local a, r = rand() * 2 * math.pi, 118 * math.sqrt(rand()) -- inside the square arena too
    crowd.x[i], crowd.y[i] = 200 + r * math.cos(a), 200 + r * math.sin(a)
    local h = rand() * 2 * math.pi
    crowd.vx[i], crowd.vy[i] = 2 * math.cos(h), 2 * math.sin(h)
  end
  w:add_many(crowd, program)
  w:step(DT)
  return w
end

local cases = { { name = "wander alone" } }
for _, k in ipairs(EDGES) do cases[#cases + 1] = { name = ("contain, %d edges"):format(k), edges = k } end
for _, c in ipairs(cases) do c.world, c.samples = build(c.edges), {} end
for r = 1, ROUNDS do
  for k = 0, #cases - 1 do
    local c = cases[(k + r - 1) % #cases + 1]
    collectgarbage("collect")
    local t0 = os.clock()
    for _ = 1, CHUNK do c.world:step(DT) end
    c.samples[r] = (os.clock() - t0) / (CHUNK * N) * 1e9
  end
end

print(("bench/contain: N = %d, %d rounds of %d steps per case, %s"):format(N, ROUNDS, CHUNK, _VERSION))
for _, c in ipairs(cases) do print(("%-26s %10.1f ns/agent"):format(c.name, median(c.samples))) end
local ratios = {}
for r = 1, ROUNDS do ratios[r] = cases[#cases].samples[r] / cases[2].samples[r] end
local ratio = median(ratios)
local ok = ratio <= 1.5
print(("%-44s %6.2f  (target <= 1.50) %s"):format(
  ("contain, %d edges / 4 edges"):format(EDGES[#EDGES]), ratio, ok and "met" or "NOT MET"))
print(("%d passed, %d failed"):format(ok and 1 or 0, ok and 0 or 1))
for _, c in ipairs(cases) do c.world:close() end
if not ok then os.exit(1) end
