-- Scene 2: a pursuer and an evader on a torus, each wandering a little and
-- predicting the other (pursue / evade aim at where the other will be).
-- Per-agent methods and a:apply, composed here in Lua.
local steer = require "steer"
local gfx = require "gfx"

local W, H = 64, 36 -- world units; 15 pixels each
local PANIC = 14    -- the evader only runs from a pursuer this close
local TRAIL = 90    -- trail length in frames

local scene = {
  name = "pursue/evade", title = "2 chase", debug_default = true,
  vector_scale = 0.35, force_scale = 0.08,
}
scene.__index = scene

function scene:add_pursuer(x, y)
  local p = self.world:add{ x = x, y = y, max_speed = 10, max_force = 16, radius = 0.7 }
  p.role = "pursuer"
  p.trail = {}
  self.pursuers[#self.pursuers + 1] = p
  if self.view then self:watch(p) end
  return p
end

function scene.new(rng)
  local self = setmetatable({}, scene)
  self.cam = gfx.camera(15, 0, 0)
  self.rng = rng
  self.world = steer.world{ bounds = {W, H}, wrap = true, seed = rng:random(1, 1e6) }
  self.world:add_obstacle{ x = 20, y = 12, radius = 3 }
  self.world:add_obstacle{ x = 44, y = 25, radius = 4 }
  self.world:add_obstacle{ x = 50, y = 8, radius = 2 }
  self.evader = self.world:add{ x = 40, y = 18, vx = 0, vy = -3,
    max_speed = 9.5, max_force = 22, radius = 0.7 }
  self.evader.trail = {}
  self.pursuers = {}
  self:add_pursuer(8, 28)
  self.catches = 0
  return self
end

function scene:count() return #self.world end

function scene:info() return ("catches %d"):format(self.catches) end

-- distance on the torus (the shortest wrapped offset)
local function distance(a, b)
  local dx, dy = b.x - a.x, b.y - a.y
  dx = dx - W * math.floor(dx / W + 0.5)
  dy = dy - H * math.floor(dy / H + 0.5)
  return steer.length(dx, dy)
end

-- the evader runs from the nearest pursuer, inside the panic radius
local function nearest(self, a)
  local best, dmin = nil, math.huge
  for _, p in ipairs(self.pursuers) do
    local d = distance(p, a)
    if d < dmin then best, dmin = p, d end
  end
  return best, dmin
end

local function record(a)
  local t = a.trail
  t[#t + 1] = {a:position()}
  if #t > TRAIL then table.remove(t, 1) end
end

function scene:update(dt)
  local e = self.evader
  -- every force first (avoiding obstacles comes first), then every move
  local agents, forces = {}, {}
  for _, p in ipairs(self.pursuers) do
    local ax, ay = p:avoid_obstacles(3)
    local px, py = p:pursue(e)
    local wx, wy = p:wander()
    agents[#agents + 1] = p
    forces[#agents] = {steer.priority(p.max_force, ax, ay,
      steer.weighted(p.max_force, px, py, 1, wx, wy, 0.5))}
  end
  local threat, d = nearest(self, e)
  local ex, ey = e:evade(threat)
  local urgency = d < PANIC and 1 or 0 -- outside the panic radius: just wander
  local wx, wy = e:wander()
  local ax, ay = e:avoid_obstacles(3)
  agents[#agents + 1] = e
  forces[#agents] = {steer.priority(e.max_force, ax, ay,
    steer.weighted(e.max_force, ex, ey, urgency, wx, wy, 1))}
  for i, a in ipairs(agents) do
    local f = forces[i]
    a:apply(f[1], f[2], dt)
    if self.view then self.view:set_force(a, f[1], f[2]) end
    record(a)
  end
  if self.view and self.view.watched[e] then self.view.watched[e].evade = threat end
  -- a catch: the evader escapes to a random spot
  for _, p in ipairs(self.pursuers) do
    if distance(p, e) < p.radius + e.radius then
      self.catches = self.catches + 1
      e.x, e.y = self.rng:random() * W, self.rng:random() * H
      e.trail = {}
    end
  end
end

function scene:click(sx, sy)
  self:add_pursuer(gfx.to_world(self.cam, sx, sy))
end

function scene:watch(p)
  self.view:watch(p, { pursue = self.evader, wander = true })
end

function scene:set_debug(view)
  self.view = view
  if not view then return end
  view.wrap = {W, H}
  view:watch(self.evader, { evade = nearest(self, self.evader), wander = true,
    feeler_length = 3 })
  for _, p in ipairs(self.pursuers) do self:watch(p) end
end

-- a trail as line pieces, broken where the torus wrapped it
local function trail(t, color)
  local lg = love.graphics
  for i = 2, #t do
    local a, b = t[i - 1], t[i]
    if math.abs(a[1] - b[1]) < W / 2 and math.abs(a[2] - b[2]) < H / 2 then
      lg.setColor(color[1], color[2], color[3], 0.5 * i / #t)
      lg.line(a[1], a[2], b[1], b[2])
    end
  end
end

function scene:draw()
  gfx.push(self.cam)
  gfx.obstacles(self.world)
  trail(self.evader.trail, gfx.colors.evader)
  for _, p in ipairs(self.pursuers) do trail(p.trail, gfx.colors.pursuer) end
  love.graphics.setColor(gfx.colors.evader)
  gfx.agent(self.evader, 1.8)
  love.graphics.setColor(gfx.colors.pursuer)
  for _, p in ipairs(self.pursuers) do gfx.agent(p, 1.8) end
  if self.view then self.view:draw(self.world) end
  gfx.pop()
end

return scene
