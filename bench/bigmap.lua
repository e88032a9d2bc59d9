--- bench/bigmap.lua - a big level with a small crowd: the step's cost follows
-- the agents, not the level's cells. 100 agents (in four groups) stepping in
-- bounded worlds of 100 x 100, 1,000 x 1,000 and 2,000 x 2,000 (cell 5: 400
-- to 160,000 cells), side by side in one run, each world taking its turn in
-- every round; the figure is the median over rounds of microseconds per step.
--   lua5.4 bench/bigmap.lua [rounds] [max ratio] [--strict]
-- Prints a table, the ratios of the biggest world to the smallest, and
-- "N passed, N failed" against the bound (3 by default); exits 1 on a failed
-- bound only with --strict (a loaded machine makes timings noisy).
local steer = require "steer"
package.path = "bench/?.lua;" .. package.path
local median = require("stats").median
local clock = os.clock -- processor time: fairer on a shared machine

local ROUNDS = math.floor(tonumber(arg[1]) or 5)
local BOUND = tonumber(arg[2]) or 3
local STRICT = arg[3] == "--strict"
local N, STEPS, SIDES = 100, 100, { 100, 1000, 2000 }

local function programs(side)
  local c = { side / 2, side / 2 }
  return {
    { "separation + seek", { combine = "weighted",
      { "separation", radius = 1.5, weight = 1.5 }, { "seek", target = c } } },
    { "flocking", { combine = "weighted", { "separation", radius = 1.5, weight = 1.5 },
      { "alignment", radius = 5 }, { "cohesion", radius = 5 } } },
    { "wander", { { "wander" } } },
    { "orca + seek", { { "seek", target = c }, orca = true } },
  }
end

-- a world of side x side with the crowd in four groups of 25
local function build(side, program)
  local w = steer.world{ bounds = { side, side }, cell_size = 5, seed = 3 }
  local seed = 12345
  local function rand()
    seed = (seed * 1103515245 + 12345) % 4294967296
    return seed / 4294967296
  end
  local p = steer.program(program)
  for i = 1, N do
    local g = i % 4
    local cx, cy = side * (0.2 + 0.2 * g), side * (0.8 - 0.2 * g)
    local a = w:add{ x = cx + rand() * 20, y = cy + rand() * 20, vx = rand() - 0.5,
      vy = rand() - 0.5, max_speed = 2.5, max_force = 4 }
    a:set_behaviors(p)
  end
  w:step(0.1) -- warm
  return w
end

local names, samples = {}, {}
for _, pr in ipairs(programs(1)) do
  names[#names + 1] = pr[1]
  samples[pr[1]] = {}
  for _, side in ipairs(SIDES) do samples[pr[1]][side] = {} end
end
for r = 1, ROUNDS do
  for k, name in ipairs(names) do
    for _, side in ipairs(SIDES) do
      local w = build(side, programs(side)[k][2])
      collectgarbage("collect")
      local t0 = clock()
      for _ = 1, STEPS do w:step(0.1) end
      samples[name][side][r] = (clock() - t0) / STEPS * 1e6
      w:close()
    end
  end
end


print(("bench/bigmap: %d agents, cell 5, %d steps x %d rounds, us per step (median), %s"):format(
  N, STEPS, ROUNDS, _VERSION))
local head = ("%-20s"):format("program")
for _, side in ipairs(SIDES) do head = head .. ("%14s"):format(side .. " x " .. side) end
print(head .. ("%10s"):format("ratio"))
local passed, failed = 0, 0
local small, big = SIDES[1], SIDES[#SIDES]
for _, name in ipairs(names) do
  local line = ("%-20s"):format(name)
  for _, side in ipairs(SIDES) do line = line .. ("%14.1f"):format(median(samples[name][side])) end
  -- the ratio within each round, then the median
  local ratios = {}
  for r = 1, ROUNDS do ratios[r] = samples[name][big][r] / samples[name][small][r] end
  local ratio = median(ratios)
  local ok = ratio <= BOUND
  if ok then passed = passed + 1 else failed = failed + 1 end
  print(line .. ("%10.2f  %s"):format(ratio, ok and "ok" or ("over " .. BOUND)))
end
print(("%d passed, %d failed"):format(passed, failed))
if STRICT and failed > 0 then os.exit(1) end
