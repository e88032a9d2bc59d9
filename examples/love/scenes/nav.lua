-- Scene 6: navigation on a tile maze. 2,000 agents follow one flow field
-- (steer.navgrid, nav:flow, the "flow" program entry) with separation, and
-- ORCA keeps them off the maze's walls (steer.walls_from_tiles of the same
-- tiles); a click sets the goal, f shows the field as arrows. A guard (the bigger
-- agent) walks to random tiles along nav:path's smoothed paths. s saves the
-- whole simulation (world:snapshot(): the crowd, its programs, the flow field
-- and its grid), l goes back to it (steer.restore).
local steer = require "steer"
local gfx = require "gfx"

local W, H = 96, 54   -- world units; 10 pixels each
local CELL = 2        -- a tile is 2 x 2 world units: 48 x 27 tiles
local CW, CH = math.floor(W / CELL), math.floor(H / CELL)

local scene = {
  name = "flow field", title = "6 flow", test_frames = 600,
  test_click = {880, 460}, test_keys = { [150] = "s", [400] = "l" },
  vector_scale = 0.3, force_scale = 0.1,
}
scene.__index = scene

local colors = {
  tile = {0.16, 0.2, 0.3}, arrow = {0.35, 0.5, 0.75}, goal = {0.3, 0.85, 1.0},
  route = gfx.colors.path,
}

-- The maze: walls every 8 tiles across with two gaps each, crossed by a few
-- horizontal walls, and some single blocks drawn by rng.
local function maze(rng)
  local cost = {}
  for cy = 0, CH - 1 do
    for cx = 0, CW - 1 do
      local blocked = false
      if cx % 8 == 5 then
        local gap1, gap2 = (cx * 7) % (CH - 4) + 2, (cx * 13 + 9) % (CH - 4) + 2
        blocked = math.abs(cy - gap1) > 1 and math.abs(cy - gap2) > 1
      elseif cy == 13 and cx % 16 < 9 and cx > 2 then
        blocked = true
      end
      cost[cy * CW + cx + 1] = blocked and 0 or 1
    end
  end
  for _ = 1, 40 do
    local cx, cy = rng:random(0, CW - 1), rng:random(0, CH - 1)
    if cx % 8 ~= 5 then cost[cy * CW + cx + 1] = 0 end
  end
  return cost
end

function scene:set_goal(x, y)
  local cx, cy = self.nav:cell_of(x, y)
  if not cx or self.nav:cost(cx, cy) == 0 then return false end
  self.goal = {x, y}
  if self.field then
    -- a click moves the goal: the field is worked out again in place, and
    -- the agents' programs (their ORCA clocks, their smoothing) run on
    self.field:set_goals(x, y)
    return true
  end
  self.field = self.nav:flow(x, y)
  self.program = steer.program{
    -- ORCA keeps the bodies off the maze's walls (and off each other):
    -- the field routes around blocked tiles, but a dense crowd pressed
    -- about 5% of its agents onto them, feelers or not. ORCA steers; it
    -- does not stop a body the crowd shoves: collide does (one agent in
    -- 2,000 ended inside a tile without it)
    orca = { time_horizon = 1, obstacle_time_horizon = 0.5, max_neighbors = 6 },
    collide = true,
    { "flow", field = self.field, slowing_radius = 4 },
    { "separation", radius = 0.9, weight = 3 },
  }
  for a in self.world:agents() do
    if a ~= self.guard then a:set_behaviors(self.program) end
  end
  return true
end

-- A random open tile's centre.
function scene:open_point()
  while true do
    local cx, cy = self.rng:random(0, CW - 1), self.rng:random(0, CH - 1)
    if self.nav:cost(cx, cy) > 0 then return self.nav:center_of(cx, cy) end
  end
end

function scene:new_route()
  local tx, ty = self:open_point()
  -- clearance: the smoothed sight lines keep the guard's body off the tile
  -- corners; collide: no push from the crowd carries it into a wall
  local path = self.nav:path(self.guard, tx, ty, { smooth = true, clearance = self.guard.radius })
  if path then
    self.route = path
    self.guard:set_behaviors{ collide = true,
      { "follow", path = path, arrival_radius = 1.2, slowing_radius = 3, weight = 4 } }
  end
end

function scene.new(rng, count)
  local self = setmetatable({}, scene)
  self.rng = rng
  self.cam = gfx.camera(10, 0, 0)
  self.nav = steer.navgrid{ width = CW, height = CH, cell_size = CELL, cost = maze(rng) }
  self.world = steer.world{ bounds = {W, H}, cell_size = 2, seed = rng:random(1, 1e6) }
  -- the blocked tiles' outline as walls (steer.walls_from_tiles wants
  -- non-zero for solid, the grid's cost 0 for blocked)
  local solid = {}
  for k = 1, CW * CH do solid[k] = self.nav:cost((k - 1) % CW, math.floor((k - 1) / CW)) == 0 end
  self.world:add_walls(steer.walls_from_tiles(solid, CW, CH, CELL))
  for _ = 1, count or 2000 do
    local x, y = self:open_point()
    self.world:add{ x = x + rng:random() - 0.5, y = y + rng:random() - 0.5,
      max_speed = 8, max_force = 30, radius = 0.3 }
  end
  local gx, gy = self:open_point()
  self.guard = self.world:add{ x = gx, y = gy, max_speed = 6, max_force = 20, radius = 0.6 }
  self:set_goal(self.nav:center_of(3, 3))
  self:new_route()
  self.arrows = false
  return self
end

function scene:count() return #self.world end

function scene:info()
  return ("goal %.0f, %.0f   f: field arrows%s   s: save   l: load%s"):format(self.goal[1],
    self.goal[2], self.arrows and " (on)" or "",
    self.saved and (" (%d KB saved)"):format(math.floor(#self.saved.bytes / 1024)) or "")
end

function scene:update(dt)
  gfx.step(self.world, dt, self.view)
  -- the guard at the end of its route: a new one
  if self.guard:path_index() == #self.route and self.guard.speed < 0.5 then self:new_route() end
end

function scene:click(sx, sy)
  self:set_goal(gfx.to_world(self.cam, sx, sy))
end

-- The saved world comes back as a new one with its own field, grid, paths
-- and agents (same ids): the scene takes them over from it.
function scene:load()
  local world = assert(steer.restore(self.saved.bytes))
  if self.view then self.view:unwatch(self.guard) end -- before its world closes
  self.world:close()
  self.world = world
  self.guard = world:get(self.guard.id)
  self.route = self.guard:behaviors()[1].path
  for a in world:agents() do
    if a ~= self.guard then
      self.field = a:behaviors()[1].field
      break
    end
  end
  self.nav = self.field:grid()
  self.goal = self.saved.goal
  if self.view then self:set_debug(self.view) end
end

function scene:key(key)
  if key == "f" then
    self.arrows = not self.arrows
  elseif key == "s" then
    self.saved = { bytes = self.world:snapshot(), goal = self.goal }
  elseif key == "l" and self.saved then
    self:load()
  end
end

function scene:set_debug(view)
  self.view = view
  if view then view:watch(self.guard, { path = self.route, arrival_radius = 1.2 }) end
end

function scene:draw()
  local lg = love.graphics
  gfx.push(self.cam)
  gfx.frame(W, H)
  lg.setColor(colors.tile)
  for cy = 0, CH - 1 do
    for cx = 0, CW - 1 do
      if self.nav:cost(cx, cy) == 0 then lg.rectangle("fill", cx * CELL, cy * CELL, CELL, CELL) end
    end
  end
  if self.arrows then
    lg.setColor(colors.arrow)
    for cy = 0, CH - 1 do
      for cx = 0, CW - 1 do
        local x, y = self.nav:center_of(cx, cy)
        local dx, dy = self.field:direction(x, y)
        if self.nav:cost(cx, cy) > 0 and (dx ~= 0 or dy ~= 0) then
          local hx, hy = x + dx * 0.8, y + dy * 0.8
          lg.line(x - dx * 0.6, y - dy * 0.6, hx, hy)
          lg.line(hx, hy, hx - dx * 0.4 - dy * 0.3, hy - dy * 0.4 + dx * 0.3)
          lg.line(hx, hy, hx - dx * 0.4 + dy * 0.3, hy - dy * 0.4 - dx * 0.3)
        end
      end
    end
  end
  gfx.path(self.route)
  lg.setColor(colors.goal)
  lg.circle("line", self.goal[1], self.goal[2], 1.2, 24)
  gfx.crowd(self.world, gfx.colors.boid, 0.9)
  lg.setColor(gfx.colors.guard)
  gfx.agent(self.guard, 2.2)
  if self.view then self.view:draw(self.world) end
  gfx.pop()
end

return scene
