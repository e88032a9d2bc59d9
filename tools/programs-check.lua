-- Checks the behavior-program adapter of the LÖVE demo
-- (examples/love/programs.lua) without LÖVE:
--   LUA_PATH='lua/?.lua;lua/?/init.lua;;' LUA_CPATH='build/luajit/?.so;;' \
--     luajit tools/programs-check.lua
-- 1. its Lua fallback gives the forces composed by hand from the per-agent
--    methods, for each combine mode, and integrates like world:step (all
--    forces from one snapshot, then every move);
-- 2. the result does not depend on the order agents were added;
-- 3. once the library has programs (world:step), native and fallback runs
--    of the same scene agree.
-- Ends with "N passed, N failed".
package.path = "examples/love/?.lua;" .. package.path
local steer = require "steer"
local programs = require "programs"

local passed, failed = 0, 0
local function check(ok, what)
  if ok then passed = passed + 1 else failed = failed + 1 end
  print((ok and "ok   " or "FAIL ") .. what)
end

local DT = 1 / 60

-- a fixed generator (Park-Miller), so every VM builds the same scene
local function generator(seed)
  local s = seed
  return function()
    s = s * 16807 % 2147483647 -- exact in doubles and integers alike
    return s / 2147483647
  end
end

-- 40 agents and 3 obstacles; `reverse` adds the agents in the opposite order
local function scene(reverse)
  local world = steer.world{ bounds = {40, 30}, seed = 9, cell_size = 3 }
  world:add_obstacle{ x = 20, y = 15, radius = 4 }
  world:add_obstacle{ x = 8, y = 22, radius = 2 }
  world:add_obstacle{ x = 31, y = 7, radius = 2.5 }
  local random = generator(42)
  local defs = {}
  for k = 1, 40 do
    defs[k] = { x = 2 + random() * 14, y = 2 + random() * 10, vx = random() * 4 - 2,
      vy = random() * 4 - 2, max_speed = 6, max_force = 9, radius = 0.5, name = k }
  end
  local agents = {}
  for i = 1, #defs do
    local d = defs[reverse and #defs + 1 - i or i]
    agents[d.name] = world:add(d)
  end
  return world, agents
end

local function program(combine)
  return {
    combine = combine,
    { "avoid_obstacles", feeler_length = 3, weight = 2 },
    { "separation", radius = 1.5, weight = 3 },
    { "alignment", radius = 3 },
    { "cohesion", radius = 3, weight = 0.5 },
    { "arrive", target = {34, 24}, slowing_radius = 4, tag = "goal" },
  }
end

-- the same five forces, composed here without steer's combine functions
local function by_hand(a, combine)
  local f = {}
  f[1] = {a:avoid_obstacles(3)}
  f[2] = {a:separation(1.5)}
  f[3] = {a:alignment(3)}
  f[4] = {a:cohesion(3)}
  f[5] = {a:arrive(34, 24, 4)}
  local w = {2, 3, 1, 0.5, 1}
  local m = a.max_force
  local function clamp(x, y, max)
    local len = math.sqrt(x * x + y * y)
    if len > max then return x * max / len, y * max / len end
    return x, y
  end
  if combine == "weighted" then
    local x, y = 0, 0
    for i = 1, 5 do x, y = x + f[i][1] * w[i], y + f[i][2] * w[i] end
    return clamp(x, y, m)
  elseif combine == "priority" then
    for i = 1, 5 do
      local x, y = f[i][1] * w[i], f[i][2] * w[i]
      if x * x + y * y > 1e-4 then return clamp(x, y, m) end
    end
    return 0, 0
  else -- prioritized_sum: add in order; the force that would take the
    -- total past max_force is cut so the total's length is max_force
    local x, y = 0, 0
    for i = 1, 5 do
      local fx, fy = f[i][1] * w[i], f[i][2] * w[i]
      if math.sqrt(x * x + y * y) >= m then break end
      local len = math.sqrt(fx * fx + fy * fy)
      local nx, ny = x + fx, y + fy
      if math.sqrt(nx * nx + ny * ny) <= m then
        x, y = nx, ny
      else
        -- k >= 0 with |(x, y) + k d| = m, d the unit vector along f
        local dx, dy = fx / len, fy / len
        local b = x * dx + y * dy
        local k = -b + math.sqrt(b * b - (x * x + y * y - m * m))
        return x + dx * k, y + dy * k
      end
    end
    return x, y
  end
end

-- largest |difference| of positions and velocities of matching agents
local function gap(agents_a, agents_b)
  local worst = 0
  for k, a in pairs(agents_a) do
    local b = agents_b[k]
    for _, field in ipairs{ "x", "y", "vx", "vy" } do
      worst = math.max(worst, math.abs(a[field] - b[field]))
    end
  end
  return worst
end

-- 1. fallback = forces by hand, all computed before any move
programs.use_native = false
for _, combine in ipairs{ "weighted", "priority", "prioritized_sum" } do
  local world, agents = scene(false)
  local ref_world, ref = scene(false)
  for _, a in pairs(agents) do programs.set(a, program(combine)) end
  local worst = 0
  for _ = 1, 30 do
    programs.step(world, DT)
    local forces = {}
    for k, a in pairs(ref) do forces[k] = {by_hand(a, combine)} end
    for k, a in pairs(ref) do a:apply(forces[k][1], forces[k][2], DT) end
    worst = math.max(worst, gap(agents, ref))
  end
  check(worst <= 1e-9, ("fallback %s = forces composed by hand over 30 steps (max gap %.3g)")
    :format(combine, worst))
  -- and the scene really moved, so the comparison means something
  local _, start = scene(false)
  check(gap(agents, start) > 1, ("fallback %s moved the agents"):format(combine))
end

-- 2. the order agents were added does not matter
do
  local world, agents = scene(false)
  local world_r, agents_r = scene(true)
  for _, a in pairs(agents) do programs.set(a, program("prioritized_sum")) end
  for _, a in pairs(agents_r) do programs.set(a, program("prioritized_sum")) end
  for _ = 1, 60 do
    programs.step(world, DT)
    programs.step(world_r, DT)
  end
  local worst = gap(agents, agents_r)
  check(worst <= 1e-9, ("fallback: the same run whatever the agents' order (max gap %.3g)")
    :format(worst))
end

-- set_target retargets the tagged entry only
do
  local _, agents = scene(false)
  local a = agents[1]
  local p = program("weighted")
  programs.set(a, p)
  programs.set_target(a, "goal", {1, 2})
  check(p[5].target[1] == 1 and p[5].target[2] == 2 and p[1].target == nil,
    "fallback: set_target changes the tagged entry only")
end

-- programs with the other behaviors of the demo: wander (the agent's own
-- generator), follow (its progress), smoothing, an agent target
local route = steer.path{ {5, 5}, {35, 5}, {35, 25}, {5, 25}, loop = true }
local function mixed(agents)
  local leader = agents[1]
  return function(a)
    if a == leader then
      return { combine = "weighted", smoothing = 0.3,
        { "follow", path = route, arrival_radius = 1.5 }, { "wander", weight = 0.5 } }
    end
    return { combine = "priority",
      { "avoid_obstacles", feeler_length = 3 },
      { "separation", radius = 1.2, weight = 4 },
      { "pursue", target = leader } }
  end
end

-- 3. native programs agree with the fallback, once they exist
local probe = steer.world{}
if probe.step and probe:add{}.set_behaviors then
  for _, combine in ipairs{ "weighted", "priority", "prioritized_sum", "mixed" } do
    local world_n, native = scene(false)
    local world_f, fallback = scene(false)
    local make_n = combine == "mixed" and mixed(native) or function() return program(combine) end
    local make_f = combine == "mixed" and mixed(fallback) or function() return program(combine) end
    programs.use_native = true
    for _, a in pairs(native) do programs.set(a, make_n(a)) end
    programs.use_native = false
    for _, a in pairs(fallback) do programs.set(a, make_f(a)) end
    for _ = 1, 60 do
      programs.use_native = true
      programs.step(world_n, DT)
      programs.use_native = false
      programs.step(world_f, DT)
    end
    local worst = gap(native, fallback)
    check(worst <= 1e-6, ("native %s programs = the Lua fallback over 60 steps (max gap %.3g)")
      :format(combine, worst))
  end
  programs.use_native = true
else
  print("skip native programs = fallback: the library has no world:step yet")
end

print(("%d passed, %d failed"):format(passed, failed))
os.exit(failed == 0 and 0 or 1)
