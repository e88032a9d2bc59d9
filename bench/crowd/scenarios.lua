--- bench/crowd/scenarios.lua - the starts, goals and obstacles of the crowd
-- benchmark, the metrics, and the file the RVO2 driver reads.
local S = {}

S.PARAMS = { dt = 0.25, radius = 1.5, max_speed = 2, neighbor_radius = 15, max_neighbors = 10,
             horizon = 10, obstacle_horizon = 10 }

-- the LCG of steer's generators, so that seeds mean the same everywhere
local function rng(seed)
  local s = seed
  return function()
    s = (s * 1103515245 + 12345) % 4294967296
    return -1 + 2 * (s / 4294967295)
  end
end

function S.make(kind, n, seed)
  local jitter = rng(seed)
  local sc = { agents = {}, polygons = {} }
  local function add(x, y, gx, gy)
    sc.agents[#sc.agents + 1] = { x = x + 0.1 * jitter(), y = y + 0.1 * jitter(), gx = gx, gy = gy }
  end
  if kind == "circle" then
    for i = 0, n - 1 do
      local t = 2 * math.pi * i / n
      add(200 * math.cos(t), 200 * math.sin(t), -200 * math.cos(t), -200 * math.sin(t))
    end
  else -- four blocks of 5 x 5, spacing 10, to the opposite corner
    for i = 0, 4 do
      for j = 0, 4 do
        local ox, oy = 55 + i * 10, 55 + j * 10
        add(ox, oy, -ox, -oy)
        add(-ox, oy, ox, -oy)
        add(ox, -oy, -ox, oy)
        add(-ox, -oy, ox, oy)
      end
    end
    -- four squares of side 30 between the blocks and the centre
    for _, c in ipairs({ { 1, 1 }, { -1, 1 }, { 1, -1 }, { -1, -1 } }) do
      local x0, x1 = c[1] > 0 and 10 or -40, c[1] > 0 and 40 or -10
      local y0, y1 = c[2] > 0 and 10 or -40, c[2] > 0 and 40 or -10
      local poly = { { x0, y0 }, { x1, y0 }, { x1, y1 }, { x0, y1 } } -- counter-clockwise
      sc.polygons[#sc.polygons + 1] = poly
    end
  end
  return sc
end

function S.write(sc, file, cap)
  local P = S.PARAMS
  local f = assert(io.open(file, "w"))
  f:write(("%d %d %d %.17g %.17g %.17g %.17g %d %.17g %.17g %.17g\n"):format(#sc.agents,
    #sc.polygons, cap, P.dt, P.radius, P.max_speed, P.neighbor_radius, P.max_neighbors,
    P.horizon, P.obstacle_horizon, P.max_speed * P.dt))
  for _, a in ipairs(sc.agents) do
    f:write(("%.17g %.17g %.17g %.17g\n"):format(a.x, a.y, a.gx, a.gy))
  end
  for _, poly in ipairs(sc.polygons) do
    f:write(#poly)
    for _, p in ipairs(poly) do f:write((" %.17g %.17g"):format(p[1], p[2])) end
    f:write("\n")
  end
  f:close()
end

-- ---- metrics (the RVO2 driver computes the same) -----------------------------

--- offset: how far the simulation shifted the scene (subtracted here)
function S.metrics_new(sc, offset)
  -- step: steps taken; last_deep: the last step with a deep pair (0: none)
  local m = { sc = sc, offset = offset or 0, overlap = 0, deep = 0, max_pen = 0, steps = -1, dv = 0, dv_n = 0,
              step = 0, last_deep = 0,
              finite = true, x = {}, y = {}, vx = {}, vy = {}, len = {} }
  for i, a in ipairs(sc.agents) do
    m.x[i], m.y[i], m.vx[i], m.vy[i], m.len[i] = a.x, a.y, 0, 0, 0
  end
  return m
end

local floor, sqrt = math.floor, math.sqrt
local CONTACT = 2 * S.PARAMS.radius

--- After a step: returns true once every agent is within 1 of its goal.
function S.metrics_step(m, agents)
  m.step = m.step + 1
  local x, y, vx, vy, len = m.x, m.y, m.vx, m.vy, m.len
  local arrived = true
  local cells = {}
  local off = m.offset
  for i, h in ipairs(agents) do
    local px, py, qx, qy = h.x - off, h.y - off, h.vx, h.vy
    if px ~= px or qx ~= qx or py ~= py or qy ~= qy then m.finite = false end
    local dx, dy = qx - vx[i], qy - vy[i]
    m.dv = m.dv + sqrt(dx * dx + dy * dy)
    m.dv_n = m.dv_n + 1
    dx, dy = px - x[i], py - y[i]
    len[i] = len[i] + sqrt(dx * dx + dy * dy)
    x[i], y[i], vx[i], vy[i] = px, py, qx, qy
    local a = m.sc.agents[i]
    dx, dy = a.gx - px, a.gy - py
    if dx * dx + dy * dy > 1 then arrived = false end
    local key = floor(px / CONTACT) * 65536 + floor(py / CONTACT)
    local c = cells[key]
    if not c then c = {}; cells[key] = c end
    c[#c + 1] = i
  end
  -- overlapping pairs through a grid of cells CONTACT wide
  for i = 1, #agents do
    local cx, cy = floor(x[i] / CONTACT), floor(y[i] / CONTACT)
    for ox = -1, 1 do
      for oy = -1, 1 do
        local c = cells[(cx + ox) * 65536 + cy + oy]
        if c then
          for _, j in ipairs(c) do
            if j > i then
              local dx, dy = x[i] - x[j], y[i] - y[j]
              local pen = CONTACT - sqrt(dx * dx + dy * dy)
              if pen > 0 then
                m.overlap = m.overlap + 1
                if pen > 0.1 then m.deep = m.deep + 1; m.last_deep = m.step end
                if pen > m.max_pen then m.max_pen = pen end
              end
            end
          end
        end
      end
    end
  end
  return arrived
end

--- Whether some pair of starts already overlaps by more than 0.1 (the
-- circle of 1,000: 1.26 apart for bodies 3 wide).
function S.starts_deep(sc)
  local a = sc.agents
  for i = 1, #a do
    for j = i + 1, #a do
      local dx, dy = a[i].x - a[j].x, a[i].y - a[j].y
      if CONTACT - sqrt(dx * dx + dy * dy) > 0.1 then return true end
    end
  end
  return false
end

function S.metrics_done(m, ms)
  local ratio = 0
  for i, a in ipairs(m.sc.agents) do
    local straight = sqrt((a.gx - a.x) ^ 2 + (a.gy - a.y) ^ 2)
    ratio = ratio + (straight > 0 and m.len[i] / straight or 1)
  end
  return { overlap = m.overlap, deep = m.deep, last_deep = m.last_deep, max_pen = m.max_pen, steps = m.steps,
           dv = m.dv / math.max(1, m.dv_n), len = ratio / #m.sc.agents, ms = ms, finite = m.finite }
end

return S
