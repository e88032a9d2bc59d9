--- bench/nav/bench.lua - navigation benchmarks, side by side in one run:
--   1. paths: nav:path against Jumper's A* (octile heuristic) and JPS (the
--      pure-Lua pathfinder LÖVE games use; ../shared/peers/jumper, skipped
--      when absent) on the Moving AI maps of ../shared/nav, the same
--      scenarios for all (evenly spread over each .map.scen file); mean
--      time per path, and how many lengths differ from the optimum;
--   2. flow fields: the time to compute one on each map (ns per cell);
--   3. a crowd of N agents following one flow field against bench/'s
--      flocking program (separation, alignment, cohesion) at the same N,
--      per agent and step, from bench/workload.lua's cold state and in
--      bench/'s warm regime (the flock after WARM_STEPS steps).
-- usage: <lua> bench/nav/bench.lua [scenarios per map (200)] [N (10000)]
-- Run from the project's root with LUA_PATH/LUA_CPATH reaching steer.
local steer = require "steer"
-- processor time: everything here runs on one thread, and on a shared
-- machine it leaves out the time other processes take
local clock = os.clock
package.path = "bench/?.lua;" .. package.path
local workload = require "workload"

local SCENARIOS = tonumber(arg[1]) or 200
local CROWD = tonumber(arg[2]) or 10000
local NAV = "../shared/nav/"
local JUMPER = "../shared/peers/jumper/"
local interpreter = jit and jit.version or _VERSION

local function read(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local text = f:read("*a")
  f:close()
  return text
end

local jumper_found = read(JUMPER .. "jumper/pathfinder.lua") ~= nil
local Grid, Pathfinder
if jumper_found then
  package.path = JUMPER .. "?.lua;" .. package.path
  Grid, Pathfinder = require "jumper.grid", require "jumper.pathfinder"
end

-- Scenarios evenly spread over the file (every k-th), deterministic.
local function scenarios(text, count)
  local all = {}
  for line in text:gmatch("[^\n]+") do
    local sx, sy, gx, gy, opt = line:match("^%d+%s+%S+%s+%d+%s+%d+%s+(%d+)%s+(%d+)%s+(%d+)%s+(%d+)%s+(%S+)")
    if sx then
      all[#all + 1] = { tonumber(sx), tonumber(sy), tonumber(gx), tonumber(gy), tonumber(opt) }
    end
  end
  local out, step = {}, #all / count
  for k = 1, math.min(count, #all) do out[k] = all[math.floor((k - 1) * step) + 1] end
  return out
end

-- .map.scen prints 6 significant digits: one unit of the last one
local function optimal(len, opt)
  return math.abs(len - opt) <= 10 ^ (math.floor(math.log(math.max(opt, 1), 10)) - 5) + 1e-9
end

-- Jumper's collision map: map[y][x], 1-based, 0 walkable.
local function jumper_map(text)
  local rows, map = {}, {}
  for line in text:gmatch("[^\r\n]+") do rows[#rows + 1] = line end
  local height = tonumber(text:match("height (%d+)"))
  for r = 1, height do
    local row, line = {}, rows[4 + r]
    for c = 1, #line do
      local ch = line:sub(c, c)
      row[c] = (ch == "." or ch == "G" or ch == "S") and 0 or 1
    end
    map[r] = row
  end
  return map
end

-- Runs find(s) for every scenario; returns mean seconds per path and how
-- many lengths differ from the optimum (nil lengths count as differing).
local function run(list, find, repeats)
  local differ = 0
  local t0 = clock()
  for _ = 1, repeats do
    for _, s in ipairs(list) do
      local len = find(s)
      if repeats == 1 or _ == 1 then
        if not len or not optimal(len, s[5]) then differ = differ + 1 end
      end
    end
  end
  return (clock() - t0) / (#list * repeats), differ
end

print(("== navigation benchmark under %s: %d scenarios per map, crowd of %d"):format(
  interpreter, SCENARIOS, CROWD))
if not jumper_found then print("Jumper (../shared/peers/jumper): peer not found, skipped") end

local maps = { "maze512-1-0", "brc202d" }
local totals = { steer = 0, astar = 0, jps = 0 }
local not_optimal = 0 -- nav:path lengths that differ from the optimum
for _, name in ipairs(maps) do
  local text, scen = read(NAV .. name .. ".map"), read(NAV .. name .. ".map.scen")
  if not text or not scen then
    print(name .. ": ../shared/nav not found, skipped")
  elseif SCENARIOS > 0 then
    local nav = steer.navgrid_from_map(text)
    local list = scenarios(scen, SCENARIOS)
    local mean, differ = run(list, function(s)
      local _, len = nav:path(s[1] + 0.5, s[2] + 0.5, s[3] + 0.5, s[4] + 0.5)
      return len
    end, 3)
    totals.steer = totals.steer + mean
    not_optimal = not_optimal + differ
    print(("%-12s nav:path          %9.3f ms per path   %3d of %d lengths differ from the optimum")
      :format(name, mean * 1e3, differ, #list))
    if jumper_found then
      local grid = Grid(jumper_map(text))
      for _, finder in ipairs{ "ASTAR", "JPS" } do
        local pf = Pathfinder(grid, finder, 0)
        pf:setHeuristic("CARDINTCARD") -- octile
        local jm, jd = run(list, function(s)
          local p = pf:getPath(s[1] + 1, s[2] + 1, s[3] + 1, s[4] + 1)
          return p and p:getLength()
        end, 1)
        local key = finder == "ASTAR" and "astar" or "jps"
        totals[key] = totals[key] + jm
        print(("%-12s Jumper %-10s %9.3f ms per path   %3d of %d lengths differ   nav:path %.1fx faster")
          :format(name, finder, jm * 1e3, jd, #list, jm / mean))
      end
    end
    -- flow field from the first scenario's start
    local s = list[1]
    local f = nav:flow(s[1] + 0.5, s[2] + 0.5)
    local t0, reps = clock(), 10
    for _ = 1, reps do f:update() end
    local ft = (clock() - t0) / reps
    local W, H = nav:size()
    print(("%-12s flow field        %9.3f ms (%d x %d cells, %.1f ns per cell)")
      :format(name, ft * 1e3, W, H, ft * 1e9 / (W * H)))
  end
end
if jumper_found and totals.steer > 0 then
  print(("all maps     mean per path: nav:path %.3f ms, Jumper A* %.3f ms (%.1fx), Jumper JPS %.3f ms (%.1fx)")
    :format(totals.steer / #maps * 1e3, totals.astar / #maps * 1e3, totals.astar / totals.steer,
      totals.jps / #maps * 1e3, totals.jps / totals.steer))
end

-- ---- a crowd following one field vs the flocking program ----------------------

local st = workload.generate(CROWD)
local FLOCK = { combine = "weighted",
  { "separation", radius = 1.5, weight = 1.5 }, { "alignment", radius = 5 }, { "cohesion", radius = 5 } }
local flock = steer.world{ bounds = { st.L, st.L }, wrap = true, capacity = st.n }
flock:add_many({ x = st.x, y = st.y, vx = st.vx, vy = st.vy, max_speed = 2.5, max_force = 4 }, FLOCK)
-- the same square as a grid of 2-unit cells, every 7th column a wall with gaps
local side = math.floor(st.L / 2)
local cost = {}
for cy = 0, side - 1 do
  for cx = 0, side - 1 do
    cost[cy * side + cx + 1] = (cx % 7 == 3 and cy % 10 ~= 0) and 0 or 1
  end
end
local nav = steer.navgrid{ width = side, height = side, cell_size = 2, cost = cost }
local field = nav:flow(st.L / 2 + 1, st.L / 2 + 1)
local follow = steer.world{ bounds = { st.L, st.L }, capacity = st.n }
follow:add_many({ x = st.x, y = st.y, vx = st.vx, vy = st.vy, max_speed = 2.5, max_force = 4 },
  { { "flow", field = field, slowing_radius = 2 } })

local function time_steps(world, steps)
  local t0 = clock()
  for _ = 1, steps do world:step(workload.DT) end
  return (clock() - t0) / steps
end
-- alternating rounds, so both see the same machine; the fastest round of
-- each counts (other processes only ever add time)
local function compare(label)
  time_steps(flock, 1)
  time_steps(follow, 1)
  local tf, tw = math.huge, math.huge
  for _ = 1, 9 do
    tf = math.min(tf, time_steps(flock, 3))
    tw = math.min(tw, time_steps(follow, 3))
  end
  print(("crowd %5d  flocking program (%s) %7.1f ns per agent   flow field %7.1f ns per agent   flow/flocking = %.2fx")
    :format(CROWD, label, tf / CROWD * 1e9, tw / CROWD * 1e9, tw / tf))
end
compare("cold")
-- bench/'s warm regime: the flock after WARM_STEPS steps (clusters, more
-- neighbors); the followers keep going too
for _ = 1, workload.WARM_STEPS do flock:step(workload.DT) end
compare("warm")

-- a check for `make bench-nav-smoke`: every nav:path length is optimal
print(("nav:path lengths that differ from the optimum: %d"):format(not_optimal))
if not_optimal > 0 then os.exit(1) end
