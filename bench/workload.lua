--- bench/workload.lua - the boids workload shared by every contestant.
--
-- One source of truth: the parameters, the initial state (a portable 32-bit
-- LCG, so it is the same bit for bit under Lua 5.4, LuaJIT and C) and the
-- state file that carries it between processes ("%.17g" round-trips a double
-- exactly through strtod, lua_stringtonumber and LuaJIT's lj_strscan).
--
-- Canonical step (every contestant uses this operation order, so (b), (c)
-- and (d) agree bit for bit; steer may differ in the last bits):
--   from one snapshot, for each agent i at p with velocity v:
--     for each other agent j in canonical order (3x3 cells, rows dy = -1..1,
--     columns dx = -1..1, agents of a cell in increasing index; nc =
--     floor(L/5) cells per axis of side cs = L/nc, an agent's cell is
--     min(floor(x/cs), nc-1), min(floor(y/cs), nc-1)):
--       dx = xj - px; if dx > L/2 then dx = dx - L elseif dx < -L/2 then
--       dx = dx + L end (same for y); d2 = dx*dx + dy*dy
--       if d2 <= 25:  na += 1; (ax, ay) += vj; (cx, cy) += (dx, dy)
--         if d2 < 2.25 and sqrt(d2) > 1e-5: ns += 1; (sx, sy) -= (dx, dy)/d2
--     sep = ns > 0 and (sx/ns, sy/ns) or 0
--     if na > 0: ali = (ax/na - vx, ay/na - vy)
--                m = (cx/na, cy/na); len = sqrt(mx*mx + my*my)
--                coh = len > 1e-5 and ((mx/len)*2.5 - vx, ...) or (-vx, -vy)
--     f = 1.5*sep + ali + coh (left to right); if |f|^2 > 16: f = f*(4/|f|)
--   then for each agent: v = v + f*0.1; if |v|^2 > 6.25: v = v*(2.5/|v|)
--     p = p + v*0.1; wrap: x = fmod(x, L); if x < 0 then x = x + L end;
--     if x >= L then x = 0 end
local W = {}

W.DT = 0.1
W.SEP_RADIUS, W.SEP_WEIGHT = 1.5, 1.5
W.NEIGHBOR_RADIUS = 5      -- alignment and cohesion
W.MAX_SPEED, W.MAX_FORCE = 2.5, 4
W.SEED = 20240601
W.WARM_STEPS = 1000        -- flocking steps before the warm regime
W.TIMED_STEPS = 50         -- steps timed in each regime
W.CHECK_STEPS = 5          -- steps after which positions must agree to 1e-9

--- Side of the square torus for n agents (density 1/16).
function W.side(n) return math.sqrt(n) * 4 end

--- Cells per axis of the neighbor grid: as many as fit with side >= radius,
-- so a 3x3 block of cells holds every neighbor. Needs at least 3.
function W.cells(L)
  local nc = math.floor(L / W.NEIGHBOR_RADIUS)
  assert(nc >= 3, "torus too small for a 3x3 cell neighborhood")
  return nc
end

-- s = s*1103515245 + 12345 (mod 2^32), exact with doubles or 64-bit integers:
-- the multiplier is split into 16-bit halves so no product exceeds 2^53.
local A_HI, A_LO, TWO16, TWO32 = 16838, 20077, 65536, 4294967296
assert(A_HI * TWO16 + A_LO == 1103515245)

local function lcg(s)
  local hi = (s * A_HI) % TWO16
  return (s * A_LO + hi * TWO16 + 12345) % TWO32
end

--- The initial state for n agents: positions uniform in [0, L)^2, velocities
-- of uniform random direction (rejection in the unit disc, so no
-- trigonometry enters) and speed uniform in [1, 2).
function W.generate(n, seed)
  local L = W.side(n)
  local s = seed or W.SEED
  local function uniform()
    s = lcg(s)
    return s / TWO32 -- exact: s < 2^32
  end
  local x, y, vx, vy = {}, {}, {}, {}
  for i = 1, n do
    x[i] = uniform() * L
    y[i] = uniform() * L
    local ux, uy, r2
    repeat
      ux, uy = 2 * uniform() - 1, 2 * uniform() - 1
      r2 = ux * ux + uy * uy
    until r2 > 1e-4 and r2 <= 1
    local len = math.sqrt(r2)
    local speed = 1 + uniform()
    vx[i] = ux / len * speed
    vy[i] = uy / len * speed
  end
  return { n = n, L = L, x = x, y = y, vx = vx, vy = vy }
end

--- Writes a state: a header line "boids <n> <L>", then "x y vx vy" per agent.
function W.write_state(path, st)
  local f = assert(io.open(path, "w"))
  local fmt = string.format
  f:write(fmt("boids %d %.17g\n", st.n, st.L))
  local x, y, vx, vy = st.x, st.y, st.vx, st.vy
  for i = 1, st.n do
    f:write(fmt("%.17g %.17g %.17g %.17g\n", x[i], y[i], vx[i], vy[i]))
  end
  assert(f:close())
end

--- Reads a state file. Numbers are read straight from the file ("n"), so
-- loading leaves almost no garbage behind to blur the memory measurement.
function W.read_state(path)
  local f = assert(io.open(path, "r"))
  local tag = f:read(5)
  assert(tag == "boids", path .. ": not a boids state file")
  local n, L = f:read("n", "n")
  n = math.floor(n)
  L = L + 0.0 -- a float under Lua 5.4 too
  local x, y, vx, vy = {}, {}, {}, {}
  for i = 1, n do
    local a, b, c, d = f:read("n", "n", "n", "n")
    assert(d, path .. ": truncated")
    x[i], y[i], vx[i], vy[i] = a + 0.0, b + 0.0, c + 0.0, d + 0.0
  end
  f:close()
  return { n = n, L = L, x = x, y = y, vx = vx, vy = vy }
end

-- lua5.4 bench/workload.lua gen <n> <path>: writes the cold state for n agents
if arg and arg[0] and arg[0]:match("workload%.lua$") and arg[1] == "gen" then
  local n = assert(tonumber(arg[2]), "usage: workload.lua gen <n> <path>")
  W.write_state(assert(arg[3], "usage: workload.lua gen <n> <path>"),
    W.generate(math.floor(n)))
end

return W
