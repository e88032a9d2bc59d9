-- Checks the scenes of the LÖVE demo (examples/love) and their behavior
-- programs without LÖVE, under LuaJIT as in LÖVE:
--   LUA_PATH='lua/?.lua;lua/?/init.lua;;' LUA_CPATH='build/luajit/?.so;;' \
--     luajit tools/programs-check.lua
-- A stand-in `love` table (no drawing, a fixed random generator) runs the
-- scene modules themselves.
-- 1. world:step runs the programs of scenes 1 and 4 as composing the
--    agents' own methods by hand does: each program is read back with
--    a:behaviors(), every force computed first, then every a:apply;
-- 2. scene 1's flock keeps cruising, mostly outside its obstacles;
-- 3. scene 4 moves every agent's goal at decision rate (set_target), and
--    priority reports which entry won (a:active_behavior);
-- 4. scene 5's guard goes patrol -> chase -> search -> patrol, and resumes
--    its patrol at the nearest waypoint it can see;
-- 5. every scene replays identically from the same seed.
-- Ends with "N passed, N failed".
package.path = "examples/love/?.lua;" .. package.path

-- ---- a stand-in for LÖVE ------------------------------------------------------

-- love.math's generator as the scenes use it: random() in [0, 1),
-- random(a, b) an integer in [a, b]; Park-Miller, the same on every VM
local function generator(seed)
  local s = seed % 2147483646 + 1
  local rng = {}
  function rng:random(a, b)
    s = s * 16807 % 2147483647 -- exact in doubles
    local u = (s - 1) / 2147483646
    if not a then return u end
    return a + math.floor(u * (b - a + 1))
  end
  return rng
end

local function nothing() end
love = {
  graphics = setmetatable({}, { __index = function() return nothing end }),
  window = { hasMouseFocus = function() return false end },
  math = { newRandomGenerator = generator },
}

local steer = require "steer"
local gfx = require "gfx"
local geometry = require "geometry"
local scenes = {
  flock = require "scenes.flock",
  chase = require "scenes.chase",
  path = require "scenes.path",
  combine = require "scenes.combine",
  guard = require "scenes.guard",
}

local passed, failed = 0, 0
local function check(ok, what)
  if ok then passed = passed + 1 else failed = failed + 1 end
  print((ok and "ok   " or "FAIL ") .. what)
end

local DT = 1 / 60

-- a scene as main.lua starts it in a test run
local function start(name, ...)
  local s = scenes[name].new(generator(1), ...)
  s.scripted = true
  return s
end

local function worlds(s)
  if s.world then return { s.world } end
  local list = {}
  for k, panel in ipairs(s.panels) do list[k] = panel.world end
  return list
end

-- ---- programs composed by hand ------------------------------------------------

-- one entry's force (unweighted), from the method of the same name
local function entry_force(a, e)
  local name, t = e[1], e.target
  if name == "seek" or name == "flee" or name == "arrive" then
    local extra = name == "arrive" and e.slowing_radius or e.panic_radius
    if type(t) == "table" then return a[name](a, t[1], t[2], extra) end
    return a[name](a, t, extra)
  elseif name == "pursue" or name == "evade" then
    return a[name](a, t)
  elseif name == "wander" then
    return a:wander()
  elseif name == "avoid_obstacles" or name == "avoid_walls" then
    assert(e.hysteresis == 0, "no hand-made hysteresis")
    return a[name](a, e.feeler_length)
  elseif name == "follow" then
    return a:follow(e.path, e)
  elseif name == "contain" then
    return a:contain(e.region, e.feeler_length)
  elseif name == "separation" or name == "alignment" or name == "cohesion" then
    return a[name](a, e.radius)
  end
  error("no hand-made " .. tostring(name))
end

-- a program's force as docs/API.md section 4.4 defines each combine mode; later
-- entries are only computed when needed (wander's generator advances only
-- then), as world:step does
local function program_force(a, p)
  assert(not p.smoothing and (p.hold or 0) == 0, "no hand-made smoothing or hold")
  local m = a.max_force
  if p.combine == "weighted" then
    local x, y = 0, 0
    for _, e in ipairs(p) do
      local fx, fy = entry_force(a, e)
      x, y = x + fx * e.weight, y + fy * e.weight
    end
    return steer.clamp(x, y, m)
  elseif p.combine == "priority" then
    for _, e in ipairs(p) do
      local fx, fy = entry_force(a, e)
      fx, fy = fx * e.weight, fy * e.weight
      if fx * fx + fy * fy > 1e-4 then return steer.clamp(fx, fy, m) end
    end
    return 0, 0
  end
  assert(p.combine == "prioritized_sum", p.combine)
  -- each weighted force is added while the total stays within max_force;
  -- the first that would take it past is cut to fit and ends the sum
  local x, y = 0, 0
  for _, e in ipairs(p) do
    local fx, fy = entry_force(a, e)
    fx, fy = fx * e.weight, fy * e.weight
    local used = math.sqrt(x * x + y * y)
    if used >= m then break end
    local len = math.sqrt(fx * fx + fy * fy)
    local dx, dy = 0, 0
    if len > 0 then dx, dy = fx / len, fy / len end
    -- the largest k with |total + d k| = m, worked out in units of m
    local u, along = used / m, (x * dx + y * dy) / m
    local room = (1 - u) * (1 + u)
    local root = math.sqrt(along * along + room)
    local fit = (along > 0 and room / (root + along) or root - along) * m
    if len >= fit then return x + dx * fit, y + dy * fit end
    x, y = x + fx, y + fy
  end
  return x, y
end

-- world:step(dt) by hand: every force from one snapshot, then every move;
-- agents without a program coast
local function hand_step(world, dt)
  local agents, fx, fy = {}, {}, {}
  for a in world:agents() do
    local n = #agents + 1
    agents[n] = a
    local p = a:behaviors()
    if p then fx[n], fy[n] = program_force(a, p) else fx[n], fy[n] = 0, 0 end
  end
  for i, a in ipairs(agents) do a:apply(fx[i], fy[i], dt) end
end

-- largest |difference| of positions and velocities of the agents of two
-- worlds built alike (the same ids)
local function gap(w1, w2)
  local worst = 0
  for a in w1:agents() do
    local b = w2:get(a.id)
    if not b then return math.huge end
    for _, field in ipairs{ "x", "y", "vx", "vy" } do
      worst = math.max(worst, math.abs(a[field] - b[field]))
    end
  end
  return #w1 == #w2 and worst or math.huge
end

-- shortest offset between two x (or y) of a world that may wrap
local function offset(world, d, axis)
  local w, h, wrap = world:bounds()
  local size = axis == "x" and w or h
  if wrap then d = d - size * math.floor(d / size + 0.5) end
  return d
end

-- Runs a scene twice for `frames` frames, once as written (world:step) and
-- once with every step composed by hand; both get the same click. After
-- each frame the hand-run agents take the positions and velocities of the
-- others: sums taken in another order differ in the last bit, and a flock
-- would grow that into visible gaps within a second. Returns the largest
-- gap one step made, and how far the agents moved in all.
local function against_hand(name, frames, ...)
  local native, hand, fresh = start(name, ...), start(name, ...), start(name, ...)
  local real_step = gfx.step
  local worst, moved = 0, 0
  for f = 1, frames do
    if f == 10 then
      native:click(100, 420)
      hand:click(100, 420)
    end
    native:update(DT)
    gfx.step = function(world, dt) hand_step(world, dt) end
    local ok, err = pcall(hand.update, hand, DT)
    gfx.step = real_step
    if not ok then error(err, 0) end
    for k, w in ipairs(worlds(native)) do
      local other = worlds(hand)[k]
      worst = math.max(worst, gap(w, other))
      for a in w:agents() do
        local b = other:get(a.id)
        if b then b.x, b.y, b.vx, b.vy = a.x, a.y, a.vx, a.vy end
      end
    end
  end
  for k, w in ipairs(worlds(native)) do
    for a in worlds(fresh)[k]:agents() do
      local b = w:get(a.id)
      moved = math.max(moved, steer.length(offset(w, b.x - a.x, "x"), offset(w, b.y - a.y, "y")))
    end
  end
  return worst, moved
end

-- 1. world:step = the programs composed by hand
do
  local worst, moved = against_hand("flock", 90, 600)
  check(worst <= 1e-9, ("scene 1 (weighted, with wander, 700 boids, 90 steps): "
    .. "each world:step = the program by hand (max gap %.3g)"):format(worst))
  check(moved > 5, ("scene 1: the boids moved (up to %.1f units)"):format(moved))
  worst, moved = against_hand("combine", 330)
  check(worst <= 1e-9, ("scene 4 (weighted, priority, prioritized_sum, a retarget at 5 s, "
    .. "330 steps): each world:step = the programs by hand (max gap %.3g)"):format(worst))
  check(moved > 5, ("scene 4: the agents moved (up to %.1f units)"):format(moved))
end

-- 2. the flock keeps cruising and flows around its obstacles
do
  local s = start("flock")
  local max_speed
  for f = 1, 300 do
    if f == 10 then s:click(480, 270) end
    s:update(DT)
  end
  local n, speed, inside, finite = 0, 0, 0, true
  local obstacles = {} -- handles, collected once
  for o in s.world:obstacles() do obstacles[#obstacles + 1] = o end
  for a in s.world:agents() do
    n = n + 1
    max_speed = a.max_speed
    speed = speed + a.speed
    if a.x ~= a.x or a.y ~= a.y or a.vx ~= a.vx or a.vy ~= a.vy then finite = false end
    for _, o in ipairs(obstacles) do
      if steer.length(a.x - o.x, a.y - o.y) < o.radius then inside = inside + 1 end
    end
  end
  check(n == 2100, ("scene 1: 2,000 boids and 100 more from a click (%d)"):format(n))
  check(finite, "scene 1: no NaN after 5 s")
  check(speed / n > 0.6 * max_speed, ("scene 1: the flock cruises after 5 s "
    .. "(mean speed %.2f of max %g)"):format(speed / n, max_speed))
  check(inside <= n / 100, ("scene 1: at most 1%% of the boids inside an obstacle (%d)")
    :format(inside))
end

-- 3. scene 4: set_target at decision rate; priority reports its winner
do
  local s = start("combine")
  for _ = 1, 320 do s:update(DT) end -- one retarget, at 5 s
  local moved_goal, kept, agents = true, true, 0
  for _, panel in ipairs(s.panels) do
    for a in panel.world:agents() do
      agents = agents + 1
      local p = a:behaviors()
      -- entry 1 keeps the crowd in its panel (contain)
      local t = p[4].target
      if p[4].tag ~= "goal" or t[1] ~= 8 or t[2] ~= 8 then moved_goal = false end
      if p[3].weight ~= 12 or p[2].feeler_length ~= 3 or p[1][1] ~= "contain" then kept = false end
    end
  end
  check(moved_goal, ("scene 4: after 5 s the goal of all %d agents is the next corner"):format(agents))
  check(kept, "scene 4: set_target left the other entries as they were")
  for _, panel in ipairs(s.panels) do
    local names, silent = {}, 0
    for a in panel.world:agents() do
      local index, name = a:active_behavior()
      if name then names[name] = (names[name] or 0) + 1 else silent = silent + 1 end
      if name and ({ "contain", "avoid_obstacles", "separation", "goal" })[index] ~= name then
        names.mismatch = true
      end
    end
    if panel.combine == "priority" then
      check((names.goal or 0) > 0 and not names.mismatch,
        ("scene 4 priority: a:active_behavior names the winning entry (goal %d, "
          .. "separation %d, avoid_obstacles %d)"):format(names.goal or 0,
          names.separation or 0, names.avoid_obstacles or 0))
    else
      check(silent == #panel.world, ("scene 4 %s: no entry wins, a:active_behavior is nil")
        :format(panel.combine))
    end
  end
end

-- 4. scene 5: the guard's behavior tree
do
  local s = start("guard")
  local g = s.guards[1]
  local states, resumed = { g.state }, nil
  -- the player hides behind the lower wall for 3 s, then runs to 10 units
  -- ahead of the guard for 2 s, then hides again
  function s.player_target(scene)
    local t = scene.time
    if t < 3 or t >= 5 then return 46, 50 end
    local hx, hy = steer.normalize(g.vx, g.vy)
    return g.x + hx * 10, g.y + hy * 10
  end
  for _ = 1, 900 do
    local before = g.state
    s:update(DT)
    if g.state ~= before then
      states[#states + 1] = g.state
      if g.state == "patrol" and not resumed then
        -- the nearest waypoint the guard sees, chosen here on its own
        local best, dmin
        for k = 1, #s.patrol do
          local px, py = s.patrol:point(k)
          local d = steer.length(px - g.x, py - g.y)
          if not geometry.blocked(s.world, g.x, g.y, px, py) and (not dmin or d < dmin) then
            best, dmin = k, d
          end
        end
        resumed = { want = {s.patrol:point(best)}, got = {g.route:point(g:path_index(g.route))},
          frame = 0 }
      end
    end
    if resumed and not resumed.reached then
      resumed.frame = resumed.frame + 1
      if steer.length(g.x - resumed.want[1], g.y - resumed.want[2]) < 1.5 then
        resumed.reached = resumed.frame
      end
    end
  end
  local seq = table.concat(states, " -> ")
  check(seq:find("patrol -> chase -> search -> patrol", 1, true) ~= nil,
    "scene 5: the guard went " .. seq)
  check(resumed and resumed.want[1] == resumed.got[1] and resumed.want[2] == resumed.got[2],
    ("scene 5: back on patrol it heads for the nearest waypoint it sees (%s)"):format(
      resumed and ("%g, %g"):format(resumed.got[1], resumed.got[2]) or "never resumed"))
  check(resumed and resumed.reached ~= nil, ("scene 5: ... and reaches it (%s)"):format(
    resumed and resumed.reached and ("%.1f s"):format(resumed.reached * DT) or "not in time"))
  local _, steering = g:active_behavior()
  check(steering == "follow" or steering == "separation" or steering == "avoid_walls",
    ("scene 5: a patrolling guard is steered by its patrol program (%s)"):format(
      tostring(steering)))
end

-- 5. the same seed, the same run
for _, name in ipairs{ "flock", "chase", "path", "combine", "guard" } do
  local runs = {}
  for r = 1, 2 do
    local s = start(name, name == "flock" and 300 or nil)
    for f = 1, 120 do
      if f == 10 then s:click(480, 270) end
      s:update(DT)
    end
    local shots = {}
    for k, w in ipairs(worlds(s)) do shots[k] = w:snapshot() end
    runs[r] = table.concat(shots)
  end
  check(runs[1] == runs[2] and #runs[1] > 0,
    ("scene %s: two runs from the same seed end in the same state"):format(name))
end

print(("%d passed, %d failed"):format(passed, failed))
os.exit(failed == 0 and 0 or 1)
