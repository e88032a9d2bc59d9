--- Contestant (c): the fastest pure Lua we could write for the boids step.
--
-- Flat arrays of numbers, a grid rebuilt every step by counting sort into
-- preallocated arrays (a snapshot sorted by cell, so a 3x3 block of cells is
-- at most nine, usually three, contiguous runs), everything inlined into one
-- function with locals, and no table created per step. The same code runs
-- under Lua 5.4 and LuaJIT. Operation order: bench/workload.lua.
local floor, sqrt = math.floor, math.sqrt

local M = {
  name = "tuned",
  title = "(c) tuned pure Lua",
}

function M.available() return true end

local function filled(n, v)
  local t = {}
  for i = 1, n do t[i] = v end
  return t
end

local Sim = {}
Sim.__index = Sim

function M.new(st)
  local n, L = st.n, st.L
  local nc = floor(L / 5)
  assert(nc >= 3, "torus too small for a 3x3 cell neighborhood")
  local s = setmetatable({
    n = n, L = L, half = L * 0.5, nc = nc, cell = L / nc,
    x = filled(n, 0.0), y = filled(n, 0.0), vx = filled(n, 0.0), vy = filled(n, 0.0),
    sx = filled(n, 0.0), sy = filled(n, 0.0), svx = filled(n, 0.0), svy = filled(n, 0.0),
    agent_at = filled(n, 0), cell_of = filled(n, 0),
    first = filled(nc * nc + 1, 0), fill = filled(nc * nc, 0),
    lo = filled(9, 0), hi = filled(9, 0),
  }, Sim)
  for i = 1, n do
    s.x[i], s.y[i], s.vx[i], s.vy[i] = st.x[i], st.y[i], st.vx[i], st.vy[i]
  end
  return s
end

function Sim:state()
  local x, y, vx, vy = {}, {}, {}, {}
  for i = 1, self.n do
    x[i], y[i], vx[i], vy[i] = self.x[i], self.y[i], self.vx[i], self.vy[i]
  end
  return x, y, vx, vy
end

function Sim:step()
  local n, L, half, nc, cell = self.n, self.L, self.half, self.nc, self.cell
  local x, y, vx, vy = self.x, self.y, self.vx, self.vy
  local sx, sy, svx, svy = self.sx, self.sy, self.svx, self.svy
  local agent_at, cell_of, first, fill = self.agent_at, self.cell_of, self.first, self.fill
  local lo, hi = self.lo, self.hi
  local cells = nc * nc

  -- counting sort by cell; a cell's agents keep increasing index order
  for c = 1, cells do fill[c] = 0 end
  for i = 1, n do
    local cx, cy = floor(x[i] / cell), floor(y[i] / cell)
    if cx >= nc then cx = nc - 1 end
    if cy >= nc then cy = nc - 1 end
    local c = cy * nc + cx + 1
    cell_of[i] = c
    fill[c] = fill[c] + 1
  end
  local at = 1
  for c = 1, cells do
    local count = fill[c]
    first[c], fill[c] = at, at
    at = at + count
  end
  first[cells + 1] = at
  for i = 1, n do
    local c = cell_of[i]
    local k = fill[c]
    fill[c] = k + 1
    sx[k], sy[k], svx[k], svy[k], agent_at[k] = x[i], y[i], vx[i], vy[i], i
  end

  for cy = 0, nc - 1 do
    for cx = 0, nc - 1 do
      local c = cy * nc + cx + 1
      local k0, k1 = first[c], first[c + 1] - 1
      if k0 <= k1 then
        -- runs [lo, hi) of the 3x3 block in canonical order, touching ones merged
        local nr = 0
        for oy = -1, 1 do
          local row = ((cy + oy) % nc) * nc + 1
          for ox = -1, 1 do
            local cc = row + (cx + ox) % nc
            local a, z = first[cc], first[cc + 1]
            if a < z then
              if nr > 0 and hi[nr] == a then
                hi[nr] = z
              else
                nr = nr + 1
                lo[nr], hi[nr] = a, z
              end
            end
          end
        end
        -- a block that does not wrap around the torus spans less than two
        -- cells (< 20 <= L/2 with 4+ cells per axis): no offset can wrap
        local inner = nc >= 4 and cx >= 1 and cx <= nc - 2 and cy >= 1 and cy <= nc - 2
        for k = k0, k1 do
          local px, py, pvx, pvy = sx[k], sy[k], svx[k], svy[k]
          local ns, sepx, sepy = 0, 0.0, 0.0
          local na, ax, ay, cmx, cmy = 0, 0.0, 0.0, 0.0, 0.0
          for r = 1, nr do
            if inner then
              -- same loop without the wrap tests, which cannot fire here
              for j = lo[r], hi[r] - 1 do
                if j ~= k then
                  local dx, dy = sx[j] - px, sy[j] - py
                  local d2 = dx * dx + dy * dy
                  if d2 <= 25 then
                    na = na + 1
                    ax, ay = ax + svx[j], ay + svy[j]
                    cmx, cmy = cmx + dx, cmy + dy
                    if d2 < 2.25 and sqrt(d2) > 1e-5 then
                      ns = ns + 1
                      sepx, sepy = sepx - dx / d2, sepy - dy / d2
                    end
                  end
                end
              end
            else
              for j = lo[r], hi[r] - 1 do
                if j ~= k then
                  local dx = sx[j] - px
                  if dx > half then dx = dx - L elseif dx < -half then dx = dx + L end
                  local dy = sy[j] - py
                  if dy > half then dy = dy - L elseif dy < -half then dy = dy + L end
                  local d2 = dx * dx + dy * dy
                  if d2 <= 25 then
                    na = na + 1
                    ax, ay = ax + svx[j], ay + svy[j]
                    cmx, cmy = cmx + dx, cmy + dy
                    if d2 < 2.25 and sqrt(d2) > 1e-5 then
                      ns = ns + 1
                      sepx, sepy = sepx - dx / d2, sepy - dy / d2
                    end
                  end
                end
              end
            end
          end
          local fx, fy = 0.0, 0.0
          if ns > 0 then sepx, sepy = sepx / ns, sepy / ns end
          if na > 0 then
            local alix, aliy = ax / na - pvx, ay / na - pvy
            local mx, my = cmx / na, cmy / na
            local len = sqrt(mx * mx + my * my)
            local cohx, cohy = -pvx, -pvy
            if len > 1e-5 then
              cohx, cohy = (mx / len) * 2.5 - pvx, (my / len) * 2.5 - pvy
            end
            fx, fy = 1.5 * sepx + alix + cohx, 1.5 * sepy + aliy + cohy
          else
            fx, fy = 1.5 * sepx, 1.5 * sepy
          end
          local f2 = fx * fx + fy * fy
          if f2 > 16 then
            local s = 4 / sqrt(f2)
            fx, fy = fx * s, fy * s
          end
          local nvx, nvy = pvx + fx * 0.1, pvy + fy * 0.1
          local v2 = nvx * nvx + nvy * nvy
          if v2 > 6.25 then
            local s = 2.5 / sqrt(v2)
            nvx, nvy = nvx * s, nvy * s
          end
          local nx, ny = px + nvx * 0.1, py + nvy * 0.1
          -- wrap into [0, L): one exact subtraction or addition (see C)
          if nx >= L then nx = nx - L
          elseif nx < 0 then nx = nx + L; if nx >= L then nx = 0.0 end end
          if ny >= L then ny = ny - L
          elseif ny < 0 then ny = ny + L; if ny >= L then ny = 0.0 end end
          local i = agent_at[k]
          x[i], y[i], vx[i], vy[i] = nx, ny, nvx, nvy
        end
      end
    end
  end
end

return M
