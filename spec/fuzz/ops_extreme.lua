--- Extreme pairs: a few agents whose positions, velocities, radii and
-- limits are drawn from the far ends of what steer accepts (1e150 apart,
-- 1e-227 closing speeds, radii whose squares underflow, several agents on
-- one clamped point), then every force method with extreme arguments. Each
-- answer must be finite, and so must every agent after a step of a crowd
-- program. The general ops draw such values one at a time; the bugs hide
-- where several meet (two found this way in avoid_agents). These ops work
-- on worlds of their own, which the model does not track.
local V = require "fuzz.values"
local check_hit = require("fuzz.ops_levels").check_hit

local X = {}

local LIMIT = V.LIMIT
local SCALES = { 0, 5e-324, 1e-300, 1e-227, 1e-163, 1e-5, 1, 2.5, 17, 131, 3.37e149,
  9.9e149, 1e149, LIMIT }

--- A number of any scale up to the limit, either sign.
local function extreme(rng)
  local v
  if rng:chance(0.3) then
    v = (rng:float() * 2 - 1) * 10 ^ rng:int(-300, 150)
  else
    v = rng:pick(SCALES) * (rng:chance(0.3) and (1 + rng:float()) or 1)
  end
  v = V.cap(v)
  return rng:chance(0.5) and -v or v
end

local function size(rng) return math.abs(extreme(rng)) end
local function positive(rng)
  local v = size(rng)
  return v > 0 and v or 1e-300
end

-- The worlds: unbounded, and bounded or wrapped ones of extreme sides.
local function make_world(F)
  local rng = F.rng
  local kind = rng:int(1, 4)
  if kind == 1 then return F.steer.world{} end
  if kind == 2 then return F.steer.world{ bounds = { LIMIT, 135.6 }, wrap = true } end
  if kind == 3 then return F.steer.world{ bounds = { 87.9, 190.9 } } end
  return F.steer.world{ bounds = { 3, LIMIT }, wrap = true }
end

local function coordinate(rng)
  if rng:chance(0.3) then return rng:range(0, 100) end
  return extreme(rng)
end

-- Each method with valid arguments of extreme size: fn(a, other, rng)
-- returns the method's name and its arguments after self.
local CALLS = {
  function(_, _, r) return "seek", extreme(r), extreme(r) end,
  function(_, _, r) return "flee", extreme(r), extreme(r) end,
  function(_, _, r) return "arrive", extreme(r), extreme(r), size(r) end,
  function(_, o) return "pursue", o end,
  function(_, o) return "evade", o end,
  function(_, o, r) return "evade", o, size(r) end,
  function(_, _, r) return "separation", size(r) end,
  function(_, _, r) return "alignment", size(r) end,
  function(_, _, r) return "cohesion", size(r) end,
  function(_, _, r) return "avoid_agents", positive(r), size(r), size(r) end,
  function(_, _, r) return "orca_velocity", extreme(r), extreme(r) end,
  function() return "avoid_obstacles" end,
  function() return "avoid_walls" end,
  function(_, _, r) return "avoid_walls", size(r), true end,
  function(_, o, r) return "offset_pursuit", o, extreme(r), extreme(r) end,
  function(_, o, r) return "interpose", { extreme(r), extreme(r) }, o end,
  function(_, o, r) return "hide", o, size(r) end,
  function() return "wander" end,
}

-- Every agent's stored numbers finite and within ±steer.limit (`after`:
-- what it was doing).
local function check_in_limit(F, agents, after)
  for _, a in ipairs(agents) do
    for _, k in ipairs{ "x", "y", "vx", "vy", "angle", "angular_velocity" } do
      if not V.is_num(a[k]) then
        F:fail(("extreme: agent %s.%s is %s after %s"):format(tostring(a.id), k,
          ("%.17g"):format(a[k]), after))
      end
    end
  end
end

-- One step of w; every agent must stay finite and within the limit.
local function step_finite(F, w, agents)
  F:call("extreme:step", w.step, { w, 0.1 }, 2, true, { name = "step" })
  check_in_limit(F, agents, "a step")
end

-- Agents at the limit: max_speed = max_force = steer.limit, velocities near
-- it, moved by a:apply or by a step of a seek or flee program (plain,
-- smoothed or holding), with time steps that overshoot. Clamping to a length
-- of 1e150 rounds a component one ulp past it now and then: the world must
-- store ±1e150 instead, and its snapshot must restore.
local function op_at_limit(F)
  local rng = F.rng
  local w = F.steer.world{}
  local agents = {}
  local function big(r)
    local v = r:chance(0.3) and r:float() * 1e140 or r:float() * LIMIT
    return r:chance(0.5) and -v or v
  end
  for _ = 1, rng:int(1, 4) do
    local fields = { vx = big(rng), vy = big(rng), max_speed = LIMIT, max_force = LIMIT,
      min_speed = rng:chance(0.3) and 1 or 0, turn_velocity = rng:chance(0.2),
      angular_velocity = rng:chance(0.2) and 1 or 0 }
    local ok, r = F:call("limit:add", w.add, { w, fields }, 2, true, { name = "add" })
    if ok then agents[#agents + 1] = r[1] end
  end
  local dt = rng:pick({ 0.5, 0.84, 1, 2, 3 })
  if rng:chance(0.4) then
    for _, a in ipairs(agents) do
      local fx, fy = big(rng), big(rng)
      if rng:chance(0.3) then fx = 0 end
      F:call("limit:a:apply", a.apply, { a, fx, fy, dt }, 4, true, { name = "apply" })
    end
    check_in_limit(F, agents, "a:apply")
  else
    local target = { rng:chance(0.3) and 0 or big(rng), rng:chance(0.3) and 0 or big(rng) }
    local entry = { rng:pick({ "seek", "flee" }), target = target }
    local program = rng:pick({ { entry }, { smoothing = 0.5, entry },
      { combine = "priority", hold = 1, entry } })
    for _, a in ipairs(agents) do
      F:call("limit:a:set_behaviors", a.set_behaviors, { a, program }, 2, true,
        { name = "set_behaviors" })
    end
    F:call("limit:step", w.step, { w, dt }, 2, true, { name = "step" })
    check_in_limit(F, agents, "a step")
  end
  local copy, msg = F.steer.restore(w:snapshot())
  if not copy then F:fail("limit: the world's own snapshot does not restore: " .. tostring(msg)) end
  if copy then copy:close() end
  w:close()
end

local function op_extreme_pairs(F)
  local rng = F.rng
  local w = make_world(F)
  local agents = {}
  for _ = 1, rng:int(2, 5) do
    local fields = { x = coordinate(rng), y = coordinate(rng), vx = extreme(rng), vy = extreme(rng),
      radius = rng:chance(0.5) and size(rng) or rng:range(0, 3),
      max_speed = rng:chance(0.5) and size(rng) or 2.5,
      max_force = rng:chance(0.5) and size(rng) or 4 }
    local ok, r = F:call("extreme:add", w.add, { w, fields }, 2, true, { name = "add" })
    if ok then agents[#agents + 1] = r[1] end
  end
  if rng:chance(0.3) then
    F:call("extreme:add_obstacle", w.add_obstacle,
      { w, { x = coordinate(rng), y = coordinate(rng), radius = size(rng) } }, 2, nil,
      { name = "add_obstacle" }) -- (a wrapped world refuses some: either)
  end
  if rng:chance(0.3) then
    local x1, y1 = coordinate(rng), coordinate(rng)
    local x2, y2 = coordinate(rng), coordinate(rng)
    if x1 ~= x2 or y1 ~= y2 then
      F:call("extreme:add_wall", w.add_wall, { w, { x1 = x1, y1 = y1, x2 = x2, y2 = y2 } }, 2,
        nil, { name = "add_wall" }) -- (longer than a wrapped world: refused)
    end
  end
  if #agents >= 2 then
    for _ = 1, rng:int(1, 3) do
      local a, other = rng:pick(agents), rng:pick(agents)
      local call = { rng:pick(CALLS)(a, other, rng) }
      local name = table.remove(call, 1)
      table.insert(call, 1, a)
      F:call("extreme:a:" .. name, a[name], call, #call, true, { name = name, numbers = true })
    end
    local program = rng:pick({
      { { "avoid_agents", radius = LIMIT }, { "separation", radius = LIMIT }, { "cohesion", radius = LIMIT } },
      { { "avoid_agents", time_horizon = positive(rng), radius = size(rng) }, { "wander" } },
      { combine = "priority", { "avoid_walls" }, { "avoid_obstacles" }, { "separation", radius = size(rng) } },
    })
    for _, a in ipairs(agents) do
      F:call("extreme:a:set_behaviors", a.set_behaviors, { a, program }, 2, true,
        { name = "set_behaviors" })
    end
    step_finite(F, w, agents)
  end
  w:close()
end

-- A coordinate near c (offsets from 1e-12 to 1e3, where rounding bites), or
-- anywhere.
local function near(rng, c)
  if rng:chance(0.5) then
    return V.cap(c + (rng:float() * 2 - 1) * 10 ^ rng:int(-12, 3))
  end
  return extreme(rng)
end

-- A wall's ends near (cx, cy), as add_wall takes them.
local function wall_near(rng, cx, cy)
  return { x1 = near(rng, cx), y1 = near(rng, cy), x2 = near(rng, cx), y2 = near(rng, cy) }
end

--- Extreme levels: walls, obstacles and polygons crowded around one point
-- (or anywhere) at extreme magnitudes, a few agents among them, then the
-- level calls with extreme arguments: both feelers and `contain` (finite
-- forces), `raycast` (ops_levels' check of a hit: fraction, point, normal, kind),
-- `line_of_sight` (a boolean), `query_box`, handles moved, a step of a
-- level program (finite agents).
local function op_extreme_levels(F)
  local rng = F.rng
  local w = make_world(F)
  local cx, cy = coordinate(rng), coordinate(rng)
  local shapes, agents = {}, {}
  for _ = 1, rng:int(1, 6) do
    local kind, ok, r = rng:int(1, 4)
    if kind == 1 then
      ok, r = F:call("extreme:add_wall", w.add_wall, { w, wall_near(rng, cx, cy) }, 2, nil,
        { name = "add_wall" }) -- zero length, or longer than a wrapped world: refused
    elseif kind == 2 then
      ok, r = F:call("extreme:add_obstacle", w.add_obstacle, { w, { x = near(rng, cx),
        y = near(rng, cy), radius = size(rng) } }, 2, nil, { name = "add_obstacle" })
    elseif kind == 3 then
      local points = { closed = rng:chance(0.7) }
      for _ = 1, rng:int(2, 6) do
        points[#points + 1], points[#points + 2] = near(rng, cx), near(rng, cy)
      end
      ok, r = F:call("extreme:add_polygon", w.add_polygon, { w, points }, 2, nil,
        { name = "add_polygon" })
    else
      local list = {}
      for k = 1, rng:int(1, 4) do
        list[k] = wall_near(rng, cx, cy)
      end
      F:call("extreme:add_walls", w.add_walls, { w, list }, 2, nil, { name = "add_walls" })
    end
    if ok then shapes[#shapes + 1] = r[1] end
  end
  for _ = 1, rng:int(1, 4) do
    local ok, r = F:call("extreme:add", w.add, { w, { x = near(rng, cx), y = near(rng, cy),
      vx = extreme(rng), vy = extreme(rng), radius = rng:chance(0.5) and size(rng) or 0.5,
      max_speed = rng:chance(0.5) and size(rng) or 2.5,
      max_force = rng:chance(0.5) and size(rng) or 4 } }, 2, true, { name = "add" })
    if ok then agents[#agents + 1] = r[1] end
  end
  for _, s in ipairs(shapes) do -- some moved, some removed
    if rng:chance(0.3) then
      local fields = s.kind == "obstacle" and { x = near(rng, cx), radius = size(rng) }
        or { x2 = near(rng, cx), y1 = near(rng, cy) }
      F:call("extreme:move", function()
        for k, v in pairs(fields) do s[k] = v end
      end, {}, 0, nil, { pattern = "cannot set field '%w+' of steer%.%a+: " })
    end
    if rng:chance(0.1) then s:remove() end
  end
  for _, a in ipairs(agents) do
    F:call("extreme:a:avoid_walls", a.avoid_walls, { a, size(rng), rng:chance(0.5) }, 3, true,
      { name = "avoid_walls", numbers = true })
    F:call("extreme:a:avoid_obstacles", a.avoid_obstacles, { a, size(rng) }, 2, true,
      { name = "avoid_obstacles", numbers = true })
    local region = {} -- a box or a polygon: degenerate ones refused
    for k = 1, rng:pick({ 4, 6, 8, 10 }) do region[k] = near(rng, k % 2 == 1 and cx or cy) end
    F:call("extreme:a:contain", a.contain, { a, region, size(rng) }, 3, nil,
      { name = "contain", numbers = true })
  end
  for _ = 1, rng:int(1, 4) do
    local x1, y1, x2, y2 = near(rng, cx), near(rng, cy), near(rng, cx), near(rng, cy)
    local filter = rng:chance(0.5) and { walls = rng:chance(0.8), obstacles = rng:chance(0.8),
      agents = rng:chance(0.6), ignore = agents[1] } or nil
    local ok, r = F:call("extreme:raycast", w.raycast, { w, x1, y1, x2, y2, filter }, 6, true,
      { name = "raycast" })
    if ok and r[1] ~= nil then check_hit(F, r) end
    ok, r = F:call("extreme:line_of_sight", w.line_of_sight, { w, x1, y1, x2, y2 }, 5, true,
      { name = "line_of_sight" })
    if ok and type(r[1]) ~= "boolean" then
      F:fail("extreme: line_of_sight gave " .. V.show(r[1]))
    end
    ok, r = F:call("extreme:query_box", w.query_box, { w, x1, y1, x2, y2 }, 5, true,
      { name = "query_box" })
    if ok then
      for a in r[1], r[2], r[3] do
        if not a.alive then F:fail("extreme: query_box gave a removed agent") end
      end
    end
  end
  local program = { combine = rng:pick({ "priority", "weighted" }), { "avoid_walls", whiskers = rng:chance(0.5) },
    { "avoid_obstacles" }, { "separation", radius = rng:chance(0.5) and 1.5 or size(rng) },
    { "seek", target = { near(rng, cx), near(rng, cy) } } }
  for _, a in ipairs(agents) do
    F:call("extreme:a:set_behaviors", a.set_behaviors, { a, program }, 2, true,
      { name = "set_behaviors" })
  end
  step_finite(F, w, agents)
  step_finite(F, w, agents)
  w:close()
end

function X.list()
  return { { name = "extreme pairs", weight = 2, run = op_extreme_pairs },
    { name = "extreme levels", weight = 2, run = op_extreme_levels },
    { name = "at the limit", weight = 1, run = op_at_limit } }
end

return X
