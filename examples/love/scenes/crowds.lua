-- Scene 8: two crowds cross through a doorway (docs/API.md section 18). Key m
-- switches how they avoid each other: ORCA (the program field `orca`), ORCA
-- with its push (bodies pushed apart after each step), avoid_agents (time to
-- collision) or separation only; key t turns ORCA's detour (section 18.1.3:
-- agents held still for 2 s step aside to their right) off and on. The
-- counter shows the pairs overlapping now and the deep overlaps (> 0.1)
-- since the switch. Key g sends both crowds to one point (ORCA arrive,
-- an RTS's "move here") and back to crossing; key s turns ORCA's settle
-- (section 18.1.4: the crowd comes to rest at the point instead of milling
-- round it) off and on.
-- One program per crowd and mode, compiled once; world:step runs them.
local steer = require "steer"
local gfx = require "gfx"

local W, H = 96, 54 -- world units; 10 pixels each
local DOOR = { 20, 34 } -- the doorway's ends on the wall x = 48
local PER_SIDE = 40
local RADIUS = 0.8
local MODES = { "orca", "orca + push", "avoid_agents", "separation" }
local GATHER = { 72, 27 } -- where key g sends everyone

local scene = {
  name = "crowds", title = "8 crowds", debug_default = false, test_frames = 600,
}
scene.__index = scene

local function avoidance(mode, detour)
  if mode == "orca" then return {}, { time_horizon = 2, obstacle_time_horizon = 1, detour = detour } end
  if mode == "orca + push" then
    return {}, { time_horizon = 2, obstacle_time_horizon = 1, push = true, detour = detour }
  end
  if mode == "avoid_agents" then
    return { { "avoid_agents", time_horizon = 2, radius = 8 }, { "avoid_walls", feeler_length = 3, weight = 2 } }
  end
  return { { "separation", radius = 2.5, weight = 3 }, { "avoid_walls", feeler_length = 3, weight = 2 } }
end

-- crowd `side` (1: left to right, -1: right to left): through the door,
-- then on to its side's far edge; lane k of 4 (each crowd keeps right:
-- its own half of the door, y grows downwards)
local function program(side, mode, detour, k)
  local y = 27 + side * (0.8 + 1.6 * k)
  local route = steer.path{ { 48 - side * 16, y }, { 48 + side * 8, y }, { 48 + side * 38, y } }
  local extra, orca = avoidance(mode, detour)
  local p = { { "follow", path = route, arrival_radius = 3, slowing_radius = 4 }, orca = orca }
  for _, e in ipairs(extra) do p[#p + 1] = e end
  return steer.program(p)
end

-- a free spot on its side (an overlap made here would count against the mode)
function scene:spawn(a, side)
  local rng = self.rng
  for _ = 1, 30 do
    local x, y = 48 - side * (20 + rng:random() * 26), 27 + side * (rng:random() * 16 - 2)
    local taken = false
    for b in self.world:query(x, y, 2 * RADIUS + 0.2) do
      if b ~= a then taken = true end
    end
    a.x, a.y = x, y
    if not taken then break end
  end
  a.vx, a.vy = 0, 0
  a:set_behaviors(self.programs[side][rng:random(0, 3)])
end

function scene.new(rng)
  local self = setmetatable({}, scene)
  self.cam = gfx.camera(10, 0, 0)
  self.rng = rng
  self.world = steer.world{ bounds = { W, H }, cell_size = 4, seed = rng:random(1, 1e6) }
  self.world:add_wall{ x1 = 48, y1 = 0, x2 = 48, y2 = DOOR[1] }
  self.world:add_wall{ x1 = 48, y1 = DOOR[2], x2 = 48, y2 = H }
  self.mode, self.detour, self.settle, self.gathering = 1, true, true, false
  self:compile()
  self.agents = {}
  for k = 1, 2 * PER_SIDE do
    local side = k <= PER_SIDE and 1 or -1
    local a = self.world:add{ radius = RADIUS, max_speed = 6, max_force = 24 }
    a.side = side
    self:spawn(a, side)
    self.agents[k] = a
  end
  self.deep, self.overlapping = 0, 0
  return self
end

function scene:compile()
  local mode = MODES[self.mode]
  self.programs = { [1] = {}, [-1] = {} }
  for k = 0, 3 do
    self.programs[1][k] = program(1, mode, self.detour, k)
    self.programs[-1][k] = program(-1, mode, self.detour, k)
  end
  -- gathering: ORCA's arrive at one point, through the door, with settle or not
  self.gather_program = steer.program{
    { "arrive", target = GATHER, slowing_radius = 6, weight = 4 },
    { "avoid_walls", feeler_length = 3, weight = 2 },
    orca = { time_horizon = 2, obstacle_time_horizon = 1, detour = self.detour, settle = self.settle } }
end

-- every agent's program for the scene's state now
function scene:assign()
  for _, a in ipairs(self.agents) do
    a:set_behaviors(self.gathering and self.gather_program
      or self.programs[a.side][self.rng:random(0, 3)])
  end
end

function scene:count() return #self.world end

function scene:info()
  if self.gathering then
    local moving = 0
    for _, a in ipairs(self.agents) do if a.speed > 0.3 then moving = moving + 1 end end
    return ("[g] all to one point (orca)   [s] settle %s   moving %d of %d   overlapping pairs %d"):format(
      self.settle and "on" or "off", moving, #self.agents, self.overlapping)
  end
  local orca = MODES[self.mode]:match("^orca")
  return ("[m] %s%s   [g] gather   overlapping pairs %d   deep (> 0.1) since switch %d"):format(
    MODES[self.mode], orca and ("   [t] detour " .. (self.detour and "on" or "off")) or "",
    self.overlapping, self.deep)
end

function scene:key(key)
  if key == "t" then
    self.detour = not self.detour
  elseif key == "m" then
    self.mode = self.mode % #MODES + 1
    self.gathering = false
  elseif key == "g" then
    self.gathering = not self.gathering
  elseif key == "s" then
    self.settle = not self.settle
  else
    return
  end
  self:compile()
  self:assign()
  self.deep = 0
end

function scene:update(dt)
  self.world:step(dt)
  local now = 0
  for _, a in ipairs(self.agents) do
    for b in a:neighbors(2 * RADIUS) do
      if a.id < b.id then
        now = now + 1
        local pen = 2 * RADIUS - steer.length(a.x - b.x, a.y - b.y)
        if pen > 0.1 then self.deep = self.deep + 1 end
      end
    end
    -- through and at the far side: back to the start
    if not self.gathering and a.side * (a.x - 48) > 34 then self:spawn(a, a.side) end
  end
  self.overlapping = now
end

-- a click switches the mode too (a test run keeps ORCA for its screenshots)
function scene:click()
  if not self.scripted then self:key("m") end
end

function scene:set_debug(view)
  self.view = view
  if view then
    for k = 1, 2 do view:watch(self.agents[k], {}) end
  end
end

function scene:draw()
  gfx.push(self.cam)
  local lg = love.graphics
  if self.gathering then
    lg.setColor(gfx.colors.wall)
    lg.circle("line", GATHER[1], GATHER[2], 0.6, 12)
  end
  lg.setColor(gfx.colors.wall)
  lg.setLineWidth(0.4)
  for s in self.world:walls() do lg.line(s.x1, s.y1, s.x2, s.y2) end
  for _, a in ipairs(self.agents) do
    lg.setColor(a.side > 0 and gfx.colors.pursuer or gfx.colors.evader)
    lg.circle("line", a.x, a.y, RADIUS, 12)
    gfx.agent(a, 1.4)
  end
  if self.view then self.view:draw(self.world) end
  gfx.pop()
end

return scene
