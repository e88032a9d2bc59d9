-- Scene 9: sheep flock, wolves hunt them, a turret turns toward the nearest
-- wolf at a limited rate (issue 14). Groups say who counts: sheep align and
-- cohere with sheep only and keep far from wolves; wolves cohere toward
-- sheep and keep apart from wolves. Every agent faces where it goes
-- (turn = "velocity", within its max_turn_rate); the turret only faces.
local steer = require "steer"
local gfx = require "gfx"

local W, H = 160, 90 -- world units; 6 pixels each
local SHEEP, WOLF = 0, 1

local scene = { name = "wolves and sheep", title = "9 pasture" }
scene.__index = scene

local colors = {
  sheep = {1.0, 0.86, 0.58},
  wolf = {1.0, 0.32, 0.18},
  turret = {1.0, 0.62, 0.22},
}

local FLOCK = steer.program{ turn = "velocity",
  { "separation", radius = 1.6, weight = 8, falloff = "linear" },
  { "separation", radius = 9, groups = { WOLF }, weight = 30, fov = 300 }, -- run
  { "alignment", radius = 4, groups = { SHEEP }, weight = 1.5 },
  { "cohesion", radius = 4, groups = { SHEEP }, weight = 0.6 },
  { "wander", weight = 1 },
}

local PACK = steer.program{ turn = "velocity",
  { "cohesion", radius = 14, groups = { SHEEP }, weight = 2 }, -- toward sheep
  { "separation", radius = 6, groups = { WOLF }, weight = 6 },
  { "wander", weight = 1 },
}

function scene:add(kind, x, y)
  local rng = self.rng
  local h = rng:random() * 2 * math.pi
  local wolf = kind == WOLF
  local a = self.world:add{ x = x, y = y, vx = math.cos(h) * 4, vy = math.sin(h) * 4,
    angle = h, group = kind, max_speed = wolf and 10 or 8, max_force = wolf and 14 or 16,
    max_turn_rate = wolf and 2.5 or 5, min_speed = 2, radius = 0.5,
    wander_distance = 4, wander_radius = 1.5, wander_jitter = 0.4 }
  a:set_behaviors(wolf and PACK or FLOCK)
  local list = wolf and self.wolves or self.sheep
  list[#list + 1] = a
  return a
end

function scene.new(rng, count)
  local self = setmetatable({}, scene)
  self.cam = gfx.camera(6, 0, 0)
  self.rng = rng
  self.world = steer.world{ bounds = { W, H }, wrap = true, cell_size = 14,
    seed = rng:random(1, 1e6) }
  self.sheep, self.wolves = {}, {}
  for _ = 1, count or 300 do self:add(SHEEP, rng:random() * W, rng:random() * H) end
  for _ = 1, 4 do self:add(WOLF, rng:random() * W, rng:random() * H) end
  -- the turret: still, turning at most 1 rad/s toward its target; a ghost,
  -- so no sheep flocks with it
  self.turret = self.world:add{ x = W / 2, y = H / 2, ghost = true, max_speed = 0,
    max_turn_rate = 1, max_angular_acceleration = 6 }
  self.turret:set_behaviors{ { "face", target = self.wolves[1], tag = "aim" } }
  return self
end

function scene:count() return #self.world end

-- the wolf nearest the turret (the shortest offset on the torus)
function scene:nearest_wolf()
  local t, best, dmin = self.turret, nil, math.huge
  for _, w in ipairs(self.wolves) do
    local dx, dy = w.x - t.x, w.y - t.y
    dx = dx - W * math.floor(dx / W + 0.5)
    dy = dy - H * math.floor(dy / H + 0.5)
    local d = dx * dx + dy * dy
    if d < dmin then best, dmin = w, d end
  end
  return best
end

function scene:info()
  return ("%d sheep, %d wolves; turret angle %.0f deg"):format(#self.sheep, #self.wolves,
    math.deg(self.turret.angle))
end

function scene:update(dt)
  local target = self:nearest_wolf()
  if target ~= self.aim then -- a cheap retarget, no recompilation
    self.turret:set_target("aim", target)
    self.aim = target
  end
  gfx.step(self.world, dt, self.view)
end

function scene:click(sx, sy)
  self:add(WOLF, gfx.to_world(self.cam, sx, sy))
end

function scene:set_debug(view)
  self.view = view
  if not view then return end
  view.wrap = { W, H }
  view:watch(self.wolves[1], { neighbor_radius = 14 })
end

function scene:draw()
  local lg = love.graphics
  gfx.push(self.cam)
  lg.setColor(colors.sheep)
  for _, a in ipairs(self.sheep) do gfx.agent(a, 1.6) end
  lg.setColor(colors.wolf)
  for _, a in ipairs(self.wolves) do gfx.agent(a, 2.6) end
  -- the turret: a base and a barrel along its angle
  local t = self.turret
  lg.setColor(colors.turret)
  lg.circle("line", t.x, t.y, 2.2)
  lg.setLineWidth(0.6)
  lg.line(t.x, t.y, t.x + math.cos(t.angle) * 4, t.y + math.sin(t.angle) * 4)
  lg.setLineWidth(1 / self.cam.scale)
  if self.aim then
    lg.setColor(colors.wolf[1], colors.wolf[2], colors.wolf[3], 0.35)
    lg.line(t.x, t.y, self.aim.x, self.aim.y)
  end
  if self.view then self.view:draw(self.world) end
  gfx.pop()
end

return scene
