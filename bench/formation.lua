--- bench/formation.lua - time per formation reassignment (docs/PERFORMANCE.md):
--   make bench-formation      (LUA_PATH/LUA_CPATH as make sets them)
-- A formation of n slots and n members at random positions around a leader;
-- f:reassign() assigns every member again (the Hungarian method up to 32
-- members, the greedy rule beyond). Every size is timed in the same process,
-- in rounds that rotate the order, and reported as the median time per
-- reassignment and as a ratio to the 32-member optimal one.
local steer = require "steer"
local clock = steer.testing.clock

local ROUNDS = tonumber(os.getenv("BENCH_ROUNDS") or "") or 7
local cases = {
  { name = "optimal, 8 members, 8 slots", n = 8, m = 8 },
  { name = "optimal, 16 members, 16 slots", n = 16, m = 16 },
  { name = "optimal, 32 members, 32 slots", n = 32, m = 32, base = true },
  { name = "optimal, 32 members, 64 slots", n = 32, m = 64 },
  { name = "greedy, 33 members, 33 slots", n = 33, m = 33 },
  { name = "greedy, 256 members, 256 slots", n = 256, m = 256 },
}

local function setup(case, seed)
  local world = steer.world{ seed = seed }
  local leader = world:add{ x = 0, y = 0, vx = 1 }
  local slots = {}
  local r = seed
  local function rnd() r = (r * 1103515245 + 12345) % 2147483648; return r / 2147483648 end
  for k = 1, case.m do slots[k] = { -rnd() * 40, rnd() * 40 - 20 } end
  local f = steer.formation{ anchor = leader, slots = slots }
  local prog = steer.program{ { "formation", formation = f } }
  for _ = 1, case.n do
    world:add{ x = rnd() * 80 - 40, y = rnd() * 80 - 40 }:set_behaviors(prog)
  end
  return f
end

-- seconds per reassignment, timing enough calls for 0.2 s
local function time_case(case, seed)
  local f = setup(case, seed)
  local calls, t = 1, 0
  repeat
    local t0 = clock()
    for _ = 1, calls do f:reassign() end
    t = clock() - t0
    if t < 0.2 then calls = calls * 2 end
  until t >= 0.2
  return t / calls
end

local results = {}
for _, c in ipairs(cases) do results[c] = {} end
for round = 1, ROUNDS do
  for k = 0, #cases - 1 do
    local c = cases[(k + round - 1) % #cases + 1]
    local t = time_case(c, 1000 + round)
    table.insert(results[c], t)
  end
end
local function median(list)
  table.sort(list)
  return list[(#list + 1) // 2]
end
local base
for _, c in ipairs(cases) do
  c.median = median(results[c])
  if c.base then base = c.median end
end
print(("%s, %d rounds, median time per f:reassign()"):format(_VERSION, ROUNDS))
for _, c in ipairs(cases) do
  print(("  %-32s %9.2f us   %5.2f x the 32-member optimal"):format(c.name, c.median * 1e6,
    c.median / base))
end
