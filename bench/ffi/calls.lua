--- bench/ffi/calls.lua - per-agent calls from LuaJIT: the classic binding
-- against the FFI fast path (lua/steer/ffi.lua), side by side, and against
-- the same calls made from C (bench/ffi/calls.c): `make bench-ffi`.
--   luajit bench/ffi/calls.lua <build/bench/ffi-calls> [agents] [rounds]
local steer = require "steer"
assert(steer.ffi, "needs LuaJIT with the JIT on")
local clock = steer.testing.clock
local c_tool, n, rounds = arg[1], tonumber(arg[2]) or 10000, tonumber(arg[3]) or 50

local world = steer.world{}
local agents = {}
for k = 0, n - 1 do -- the agents of calls.c
  agents[k + 1] = world:add{ x = k % 100, y = k / 100, max_speed = 2, max_force = 3 }
end

-- ns per call, best of 5 (the machine is shared)
local function time(fn, calls_per_agent)
  fn(2)
  local best = math.huge
  for _ = 1, 5 do
    local t0 = clock()
    fn(rounds)
    best = math.min(best, (clock() - t0) / (rounds * n * calls_per_agent) * 1e9)
  end
  return best
end

local function seek_apply(r)
  for _ = 1, r do
    for k = 1, n do
      local a = agents[k]
      local fx, fy = a:seek(50, 50)
      a:apply(fx, fy, 0.01)
    end
  end
end

local sink = 0
local function position(r)
  for _ = 1, r do
    for k = 1, n do
      local x = agents[k]:position()
      sink = sink + x
    end
  end
end

local function field(r)
  for _ = 1, r do
    for k = 1, n do sink = sink + agents[k].x end
  end
end

local results = {}
for _, mode in ipairs{ "classic", "ffi", "classic", "ffi" } do -- interleaved
  steer.ffi.enable(mode == "ffi")
  local r = results[mode] or {}
  results[mode] = r
  for name, fn in pairs{ seek_apply = { seek_apply, 2 }, position = { position, 1 },
                         field = { field, 1 } } do
    local t = time(fn[1], fn[2])
    r[name] = math.min(r[name] or math.huge, t)
  end
end
steer.ffi.enable(true)

local c = {}
local p = assert(io.popen(("%s %d %d"):format(c_tool, n, rounds)))
local line = p:read("a")
p:close()
for k, v in line:gmatch("([%w_]+)=(%S+)") do c[k] = tonumber(v) end

print(("per call, %d agents, best of 5x%d rounds (ns)"):format(n, rounds))
print(("%-32s %9s %9s %9s %14s"):format("call", "classic", "ffi", "C", "ffi - C"))
local function line_for(label, key, ckey)
  local cf = ckey and c[ckey]
  print(("%-32s %9.1f %9.1f %9s %14s"):format(label, results.classic[key], results.ffi[key],
    cf and ("%.1f"):format(cf) or "-", cf and ("%.1f"):format(results.ffi[key] - cf) or "-"))
end
line_for("a:seek(x, y); a:apply(fx, fy, dt)", "seek_apply", "seek_apply")
line_for("a:position()", "position", "position")
line_for("a.x", "field")
print(("classic / ffi: seek+apply %.1fx, position %.1fx, a.x %.1fx"):format(
  results.classic.seek_apply / results.ffi.seek_apply,
  results.classic.position / results.ffi.position, results.classic.field / results.ffi.field))

-- ---- bulk reads: every position of 10,000 agents, once per frame ----------
local crowd = steer.world{ capacity = 10000 }
local xs, ys = {}, {}
for k = 1, 10000 do xs[k], ys[k] = k % 100, k / 100 end
crowd:add_many{ x = xs, y = ys }
local handles = {}
for a in crowd:agents() do handles[#handles + 1] = a end

local function per_agent(r)
  for _ = 1, r do
    for k = 1, #handles do
      local a = handles[k]
      sink = sink + a.x + a.y
    end
  end
end
local reuse = {}
local function positions(r)
  for _ = 1, r do
    local t, m = crowd:positions(reuse)
    for k = 1, 2 * m do sink = sink + t[k] end
  end
end
local function columns(r)
  for _ = 1, r do
    local x, y, _, _, m = crowd:columns()
    for k = 0, m - 1 do sink = sink + x[k] + y[k] end
  end
end
local function frame_time(fn)
  fn(2)
  local best = math.huge
  for _ = 1, 5 do
    local t0 = clock()
    fn(20)
    best = math.min(best, (clock() - t0) / 20 * 1e3)
  end
  return best
end
print()
print("reading every position of 10,000 agents (ms per frame, FFI path on)")
print(("  a.x, a.y per agent      %7.3f"):format(frame_time(per_agent)))
print(("  world:positions(t)      %7.3f"):format(frame_time(positions)))
print(("  world:columns() (view)  %7.3f"):format(frame_time(columns)))
steer.ffi.enable(false)
print(("  a.x, a.y, classic path  %7.3f"):format(frame_time(per_agent)))
steer.ffi.enable(true)
