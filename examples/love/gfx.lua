-- Drawing shared by the scenes. Scenes draw in world units under a camera
-- (scale + offset). Agents are warm colors and nothing else is: the
-- screenshot test finds agents by that.
local gfx = {}

local lg = love.graphics
local steer = require "steer"
local has_ffi, ffi = pcall(require, "ffi")

--- Whether crowds are drawn from world:columns() (LuaJIT with steer's FFI
--- path on; LÖVE's JIT can be off on some platforms).
gfx.zero_copy = has_ffi and steer.ffi and true or false

gfx.background = {0.07, 0.08, 0.10}
gfx.colors = {
  boid = {1.0, 0.66, 0.22},
  pursuer = {1.0, 0.45, 0.15},
  evader = {1.0, 0.82, 0.30},
  guard = {1.0, 0.55, 0.18},
  player = {0.3, 0.85, 1.0},
  obstacle = {0.17, 0.21, 0.30},
  obstacle_edge = {0.36, 0.44, 0.60},
  wall = {0.62, 0.64, 0.70},
  path = {0.25, 0.55, 0.45},
  text = {0.92, 0.93, 0.95},
  dim = {0.55, 0.58, 0.64},
}

--- A camera: `scale` pixels per world unit, world (0, 0) at pixel (ox, oy).
function gfx.camera(scale, ox, oy)
  return { scale = scale, ox = ox or 0, oy = oy or 0 }
end

function gfx.push(cam)
  lg.push()
  lg.translate(cam.ox, cam.oy)
  lg.scale(cam.scale)
  lg.setLineWidth(1.5 / cam.scale)
end

function gfx.pop()
  lg.pop()
  lg.setLineWidth(1)
end

--- Screen pixel -> world point.
function gfx.to_world(cam, sx, sy)
  return (sx - cam.ox) / cam.scale, (sy - cam.oy) / cam.scale
end

--- A triangle of length `size` pointing along the agent's facing: its
--- angle once it turns (a program with turn = "velocity" or angular
--- entries, a turn limit), else its velocity.
function gfx.agent(a, size)
  local x, y = a:position()
  local vx, vy = a:velocity()
  local len = math.sqrt(vx * vx + vy * vy)
  local hx, hy = 1, 0
  local angle = a.angle
  if angle ~= 0 or a.angular_velocity ~= 0 or a.max_turn_rate < steer.limit then
    hx, hy = math.cos(angle), math.sin(angle)
  elseif len > 1e-3 then
    hx, hy = vx / len, vy / len
  end
  local s = size * 0.5
  lg.polygon("fill",
    x + hx * s, y + hy * s,
    x - hx * s - hy * s * 0.6, y - hy * s + hx * s * 0.6,
    x - hx * s + hy * s * 0.6, y - hy * s - hx * s * 0.6)
end

--- Every agent of `world` (except those `skip` returns true for).
function gfx.agents(world, color, size, skip)
  lg.setColor(color)
  for a in world:agents() do
    if not (skip and skip(a)) then gfx.agent(a, size) end
  end
end

-- A crowd's triangles in one mesh, refilled each frame; one per world.
local meshes = setmetatable({}, { __mode = "k" })

local function crowd_mesh(world, n)
  local m = meshes[world]
  if m and m.capacity >= n then return m end
  local capacity = math.max(n, m and m.capacity * 2 or 1024)
  local data = love.data.newByteData(capacity * 3 * 2 * 4) -- 3 vertices of 2 floats
  m = {
    capacity = capacity,
    data = data,
    xy = ffi.cast("float *", data.getFFIPointer and data:getFFIPointer() or data:getPointer()),
    mesh = lg.newMesh({ { "VertexPosition", "float", 2 } }, capacity * 3,
      "triangles", "stream"),
  }
  meshes[world] = m
  return m
end

--- Every agent of `world` as gfx.agent draws it, in one draw call. Under
--- LuaJIT the triangles come straight from the world's arrays
--- (world:columns(): no per-agent calls); elsewhere this is gfx.agents.
function gfx.crowd(world, color, size)
  if not (gfx.zero_copy and world.columns) then return gfx.agents(world, color, size) end
  local x, y, vx, vy, n = world:columns()
  if n == 0 then return end
  local m = crowd_mesh(world, n)
  local xy, s, w = m.xy, size * 0.5, size * 0.3
  for i = 0, n - 1 do
    local px, py, hx, hy = x[i], y[i], vx[i], vy[i]
    local len = math.sqrt(hx * hx + hy * hy)
    if len > 1e-3 then hx, hy = hx / len, hy / len else hx, hy = 1, 0 end
    local bx, by = px - hx * s, py - hy * s -- the middle of the base
    local k = i * 6
    xy[k], xy[k + 1] = px + hx * s, py + hy * s
    xy[k + 2], xy[k + 3] = bx - hy * w, by + hx * w
    xy[k + 4], xy[k + 5] = bx + hy * w, by - hx * w
  end
  m.mesh:setVertices(m.data, 1, n * 3)
  m.mesh:setDrawRange(1, n * 3)
  lg.setColor(color)
  lg.draw(m.mesh)
end

--- world:step(dt). A steer.debug `view` (optional) is shown, as the force
--- of each agent it watches, the change of velocity per second the step
--- gave it: the program's force as the pipeline applied it.
function gfx.step(world, dt, view)
  if not view then return world:step(dt) end
  local before = {}
  for a in pairs(view.watched) do
    if a.alive and a:world() == world then before[a] = {a:velocity()} end
  end
  world:step(dt)
  for a, v in pairs(before) do
    local vx, vy = a:velocity()
    view:set_force(a, (vx - v[1]) / dt, (vy - v[2]) / dt)
  end
end

function gfx.obstacles(world)
  for o in world:obstacles() do
    lg.setColor(gfx.colors.obstacle)
    lg.circle("fill", o.x, o.y, o.radius, 48)
    lg.setColor(gfx.colors.obstacle_edge)
    lg.circle("line", o.x, o.y, o.radius, 48)
  end
end

function gfx.walls(world, width)
  lg.setColor(gfx.colors.wall)
  local old = lg.getLineWidth()
  lg.setLineWidth(width or old * 3)
  local seg, n = world:segments() -- polygon and tile-map edges too
  for k = 0, n - 1 do lg.line(seg[4 * k + 1], seg[4 * k + 2], seg[4 * k + 3], seg[4 * k + 4]) end
  lg.setLineWidth(old)
end

--- The path as a dim polyline with a dot per waypoint.
function gfx.path(path)
  lg.setColor(gfx.colors.path)
  local n = #path
  local px, py = path:point(1)
  local x0, y0 = px, py
  for i = 1, n do
    local x, y = path:point(i)
    if i > 1 then lg.line(px, py, x, y) end
    lg.circle("fill", x, y, 0.25, 12)
    px, py = x, y
  end
  if path:loops() then lg.line(px, py, x0, y0) end
end

--- A world-space rectangle outline (a bounded world's edge).
function gfx.frame(w, h)
  lg.setColor(0.2, 0.22, 0.27)
  lg.rectangle("line", 0, 0, w, h)
end

--- Text in screen pixels.
function gfx.text(s, x, y, color)
  lg.setColor(color or gfx.colors.text)
  lg.print(s, x, y)
end

return gfx
