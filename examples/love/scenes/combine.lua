-- Scene 4: the same crowd, the same obstacles and the same program in three
-- worlds side by side; only the way the forces combine differs: weighted,
-- priority and prioritized_sum. A contain entry keeps each crowd inside its
-- panel. The goal moves between corners every few
-- seconds (a set_target at decision rate). Each panel counts the agents
-- inside an obstacle and the pairs of agents that overlap; the bottom line
-- counts which entry won priority's choice (a:active_behavior).
local steer = require "steer"
local gfx = require "gfx"

local W, H = 38, 58     -- each world, in units; 8 pixels each
local PANEL = 320       -- pixels per panel
local CROWD = 120
local GOAL_EVERY = 5    -- seconds
local GOALS = { {30, 8}, {8, 50}, {30, 50}, {8, 8} }
local OBSTACLES = { {19, 29, 5}, {9, 18, 3}, {29, 40, 3}, {10, 40, 2.5}, {28, 17, 2.5} }
local COMBINES = { "weighted", "priority", "prioritized_sum" }
local FIRST_GOAL = 3    -- the goal the programs are compiled with

local scene = { name = "combine", title = "4 combine", test_click = {100, 420} }
scene.__index = scene

-- one program per combine mode, compiled once; an agent's goal is its own
-- (set_target gives it its own copy of the program)
local PROGRAMS = {}
for _, combine in ipairs(COMBINES) do
  PROGRAMS[combine] = steer.program{
    combine = combine,
    -- keeps the crowd off the panel's edges (a crowd that separation wins
    -- in priority would press against them)
    { "contain", region = { 0.6, 0.6, W - 0.6, H - 0.6 }, feeler_length = 1 },
    { "avoid_obstacles", feeler_length = 3, weight = 2 },
    { "separation", radius = 1.5, weight = 12 },
    { "arrive", target = GOALS[FIRST_GOAL], slowing_radius = 5, tag = "goal" },
  }
end

local function add(panel, x, y)
  local a = panel.world:add{ x = x, y = y, max_speed = 8, max_force = 14, radius = 0.5 }
  a:set_behaviors(PROGRAMS[panel.combine])
  local goal = GOALS[panel.goal]
  if panel.goal ~= FIRST_GOAL then a:set_target("goal", goal[1], goal[2]) end
  return a
end

function scene.new(rng)
  local self = setmetatable({}, scene)
  self.cam = gfx.camera(8, 0, 0)
  self.panels = {}
  -- one start layout shared by the three worlds
  local starts = {}
  for i = 1, CROWD do starts[i] = { 4 + rng:random() * 10, 2 + rng:random() * 10 } end
  local seed = rng:random(1, 1e6)
  for k, combine in ipairs(COMBINES) do
    local world = steer.world{ bounds = {W, H}, cell_size = 3, seed = seed }
    for _, o in ipairs(OBSTACLES) do
      world:add_obstacle{ x = o[1], y = o[2], radius = o[3] }
    end
    local panel = { world = world, combine = combine, goal = FIRST_GOAL, inside = 0, overlaps = 0,
      cam = gfx.camera(8, (k - 1) * PANEL + (PANEL - W * 8) / 2, 40) }
    for _, p in ipairs(starts) do add(panel, p[1], p[2]) end
    self.panels[k] = panel
  end
  self.clock = 0
  return self
end

function scene:count()
  local n = 0
  for _, p in ipairs(self.panels) do n = n + #p.world end
  return n
end

-- agents inside an obstacle, pairs closer than the sum of their radii,
-- and how often each entry won the last combination (priority only)
local function measure(panel)
  local inside, overlaps, winners = 0, 0, {}
  local obstacles = {} -- handles, collected once
  for o in panel.world:obstacles() do obstacles[#obstacles + 1] = o end
  for a in panel.world:agents() do
    for _, o in ipairs(obstacles) do
      if steer.length(a.x - o.x, a.y - o.y) < o.radius then inside = inside + 1 end
    end
    for b in a:neighbors(2 * a.radius) do
      if b.id > a.id then overlaps = overlaps + 1 end
    end
    local _, name = a:active_behavior()
    if name then winners[name] = (winners[name] or 0) + 1 end
  end
  panel.inside, panel.overlaps, panel.winners = inside, overlaps, winners
end

function scene:info()
  for _, panel in ipairs(self.panels) do
    if panel.combine == "priority" then
      local w = panel.winners or {}
      return ("priority's winners: contain %d, avoid_obstacles %d, separation %d, goal %d")
        :format(w.contain or 0, w.avoid_obstacles or 0, w.separation or 0, w.goal or 0)
    end
  end
end

function scene:update(dt)
  self.clock = self.clock + dt
  local retarget = self.clock >= GOAL_EVERY
  if retarget then self.clock = 0 end
  for _, panel in ipairs(self.panels) do
    if retarget then
      panel.goal = panel.goal % #GOALS + 1
      local goal = GOALS[panel.goal]
      for a in panel.world:agents() do a:set_target("goal", goal[1], goal[2]) end
    end
    gfx.step(panel.world, dt, self.view)
    measure(panel)
  end
end

function scene:click(sx, sy)
  -- the same spot in every panel
  local k = math.min(#self.panels, math.floor(sx / PANEL) + 1)
  local x, y = gfx.to_world(self.panels[k].cam, sx, sy)
  x, y = math.max(0, math.min(W, x)), math.max(0, math.min(H, y))
  for _, panel in ipairs(self.panels) do
    for i = 1, 10 do add(panel, x + (i % 4) * 0.6, y + math.floor(i / 4) * 0.6) end
  end
end

function scene:set_debug(view)
  self.view = view
  if not view then return end
  for _, panel in ipairs(self.panels) do
    for a in panel.world:agents() do
      view:watch(a, { feeler_length = 3, neighbor_radius = 1.5 })
      break
    end
  end
end

function scene:draw()
  local lg = love.graphics
  for k, panel in ipairs(self.panels) do
    gfx.push(panel.cam)
    gfx.frame(W, H)
    gfx.obstacles(panel.world)
    local g = GOALS[panel.goal]
    lg.setColor(gfx.colors.text)
    lg.circle("line", g[1], g[2], 1.2, 24)
    lg.line(g[1] - 1.6, g[2], g[1] + 1.6, g[2])
    lg.line(g[1], g[2] - 1.6, g[1], g[2] + 1.6)
    gfx.crowd(panel.world, gfx.colors.boid, 1.2)
    if self.view then self.view:draw(panel.world) end
    gfx.pop()
    local x = (k - 1) * PANEL + (PANEL - W * 8) / 2
    gfx.text(panel.combine, x, 24)
    gfx.text(("in obstacles %d  overlaps %d"):format(panel.inside, panel.overlaps),
      x + 110, 24, gfx.colors.dim)
  end
end

return scene
