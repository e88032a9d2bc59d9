-- Scene: group and tactical behaviors (docs/API.md section 17). A squad
-- holds a wedge formation behind its leader on a loop through the level
-- (slots assigned by the Hungarian method; click to add a member: the
-- squad reassigns; slots that fall in a rock or behind a wall are moved
-- onto free ground, key f turns that off and on, for the squad and for two
-- outriders holding slots beside the charge with offset_pursuit), a
-- bodyguard interposes between its charge and a wolf,
-- and a crowd queues through a door in a wall. Every agent runs a program:
-- world:step does all of it.
local steer = require "steer"
local gfx = require "gfx"

local W, H = 96, 54   -- world units; 10 pixels each

local scene = {
  name = "tactics", title = "7 tactics", debug_default = false,
  test_click = {300, 300}, test_frames = 480, test_keys = { [200] = "f", [360] = "f" },
  vector_scale = 0.3, force_scale = 0.1,
}
scene.__index = scene

-- the wall with the door (x = 76, the gap from y = 24 to 29), rocks
local WALLS = { {76, 0, 76, 24}, {76, 29, 76, 54} }
local ROCKS = { {22, 22, 3}, {42, 37, 3.5}, {46, 22, 2.5}, {24, 38, 2} }
-- the squad's loop keeps clear of the rocks and of the queue
local LOOP = { {12, 15}, {34, 13}, {56, 15}, {60, 30}, {50, 46}, {12, 46}, {9, 30},
  loop = true }
local DOOR = {76, 26.5}
local QUEUE_GOAL = {93, 26.5}
-- the walkers' way: a corridor through the door, so that nobody slides
-- along the wall into the gap
local THROUGH = { {64, 26.5}, DOOR, QUEUE_GOAL }

local SQUAD = { 0.95, 0.55, 0.18 }
local ESCORT = { 1.0, 0.82, 0.30 }
local WOLF = { 1.0, 0.35, 0.25 }
local CROWD = { 1.0, 0.66, 0.22 }

function scene:add_member(x, y)
  local m = self.world:add{ x = x, y = y, max_speed = 9, max_force = 20, radius = 0.8 }
  m:set_behaviors(self.programs.member)
  self.members[#self.members + 1] = m
  return m
end

local function new_walker(self, k)
  local a = self.world:add{ x = 63 + (k % 4) * 2.5, y = 6 + k * 3.4, max_speed = 4 + (k % 3),
    max_force = 12, radius = 0.7 }
  a:set_behaviors(self.programs.walker)
  a.walker = true
  return a
end

function scene.new(rng)
  local self = setmetatable({}, scene)
  self.cam = gfx.camera(10, 0, 0)
  self.world = steer.world{ bounds = {W, H}, seed = rng:random(1, 1e6) }
  local world = self.world
  for _, s in ipairs(WALLS) do world:add_wall{ x1 = s[1], y1 = s[2], x2 = s[3], y2 = s[4] } end
  for _, r in ipairs(ROCKS) do world:add_obstacle{ x = r[1], y = r[2], radius = r[3] } end
  self.loop = steer.path(LOOP)

  -- the squad: a leader on the loop, a wedge of 6 slots behind it
  self.leader = world:add{ x = 12, y = 15, max_speed = 5, max_force = 10, radius = 0.9 }
  self.leader:set_behaviors{ combine = "weighted", turn = "velocity", -- its frame turns
    { "avoid_obstacles", feeler_length = 4, weight = 3 },
    { "follow", path = self.loop, arrival_radius = 3 } }
  self.formation = steer.formation{ anchor = self.leader, shape = "wedge", count = 6, spacing = 2.5 }
  self.programs = {
    member = steer.program{ combine = "weighted",
      { "avoid_obstacles", feeler_length = 3, weight = 3 },
      { "separation", radius = 1.6, weight = 2 },
      { "formation", formation = self.formation, slowing_radius = 3 } },
    walker = steer.program{ combine = "priority", turn = "velocity",
      -- ORCA keeps the bodies off the wall and the door posts (a feeler
      -- looks only ahead, and the crowd at the door presses sideways)
      orca = { time_horizon = 1.5, obstacle_time_horizon = 0.5 },
      { "avoid_walls", feeler_length = 2, weight = 6 },
      { "queue", distance = 3, fov = 100 },
      { "separation", radius = 1.5, weight = 2 },
      { "follow", path = steer.path(THROUGH), path_radius = 1, slowing_radius = 0.1 } },
  }
  self.members = {}
  for k = 1, 4 do self:add_member(6 + 3 * k, 22 + 2 * k) end

  -- the escort: a slow charge wanders the middle, a wolf hunts it
  self.charge = world:add{ x = 30, y = 26, max_speed = 1.5, max_force = 3, radius = 0.9 }
  self.charge:set_behaviors{ combine = "weighted",
    { "avoid_obstacles", feeler_length = 3, weight = 3 }, { "wander" },
    { "arrive", target = { 32, 26 }, slowing_radius = 20, weight = 0.4 } }
  self.wolf = world:add{ x = 52, y = 38, max_speed = 3, max_force = 4, radius = 0.9 }
  self.guard = world:add{ x = 26, y = 30, max_speed = 8, max_force = 16, radius = 0.9 }
  -- the wolf shies from the bodyguard: interposing keeps it off
  self.wolf:set_behaviors{ combine = "weighted",
    { "avoid_obstacles", feeler_length = 3, weight = 3 },
    { "flee", target = self.guard, panic_radius = 5, weight = 3 },
    { "pursue", target = self.charge } }
  self.guard:set_behaviors{ combine = "weighted",
    { "avoid_obstacles", feeler_length = 3, weight = 3 },
    { "interpose", between = { self.charge, self.wolf }, slowing_radius = 3 } }
  -- two outriders hold slots 6 to the charge's left and right (its frame
  -- does not turn: north and south); a slot in a rock is fitted out of it
  self.outrider_programs = {}
  for _, fit in ipairs{ true, false } do
    local p = {}
    for k, side in ipairs{ 6, -6 } do
      p[k] = steer.program{ combine = "weighted",
        { "avoid_obstacles", feeler_length = 3, weight = 3 },
        { "offset_pursuit", target = self.charge, offset = { 0, side }, slowing_radius = 3, fit = fit } }
    end
    self.outrider_programs[fit] = p
  end
  self.outriders = {}
  for k = 1, 2 do
    self.outriders[k] = world:add{ x = 30, y = 26 + (k == 1 and 5 or -5), max_speed = 7,
      max_force = 14, radius = 0.8 }
    self.outriders[k]:set_behaviors(self.outrider_programs[true][k])
  end

  -- the queue: walkers head for the door, through it to the goal, and
  -- start again
  self.walkers = {}
  for k = 1, 12 do self.walkers[k] = new_walker(self, k) end
  self.time = 0
  self.through = 0
  return self
end

function scene:count() return #self.world end

function scene:info()
  local slots = {}
  for k, m in ipairs(self.formation:members()) do slots[k] = tostring(self.formation:slot_of(m) or "-") end
  return ("squad slots %s   fit %s (f)   through the door %d"):format(table.concat(slots, " "),
    self.formation:fits() and "on" or "off", self.through)
end

function scene:key(key)
  if key == "f" then
    local fit = not self.formation:fits()
    self.formation:set_fit(fit)
    for k, o in ipairs(self.outriders) do o:set_behaviors(self.outrider_programs[fit][k]) end
  end
end

function scene:update(dt)
  self.time = self.time + dt
  for k, a in ipairs(self.walkers) do
    if a.x > DOOR[1] + 0.5 and not a.past then a.past = true end
    if a.past and a.x > QUEUE_GOAL[1] - 2 then -- back to the start of the queue
      self.through = self.through + 1
      self.world:remove(a)
      self.walkers[k] = new_walker(self, k)
    end
  end
  gfx.step(self.world, dt, self.view)
end

function scene:click(sx, sy)
  if #self.formation:members() < #self.formation then
    self:add_member(gfx.to_world(self.cam, sx, sy))
  end
end

function scene:set_debug(view)
  self.view = view
  if not view then return end
  view:watch(self.guard, {})
  for _, m in ipairs(self.members) do view:watch(m, {}) end
end

function scene:draw()
  local lg = love.graphics
  gfx.push(self.cam)
  gfx.frame(W, H)
  gfx.path(self.loop)
  gfx.obstacles(self.world)
  gfx.walls(self.world)
  -- the formation's slots (dim rings) and the interposition line
  lg.setColor(0.45, 0.5, 0.62, 0.8)
  for s = 1, #self.formation do
    local x, y = self.formation:slot_position(s)
    lg.circle("line", x, y, 0.6, 16)
  end
  lg.setColor(0.45, 0.5, 0.62, 0.5)
  lg.line(self.charge.x, self.charge.y, self.wolf.x, self.wolf.y)
  for _, o in ipairs(self.outriders) do lg.line(self.charge.x, self.charge.y, o.x, o.y) end
  lg.setColor(SQUAD)
  gfx.agent(self.leader, 2.6)
  for _, m in ipairs(self.members) do gfx.agent(m, 1.9) end
  lg.setColor(ESCORT)
  gfx.agent(self.charge, 2)
  gfx.agent(self.guard, 2)
  for _, o in ipairs(self.outriders) do gfx.agent(o, 1.8) end
  lg.setColor(WOLF)
  gfx.agent(self.wolf, 2.4)
  lg.setColor(CROWD)
  for _, a in ipairs(self.walkers) do gfx.agent(a, 1.6) end
  if self.view then self.view:draw(self.world) end
  gfx.pop()
end

return scene
