-- Scene 3: path following through a serpentine of walls, arriving at the
-- last waypoint. Followers leave the start one by one; one that has come
-- to rest at the end starts over. Per-agent methods and a:apply.
local steer = require "steer"
local gfx = require "gfx"
local geometry = require "geometry"

local W, H = 96, 54 -- world units; 10 pixels each
local SPAWN_EVERY = 0.9
local MAX_FOLLOWERS = 14

local scene = {
  name = "path following", title = "3 path", debug_default = true, test_frames = 900,
  vector_scale = 0.3, force_scale = 0.1,
}
scene.__index = scene

local WALLS = {
  {20, 0, 20, 36}, {40, 18, 40, 54}, {60, 0, 60, 36}, {80, 18, 80, 54},
}
local POINTS = {
  {8, 6}, {10, 44}, {30, 44}, {30, 10}, {50, 10}, {50, 44}, {70, 44},
  {70, 10}, {88, 10}, {88, 46},
}

-- `path` (default: the whole route) is the agent's own
function scene:add_follower(x, y, path)
  local a = self.world:add{ x = x, y = y, vx = 0, vy = 4,
    max_speed = 9, max_force = 30, radius = 0.6 }
  a.rest = 0
  a.route = path or self.path
  if self.view and not self.watched then
    self.watched = a
    self.view:watch(a, { path = a.route, feeler_length = 2.5, arrival_radius = 2.5 })
  end
  return a
end

function scene.new(rng)
  local self = setmetatable({}, scene)
  self.cam = gfx.camera(10, 0, 0)
  self.world = steer.world{ bounds = {W, H}, cell_size = 4, seed = rng:random(1, 1e6) }
  for _, s in ipairs(WALLS) do
    self.world:add_wall{ x1 = s[1], y1 = s[2], x2 = s[3], y2 = s[4] }
  end
  self.path = steer.path(POINTS)
  self.clock = SPAWN_EVERY
  self.arrived_total = 0
  return self
end

function scene:count() return #self.world end

function scene:info() return ("arrived %d"):format(self.arrived_total) end

local FOLLOW = { arrival_radius = 2.5, slowing_radius = 6 }

function scene:update(dt)
  self.clock = self.clock + dt
  if self.clock >= SPAWN_EVERY and #self.world < MAX_FOLLOWERS then
    self.clock = 0
    self:add_follower(POINTS[1][1], POINTS[1][2])
  end
  local agents, forces = {}, {}
  for a in self.world:agents() do
    local fx, fy = a:follow(a.route, FOLLOW)
    local wx, wy = a:avoid_walls(2.5)
    local sx, sy = a:separation(1.6)
    agents[#agents + 1] = a
    forces[#agents] = {steer.weighted(a.max_force, fx, fy, 1, wx, wy, 3, sx, sy, 5)}
  end
  for i, a in ipairs(agents) do
    local f = forces[i]
    a:apply(f[1], f[2], dt)
    if self.view then self.view:set_force(a, f[1], f[2]) end
    -- resting at the end for a while: start over
    if a:path_index() == #a.route and a.speed < 0.5 then
      a.rest = a.rest + dt
      if a.rest > 1.5 then
        self.arrived_total = self.arrived_total + 1
        if a == self.watched then self.watched = nil end
        self.world:remove(a)
      end
    end
  end
end

-- a follower dropped by a click joins the route at the nearest waypoint
-- it can see: its own path is the click point, then the rest of the route
function scene:click(sx, sy)
  local x, y = gfx.to_world(self.cam, sx, sy)
  local best, dmin = 1, math.huge
  for k, p in ipairs(POINTS) do
    local d = (p[1] - x) ^ 2 + (p[2] - y) ^ 2
    if d < dmin and not geometry.blocked(self.world, x, y, p[1], p[2]) then
      best, dmin = k, d
    end
  end
  local points = { {x, y} }
  for k = best, #POINTS do points[#points + 1] = POINTS[k] end
  self:add_follower(x, y, steer.path(points))
end

function scene:set_debug(view)
  self.view, self.watched = view, nil
  if not view then return end
  for a in self.world:agents() do
    self.watched = a
    view:watch(a, { path = a.route, feeler_length = 2.5, arrival_radius = 2.5 })
    break
  end
end

function scene:draw()
  gfx.push(self.cam)
  gfx.frame(W, H)
  gfx.path(self.path)
  gfx.walls(self.world)
  gfx.agents(self.world, gfx.colors.boid, 1.6)
  if self.view then
    if not self.watched then -- the watched follower left: watch the oldest
      self:set_debug(self.view)
    end
    self.view:draw(self.world)
  end
  gfx.pop()
end

return scene
