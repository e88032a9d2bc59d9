--- Contestant (b): boids as a LÖVE user would write them.
--
-- A table per agent ({x, y, vx, vy, ...}), a spatial hash rebuilt every frame
-- as nested tables keyed by cell coordinates (grid[cy][cx] = list of agents,
-- like bump.lua's rows of cells), small helper functions for the vector
-- math. Nothing is preallocated; every step makes fresh cell tables.
-- Operation order: bench/workload.lua, so the result matches (c) and (d).
local M = {
  name = "naive",
  title = "(b) straightforward Lua",
}

function M.available() return true end

local DT = 0.1
local SEPARATION_RADIUS, NEIGHBOR_RADIUS = 1.5, 5
local MAX_SPEED, MAX_FORCE = 2.5, 4

local function clamp(x, y, max)
  local len2 = x * x + y * y
  if len2 > max * max then
    local s = max / math.sqrt(len2)
    return x * s, y * s
  end
  return x, y
end

local function normalize(x, y)
  local len = math.sqrt(x * x + y * y)
  if len <= 1e-5 then return 0, 0 end
  return x / len, y / len
end

local Flock = {}
Flock.__index = Flock

function M.new(st)
  local flock = setmetatable({ agents = {}, size = st.L }, Flock)
  flock.cells = math.floor(st.L / NEIGHBOR_RADIUS)
  assert(flock.cells >= 3, "torus too small for a 3x3 cell neighborhood")
  flock.cell_size = st.L / flock.cells
  for i = 1, st.n do
    flock.agents[i] = { x = st.x[i], y = st.y[i], vx = st.vx[i], vy = st.vy[i], fx = 0, fy = 0 }
  end
  return flock
end

function Flock:state()
  local x, y, vx, vy = {}, {}, {}, {}
  for i, a in ipairs(self.agents) do
    x[i], y[i], vx[i], vy[i] = a.x, a.y, a.vx, a.vy
  end
  return x, y, vx, vy
end

-- shortest offset from a to b on the torus
function Flock:offset(a, b)
  local size = self.size
  local dx, dy = b.x - a.x, b.y - a.y
  if dx > size / 2 then dx = dx - size elseif dx < -size / 2 then dx = dx + size end
  if dy > size / 2 then dy = dy - size elseif dy < -size / 2 then dy = dy + size end
  return dx, dy
end

function Flock:wrap(v)
  v = math.fmod(v, self.size)
  if v < 0 then v = v + self.size end
  if v >= self.size then v = 0 end
  return v
end

function Flock:cell_of(a)
  local cx = math.min(math.floor(a.x / self.cell_size), self.cells - 1)
  local cy = math.min(math.floor(a.y / self.cell_size), self.cells - 1)
  return cx, cy
end

function Flock:build_grid()
  local grid = {}
  for _, a in ipairs(self.agents) do
    local cx, cy = self:cell_of(a)
    local row = grid[cy]
    if not row then
      row = {}
      grid[cy] = row
    end
    local cell = row[cx]
    if not cell then
      cell = {}
      row[cx] = cell
    end
    cell[#cell + 1] = a
  end
  return grid
end

function Flock:flock_force(a, grid)
  local sep_x, sep_y, sep_n = 0, 0, 0
  local vel_x, vel_y, off_x, off_y, count = 0, 0, 0, 0, 0
  local cx, cy = self:cell_of(a)
  for oy = -1, 1 do
    local row = grid[(cy + oy) % self.cells]
    if row then
      for ox = -1, 1 do
        local cell = row[(cx + ox) % self.cells]
        if cell then
          for _, b in ipairs(cell) do
            if b ~= a then
              local dx, dy = self:offset(a, b)
              local d2 = dx * dx + dy * dy
              if d2 <= NEIGHBOR_RADIUS * NEIGHBOR_RADIUS then
                vel_x, vel_y = vel_x + b.vx, vel_y + b.vy
                off_x, off_y = off_x + dx, off_y + dy
                count = count + 1
                if d2 < SEPARATION_RADIUS * SEPARATION_RADIUS and math.sqrt(d2) > 1e-5 then
                  sep_x, sep_y = sep_x - dx / d2, sep_y - dy / d2
                  sep_n = sep_n + 1
                end
              end
            end
          end
        end
      end
    end
  end
  local fx, fy = 0, 0
  if sep_n > 0 then
    fx, fy = 1.5 * (sep_x / sep_n), 1.5 * (sep_y / sep_n)
  end
  if count > 0 then
    local ali_x, ali_y = vel_x / count - a.vx, vel_y / count - a.vy
    local nx, ny = normalize(off_x / count, off_y / count)
    local coh_x, coh_y = nx * MAX_SPEED - a.vx, ny * MAX_SPEED - a.vy
    fx, fy = fx + ali_x + coh_x, fy + ali_y + coh_y
  end
  return clamp(fx, fy, MAX_FORCE)
end

function Flock:step()
  local grid = self:build_grid()
  for _, a in ipairs(self.agents) do
    a.fx, a.fy = self:flock_force(a, grid)
  end
  for _, a in ipairs(self.agents) do
    a.vx, a.vy = clamp(a.vx + a.fx * DT, a.vy + a.fy * DT, MAX_SPEED)
    a.x = self:wrap(a.x + a.vx * DT)
    a.y = self:wrap(a.y + a.vy * DT)
  end
end

return M
