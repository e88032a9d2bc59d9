--- bench/crowd/crowd.lua - crowds crossing (issue 13): steer's ORCA,
-- avoid_agents and separation side by side with RVO2, same starts.
--
--   LUA_PATH='lua/?.lua;lua/?/init.lua;bench/crowd/?.lua;;' \
--   LUA_CPATH='build/lua5.4/?.so;;' lua5.4 bench/crowd/crowd.lua full|smoke [RVO2_DRIVER]
--
-- Scenarios (RVO2's examples): circle - N agents on a circle of radius 200
-- heading for the antipodes, N = 100, 250, 1000; blocks - four blocks of 25
-- crossing to the opposite corner past four square obstacles (polygons in
-- steer and in RVO2). Starts jittered by a seeded +-0.1, 3 seeds.
-- dt 0.25, radius 1.5, max speed 2, neighbor radius 15, 10 neighbors, time
-- horizon 10 (obstacles 10). Both follow the same preferred velocity:
-- towards the goal at max speed, slowing within max_speed * dt.
-- Metrics: bench/crowd/README.md. Ends with "N passed, N failed" over
-- the checks (every run finite; in the smoke run ORCA arrives without a
-- deep overlap; in the full run also avoid_agents against separation at
-- equal smoothness, check_avoid_agents below).
local steer = require "steer"
local S = require "scenarios"

local MODE = arg[1] or "smoke"
local DRIVER = arg[2]
local FULL = MODE == "full"
local CAP = 4000
local SEEDS = FULL and { 1, 2, 3 } or { 1 }
local LIST = FULL and { { "circle", 100 }, { "circle", 250 }, { "circle", 1000 }, { "blocks", 100 } }
  or { { "circle", 100 } }
if os.getenv("CROWD_ONLY") then -- e.g. CROWD_ONLY=circle:250
  local kind, n = os.getenv("CROWD_ONLY"):match("(%a+):(%d+)")
  LIST = { { kind, tonumber(n) } }
end
if os.getenv("CROWD_SEEDS") then
  SEEDS = {}
  for s in os.getenv("CROWD_SEEDS"):gmatch("%d+") do SEEDS[#SEEDS + 1] = tonumber(s) end
end
local P = S.PARAMS

-- ---- the steer variants ------------------------------------------------------

local function program(variant, goal)
  local go = { "arrive", target = goal, slowing_radius = P.max_speed * P.dt, weight = 1 / P.dt }
  if variant == "avoid_agents" or variant == "separation" or variant:match("^separation_s%d+$") then
    -- forces relax towards the goal velocity in 0.5 s (KSG use 0.54 s)
    go.weight = 2
  end
  if variant == "orca" or variant == "orca_mf" or variant == "orca_still" or variant:match("^orca_m%d")
      or variant:match("^orca_push") then
    -- orca_m<percent>: another margin (orca_m0: the paper's ORCA);
    -- orca_push: push = true, orca_push<n>: n sweeps; orca_still: no detour
    local margin = variant:match("^orca_m(%d+)$")
    local push = variant:match("^orca_push(%d*)$")
    return { go, orca = { time_horizon = P.horizon, obstacle_time_horizon = P.obstacle_horizon,
                          neighbor_radius = P.neighbor_radius, max_neighbors = P.max_neighbors,
                          margin = margin and tonumber(margin) / 100 or nil,
                          push = push and (tonumber(push) or true) or nil,
                          detour = variant ~= "orca_still" } }
  elseif variant == "avoid_agents" then
    return { go, { "avoid_agents", time_horizon = 3, radius = P.neighbor_radius, weight = 1 },
             { "avoid_walls", feeler_length = 4, weight = 4 } }
  elseif variant:match("^avoid_agents_") then -- avoid_agents_h<horizon>_w<weight in %>
    local h = tonumber(variant:match("_h(%d+)")) or 3
    local wt = (tonumber(variant:match("_w(%d+)")) or 100) / 100
    return { go, { "avoid_agents", time_horizon = h, radius = P.neighbor_radius, weight = wt },
             { "avoid_walls", feeler_length = 4, weight = 4 } }
  elseif variant == "separation_100" then -- the issue's "tuned to keep apart"
    return { { "separation", radius = 4, weight = 100 }, { "avoid_walls", feeler_length = 4, weight = 4 }, go,
             combine = "priority" }
  elseif variant:match("^separation_[ws]%d+$") then -- weighted, at weight w; _s: arrive as avoid_agents'
    return { go, { "separation", radius = 4, weight = tonumber(variant:match("%d+")) },
             { "avoid_walls", feeler_length = 4, weight = 4 } }
  else -- separation only, at the weight the issue calls ordinary
    return { go, { "separation", radius = 4, weight = 4 }, { "avoid_walls", feeler_length = 4, weight = 4 } }
  end
end

-- steer's world is bounded (a dense grid, as a game level is): the scene,
-- centred on the origin, is shifted by OFF into it
local OFF = 300

local function build_steer(sc, variant, threads)
  local world = steer.world{ bounds = { 2 * OFF, 2 * OFF }, cell_size = 8, threads = threads or 1 }
  local max_force = variant == "orca_mf" and P.max_speed / P.dt or 1e6
  local agents = {}
  for i, a in ipairs(sc.agents) do
    local h = world:add{ x = a.x + OFF, y = a.y + OFF, radius = P.radius, max_speed = P.max_speed, max_force = max_force }
    h:set_behaviors(program(variant, { a.gx + OFF, a.gy + OFF }))
    agents[i] = h
  end
  -- blocks' squares as polygons, as RVO2 gets them: ORCA sees a convex
  -- polygon's edges from outside only, as RVO2 does
  for _, poly in ipairs(sc.polygons) do
    local flat = { closed = true }
    for _, pt in ipairs(poly) do
      flat[#flat + 1] = pt[1] + OFF
      flat[#flat + 1] = pt[2] + OFF
    end
    world:add_polygon(flat)
  end
  return world, agents
end

--- The steps a run took: CAP when it never cleared (steps -1).
local function run_steps(r)
  return r.steps > 0 and r.steps or CAP
end

-- The metrics from one run; the time per step from a second run of the same
-- steps (the same trajectory: the step is deterministic) with nothing between
-- the steps. The metrics' Lua loop between steps evicts the step's data from
-- the caches and made the step itself 20-35% slower at N = 1,000, where
-- RVO2's driver takes its metrics in a few lines of C.
-- window: the steps RVO2's driver timed, when known: the timed run goes on that long if
-- steer's run cleared sooner (agents standing at their goals step too), so
-- both time per step over the same steps
--- The metrics of one run, taken after every step (not yet done).
local function measure(sc, variant, threads)
  local world, agents = build_steer(sc, variant, threads)
  local m = S.metrics_new(sc, OFF)
  for step = 1, CAP do
    world:step(P.dt)
    if S.metrics_step(m, agents) then m.steps = step break end
  end
  world:close()
  return m
end

local function run_steer(sc, variant, threads, window)
  local m = measure(sc, variant, threads)
  local timed = math.min(CAP, math.max(run_steps(m), window or 0))
  local world = build_steer(sc, variant, threads)
  -- processor time, as the driver times RVO2; with threads, the wall clock
  -- (processor time would add the threads' times up)
  local now = (threads or 1) > 1 and steer.testing.clock or os.clock
  collectgarbage("collect")
  local t0 = now()
  for _ = 1, timed do world:step(P.dt) end
  local clock = now() - t0
  world:close()
  return S.metrics_done(m, clock * 1000 / timed)
end

--- The metrics of one run alone (no timed second run).
local function run_metrics(sc, variant)
  return S.metrics_done(measure(sc, variant), 0)
end

local function run_rvo2(sc)
  if not DRIVER then return nil end
  local file = os.tmpname()
  S.write(sc, file, CAP)
  local p = io.popen(DRIVER .. " " .. file)
  local line = p:read("*l")
  p:close()
  os.remove(file)
  if not line then return nil end
  local r = {}
  for k, v in line:gmatch("([%w_]+)=([%-%d%.]+)") do r[k] = tonumber(v) end
  return { overlap = r.overlap, deep = r.deep, max_pen = r.max_pen, steps = r.steps,
           dv = r.dv, len = r.len, ms = r.ms, ms_step = r.ms_step }
end

-- ---- the table ---------------------------------------------------------------

local passed, failed = 0, 0
local function check(ok, what)
  if ok then passed = passed + 1 else failed = failed + 1; print("FAILED: " .. what) end
end

-- avoid_agents against separation at equal smoothness (full runs): the
-- separation weights scanned, with avoid_agents' arrive (weight 2); avoid_agents beats it when every scanned
-- weight at least as smooth (mean |dv| no larger) has more overlap
-- pair-steps. Stronger than comparing with one weight interpolated to the
-- same |dv|: no smoother separation may have fewer overlaps.
local SEPARATION_WEIGHTS = { 4, 8, 12, 16, 20, 25, 30, 40, 60 }

local function check_avoid_agents(name, sc, avoid)
  local smoother, rougher, best = 0, 0, nil
  for _, wt in ipairs(SEPARATION_WEIGHTS) do
    local r = run_metrics(sc, "separation_s" .. wt)
    if r.dv <= avoid.dv then
      smoother = smoother + 1
      if not best or r.overlap < best.overlap then best = r; best.weight = wt end
    else
      rougher = rougher + 1
    end
  end
  if best then
    print(("%-12s %-16s %9d at mean|dv| %.4f (weight %d, the fewest overlaps of %d separation weights at most as rough as avoid_agents' %.4f)"):format(
      name, "separation best", best.overlap, best.dv, best.weight, smoother, avoid.dv))
  end
  -- the scan must reach past avoid_agents' |dv|, or its roughest weights would be left out
  check(rougher > 0, name .. " avoid_agents: some separation weight scanned is rougher")
  check(best and avoid.overlap < best.overlap, ("%s avoid_agents: fewer overlaps than separation at equal or more smoothness (%d against %s)"):format(
    name, avoid.overlap, best and tostring(best.overlap) or "no separation as smooth"))
end

print(("%-12s %-16s %9s %7s %8s %6s %8s %8s %6s %8s"):format("scenario", "who", "overlap", "deep",
  "max_pen", "steps", "mean|dv|", "sum|dv|", "path", "ms/step"))
-- sum|dv|: the velocity change per agent over the whole run (mean |dv| times
-- the run's steps), which does not depend on how long each side's run is:
-- an agent at its goal changes velocity no more, so comparing the means over
-- one window common to both sides is comparing these sums
local function row(name, who, r)
  local steps = run_steps(r)
  print(("%-12s %-16s %9d %7d %8.3f %6s %8.4f %8.2f %6.3f %8.4f"):format(name, who, r.overlap, r.deep,
    r.max_pen, r.steps > 0 and tostring(r.steps) or "never", r.dv, r.dv * steps, r.len, r.ms))
end

local VARIANTS = FULL and { "orca", "orca_still", "orca_mf", "orca_push", "avoid_agents", "separation",
  "separation_100" }
  or { "orca", "orca_push", "separation" }
if os.getenv("CROWD_VARIANTS") then
  VARIANTS = {}
  for v in os.getenv("CROWD_VARIANTS"):gmatch("[%w_]+") do VARIANTS[#VARIANTS + 1] = v end
end
for _, item in ipairs(LIST) do
  for _, seed in ipairs(SEEDS) do
    local sc = S.make(item[1], item[2], seed)
    local name = ("%s%d/%d"):format(item[1], item[2], seed)
    local rvo = run_rvo2(sc)
    if rvo then row(name, "RVO2", rvo) elseif seed == SEEDS[1] then print(name .. "  RVO2: peer not found, skipped") end
    if rvo and rvo.ms_step then -- its step alone, without the preferred velocities
      print(("%-12s %-16s %67.4f"):format(name, "RVO2 doStep", rvo.ms_step))
    end
    local window = rvo and run_steps(rvo) -- the driver's timed steps
    for _, v in ipairs(VARIANTS) do
      local r = run_steer(sc, v, nil, window)
      row(name, "steer " .. v, r)
      check(r.finite, name .. " " .. v .. ": every position finite")
      if v == "avoid_agents" and FULL then check_avoid_agents(name, sc, r) end
      if v == "orca_push" then
        -- starts that overlap (circle 1,000) cannot be parted in one step
        -- (docs/PERFORMANCE.md): the push has until step 2
        local parting = S.starts_deep(sc) and 2 or 0
        check(r.last_deep <= parting, ("%s orca_push: no pair deeper than 0.1%s (last: step %d)"):format(
          name, parting > 0 and " after step " .. parting or "", r.last_deep))
      end
      if v == "orca" then
        check(r.steps > 0, name .. " orca: every agent arrives")
        if rvo then
          check(r.deep <= rvo.deep, name .. " orca: no more deep pair-steps than RVO2")
        end
      end
    end
    if FULL and item[2] >= 250 then
      local r = run_steer(sc, "orca", 2, window)
      row(name, "steer orca 2T", r)
    end
  end
end
print(("%d passed, %d failed"):format(passed, failed))
os.exit(failed == 0 and 0 or 1)
