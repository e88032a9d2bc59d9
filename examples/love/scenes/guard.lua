-- Scene 5: guards run a small behavior tree. They patrol a loop; on seeing
-- the player (the mouse; walls block the view: world:line_of_sight) they
-- chase, search where
-- the player was last seen, then go back to the patrol. Each leaf only
-- switches the guard's steering program (compiled once) or retargets it,
-- at decision rate; world:step runs the programs.
local steer = require "steer"
local gfx = require "gfx"

local W, H = 96, 54   -- world units; 10 pixels each
local SIGHT = 20      -- how far a guard sees
local CONE = math.rad(55) -- half the view cone
local SEARCH_TIME = 2 -- seconds spent at the last seen point

local scene = {
  name = "guard", title = "5 guard", debug_default = true, test_click = {700, 150},
  test_frames = 480,
  vector_scale = 0.3, force_scale = 0.1,
}
scene.__index = scene

-- the level is a tile map (2 x 2 units a tile, 48 x 27 tiles, # solid):
-- steer.walls_from_tiles turns it into merged wall segments
local TILE = 2
local MAP = {
  "...............#................................",
  "...............#................................",
  "...............#................................",
  "...............#................................",
  "...............#................................",
  "...............#................................",
  "...............#................................",
  "...............#...............#................",
  "...............#...............#................",
  "...............#...............#................",
  "...............................#................",
  "...............................#................",
  "...............................#................",
  "......................######...#................",
  "...............................#................",
  "...............................#................",
  "...............................#................",
  "...............#...............#................",
  "...............#...............#................",
  "...............#...............#................",
  "...............#................................",
  "...............#................................",
  "...............#................................",
  "...............#................................",
  "...............#................................",
  "...............#................................",
  "...............#................................",
}

local function tiles()
  local t = {}
  for r, row in ipairs(MAP) do
    for c = 1, #row do t[(r - 1) * #row + c] = row:sub(c, c) == "#" end
  end
  return t, #MAP[1], #MAP
end

-- A navigation grid of the same tiles (a solid tile is blocked): searching
-- guards walk nav:path's routes around the walls.
local function nav_of_tiles()
  local t, w, h = tiles()
  local cost = {}
  for k = 1, w * h do cost[k] = t[k] and 0 or 1 end
  return steer.navgrid{ width = w, height = h, cell_size = TILE, cost = cost }
end
-- the loop crosses no wall: it passes the gap at x = 30 both ways
local PATROL = {
  {12, 10}, {12, 44}, {24, 30}, {38, 30}, {52, 42}, {82, 46}, {84, 10}, {52, 10},
  {38, 24}, {24, 24}, loop = true,
}

-- ---- a tiny behavior tree -------------------------------------------------
-- A node is a function(guard, scene) returning true (succeeded or still
-- running: stop here) or false (failed: try the next one).
local function selector(...)
  local children = {...}
  return function(g, s)
    for _, child in ipairs(children) do
      if child(g, s) then return true end
    end
    return false
  end
end

local function sequence(...)
  local children = {...}
  return function(g, s)
    for _, child in ipairs(children) do
      if not child(g, s) then return false end
    end
    return true
  end
end

-- switches the guard's program only when the state changes
local function set_state(g, state, program)
  if g.state == state then return false end
  g.state = state
  g:set_behaviors(program)
  g.max_speed = state == "chase" and 12 or 7
  return true
end

local function sees_player(g, s)
  local p = s.player
  local dx, dy = p.x - g.x, p.y - g.y
  local d = steer.length(dx, dy)
  local seen = d < SIGHT and s.world:line_of_sight(g, p)
  if seen and d > 1e-6 then
    local hx, hy = steer.normalize(g.vx, g.vy)
    if hx ~= 0 or hy ~= 0 then
      seen = (hx * dx + hy * dy) / d >= math.cos(CONE)
    end
  end
  g.sees = seen
  if seen then g.last_seen, g.search_left = {p.x, p.y}, SEARCH_TIME end
  return seen
end

local function chase(g, s)
  set_state(g, "chase", s.programs.chase)
  return true
end

local function remembers(g) return g.last_seen ~= nil end

local function search(g, s)
  if set_state(g, "search", s.programs.search) then
    -- a route around the walls (straight when the spot is in a wall's cell)
    local spot = g.last_seen
    g.route = s.nav:path(g.x, g.y, spot[1], spot[2], { smooth = true })
      or steer.path{ {g.x, g.y}, spot }
    g:set_target("spot", g.route)
  end
  if steer.length(g.x - g.last_seen[1], g.y - g.last_seen[2]) < 2 then
    g.search_left = g.search_left - s.dt
    if g.search_left <= 0 then g.last_seen = nil end
  end
  return true
end

-- the patrol resumes at the nearest waypoint the guard can see: its route
-- is the loop starting there (a program follows a path from its start)
local function patrol(g, s)
  if g.state ~= "patrol" then
    local best, dmin = 1, math.huge
    for k, p in ipairs(PATROL) do
      local d = steer.length(p[1] - g.x, p[2] - g.y)
      if d < dmin and s.world:line_of_sight(g, p) then
        best, dmin = k, d
      end
    end
    g.route = s.routes[best]
    set_state(g, "patrol", s.programs.patrol[best])
  end
  return true
end

local BRAIN = selector(
  sequence(sees_player, chase),
  sequence(remembers, search),
  patrol)

-- ---- the scene --------------------------------------------------------------

function scene:add_guard(x, y)
  local g = self.world:add{ x = x, y = y, vx = 1, max_speed = 7, max_force = 20, radius = 0.8 }
  self.guards[#self.guards + 1] = g
  BRAIN(g, self)
  if self.view then self:watch(g) end
  return g
end

-- The scene's programs, compiled once: chase and search (retargeted with
-- set_target), and one patrol per waypoint the loop can start from.
local function compile(self)
  -- wall avoidance pushes by how far the feeler overshoots (at most 2.5):
  -- weighted up, it can stop a guard at full speed before the wall; the
  -- whiskers (two side feelers) keep a guard off a wall it walks beside
  local avoid = { "avoid_walls", feeler_length = 2.5, weight = 8, whiskers = true }
  self.programs = {
    chase = steer.program{ combine = "priority", avoid,
      { "pursue", target = self.player, tag = "quarry" } },
    search = steer.program{ combine = "priority", avoid,
      { "follow", path = steer.path{ PATROL[1] }, arrival_radius = 1.5,
        slowing_radius = 4, tag = "spot" } },
    patrol = {},
  }
  self.routes = {}
  for k = 1, #PATROL do
    local points = { loop = true }
    for i = 0, #PATROL - 1 do points[#points + 1] = PATROL[(k - 1 + i) % #PATROL + 1] end
    self.routes[k] = steer.path(points)
    self.programs.patrol[k] = steer.program{ combine = "priority", avoid,
      { "separation", radius = 2 },
      { "follow", path = self.routes[k], arrival_radius = 1.5 } }
  end
end

function scene.new(rng)
  local self = setmetatable({}, scene)
  self.cam = gfx.camera(10, 0, 0)
  self.world = steer.world{ bounds = {W, H}, seed = rng:random(1, 1e6) }
  local t, w, h = tiles()
  self.world:add_walls(steer.walls_from_tiles(t, w, h, TILE))
  self.patrol = steer.path(PATROL)
  self.nav = nav_of_tiles()
  self.player = self.world:add{ x = 70, y = 30, radius = 0.8, max_speed = 1e3 }
  compile(self)
  self.guards = {}
  self.time = 0
  self.dt = 0
  self.caught = 0
  self:add_guard(12, 10)
  return self
end

function scene:count() return #self.world end

-- the state of the first guard, and which entry of its program steers it
function scene:info()
  local g = self.guards[1]
  local _, steering = g:active_behavior()
  return ("guard 1: %s, steered by %s   caught %d"):format(g.state,
    steering or "-", self.caught)
end

-- the player follows the mouse; in a test run (or with the mouse outside
-- the window) a scripted loop that walks into the first guard's view
function scene:player_target()
  if love.window.hasMouseFocus() and not self.scripted then
    return gfx.to_world(self.cam, love.mouse.getPosition())
  end
  local t = self.time
  return 46 + math.cos(t * 0.5) * 30, 26 + math.sin(t * 0.9) * 14
end

function scene:update(dt)
  self.time, self.dt = self.time + dt, dt
  local p = self.player
  local tx, ty = self:player_target()
  -- the player moves toward the mouse with a velocity, so pursuit can predict it
  local vx, vy = (tx - p.x) / dt, (ty - p.y) / dt
  vx, vy = steer.clamp(vx, vy, 40)
  p.vx, p.vy = vx, vy
  for _, g in ipairs(self.guards) do
    BRAIN(g, self)
    -- the debug view shows where a chasing guard predicts the player,
    -- and the route a patrolling one follows
    local opts = self.view and self.view.watched[g]
    if opts then
      opts.pursue = g.state == "chase" and p or nil
      opts.path = g.state ~= "chase" and g.route or nil
    end
  end
  gfx.step(self.world, dt, self.view)
  for _, g in ipairs(self.guards) do
    local touching = steer.length(g.x - p.x, g.y - p.y) < g.radius + p.radius
    if touching and not g.touching then self.caught = self.caught + 1 end
    g.touching = touching
  end
end

function scene:click(sx, sy)
  self:add_guard(gfx.to_world(self.cam, sx, sy))
end

function scene:watch(g)
  self.view:watch(g, { path = g.route, feeler_length = 2.5, arrival_radius = 1.5 })
end

function scene:set_debug(view)
  self.view = view
  if not view then return end
  for _, g in ipairs(self.guards) do self:watch(g) end
end

local function view_cone(g)
  local lg = love.graphics
  local h = math.atan2(g.vy, g.vx)
  local c = g.sees and {1, 0.3, 0.3, 0.35} or {0.7, 0.7, 0.8, 0.18}
  lg.setColor(c)
  local x1, y1 = g.x + math.cos(h - CONE) * SIGHT, g.y + math.sin(h - CONE) * SIGHT
  local x2, y2 = g.x + math.cos(h + CONE) * SIGHT, g.y + math.sin(h + CONE) * SIGHT
  lg.line(g.x, g.y, x1, y1)
  lg.line(g.x, g.y, x2, y2)
  lg.arc("line", "open", g.x, g.y, SIGHT, h - CONE, h + CONE, 24)
end

function scene:draw()
  local lg = love.graphics
  gfx.push(self.cam)
  gfx.frame(W, H)
  gfx.path(self.patrol)
  gfx.walls(self.world)
  for _, g in ipairs(self.guards) do
    view_cone(g)
    if g.last_seen and not g.sees then
      lg.setColor(1, 0.3, 0.3, 0.8)
      lg.circle("line", g.last_seen[1], g.last_seen[2], 1, 16)
    end
  end
  lg.setColor(gfx.colors.player)
  lg.circle("fill", self.player.x, self.player.y, self.player.radius, 24)
  lg.setColor(gfx.colors.guard)
  for _, g in ipairs(self.guards) do gfx.agent(g, 2) end
  if self.view then self.view:draw(self.world) end
  gfx.pop()
end

return scene
