-- Renders the trajectories of the textbook behaviors to SVG, without LÖVE:
--   lua5.4 tools/pictures.lua [OUTDIR]      (make pictures: docs/img)
-- Each picture runs a small scene with the steer module at a fixed dt and
-- draws the agents' paths, with a dot every DOT seconds (dense dots: slow).
local steer = require "steer"

local outdir = arg[1] or "docs/img"
local DT = 1 / 30
local DOT = 0.25

-- ---- a tiny SVG canvas in world units ----------------------------------------

local Canvas = {}
Canvas.__index = Canvas

local function num(v) return (("%.2f"):format(v):gsub("%.?0+$", "")) end

local function esc(s)
  return (s:gsub("&", "&amp;"):gsub("<", "&lt;"):gsub(">", "&gt;"))
end

-- the caption cut into lines of about `width` pixels (11 px text)
local function wrap_words(text, width)
  local lines, line = {}, ""
  for word in text:gmatch("%S+") do
    local next_line = line == "" and word or line .. " " .. word
    if #next_line * 6.2 > width and line ~= "" then
      lines[#lines + 1] = line
      line = word
    else
      line = next_line
    end
  end
  lines[#lines + 1] = line
  return lines
end

--- A w x h world-unit picture at `scale` pixels per unit, with a title
-- and a caption above the world.
local function canvas(title, caption, w, h, scale)
  local lines = wrap_words(caption, w * scale - 20)
  local c = setmetatable({ w = w, h = h, s = scale, top = 28 + 14 * #lines, out = {} }, Canvas)
  local pw, ph = w * scale, h * scale + c.top
  c:raw(('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
    .. 'viewBox="0 0 %d %d" font-family="DejaVu Sans, Verdana, sans-serif">')
    :format(pw, ph, pw, ph))
  c:raw(('<rect width="%d" height="%d" fill="#fbfbfd" stroke="#d0d4dc"/>'):format(pw, ph))
  c:raw(('<text x="10" y="20" font-size="15" font-weight="bold" fill="#1d2230">%s</text>')
    :format(esc(title)))
  for i, line in ipairs(lines) do
    c:raw(('<text x="10" y="%d" font-size="11" fill="#5a6070">%s</text>')
      :format(22 + 14 * i, esc(line)))
  end
  -- everything below is drawn in the world area only
  c:raw(('<clipPath id="world"><rect x="0" y="%d" width="%d" height="%d"/></clipPath>')
    :format(c.top, pw, ph - c.top))
  c:raw('<g clip-path="url(#world)">')
  -- a light grid, one line every 5 units
  for gx = 5, w - 1e-9, 5 do
    c:raw(('<line x1="%s" y1="%d" x2="%s" y2="%d" stroke="#eceef3"/>')
      :format(num(gx * scale), c.top, num(gx * scale), ph))
  end
  for gy = 5, h - 1e-9, 5 do
    c:raw(('<line x1="0" y1="%s" x2="%d" y2="%s" stroke="#eceef3"/>')
      :format(num(c.top + gy * scale), pw, num(c.top + gy * scale)))
  end
  return c
end

function Canvas:raw(s) self.out[#self.out + 1] = s end
function Canvas:x(x) return num(x * self.s) end
function Canvas:y(y) return num(self.top + y * self.s) end

--- A polyline through points {{x, y}, ...}; `dash` optional.
function Canvas:polyline(points, color, width, dash)
  local parts = {}
  for i, p in ipairs(points) do parts[i] = self:x(p[1]) .. "," .. self:y(p[2]) end
  self:raw(('<polyline points="%s" fill="none" stroke="%s" stroke-width="%s"%s '
    .. 'stroke-linejoin="round" stroke-linecap="round"/>'):format(table.concat(parts, " "),
    color, num(width or 2), dash and (' stroke-dasharray="%s"'):format(dash) or ""))
end

function Canvas:circle(x, y, r, fill, stroke, dash)
  self:raw(('<circle cx="%s" cy="%s" r="%s" fill="%s" stroke="%s"%s/>'):format(
    self:x(x), self:y(y), num(r * self.s), fill or "none", stroke or "none",
    dash and (' stroke-dasharray="%s"'):format(dash) or ""))
end

--- A dot (radius in pixels).
function Canvas:dot(x, y, px, color)
  self:raw(('<circle cx="%s" cy="%s" r="%s" fill="%s"/>'):format(self:x(x), self:y(y),
    num(px), color))
end

--- A target marker: a cross in a ring.
function Canvas:target(x, y, color)
  local s = 0.45
  self:circle(x, y, s, "none", color)
  self:polyline({ {x - s * 1.5, y}, {x + s * 1.5, y} }, color, 1.5)
  self:polyline({ {x, y - s * 1.5}, {x, y + s * 1.5} }, color, 1.5)
end

--- A triangle at (x, y) pointing along (dx, dy), `size` units long.
function Canvas:arrow(x, y, dx, dy, size, color)
  local hx, hy = steer.normalize(dx, dy)
  if hx == 0 and hy == 0 then hx = 1 end
  local s = size / 2
  local pts = {
    {x + hx * s, y + hy * s},
    {x - hx * s - hy * s * 0.6, y - hy * s + hx * s * 0.6},
    {x - hx * s + hy * s * 0.6, y - hy * s - hx * s * 0.6},
  }
  local parts = {}
  for i, p in ipairs(pts) do parts[i] = self:x(p[1]) .. "," .. self:y(p[2]) end
  self:raw(('<polygon points="%s" fill="%s"/>'):format(table.concat(parts, " "), color))
end

function Canvas:label(x, y, s, color)
  self:raw(('<text x="%s" y="%s" font-size="11" fill="%s">%s</text>'):format(
    self:x(x), self:y(y), color or "#3a4050", esc(s)))
end

function Canvas:save(name)
  self:raw("</g></svg>")
  local path = outdir .. "/" .. name
  local f = assert(io.open(path, "w"))
  f:write(table.concat(self.out, "\n"), "\n")
  f:close()
  print("wrote " .. path)
end

-- ---- recording trajectories ------------------------------------------------------

local COLORS = { "#e8711a", "#2a7fd4", "#2ca05a", "#b03ab5", "#c9a400", "#d43a3a" }
local OBSTACLE_FILL, OBSTACLE_EDGE = "#dfe4ee", "#8b96ad"

--- Runs `steps` steps of dt; `step()` applies every force. Returns the
-- trails of `agents`: trails[k] = {{x, y, vx, vy}, ...}, one per step.
local function record(agents, steps, step)
  local trails = {}
  for k, a in ipairs(agents) do trails[k] = { {a.x, a.y, a.vx, a.vy} } end
  for _ = 1, steps do
    step()
    for k, a in ipairs(agents) do
      local t = trails[k]
      t[#t + 1] = {a.x, a.y, a.vx, a.vy}
    end
  end
  return trails
end

--- Draws a trail: the line, a dot every DOT seconds and the final heading.
-- `wrap` (w, h) breaks the line where a torus wrapped it.
local function draw_trail(c, trail, color, wrap_w, wrap_h)
  local piece = {}
  local every = math.floor(DOT / DT + 0.5)
  for i, p in ipairs(trail) do
    local prev = trail[i - 1]
    if prev and wrap_w and (math.abs(p[1] - prev[1]) > wrap_w / 2 or
        math.abs(p[2] - prev[2]) > wrap_h / 2) then
      if #piece > 1 then c:polyline(piece, color, 2) end
      piece = {}
    end
    piece[#piece + 1] = p
  end
  if #piece > 1 then c:polyline(piece, color, 2) end
  for i = 1, #trail, every do c:dot(trail[i][1], trail[i][2], 2.6, color) end
  local last = trail[#trail]
  c:arrow(last[1], last[2], last[3], last[4], 0.9, color)
end

local function draw_obstacles(c, world)
  for o in world:obstacles() do
    c:circle(o.x, o.y, o.radius, OBSTACLE_FILL, OBSTACLE_EDGE)
  end
end

-- ---- the pictures -------------------------------------------------------------

local pictures = {}

function pictures.seek()
  local world = steer.world{}
  local a = world:add{ x = 2, y = 12, vx = 0, vy = -4, max_speed = 5, max_force = 4 }
  local tx, ty = 18, 6
  local trails = record({a}, 270, function()
    local fx, fy = a:seek(tx, ty)
    a:apply(fx, fy, DT)
  end)
  local c = canvas("seek", "starts moving up; max_speed 5, max_force 4: seek never slows down, so it overshoots the target, turns back and swings through it again and again (9 s)", 24, 16, 22)
  c:target(tx, ty, "#1d2230")
  draw_trail(c, trails[1], COLORS[1])
  c:save("behavior-seek.svg")
end

function pictures.flee()
  local world = steer.world{}
  local tx, ty, panic = 10, 8, 6
  local agents = {}
  for k, p in ipairs{ {8, 9, 0, 2}, {12, 7.5, 0, -2}, {9.5, 5.5, 2, 0}, {11, 10, -2, 0} } do
    agents[k] = world:add{ x = p[1], y = p[2], vx = p[3], vy = p[4], max_speed = 5, max_force = 6 }
  end
  local trails = record(agents, 75, function()
    for _, a in ipairs(agents) do
      local fx, fy = a:flee(tx, ty, panic)
      a:apply(fx, fy, DT)
    end
  end)
  local c = canvas("flee", "from the cross, with panic_radius 6 (dashed): outside it the force is 0 and agents coast (2.5 s)", 20, 16, 22)
  c:circle(tx, ty, panic, "none", "#9aa3b5", "5,4")
  c:target(tx, ty, "#d43a3a")
  for k, t in ipairs(trails) do draw_trail(c, t, COLORS[k]) end
  c:save("behavior-flee.svg")
end

function pictures.arrive()
  local world = steer.world{}
  local seek = world:add{ x = 2, y = 4, vx = 3, vy = 0, max_speed = 5, max_force = 4 }
  local arrive = world:add{ x = 2, y = 12, vx = 3, vy = 0, max_speed = 5, max_force = 4 }
  local trails = record({seek, arrive}, 150, function()
    local fx, fy = seek:seek(18, 4)
    seek:apply(fx, fy, DT)
    fx, fy = arrive:arrive(18, 12, 5)
    arrive:apply(fx, fy, DT)
  end)
  local c = canvas("arrive vs seek", "top: seek overshoots the target; bottom: arrive, slowing_radius 5 (dashed), stops on it (5 s)", 24, 16, 22)
  c:target(18, 4, "#1d2230")
  c:target(18, 12, "#1d2230")
  c:circle(18, 12, 5, "none", "#9aa3b5", "5,4")
  draw_trail(c, trails[1], COLORS[2])
  draw_trail(c, trails[2], COLORS[1])
  c:label(2, 2.8, "seek", COLORS[2])
  c:label(2, 10.8, "arrive", COLORS[1])
  c:save("behavior-arrive.svg")
end

function pictures.pursue()
  local world = steer.world{}
  local quarry = world:add{ x = 2, y = 4, vx = 3, vy = 0, max_speed = 3 }
  local pursuer = world:add{ x = 6, y = 14, vx = 0, vy = -4, max_speed = 5, max_force = 10 }
  local seeker = world:add{ x = 6, y = 14, vx = 0, vy = -4, max_speed = 5, max_force = 10 }
  local caught, t = {}, 0
  local trails = record({quarry, pursuer, seeker}, 165, function()
    t = t + DT
    quarry:apply(0, 0, DT)
    for _, a in ipairs{pursuer, seeker} do
      if not caught[a] then
        local fx, fy
        if a == pursuer then fx, fy = a:pursue(quarry) else fx, fy = a:seek(quarry) end
        a:apply(fx, fy, DT)
        if steer.length(a.x - quarry.x, a.y - quarry.y) < 0.5 then caught[a] = {a.x, a.y, t} end
      end
    end
  end)
  local function took(a) return caught[a] and ("%.1f s"):format(caught[a][3]) or "more than 5.5 s" end
  local c = canvas("pursue vs seek", ("the quarry (grey) moves right at 3; pursue (orange) aims where it will be, T = distance / max_speed, and catches it in %s; seek (blue) aims where it is and takes %s")
    :format(took(pursuer), took(seeker)), 24, 16, 22)
  draw_trail(c, trails[1], "#5a6070")
  draw_trail(c, trails[3], COLORS[2])
  draw_trail(c, trails[2], COLORS[1])
  for _, a in ipairs{pursuer, seeker} do
    local p = caught[a]
    if p then c:circle(p[1], p[2], 0.7, "none", a == pursuer and COLORS[1] or COLORS[2]) end
  end
  c:save("behavior-pursue.svg")
end

function pictures.wander()
  local world = steer.world{ seed = 7 }
  local agents = {}
  for k = 1, 3 do
    agents[k] = world:add{ x = 12, y = 8, vx = math.cos(k * 2.1), vy = math.sin(k * 2.1),
      max_speed = 1.2, max_force = 2 }
  end
  local trails = record(agents, 300, function()
    for _, a in ipairs(agents) do
      local fx, fy = a:wander()
      a:apply(fx, fy, DT)
    end
  end)
  local c = canvas("wander", "three agents from one point, max_speed 1.2; the default wander_radius 1.2, wander_distance 2, wander_jitter 0.5; each agent has its own generator (10 s)", 24, 16, 22)
  for k, t in ipairs(trails) do draw_trail(c, t, COLORS[k]) end
  c:save("behavior-wander.svg")
end

function pictures.avoid_obstacles()
  local world = steer.world{}
  for _, o in ipairs{ {9, 5, 1.8}, {13, 10, 2.2}, {8, 12.5, 1.4}, {17, 4.5, 1.2} } do
    world:add_obstacle{ x = o[1], y = o[2], radius = o[3] }
  end
  local agents = {}
  for k, y in ipairs{3, 5.5, 8, 10.5, 13} do
    agents[k] = world:add{ x = 1, y = y, vx = 3, vy = 0, max_speed = 4, max_force = 6, radius = 0.4 }
  end
  local trails = record(agents, 180, function()
    local f = {}
    for k, a in ipairs(agents) do
      local ax, ay = a:avoid_obstacles(3)
      f[k] = {steer.priority(a.max_force, ax, ay, a:seek(23, a.id * 2.5 + 0.5))}
    end
    for k, a in ipairs(agents) do a:apply(f[k][1], f[k][2], DT) end
  end)
  local c = canvas("obstacle avoidance", "priority(avoid_obstacles with feeler 3, seek a point on the right); agents start heading right (6 s)", 24, 16, 22)
  draw_obstacles(c, world)
  for _, a in ipairs(agents) do c:target(23, a.id * 2.5 + 0.5, "#9aa3b5") end
  for k, t in ipairs(trails) do draw_trail(c, t, COLORS[k]) end
  c:save("behavior-avoid-obstacles.svg")
end

function pictures.flocking()
  local W, H = 40, 26
  local world = steer.world{ bounds = {W, H}, wrap = true, seed = 3, cell_size = 3 }
  local rng = 12345
  local function random() -- Park-Miller: the same picture under every VM
    rng = rng * 16807 % 2147483647 -- exact in doubles and integers alike
    return rng / 2147483647
  end
  local agents = {}
  for k = 1, 60 do
    local h = random() * 2 * math.pi
    agents[k] = world:add{ x = random() * W, y = random() * H, vx = math.cos(h) * 2,
      vy = math.sin(h) * 2, max_speed = 4, max_force = 6, radius = 0.3,
      wander_distance = 3 }
  end
  local function step()
    local f = {}
    for k, a in ipairs(agents) do
      local sx, sy = a:separation(1.2)
      local ax, ay = a:alignment(4)
      local cx, cy = a:cohesion(4)
      local wx, wy = a:wander()
      f[k] = {steer.weighted(a.max_force, sx, sy, 6, ax, ay, 1, cx, cy, 0.5, wx, wy, 0.6)}
    end
    for k, a in ipairs(agents) do a:apply(f[k][1], f[k][2], DT) end
  end
  for _ = 1, 240 do step() end -- 8 s to form flocks, then draw 3 s of trails
  local trails = record(agents, 90, step)
  local c = canvas("flocking", "60 boids on a torus: separation, alignment, cohesion (+ a little wander); the last 3 s after 8 s", W, H, 15)
  for k, t in ipairs(trails) do draw_trail(c, t, COLORS[(k - 1) % 3 + 1], W, H) end
  c:save("behavior-flocking.svg")
end

function pictures.follow()
  local world = steer.world{}
  local points = { {2, 13}, {6, 3}, {12, 12}, {17, 3}, {22, 12} }
  local path = steer.path(points)
  local agents = {}
  for k, force in ipairs{3, 6, 12} do
    agents[k] = world:add{ x = 2, y = 14, vx = 0, vy = 0, max_speed = 5, max_force = force }
  end
  local trails = record(agents, 480, function()
    for _, a in ipairs(agents) do
      local fx, fy = a:follow(path, { arrival_radius = 1 })
      a:apply(fx, fy, DT)
    end
  end)
  local c = canvas("path following", "arrival_radius 1, arriving at the last waypoint; max_force 3 (orange), 6 (blue), 12 (green); steering is desired - velocity, so velocity turns with a 1 s time constant unless max_force cuts it (16 s)", 24, 16, 22)
  c:polyline(points, "#b8c0cf", 1.5, "6,4")
  for _, p in ipairs(points) do c:circle(p[1], p[2], 1, "none", "#b8c0cf") end
  c:target(points[#points][1], points[#points][2], "#1d2230")
  for k, t in ipairs(trails) do draw_trail(c, t, COLORS[k]) end
  c:save("behavior-follow.svg")
end

-- ---- navigation (nav:path, flow fields) -------------------------------------------

local NAV_ROWS = {
  "........................",
  "..####......#######.....",
  ".....#............#.....",
  ".....#..#####.....#..##.",
  ".....#......#.....#.....",
  "..#######...#..####.....",
  "............#...........",
  ".....####...#.......###.",
  "........#...######......",
  "..##....#.........#.....",
  "...#....#####.....#..#..",
  "...#..............#..#..",
  "...#######...######..#..",
  "........................",
}

local function nav_grid()
  local cost, h = {}, #NAV_ROWS
  for r = 1, h do
    for c = 1, 24 do cost[#cost + 1] = NAV_ROWS[r]:sub(c, c) == "#" and 0 or 1 end
  end
  return steer.navgrid{ width = 24, height = h, cost = cost }
end

local function draw_cells(c, nav, fill)
  local w, h = nav:size()
  for cy = 0, h - 1 do
    for cx = 0, w - 1 do
      local color = nav:cost(cx, cy) == 0 and "#8b96ad" or (fill and fill(cx, cy))
      if color then
        c:raw(('<rect x="%s" y="%s" width="%s" height="%s" fill="%s"/>'):format(
          c:x(cx), c:y(cy), num(c.s), num(c.s), color))
      end
    end
  end
end

local function path_points(p)
  local pts = {}
  for k = 1, #p do pts[k] = { p:point(k) } end
  return pts
end

function pictures.nav_path()
  local nav = nav_grid()
  local raw, raw_len = nav:path(0.5, 13.5, 23.5, 0.5)
  local smooth, smooth_len = nav:path(0.5, 13.5, 23.5, 0.5, { smooth = true })
  local world = steer.world{}
  local a = world:add{ x = 0.5, y = 13.5, max_speed = 4, max_force = 8 }
  local trails = record({ a }, 300, function()
    local fx, fy = a:follow(smooth, { arrival_radius = 0.6, slowing_radius = 2 })
    a:apply(fx, fy, DT)
  end)
  local c = canvas("nav:path", ("A* with octile moves that never cut a blocked corner (grey, %.2f"
    .. " cells, its turning points), the same path with smooth = true (blue, %.2f: string-pulled"
    .. " through line of sight that touches no blocked cell), and an agent following it (10 s)")
    :format(raw_len, smooth_len), 24, 14, 26)
  draw_cells(c, nav)
  c:polyline(path_points(raw), "#9aa3b5", 2, "6,4")
  local sp = path_points(smooth)
  c:polyline(sp, "#2a7fd4", 2)
  for _, q in ipairs(sp) do c:dot(q[1], q[2], 3.5, "#2a7fd4") end
  c:target(23.5, 0.5, "#1d2230")
  draw_trail(c, trails[1], COLORS[1])
  c:save("nav-path.svg")
end

function pictures.nav_flow()
  local nav = nav_grid()
  local goal = { 21.5, 11.5 }
  local field = nav:flow(goal[1], goal[2])
  local far = 0
  for cy = 0, 13 do
    for cx = 0, 23 do far = math.max(far, field:distance(cx + 0.5, cy + 0.5) or 0) end
  end
  local world = steer.world{}
  local starts = { {0.5, 0.5}, {8.5, 0.5}, {23.5, 0.5}, {0.5, 13.2}, {10.5, 6.5}, {15.5, 9.5} }
  local agents = {}
  for k, s in ipairs(starts) do
    agents[k] = world:add{ x = s[1], y = s[2], max_speed = 4, max_force = 10 }
    agents[k]:set_behaviors{ { "flow", field = field, slowing_radius = 2 } }
  end
  local trails = record(agents, 330, function() world:step(DT) end)
  local c = canvas("flow field", "nav:flow(x, y): the exact octile cost to the goal of every cell"
    .. " (Dijkstra; lighter is nearer), each cell's step toward it (arrows), and agents with the"
    .. " program { \"flow\", field = f } from six starts: bilinear directions, arrival at the goal (11 s)",
    24, 14, 26)
  draw_cells(c, nav, function(cx, cy)
    local d = field:distance(cx + 0.5, cy + 0.5)
    if not d then return "#f2d9d9" end
    local t = d / far
    return ("#%02x%02x%02x"):format(math.floor(236 - 60 * t), math.floor(243 - 50 * t), 250)
  end)
  for cy = 0, 13 do
    for cx = 0, 23 do
      local dx, dy = field:direction(cx + 0.5, cy + 0.5)
      if dx ~= 0 or dy ~= 0 then
        c:polyline({ {cx + 0.5 - dx * 0.3, cy + 0.5 - dy * 0.3}, {cx + 0.5 + dx * 0.15, cy + 0.5 + dy * 0.15} },
          "#7d8aa6", 1)
        c:arrow(cx + 0.5 + dx * 0.2, cy + 0.5 + dy * 0.2, dx, dy, 0.25, "#7d8aa6")
      end
    end
  end
  c:target(goal[1], goal[2], "#1d2230")
  for k, t in ipairs(trails) do draw_trail(c, t, COLORS[k]) end
  c:save("nav-flow.svg")
end

-- issue 14's pictures live in tools/pictures_turn.lua
assert(loadfile((arg[0]:gsub("pictures%.lua$", "pictures_turn.lua"))))()(pictures,
  { steer = steer, canvas = canvas, record = record, draw_trail = draw_trail,
    colors = COLORS, dt = DT })

-- issue 15's pictures live in tools/pictures_tactics.lua
assert(loadfile((arg[0]:gsub("pictures%.lua$", "pictures_tactics.lua"))))()(pictures,
  { steer = steer, canvas = canvas, record = record, draw_trail = draw_trail,
    colors = COLORS, dt = DT })

-- tile levels' pictures (collide, whiskers, nav:path's clearance) live in tools/pictures_level.lua
assert(loadfile((arg[0]:gsub("pictures%.lua$", "pictures_level.lua"))))()(pictures,
  { steer = steer, canvas = canvas, colors = COLORS, num = num })

-- two groups of 6 crossing head-on (docs/API.md section 18): ORCA, avoid_agents,
-- separation only; the caption counts the steps with a pair deeper than 0.1
function pictures.crowds()
  local modes = {
    orca = { orca = { time_horizon = 3 } },
    avoid_agents = { { "avoid_agents", time_horizon = 3, radius = 8 } },
    separation = { { "separation", radius = 2, weight = 2 } },
  }
  for _, mode in ipairs({ "orca", "avoid_agents", "separation" }) do
    local world = steer.world{}
    local agents = {}
    for k = 0, 11 do
      local side = k < 6 and 1 or -1
      local row = k % 6
      local x, y = 20 - side * (14 + (row % 2) * 2.5), 5 + row * 1.7 + (k < 6 and 0 or 0.3)
      local a = world:add{ x = x, y = y, radius = 0.8, max_speed = 2, max_force = 8 }
      local prog = { { "arrive", target = { 20 + side * 16, y }, weight = 2 } }
      for key, v in pairs(modes[mode]) do -- entries after arrive, fields as they are
        if type(key) == "number" then prog[#prog + 1] = v else prog[key] = v end
      end
      a:set_behaviors(prog)
      agents[#agents + 1] = a
    end
    local deep = 0
    local trails = record(agents, 600, function()
      world:step(DT)
      local worst = 0
      for i = 1, #agents do
        for j = i + 1, #agents do
          local dx, dy = agents[i].x - agents[j].x, agents[i].y - agents[j].y
          worst = math.max(worst, 1.6 - math.sqrt(dx * dx + dy * dy))
        end
      end
      if worst > 0.1 then deep = deep + 1 end
    end)
    local c = canvas("crowds: " .. mode, ("two groups of 6 (radius 0.8, max_speed 2) swap sides head-on with arrive + %s; %d of 600 steps have a pair overlapping deeper than 0.1 (20 s)")
      :format(mode == "orca" and "orca = { time_horizon = 3 }" or mode, deep), 40, 18, 16)
    for k, t in ipairs(trails) do draw_trail(c, t, k <= 6 and COLORS[1] or COLORS[2]) end
    c:save("crowd-" .. mode:gsub("_", "-") .. ".svg")
  end
end

-- a jam (docs/API.md section 18.1.2): 80 agents on a circle heading for the
-- antipodes through its centre, plain ORCA against ORCA with its push; the
-- bodies are drawn where they are in the middle of the jam
function pictures.crowd_push()
  for _, push in ipairs({ false, true }) do
    local world = steer.world{}
    local agents = {}
    local n, r = 80, 40
    for k = 1, n do
      local t = 2 * math.pi * k / n + 0.001 * (k % 3)
      local a = world:add{ x = r * math.cos(t), y = r * math.sin(t), radius = 1.5, max_speed = 2, max_force = 1e6 }
      a:set_behaviors{ { "arrive", target = { -r * math.cos(t), -r * math.sin(t) }, slowing_radius = 0.5, weight = 4 },
                       orca = { time_horizon = 10, neighbor_radius = 15, push = push } }
      agents[k] = a
    end
    local deep, worst, most, bodies = 0, 0, -1, nil
    local trails = record(agents, 300, function()
      world:step(0.25) -- the crowd benchmark's step
      local now = 0
      for i = 1, n do
        for j = i + 1, n do
          local dx, dy = agents[i].x - agents[j].x, agents[i].y - agents[j].y
          now = math.max(now, 3 - math.sqrt(dx * dx + dy * dy))
        end
      end
      if now > 0.1 then deep = deep + 1 end
      worst = math.max(worst, now)
      if now > most then -- the bodies at the jam's deepest moment
        most, bodies = now, {}
        for k, a in ipairs(agents) do bodies[k] = { a.x, a.y } end
      end
    end)
    local c = canvas("crowds: " .. (push and "orca with push" or "orca"),
      ("80 agents (radius 1.5) cross a circle of radius 40 with arrive + orca%s (dt 0.25); bodies (red: deeper than 0.1) at the deepest overlap, %.2f; %d of 300 steps have a pair deeper than 0.1")
        :format(push and " = { push = true }" or "", worst, deep), 90, 90, 6)
    for k, t in ipairs(trails) do
      for _, p in ipairs(t) do p[1], p[2] = p[1] + 45, p[2] + 45 end
      draw_trail(c, t, k % 2 == 0 and COLORS[1] or COLORS[2])
    end
    -- the bodies over the trails; red: in a pair deeper than 0.1
    for i, b in ipairs(bodies) do
      local red = false
      for j, o in ipairs(bodies) do
        if j ~= i and 3 - math.sqrt((b[1] - o[1]) ^ 2 + (b[2] - o[2]) ^ 2) > 0.1 then red = true end
      end
      c:circle(b[1] + 45, b[2] + 45, 1.5, red and "#f4c7c3" or "#ffffff", red and "#c0392b" or "#5a6275")
    end
    c:save(push and "crowd-orca-push.svg" or "crowd-orca-jam.svg")
  end
end

-- ORCA's standstill (docs/API.md section 18.1.3): two agents head-on along a
-- wall, each heading for a point beside it past the other; above without
-- the detour, below with it. World y is up, the picture's down: each panel
-- is drawn flipped about its wall.
function pictures.crowd_detour()
  local c = canvas("crowds: orca's detour",
    "two agents (radius 1, max_speed 2) head-on along a wall (grey), each arriving at a point beside it past the other, with orca = { time_horizon = 10 }; 60 s. Above, detour = false: they meet, one shoves the other back and both stand there for good (bodies at the end). Below, detour = true (the default): held for 2 s, each turns 60 degrees right for 4 s and they pass",
    44, 13, 16)
  for panel, detour in ipairs({ false, true }) do
    local wall_y = panel == 1 and 5.5 or 12
    local world = steer.world{}
    world:add_wall{ x1 = -20, y1 = 0, x2 = 20, y2 = 0 }
    local agents, ends = {}, {}
    for k, x in ipairs({ -10, 10 }) do
      local a = world:add{ x = x, y = 1.2, radius = 1, max_speed = 2, max_force = 1e6 }
      a:set_behaviors{ { "arrive", target = { -x, 0.5 }, slowing_radius = 0.5, weight = 4 },
                       orca = { time_horizon = 10, neighbor_radius = 15, detour = detour } }
      agents[k] = a
    end
    local trails = record(agents, 240, function() world:step(0.25) end)
    c:polyline({ { 2, wall_y }, { 42, wall_y } }, OBSTACLE_EDGE, 3)
    for k, t in ipairs(trails) do
      for _, p in ipairs(t) do p[1], p[2], p[4] = p[1] + 22, wall_y - p[2], -p[4] end
      draw_trail(c, t, COLORS[k])
      c:target(k == 1 and 32 or 12, wall_y - 0.5, COLORS[k])
      ends[k] = t[#t]
    end
    for k, p in ipairs(ends) do c:circle(p[1], p[2], 1, "none", COLORS[k]) end
    c:label(2.5, wall_y - 4, detour and "detour = true" or "detour = false")
  end
  c:save("crowd-orca-detour.svg")
end

-- 20 agents sent to one point with orca, without and with settle: their
-- last 10 s of 40 and their bodies at the end
function pictures.crowd_settle()
  local panels, still = {}, {}
  for panel, settle in ipairs({ false, true }) do
    local world = steer.world{}
    local program = steer.program{ { "arrive", target = { 10, 0 }, slowing_radius = 4, weight = 4 },
      orca = { time_horizon = 1, settle = settle } }
    local agents = {}
    for k = 0, 19 do
      agents[k + 1] = world:add{ x = -12 + (k % 4) * 2.2, y = -4.4 + math.floor(k / 4) * 2.2,
        radius = 1, max_speed = 2 - (k % 3) * 0.2, max_force = 40, program = program }
    end
    for _ = 1, 30 / DT do world:step(DT) end
    local trails = record(agents, 10 / DT, function() world:step(DT) end)
    local n = 0
    for _, a in ipairs(agents) do if a.speed > 0.05 then n = n + 1 end end
    panels[panel], still[panel] = trails, n
  end
  local c = canvas("crowds: orca's settle",
    ("20 agents (radius 1, max_speed 1.6-2) sent to one point (cross) with arrive and orca = { time_horizon = 1 }: their last 10 s of 40 and their bodies at the end. Above, settle = false: each keeps pressing for the goal and orca turns the pressure into slides round the others; %d of 20 still move at 40 s. Below, settle = true: one touching an agent nearer the goal and at rest rests too; %d of 20 move")
      :format(still[1], still[2]), 44, 26, 16)
  for panel, trails in ipairs(panels) do
    local oy = panel == 1 and 6.5 or 19.5
    for k, t in ipairs(trails) do
      for _, p in ipairs(t) do p[1], p[2], p[4] = p[1] + 24, oy - p[2], -p[4] end
      draw_trail(c, t, COLORS[(k - 1) % #COLORS + 1])
      local e = t[#t]
      c:circle(e[1], e[2], 1, "none", COLORS[(k - 1) % #COLORS + 1])
    end
    c:target(34, oy, COLORS[1])
    c:label(1, oy - 5, panel == 1 and "settle = false" or "settle = true")
  end
  c:save("crowd-orca-settle.svg")
end

-- contain first in a priority program: wanderers kept in an arena, no clamp
function pictures.contain()
  local world = steer.world{ seed = 7 }
  local region = { { 2, 2 }, { 26, 2 }, { 26, 10 }, { 17, 15 }, { 2, 15 } }
  local agents = {}
  for k, p in ipairs{ { 6, 5, 4, 1 }, { 12, 12, -3, 2 }, { 20, 6, 3, -3 }, { 8, 9, -4, 0 },
      { 22, 9, 2, 3 }, { 15, 10, 0, -4 } } do
    local a = world:add{ x = p[1], y = p[2], vx = p[3], vy = p[4], max_speed = 4, max_force = 3,
      wander_jitter = 2 }
    a:set_behaviors{ combine = "priority", { "contain", region = region }, { "wander" } }
    agents[k] = a
  end
  local trails = record(agents, 300, function() world:step(DT) end)
  local c = canvas("contain", "first in a priority program, then wander: six agents (max_speed 4, max_force 3) stay inside the region (grey) with no clamp; each brakes at full force once its feeler, twice its stopping distance, crosses an edge, and wanders again inside (10 s)", 28, 17, 22)
  local edge = {}
  for k = 1, #region + 1 do edge[k] = region[(k - 1) % #region + 1] end
  c:polyline(edge, OBSTACLE_EDGE, 3)
  for k, t in ipairs(trails) do draw_trail(c, t, COLORS[k]) end
  c:save("level-contain.svg")
end

local order = { "seek", "flee", "arrive", "pursue", "wander", "avoid_obstacles", "contain",
  "level_collide", "level_whiskers", "flocking", "follow", "nav_path", "nav_flow", "nav_clearance", "nav_inflated", "crowds", "crowd_push", "crowd_detour", "crowd_settle", "offset_pursuit", "follow_leader",
  "formation", "formation_fit", "escort_fit", "interpose", "hide", "queue", "turn_limit", "corridor", "groups" }
for _, name in ipairs(order) do pictures[name]() end
