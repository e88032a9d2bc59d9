--- bench/forest.lua - a crowd crossing a forest of rocks with priority of
-- avoid_obstacles and seek: how often a body overlaps a rock, how many cross
-- (docs/API.md section 3.6 quotes its figures). Not timed.
--
--   LUA_PATH='lua/?.lua;lua/?/init.lua;;' LUA_CPATH='build/lua5.4/?.so;;' \
--     lua5.4 bench/forest.lua FEELER [game|text]
--
-- game: 100 agents of radius 8 at 80 px/s (max_force 240) through 250 rocks of
-- radius 10-25 px in a 1600 x 1000 level, 30 s at 60 Hz; text: the same at
-- the textbook's scale (radius 0.5, speed 2, rocks 1-2.5).
local steer = require "steer"
local L = tonumber(arg[1] or 40)
local scale = arg[2] or "game"
local seed = 1
local function rand() seed = (seed * 1103515245 + 12345) % 4294967296; return seed / 4294967296 end
local W, H, R, SPEED, FORCE, RMIN, RMAX, N
if scale == "game" then W, H, R, SPEED, FORCE, RMIN, RMAX, N = 1600, 1000, 8, 80, 240, 10, 25, 100
else W, H, R, SPEED, FORCE, RMIN, RMAX, N = 160, 100, 0.5, 2, 4, 1, 2.5, 100 end
local w = steer.world{ bounds = { W, H } }
local rocks = {}
for i = 1, 250 do
  local o = { x = W * (0.2 + 0.6 * rand()), y = H * rand(), radius = RMIN + (RMAX - RMIN) * rand() }
  rocks[#rocks + 1] = o
  w:add_obstacle(o)
end
local prog = steer.program{ combine = "priority",
  { "avoid_obstacles", feeler_length = L }, { "seek", target = { W * 0.95, H / 2 } } }
local agents = {}
for i = 1, N do
  local a = w:add{ x = W * 0.05, y = H * (i - 0.5) / N, vx = SPEED, vy = 0, radius = R, max_speed = SPEED, max_force = FORCE, program = prog }
  agents[#agents + 1] = a
end
local overlap, steps, deep, crossed = 0, 0, 0, 0
local inside = {}
for s = 1, 60 * 30 do
  w:step(1 / 60)
  for _, a in ipairs(agents) do
    if a.x < W * 0.85 then
      steps = steps + 1
      local worst = 0
      for _, o in ipairs(rocks) do
        local d = math.sqrt((a.x - o.x) ^ 2 + (a.y - o.y) ^ 2)
        local pen = (o.radius + R - d) / R
        if pen > worst then worst = pen end
      end
      if worst > 0.01 then overlap = overlap + 1 end
      if worst > 1 then inside[a] = true end
      if worst > deep then deep = worst end
    end
  end
end
for _, a in ipairs(agents) do if a.x >= W * 0.85 then crossed = crossed + 1 end end
local n_inside = 0 for _ in pairs(inside) do n_inside = n_inside + 1 end
print(("%s feeler %5.1f: overlap %5.2f%% of agent-steps, deepest %.2f radii, agents with centre inside a rock %d, crossed %d/%d"):format(
  scale, L, 100 * overlap / steps, deep, n_inside, crossed, N))
local slow, xs = 0, {}
for _, a in ipairs(agents) do
  if a.x < W * 0.85 then
    local sp = math.sqrt(a.vx ^ 2 + a.vy ^ 2)
    if sp < 0.1 * SPEED then slow = slow + 1 end
    xs[#xs + 1] = math.floor(a.x / W * 100)
  end
end
table.sort(xs)
print(("  not crossed: %d slow (<10%% max speed); x%% of them: %s"):format(slow, table.concat(xs, " ")))
