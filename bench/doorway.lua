--- bench/doorway.lua - a crowd through one door: steer's ORCA side by side
-- with RVO2 on the same input, and steer's separation and avoid_agents for
-- reference.
--
--   LUA_PATH='lua/?.lua;lua/?/init.lua;;' LUA_CPATH='build/lua5.4/?.so;;' \
--   lua5.4 bench/doorway.lua [RVO2_DRIVER]      (make bench-doorway)
--
-- The scene (pixels): a wall 8 px thick across the world at x = 600 with
-- one door of width D centred on y = 1200, D = 32, 48, 64 (2, 3, 4 body
-- diameters). The wall runs far beyond steer's bounded world (1400 x 2400)
-- in both: RVO2's world has no bounds, and its agents went round a wall
-- that ended at steer's. N = 100 (10 rows of 10) or 300 (15 rows of 20)
-- agents (DOORWAY_SIZES=40: 10 rows of 4) of radius 8, 20 px apart (4 px
-- between bodies), starts jittered by a seeded +-1 px (Lua 5.4's integers:
-- LuaJIT's doubles give other starts), in a block whose nearest column
-- stands 44 px before the wall. Each heads for the waypoint (660, 1200), 60
-- px past the door, until its centre is past the wall's far face plus its
-- radius (x > 612: "through"); then for its own goal, its column c (0:
-- nearest the wall) at 150 + 20c px beyond the wall, its row's y.
-- max_speed 60 px/s, dt 1/30 s, 40 s. RVO2 (our driver,
-- bench/doorway_rvo2.cc) gets the same starts, goals, the wall as two thin
-- polygons, the same waypoint rule, and as preferred velocity the direction
-- to the target at max speed, slowing within max_speed * dt - what steer's
-- `arrive` with slowing_radius max_speed * dt and weight 1 / dt asks for
-- (DOORWAY_PERTURB=1: plus RVO2's Blocks example's perturbation).
-- ORCA settings, both sides alike (DOORWAY_CONFIGS=default,short,...):
--   default   steer's defaults: time horizon 5, obstacles 2, neighbors
--             within 32 (steer's "auto": 4 radii), 10 of them
--   rvo2ex    RVO2's examples' proportions: horizons 10 and 10, neighbors
--             within 10 radii (80), 10 of them
--   short     horizons 2 and 1;  snappy: 1 and 0.5;  quick: 0.5 and 0.25
--             (neighbors as default)
-- steer's variants (DOORWAY_VARIANTS=orca_<setting>,separation,avoid_agents):
-- orca_<setting> is `orca` with that setting and steer's other defaults
-- (margin 0.02, detour; DOORWAY_ORCA="margin=0,detour=false" adds fields);
-- separation (linear falloff, radius 2.5 radii) and avoid_agents
-- (time_horizon 3), each with avoid_walls and `collide = true`.
-- Metrics: agents through after 10, 20, 30 and 40 s; time until 50% and
-- 90% are through ("-" not within 40 s); overlapping pairs of bodies per
-- step (summed over the steps / steps); pairs deeper than 10% of the two
-- radii per step; the deepest overlap of two bodies and of a body into a
-- wall (px). Results: docs/PERFORMANCE.md, "Crowds through a door".
local steer = require "steer"

local DRIVER = arg[1]
local P = { dt = 1 / 30, radius = 8, max_speed = 60, wall_x = 600, half = 4, door_y = 1200,
            width = 1400, height = 2400, seconds = 40 }
local STEPS = math.floor(P.seconds / P.dt + 0.5)
local SAMPLES = { 10, 20, 30, 40 }
local THROUGH_X = P.wall_x + P.half + P.radius
local WAYPOINT = { P.wall_x + 60, P.door_y }
local DOORS = { 32, 48, 64 }
local SIZES = { 100, 300 }
local SEEDS = { 1, 2, 3 }
if os.getenv("DOORWAY_DOORS") then
  DOORS = {}
  for d in os.getenv("DOORWAY_DOORS"):gmatch("%d+") do DOORS[#DOORS + 1] = tonumber(d) end
end
if os.getenv("DOORWAY_SIZES") then
  SIZES = {}
  for d in os.getenv("DOORWAY_SIZES"):gmatch("%d+") do SIZES[#SIZES + 1] = tonumber(d) end
end
if os.getenv("DOORWAY_SEEDS") then
  SEEDS = {}
  for d in os.getenv("DOORWAY_SEEDS"):gmatch("%d+") do SEEDS[#SEEDS + 1] = tonumber(d) end
end

local ORCA = {
  default = { time_horizon = 5, obstacle_time_horizon = 2, neighbor_radius = 4 * P.radius, max_neighbors = 10 },
  rvo2ex = { time_horizon = 10, obstacle_time_horizon = 10, neighbor_radius = 10 * P.radius, max_neighbors = 10 },
  short = { time_horizon = 2, obstacle_time_horizon = 1, neighbor_radius = 4 * P.radius, max_neighbors = 10 },
  snappy = { time_horizon = 1, obstacle_time_horizon = 0.5, neighbor_radius = 4 * P.radius, max_neighbors = 10 },
  quick = { time_horizon = 0.5, obstacle_time_horizon = 0.25, neighbor_radius = 4 * P.radius, max_neighbors = 10 },
}
local ORCA_ORDER = { "default", "rvo2ex", "snappy" }
if os.getenv("DOORWAY_CONFIGS") then
  ORCA_ORDER = {}
  for v in os.getenv("DOORWAY_CONFIGS"):gmatch("[%w_]+") do ORCA_ORDER[#ORCA_ORDER + 1] = v end
end
-- DOORWAY_ORCA="margin=0,detour=false": more fields for steer's orca (trying settings)
if os.getenv("DOORWAY_ORCA") then
  P.orca_extra = {}
  for k, v in os.getenv("DOORWAY_ORCA"):gmatch("([%w_]+)=([%w%.]+)") do
    P.orca_extra[k] = tonumber(v) or v == "true"
  end
end

-- the LCG of steer's generators (as bench/crowd), so seeds mean the same everywhere
local function rng(seed)
  local s = seed
  return function()
    s = (s * 1103515245 + 12345) % 4294967296
    return -1 + 2 * (s / 4294967295)
  end
end

local function scene(n, door, seed)
  local jitter = rng(seed)
  local rows = n <= 100 and 10 or 15 -- 40: 10 x 4, 100: 10 x 10, 300: 15 x 20
  local cols = math.ceil(n / rows)
  local sc = { agents = {}, door = door }
  local front = P.wall_x - P.half - 44
  for c = 0, cols - 1 do
    for r = 0, rows - 1 do
      if #sc.agents < n then
        local x = front - 20 * c
        local y = P.door_y + 20 * (r - (rows - 1) / 2)
        sc.agents[#sc.agents + 1] = { x = x + jitter(), y = y + jitter(),
                                      gx = P.wall_x + 150 + 20 * c, gy = y }
      end
    end
  end
  -- the wall's two halves, counter-clockwise (y up)
  local x0, x1 = P.wall_x - P.half, P.wall_x + P.half
  local d0, d1 = P.door_y - door / 2, P.door_y + door / 2
  -- the wall runs on far beyond steer's bounded world: RVO2's world has no
  -- bounds, and its agents went round a wall that ended there
  local far = 2 * P.height
  sc.polygons = { { { x0, -far }, { x1, -far }, { x1, d0 }, { x0, d0 } },
                  { { x0, d1 }, { x1, d1 }, { x1, P.height + far }, { x0, P.height + far } } }
  return sc
end

-- ---- steer ---------------------------------------------------------------------

local function program(variant, target)
  local go = { "arrive", target = target, slowing_radius = P.max_speed * P.dt, weight = 1 / P.dt }
  local orca = ORCA[variant:match("^orca_(.+)$") or ""]
  if orca then
    local o = {}
    for k, v in pairs(orca) do o[k] = v end
    for k, v in pairs(P.orca_extra or {}) do o[k] = v end
    return { go, orca = o }
  end
  go.weight = 2 -- forces relax towards the goal velocity in 0.5 s
  if variant == "avoid_agents" then
    return { go, { "avoid_agents", time_horizon = 3, radius = 4 * P.radius, weight = 1 },
             { "avoid_walls", feeler_length = 2.5 * P.radius, weight = 4 }, collide = true }
  end
  -- separation, linear falloff: scale-free
  return { go, { "separation", radius = 2.5 * P.radius, falloff = "linear", weight = 1 },
           { "avoid_walls", feeler_length = 2.5 * P.radius, weight = 4 }, collide = true }
end

local function new_metrics(n)
  return { n = n, through = {}, count = 0, samples = {}, t50 = -1, t90 = -1, overlap = 0, deep = 0,
           max_pen = 0, wall_pen = 0 }
end

local floor, sqrt, max, min = math.floor, math.sqrt, math.max, math.min
local CONTACT = 2 * P.radius

-- after a step: positions xs, ys (1..n)
local function measure(m, sc, step, xs, ys)
  local n = m.n
  for i = 1, n do
    if not m.through[i] and xs[i] > THROUGH_X then m.through[i] = true; m.count = m.count + 1 end
    for _, poly in ipairs(sc.polygons) do
      local bx0, by0, bx1, by1 = poly[1][1], poly[1][2], poly[3][1], poly[3][2]
      local ox = max(bx0 - xs[i], max(0, xs[i] - bx1))
      local oy = max(by0 - ys[i], max(0, ys[i] - by1))
      local inside = min(min(xs[i] - bx0, bx1 - xs[i]), min(ys[i] - by0, by1 - ys[i]))
      local pen = inside > 0 and P.radius + inside or P.radius - sqrt(ox * ox + oy * oy)
      if pen > m.wall_pen then m.wall_pen = pen end
    end
  end
  if m.t50 < 0 and 2 * m.count >= n then m.t50 = step end
  if m.t90 < 0 and 10 * m.count >= 9 * n then m.t90 = step end
  local cells = {}
  for i = 1, n do
    local key = floor(xs[i] / CONTACT) * 65536 + floor(ys[i] / CONTACT)
    local c = cells[key]
    if not c then c = {}; cells[key] = c end
    c[#c + 1] = i
  end
  for i = 1, n do
    local cx, cy = floor(xs[i] / CONTACT), floor(ys[i] / CONTACT)
    for ox = -1, 1 do
      for oy = -1, 1 do
        local c = cells[(cx + ox) * 65536 + cy + oy]
        if c then
          for _, j in ipairs(c) do
            if j > i then
              local dx, dy = xs[i] - xs[j], ys[i] - ys[j]
              local pen = CONTACT - sqrt(dx * dx + dy * dy)
              if pen > 0 then
                m.overlap = m.overlap + 1
                if pen > 0.1 * CONTACT then m.deep = m.deep + 1 end
                if pen > m.max_pen then m.max_pen = pen end
              end
            end
          end
        end
      end
    end
  end
  for _, s in ipairs(SAMPLES) do
    if step == floor(s / P.dt + 0.5) then m.samples[#m.samples + 1] = m.count end
  end
end

local function run_steer(sc, variant)
  local world = steer.world{ bounds = { P.width, P.height }, cell_size = 32, threads = 1 }
  local max_force = variant:match("^orca") and 1e6 or 10 * P.max_speed
  local agents, targets = {}, {}
  for i, a in ipairs(sc.agents) do
    targets[i] = steer.point(WAYPOINT[1], WAYPOINT[2])
    agents[i] = world:add{ x = a.x, y = a.y, radius = P.radius, max_speed = P.max_speed, max_force = max_force }
    agents[i]:set_behaviors(program(variant, targets[i]))
  end
  for _, poly in ipairs(sc.polygons) do
    local flat = { closed = true }
    for _, pt in ipairs(poly) do flat[#flat + 1] = pt[1]; flat[#flat + 1] = pt[2] end
    world:add_polygon(flat)
  end
  local m = new_metrics(#agents)
  local xs, ys = {}, {}
  for step = 1, STEPS do
    -- the waypoint rule, as the driver applies it before each step
    for i, h in ipairs(agents) do
      if m.through[i] then
        local a = sc.agents[i]
        targets[i].x, targets[i].y = a.gx, a.gy
      end
    end
    world:step(P.dt)
    for i, h in ipairs(agents) do xs[i], ys[i] = h.x, h.y end
    measure(m, sc, step, xs, ys)
  end
  world:close()
  return m
end

-- ---- RVO2 --------------------------------------------------------------------------

local function run_rvo2(sc, orca)
  if not DRIVER then return nil end
  local file = os.tmpname()
  local f = assert(io.open(file, "w"))
  f:write(("%d %d %d %.17g %.17g %.17g %.17g %d %.17g %.17g %.17g %.17g %.17g %d\n"):format(#sc.agents,
    #sc.polygons, STEPS, P.dt, P.radius, P.max_speed, orca.neighbor_radius, orca.max_neighbors,
    orca.time_horizon, orca.obstacle_time_horizon, THROUGH_X, WAYPOINT[1], WAYPOINT[2], #SAMPLES))
  for _, a in ipairs(sc.agents) do f:write(("%.17g %.17g %.17g %.17g\n"):format(a.x, a.y, a.gx, a.gy)) end
  for _, poly in ipairs(sc.polygons) do
    f:write(#poly)
    for _, p in ipairs(poly) do f:write((" %.17g %.17g"):format(p[1], p[2])) end
    f:write("\n")
  end
  for _, s in ipairs(SAMPLES) do f:write(("%d\n"):format(floor(s / P.dt + 0.5))) end
  f:close()
  local p = io.popen(DRIVER .. " " .. file)
  local line = p:read("*l")
  p:close()
  os.remove(file)
  if not line then return nil end
  local m = { samples = {} }
  for v in line:match("^through([%d ]*)"):gmatch("%d+") do m.samples[#m.samples + 1] = tonumber(v) end
  for k, v in line:gmatch("([%w_]+)=([%-%d%.]+)") do m[k] = tonumber(v) end
  return m
end

-- ---- the table ---------------------------------------------------------------------

local function secs(step) return step > 0 and ("%.1f"):format(step * P.dt) or "-" end

print(("%-14s %-22s %5s %5s %5s %5s %6s %6s %8s %7s %7s %7s"):format("scene", "who", "10s", "20s", "30s",
  "40s", "t50%", "t90%", "overlap", "deep", "max_pen", "wall"))
local function row(name, who, m)
  print(("%-14s %-22s %5d %5d %5d %5d %6s %6s %8.2f %7.2f %7.2f %7.2f"):format(name, who, m.samples[1],
    m.samples[2], m.samples[3], m.samples[4], secs(m.t50), secs(m.t90), m.overlap / STEPS, m.deep / STEPS,
    m.max_pen, m.wall_pen))
end

local VARIANTS = { "orca_default", "orca_rvo2ex", "orca_snappy", "separation", "avoid_agents" }
if os.getenv("DOORWAY_VARIANTS") then
  VARIANTS = {}
  for v in os.getenv("DOORWAY_VARIANTS"):gmatch("[%w_]+") do VARIANTS[#VARIANTS + 1] = v end
end
local skipped = false
for _, n in ipairs(SIZES) do
  for _, door in ipairs(DOORS) do
    for _, seed in ipairs(SEEDS) do
      local sc = scene(n, door, seed)
      local name = ("N%d door%d/%d"):format(n, door, seed)
      for _, key in ipairs(ORCA_ORDER) do
        local m = run_rvo2(sc, ORCA[key])
        if m then row(name, "RVO2 " .. key, m) elseif not skipped then
          print("RVO2: peer not found, skipped"); skipped = true
        end
      end
      for _, v in ipairs(VARIANTS) do row(name, "steer " .. v, run_steer(sc, v)) end
    end
  end
end
