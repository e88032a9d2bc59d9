-- A LuaJIT 2.1.0-beta3 bug (Debian 12's luajit, which LOVE 11.4 uses there),
-- without steer: a game's own tile check (solid_at, plain Lua) gives a wrong
-- answer once the JIT compiles it in a trace with FFI calls made from
-- __index/__newindex metamethods - the shape of steer's fast path (a game
-- developer's review, session 43: a scripted player stalled on a wall under
-- the JIT only). The same inputs give the right answer interpreted.
--   cc -O2 -shared -fPIC -o libfake.so fake.c
--   luajit repro.lua ./libfake.so          -> 160.14... 131.68...  (wrong)
--   luajit -joff repro.lua ./libfake.so    -> 304.94... 80.455...  (right)
--   luajit -O-fwd repro.lua ./libfake.so   -> 304.94... 80.455...  (right)
local ffi = require "ffi"
ffi.cdef[[
int fake_get(void *b, uint64_t id, int code, double *out);
int fake_set(void *b, uint64_t id, int code, double v);
]]
local C = ffi.load(arg[1] or "./libfake.so")
local out = ffi.new("double[2]")
local codes = { x = 0, y = 1, max_speed = 2, radius = 3, vx = 4, vy = 5 }
local p = newproxy(true)
local mt = getmetatable(p)
local LIMIT = 1e150
local function ok(v) return type(v) == "number" and v >= -LIMIT and v <= LIMIT end
local methods = {}
mt.__index = function(a, k)
  local m = methods[k]
  if m then return m end
  local code = codes[k]
  if code then
    if C.fake_get(nil, 1, code, out) == 0 then return out[0] end
  end
  return nil
end
mt.__newindex = function(a, k, v)
  local code = codes[k]
  if code and ok(v) then
    if C.fake_set(nil, 1, code, v) == 0 then return end
  end
  error("no")
end
local T = 24
local MAP = {
  "########################################",
  "#......#...............#...............#",
  "#......#...............#...............#",
  "#......#.....####......#......#####....#",
  "#......#.....#..#......#......#...#....#",
  "#............#..#.................#....#",
  "#............####......#..........#....#",
  "#......#...............#......#####....#",
  "#......#...............#...............#",
  "####.#####.....#############.....#######",
}
local W, H = #MAP[1], #MAP
local solid = {}
for r = 1, H do for c = 1, W do solid[#solid + 1] = MAP[r]:sub(c, c) == "#" and 1 or 0 end end
local function solid_at(x, y)
  local c, r = math.floor(x / T), math.floor(y / T)
  if c < 0 or r < 0 or c >= W or r >= H then return true end
  return solid[r * W + c + 1] ~= 0
end
p.x, p.y, p.max_speed, p.radius = 3.5 * T, 3.5 * T, 130, 7
local GOALS = { { 12.5 * T, 5.5 * T }, { 20.5 * T, 2.5 * T }, { 30.5 * T, 5.5 * T } }
local g = 1
for f = 1, 330 do
  local tx, ty = GOALS[g][1], GOALS[g][2]
  local dx, dy = tx - p.x, ty - p.y
  if dx * dx + dy * dy < 9 then g = math.min(g + 1, #GOALS) end
  local sp = p.max_speed
  local len = math.sqrt(dx * dx + dy * dy)
  if len > 0 then dx, dy = dx / len * sp, dy / len * sp end
  local r = p.radius
  local dt = 1 / 60
  local nx = p.x + dx * dt
  if not (solid_at(nx + r, p.y - r) or solid_at(nx - r, p.y - r) or solid_at(nx + r, p.y + r) or solid_at(nx - r, p.y + r)) then p.x = nx end
  local ny = p.y + dy * dt
  if not (solid_at(p.x + r, ny - r) or solid_at(p.x - r, ny - r) or solid_at(p.x + r, ny + r) or solid_at(p.x - r, ny + r)) then p.y = ny end
  p.vx, p.vy = 0, 0
end
print(p.x, p.y)
