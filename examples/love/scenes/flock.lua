-- Scene 1: flocking of 2,000 boids around circle obstacles on a torus.
-- One compiled program (avoid_obstacles, separation, alignment, cohesion
-- and a little wander) shared by every boid, run by world:step; the boids
-- are drawn from the world's arrays in one mesh (gfx.crowd).
local steer = require "steer"
local gfx = require "gfx"

local W, H = 160, 90 -- world units; 6 pixels each
local REACH = 3.5    -- the largest flocking radius

local scene = { name = "flocking", title = "1 flocking" }
scene.__index = scene

-- Compiled once; every boid shares it. Weighted: an obstacle ahead (up to
-- 3 x max_force) outweighs the rest. Separation, alignment and cohesion
-- alone would run in the step's crowd kernel, about 3x faster than this
-- (wander and avoid_obstacles take the general path), but without wander's
-- forward push such a crowd slows down to a standstill.
local FLOCK = steer.program{
  combine = "weighted",
  { "avoid_obstacles", feeler_length = 4, weight = 3 },
  { "separation", radius = 1.8, weight = 12 },
  { "alignment", radius = REACH, weight = 1.5 },
  { "cohesion", radius = REACH, weight = 0.4 },
  { "wander", weight = 1.5 }, -- keeps the boids cruising
}

local function inside_obstacle(world, x, y, margin)
  for o in world:obstacles() do
    local dx, dy = x - o.x, y - o.y
    if dx * dx + dy * dy < (o.radius + margin) ^ 2 then return true end
  end
  return false
end

function scene:add_boid(x, y, heading)
  local a = self.world:add{
    x = x, y = y, vx = math.cos(heading) * 6, vy = math.sin(heading) * 6,
    max_speed = 9, max_force = 14, radius = 0.4,
    wander_distance = 4, wander_radius = 1.5, wander_jitter = 0.4,
  }
  a:set_behaviors(FLOCK)
  return a
end

function scene.new(rng, count)
  local self = setmetatable({}, scene)
  self.cam = gfx.camera(6, 0, 0)
  -- cells as wide as the flocking radius: a step then looks at the 3x3
  -- cells around each boid and nothing else
  self.world = steer.world{ bounds = {W, H}, wrap = true, cell_size = REACH,
    seed = rng:random(1, 1e6) }
  local placed = 0
  while placed < 9 do
    local r = rng:random() * 4 + 3
    local x, y = rng:random() * W, rng:random() * H
    if not inside_obstacle(self.world, x, y, r + 6) then
      self.world:add_obstacle{ x = x, y = y, radius = r }
      placed = placed + 1
    end
  end
  for _ = 1, count or 2000 do
    local x, y
    repeat x, y = rng:random() * W, rng:random() * H until not inside_obstacle(self.world, x, y, 1)
    self:add_boid(x, y, rng:random() * 2 * math.pi)
  end
  self.rng = rng
  self.view = nil
  return self
end

function scene:count() return #self.world end

function scene:update(dt) gfx.step(self.world, dt, self.view) end

function scene:click(sx, sy)
  local x, y = gfx.to_world(self.cam, sx, sy)
  for _ = 1, 100 do
    local angle = self.rng:random() * 2 * math.pi
    local d = self.rng:random() * 3
    self:add_boid(x + math.cos(angle) * d, y + math.sin(angle) * d, angle)
  end
end

--- Debug overlay on the first boid: feeler, neighbors, force.
function scene:set_debug(view)
  self.view = view
  if view then
    view.wrap = {W, H}
    local first
    for a in self.world:agents() do first = a break end
    view:watch(first, { feeler_length = 4, neighbor_radius = 3, wander = true })
  end
end

function scene:draw()
  gfx.push(self.cam)
  gfx.obstacles(self.world)
  gfx.crowd(self.world, gfx.colors.boid, 1.1)
  if self.view then self.view:draw(self.world) end
  gfx.pop()
end

return scene
