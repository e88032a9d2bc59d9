--- steer.debug: draws what agents "think" - velocity and steering force,
-- feelers and the obstacle or wall they touch, the wander circle and its
-- target, the neighbor radius and neighbors, the path and current waypoint,
-- a pursuit's predicted point - plus a world's obstacles and walls.
--
-- It draws through two callbacks, line(x1, y1, x2, y2, kind) and
-- circle(x, y, r, kind), so any engine can use it; with none given it uses
-- love.graphics (LÖVE 11) and colors each kind. Coordinates are world
-- units: set your camera transform before drawing. Works without LÖVE.
--
--   local sdebug = require "steer.debug"
--   local view = sdebug.new{ vector_scale = 0.5 }
--   view:watch(guard, { path = patrol, feeler_length = 3 })
--   view:set_force(guard, fx, fy)      -- the force you applied, if you want it shown
--   view:draw(world)                   -- in love.draw, after the camera transform

---The steer.debug module.
---@class steer.debug
---@field kinds string[] every kind of primitive, in drawing order for one agent
---@field colors table<string, number[]> LÖVE colors of the kinds
local sdebug = {}

--- Every kind of primitive, in drawing order for one agent.
sdebug.kinds = {
  "agent", "velocity", "force", "feeler", "threat", "wander", "wander_target",
  "neighbor_radius", "neighbor", "path", "waypoint", "prediction", "target",
  "obstacle", "wall",
}

--- LÖVE colors of the kinds (r, g, b, a in 0..1).
sdebug.colors = {
  agent = {1, 1, 1, 0.6},
  velocity = {0.3, 1, 0.4, 1},
  force = {1, 0.25, 0.25, 1},
  feeler = {0.85, 0.85, 0.85, 0.8},
  threat = {1, 0.2, 0.9, 1},
  wander = {0.4, 0.7, 1, 0.8},
  wander_target = {0.4, 0.7, 1, 1},
  neighbor_radius = {0.6, 0.6, 1, 0.35},
  neighbor = {0.6, 0.6, 1, 0.5},
  path = {0.3, 0.9, 0.6, 0.7},
  waypoint = {0.3, 1, 0.6, 1},
  prediction = {0.9, 0.9, 0.6, 0.9},
  target = {0.85, 0.85, 0.6, 0.6},
  obstacle = {0.55, 0.6, 0.75, 0.9},
  wall = {0.75, 0.75, 0.8, 1},
}

--- Which parts are drawn (all by default); set one to false to hide it.
local function default_show()
  return {
    agent = true, velocity = true, force = true, feelers = true, wander = true,
    neighbors = true, path = true, prediction = true, target = true,
    obstacles = true, walls = true,
  }
end

---A debug view: what to draw and how (`steer.debug.new`).
---@class steer.DebugView
---@field show table<string, boolean> parts drawn: agent, velocity, force, feelers, wander, neighbors, path, prediction, target, obstacles, walls
---@field vector_scale number velocity is drawn as p + v * vector_scale
---@field force_scale number force is drawn as p + f * force_scale
---@field wrap number[]? {w, h} of a wrapping world
---@field watched table<steer.Agent, steer.DebugAgentOptions> the watched agents
local View = {}
View.__index = View

-- steer's type of a value ("steer.Agent", ...), or nil
local function steer_type(v)
  local mt = type(v) == "userdata" and getmetatable(v)
  return type(mt) == "table" and mt.__name or nil
end

-- steer's limits: every number within +-1e150, lengths at least 0
local LIMIT = 1e150
local function finite(v) return type(v) == "number" and v >= -LIMIT and v <= LIMIT end
local function number_at_least_0(v) return finite(v) and v >= 0 end
-- steer's rule for point tables: {x, y} when [1] is there, else {x =, y =}
local function a_point(v)
  if steer_type(v) == "steer.Agent" or steer_type(v) == "steer.SharedPoint" then return true end
  if type(v) ~= "table" then return false end
  if rawget(v, 1) ~= nil then return finite(rawget(v, 1)) and finite(rawget(v, 2)) end
  return finite(rawget(v, "x")) and finite(rawget(v, "y"))
end
-- what each option takes, checked when an agent is watched: a wrong one
-- would otherwise fail later, inside a draw
local OPTIONS = {
  feeler_length = { number_at_least_0, "number in [0, 1e150]" },
  wander = { function(v) return type(v) == "boolean" end, "boolean" },
  neighbor_radius = { number_at_least_0, "number in [0, 1e150]" },
  path = { function(v) return steer_type(v) == "steer.Path" end, "steer.Path" },
  arrival_radius = { number_at_least_0, "number in [0, 1e150]" },
  pursue = { function(v) return steer_type(v) == "steer.Agent" end, "steer.Agent" },
  evade = { function(v) return steer_type(v) == "steer.Agent" end, "steer.Agent" },
  target = { a_point, "steer.Agent, steer.SharedPoint, {x, y} or {x =, y =}" },
}

-- what a value is, for messages: steer's type name or Lua's; `valued`:
-- a number as itself
local function type_of(v, valued)
  if valued and type(v) == "number" then return ("%.14g"):format(v) end
  return steer_type(v) or type(v)
end

-- argument 1 of fname is a handle of steer type `want`
local function check_handle(v, want, fname)
  if steer_type(v) ~= want then
    error(("bad argument #1 to '%s' (%s expected, got %s)"):format(fname, want, type_of(v)), 3)
  end
end

-- a number steer would take (within +-1e150) for argument argn of fname
local function check_number(v, fname, argn)
  if not finite(v) then
    error(("bad argument #%d to '%s' (number in [-1e150, 1e150] expected, got %s)"):format(
      argn, fname, type_of(v, true)), 3)
  end
end

-- sdebug.new's options: what each takes
local NEW_OPTIONS = {
  line = "function", circle = "function", colors = "table", line_width = "number",
  segments = "number", vector_scale = "number", force_scale = "number", wrap = "table",
}

-- Is a one edit (a letter added, dropped or replaced, or two neighbours
-- swapped) from b? The binding's rule for misspelt fields.
local function one_edit(a, b)
  if a == b then return false end
  local la, lb = #a, #b
  if la < lb then a, b, la, lb = b, a, lb, la end
  if la - lb > 1 then return false end
  local i = 1
  while i <= lb and a:sub(i, i) == b:sub(i, i) do i = i + 1 end
  if la > lb then return a:sub(i + 1) == b:sub(i) end
  return a:sub(i + 1) == b:sub(i + 1) or
    (a:sub(i, i) == b:sub(i + 1, i + 1) and a:sub(i + 1, i + 1) == b:sub(i, i) and
     a:sub(i + 2) == b:sub(i + 2))
end

-- For an unknown option k: ": did you mean 'x'?" when k misspells an
-- option's name (the same but for case and underscores, or one edit from a
-- name of 5 letters or more) or starts it, or it starts k (feeler,
-- feeler_len); else the options' names, so the message always says what
-- would be right.
local function hint(k, options)
  local names = {}
  for name in pairs(options) do names[#names + 1] = name end
  table.sort(names)
  if type(k) == "string" and #k >= 3 then
    local bare = k:lower():gsub("_", "")
    for _, name in ipairs(names) do
      if name:sub(1, #k) == k or k:sub(1, #name) == name or bare == name:gsub("_", "") or
        (#name >= 5 and one_edit(k, name)) then
        return (": did you mean '%s'?"):format(name)
      end
    end
  end
  return ": options are " .. table.concat(names, ", ")
end

-- opts (or {}) once every key and value is one the view draws
local function check_options(opts, fname, argn)
  if opts == nil then return {} end
  if type(opts) ~= "table" then
    error(("bad argument #%d to '%s' (table expected, got %s)"):format(argn or 2, fname,
      type_of(opts)), 3)
  end
  for k, v in pairs(opts) do
    local rule = OPTIONS[k]
    if not rule then
      error(("bad argument #%d to '%s' (unknown option '%s'%s)"):format(argn or 2, fname,
        tostring(k), hint(k, OPTIONS)), 3)
    end
    if not rule[1](v) then
      error(("bad argument #%d to '%s' (option '%s': %s expected, got %s)"):format(argn or 2,
        fname, k,
        rule[2], type_of(v)), 3)
    end
  end
  return opts
end

-- love.graphics behind the two callbacks, one color per kind
local function love_backend(colors, width, segments)
  local g = love.graphics
  local function with_style(kind, draw)
    local r, gr, b, a = g.getColor()
    local old_width = g.getLineWidth()
    local c = colors[kind] or colors.agent
    g.setColor(c[1], c[2], c[3], c[4] or 1)
    g.setLineWidth(width)
    draw()
    g.setColor(r, gr, b, a)
    g.setLineWidth(old_width)
  end
  local function line(x1, y1, x2, y2, kind)
    with_style(kind, function() g.line(x1, y1, x2, y2) end)
  end
  local function circle(x, y, r, kind)
    with_style(kind, function() g.circle("line", x, y, r, segments) end)
  end
  return line, circle
end

---@class steer.DebugOptions
---@field line? fun(x1: number, y1: number, x2: number, y2: number, kind: string) draws a segment (default love.graphics.line)
---@field circle? fun(x: number, y: number, r: number, kind: string) draws a circle outline (default love.graphics.circle)
---@field vector_scale? number velocity is drawn as p + v * vector_scale (default 1)
---@field force_scale? number force is drawn as p + f * force_scale (default vector_scale)
---@field wrap? number[] {w, h} of a wrapping world, for wrapped offsets (default: from world:bounds() where the library has it)
---@field colors? table<string, number[]> LÖVE colors per kind (default steer.debug.colors)
---@field line_width? number LÖVE line width (default 1; in world units under your transform)
---@field segments? integer LÖVE circle segments (default 24)

---@class steer.DebugAgentOptions
---@field feeler_length? number draw the feeler of this length and what it touches
---@field wander? boolean draw the wander circle and target
---@field neighbor_radius? number draw this radius and lines to the neighbors within it
---@field path? steer.Path draw the path and the agent's current waypoint on it
---@field arrival_radius? number radius of the waypoint circle (default 0.6)
---@field pursue? steer.Agent draw the point the agent predicts for this quarry
---@field evade? steer.Agent draw the point the agent predicts for this threat
---@field target? steer.Agent|steer.Point|steer.SharedPoint draw a line to this target: an agent, a shared point, {x, y} or {x =, y =}

--- A new debug view. Without line/circle callbacks it needs love.graphics.
---@param opts? steer.DebugOptions
---@return steer.DebugView
function sdebug.new(opts)
  opts = opts or {}
  if type(opts) ~= "table" then
    error(("bad argument #1 to 'new' (table expected, got %s)"):format(
      type_of(opts)), 2)
  end
  for k, v in pairs(opts) do
    local want = NEW_OPTIONS[k]
    if not want then
      error(("bad argument #1 to 'new' (unknown option '%s'%s)"):format(tostring(k),
        hint(k, NEW_OPTIONS)), 2)
    end
    if type(v) ~= want or (want == "number" and not (finite(v) and v >= 0)) then
      error(("bad argument #1 to 'new' (option '%s': %s expected, got %s)"):format(k,
        want == "number" and "number in [0, 1e150]" or want,
        type_of(v, true)), 2)
    end
  end
  local line, circle = opts.line, opts.circle
  if not (line and circle) then
    if line or circle then
      error("steer.debug.new: give both line and circle callbacks, or neither", 2)
    end
    if not (type(love) == "table" and love.graphics) then
      error("steer.debug.new: love.graphics is not available; " ..
        "pass line and circle callbacks", 2)
    end
    line, circle = love_backend(opts.colors or sdebug.colors,
      opts.line_width or 1, opts.segments or 24)
  end
  local view = setmetatable({
    line = line,
    circle = circle,
    vector_scale = opts.vector_scale or 1,
    force_scale = opts.force_scale or opts.vector_scale or 1,
    wrap = opts.wrap,
    show = default_show(),
    -- strong keys: a handle nobody else holds must stay watched; removed
    -- agents are dropped by draw, worlds by show_world(world, false)
    watched = {}, -- agent -> its options
    forces = {},  -- agent -> {fx, fy}
    worlds = {},  -- world -> options for all its agents
  }, View)
  return view
end

--- Draws `agent` on every view:draw of its world, with these options.
---@param agent steer.Agent
---@param opts? steer.DebugAgentOptions
function View:watch(agent, opts)
  check_handle(agent, "steer.Agent", "watch")
  self.watched[agent] = check_options(opts, "watch")
end

--- Stops drawing `agent` (unless its whole world is shown).
---@param agent steer.Agent
function View:unwatch(agent)
  check_handle(agent, "steer.Agent", "unwatch")
  self.watched[agent], self.forces[agent] = nil, nil
end

--- Whether `agent` is watched.
---@param agent steer.Agent
---@return boolean
function View:watching(agent)
  return self.watched[agent] ~= nil
end

--- Watches or unwatches `agent`; returns whether it is watched now.
---@param agent steer.Agent
---@param opts? steer.DebugAgentOptions
---@return boolean
function View:toggle(agent, opts)
  if self.watched[agent] then
    self:unwatch(agent)
    return false
  end
  check_handle(agent, "steer.Agent", "toggle")
  self.watched[agent] = check_options(opts, "toggle")
  return true
end

--- Shows (on = true) or hides every agent of `world`, plus its obstacles
--- and walls; `opts` apply to each agent not watched with options of its own.
---@param world steer.World
---@param on boolean
---@param opts? steer.DebugAgentOptions
function View:show_world(world, on, opts)
  check_handle(world, "steer.World", "show_world")
  self.worlds[world] = on and check_options(opts, "show_world", 3) or nil
end

--- Flips show_world for `world`; returns whether it is shown now.
---@param world steer.World
---@param opts? steer.DebugAgentOptions
---@return boolean
function View:toggle_world(world, opts)
  check_handle(world, "steer.World", "toggle_world")
  local on = self.worlds[world] == nil
  self:show_world(world, on, check_options(opts, "toggle_world", 2))
  return on
end

--- Remembers the steering force last applied to `agent`, to draw it.
---@param agent steer.Agent
---@param fx number
---@param fy number
function View:set_force(agent, fx, fy)
  check_handle(agent, "steer.Agent", "set_force")
  check_number(fx, "set_force", 2)
  check_number(fy, "set_force", 3)
  local f = self.forces[agent]
  if f then
    f[1], f[2] = fx, fy
  else
    self.forces[agent] = {fx, fy}
  end
end

-- {w, h} when distances in `world` wrap: the view's `wrap` option, else
-- what world:bounds() says (where the library has it)
local function wrap_of(self, world)
  if self.wrap then return self.wrap end
  if world.bounds then
    local w, h, wraps = world:bounds()
    if wraps then return {w, h} end
  end
  return nil
end

-- the shortest offset from (ax, ay) to (bx, by), wrapped on a torus {w, h}
local function offset(wrap, ax, ay, bx, by)
  local dx, dy = bx - ax, by - ay
  if wrap then
    local w, h = wrap[1], wrap[2]
    dx = dx - w * math.floor(dx / w + 0.5)
    dy = dy - h * math.floor(dy / h + 0.5)
  end
  return dx, dy
end

-- normalize(v), or (1, 0) when |v|^2 <= 1e-4: the feeler's and wander's forward
local function forward(vx, vy)
  local len2 = vx * vx + vy * vy
  if len2 <= 1e-4 then return 1, 0 end
  local len = math.sqrt(len2)
  return vx / len, vy / len
end

local function cross(ax, ay, bx, by) return ax * by - ay * bx end

-- the obstacle avoid_obstacles reacts to (same test as the library)
local function draw_threat_obstacle(self, world, wrap, a, px, py, tx, ty)
  local best, hit = math.huge, nil
  for o in world:obstacles() do
    local dx, dy = offset(wrap, o.x, o.y, tx, ty)
    local reach = o.radius + a.radius
    if dx * dx + dy * dy < reach * reach then
      local ox, oy = offset(wrap, px, py, o.x, o.y)
      local d2 = ox * ox + oy * oy
      if d2 < best then best, hit = d2, o end
    end
  end
  if hit then self.circle(hit.x, hit.y, hit.radius, "threat") end
end

-- the wall avoid_walls reacts to: the first one the feeler crosses
local function draw_threat_wall(self, world, wrap, px, py, fx, fy)
  local nearest, hit = math.huge, nil
  local seg, n = world:segments()
  for k = 0, n - 1 do
    local s = { x1 = seg[4 * k + 1], y1 = seg[4 * k + 2], x2 = seg[4 * k + 3], y2 = seg[4 * k + 4] }
    local ax, ay = s.x2 - s.x1, s.y2 - s.y1
    local qx, qy = offset(wrap, px, py, s.x1, s.y1)
    local denom = cross(fx, fy, ax, ay)
    if denom ~= 0 then
      local at = cross(qx, qy, ax, ay) / denom
      local on = cross(qx, qy, fx, fy) / denom
      if at >= 0 and at <= 1 and on >= 0 and on <= 1 and at < nearest then
        nearest, hit = at, s
      end
    end
  end
  if hit then self.line(hit.x1, hit.y1, hit.x2, hit.y2, "threat") end
end

local function draw_path(self, a, path, arrival_radius)
  local n = #path
  local x0, y0 = path:point(1)
  local px, py = x0, y0
  for i = 2, n do
    local x, y = path:point(i)
    self.line(px, py, x, y, "path")
    px, py = x, y
  end
  if path:loops() and n > 1 then self.line(px, py, x0, y0, "path") end
  local k = a:path_index(path)
  local wx, wy = path:point(k)
  self.circle(wx, wy, arrival_radius or 0.6, "waypoint")
end

-- pursue/evade aim at q + qv * T with T = distance / max_speed
local function draw_prediction(self, wrap, a, px, py, q)
  if not q.alive then return end -- the quarry is gone: nothing predicted
  local qx, qy = q:position()
  local qvx, qvy = q:velocity()
  local dx, dy = offset(wrap, px, py, qx, qy)
  local speed = a.max_speed
  local t = speed > 0 and math.sqrt(dx * dx + dy * dy) / speed or 0
  local ex, ey = px + dx + qvx * t, py + dy + qvy * t
  self.line(px, py, ex, ey, "prediction")
  self.circle(ex, ey, q.radius, "prediction")
end

--- Draws one agent's thinking now: body, velocity, force (when set_force
--- gave one) and whatever `opts` ask for. Parts hidden in view.show are skipped.
---@param agent steer.Agent
---@param opts? steer.DebugAgentOptions
function View:draw_agent(agent, opts)
  opts = opts and check_options(opts, "draw_agent", 2) or self.watched[agent] or {}
  local show = self.show
  local a = agent
  local px, py = a:position()
  local vx, vy = a:velocity()
  local world = a:world()
  local wrap = wrap_of(self, world)
  if show.agent then self.circle(px, py, a.radius, "agent") end
  if show.velocity then
    local s = self.vector_scale
    self.line(px, py, px + vx * s, py + vy * s, "velocity")
  end
  local f = self.forces[a]
  if show.force and f then
    local s = self.force_scale
    self.line(px, py, px + f[1] * s, py + f[2] * s, "force")
  end
  local feeler = opts.feeler_length
  if show.feelers and feeler then
    local hx, hy = forward(vx, vy)
    local tx, ty = px + hx * feeler, py + hy * feeler
    self.line(px, py, tx, ty, "feeler")
    draw_threat_obstacle(self, world, wrap, a, px, py, tx, ty)
    draw_threat_wall(self, world, wrap, px, py, hx * feeler, hy * feeler)
  end
  if show.wander and opts.wander then
    local hx, hy = forward(vx, vy)
    local d, r, theta = a.wander_distance, a.wander_radius, a.wander_angle
    local cx, cy = px + hx * d, py + hy * d
    self.line(px, py, cx, cy, "wander")
    self.circle(cx, cy, r, "wander")
    local wx, wy = cx + math.cos(theta) * r, cy + math.sin(theta) * r
    self.circle(wx, wy, r * 0.15, "wander_target")
  end
  local nr = opts.neighbor_radius
  if show.neighbors and nr then
    self.circle(px, py, nr, "neighbor_radius")
    local near = {}
    for b in a:neighbors(nr) do near[#near + 1] = b end
    table.sort(near, function(p, q) return p.id < q.id end) -- a stable order
    for _, b in ipairs(near) do
      local qx, qy = b:position()
      local dx, dy = offset(wrap, px, py, qx, qy)
      self.line(px, py, px + dx, py + dy, "neighbor")
    end
  end
  if show.path and opts.path then draw_path(self, a, opts.path, opts.arrival_radius) end
  if show.prediction then
    if opts.pursue then draw_prediction(self, wrap, a, px, py, opts.pursue) end
    if opts.evade then draw_prediction(self, wrap, a, px, py, opts.evade) end
  end
  local t = opts.target
  if show.target and t then
    local tx, ty
    if steer_type(t) == "steer.Agent" then                 -- an agent, while alive
      if t.alive then tx, ty = t:position() end
    elseif t[1] ~= nil then tx, ty = t[1], t[2]            -- {x, y}
    else tx, ty = t.x, t.y end                             -- {x =, y =}, a shared point
    if tx then self.line(px, py, tx, ty, "target") end
  end
end

--- Draws the world's obstacles (circles) and walls (segments).
---@param world steer.World
function View:draw_geometry(world)
  if self.show.obstacles then
    for o in world:obstacles() do self.circle(o.x, o.y, o.radius, "obstacle") end
  end
  if self.show.walls then
    local seg, n = world:segments()
    for k = 0, n - 1 do
      self.line(seg[4 * k + 1], seg[4 * k + 2], seg[4 * k + 3], seg[4 * k + 4], "wall")
    end
  end
end

--- Draws `world` as toggled: when shown, its obstacles, walls and every
--- agent; otherwise only its watched agents (in id order).
---@param world steer.World
function View:draw(world)
  check_handle(world, "steer.World", "draw")
  local all = self.worlds[world]
  if all then
    self:draw_geometry(world)
    for a in world:agents() do self:draw_agent(a, self.watched[a] or all) end
    return
  end
  local list, dead = {}, {}
  for a, opts in pairs(self.watched) do
    if not a.alive then
      dead[#dead + 1] = a
    elseif a:world() == world then
      list[#list + 1] = {a, opts}
    end
  end
  for _, a in ipairs(dead) do self.watched[a], self.forces[a] = nil, nil end
  table.sort(list, function(p, q) return p[1].id < q[1].id end)
  for _, item in ipairs(list) do self:draw_agent(item[1], item[2]) end
end

return sdebug
