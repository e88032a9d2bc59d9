--- bench/run.lua - runs one Lua contestant in this process and reports.
--
--   <lua> bench/run.lua <contestant> <state-in> <steps> <state-out> [--no-alloc]
--   <lua> bench/run.lua --probe <contestant>
-- <state-out> "-" writes no state; --no-alloc skips the alloc measurement.
--
-- Prints one line "RESULT key=value ..." (the same keys as the C program):
--   cpu               CPU seconds of the steps alone (os.clock)
--   wall              wall seconds of the steps (a monotonic clock from the
--                     steer module; os.clock where it cannot load)
--   base_kb, peak_kb  resident size just before the world is built (after a
--                     full collection, with the peak reset) and its peak
--                     until the last step: peak - base is what building and
--                     stepping the world cost in RAM, GC slack included
--   heap_bytes        Lua heap the world holds once built (full collection;
--                     plus sim:c_bytes() if the contestant has C memory)
--   garbage_per_step  Lua heap allocated by one more step, the GC stopped
--                     (the second of two: the first regrows the stack)
-- Run with LUA_PATH covering bench/?.lua (and lua/?.lua for steer).
local W = require "workload"

-- "tuned" is bench/contestants/tuned.lua; "test.x" is bench/test/x.lua
local function contestant(name)
  if name:match("^test%.[%w_]+$") then return require(name) end
  assert(name:match("^[%w_]+$"), "bad contestant name")
  return require("contestants." .. name)
end

local function status_kb(field)
  local f = io.open("/proc/self/status", "r")
  if not f then return -1 end
  local text = f:read("a")
  f:close()
  return tonumber(text:match(field .. ":%s*(%d+)")) or -1
end

-- resets VmHWM to the current resident size (Linux >= 4.0)
local function reset_peak()
  local f = io.open("/proc/self/clear_refs", "w")
  if not f then return false end
  local ok = f:write("5")
  return f:close() and ok and true or false
end

local function interpreter()
  return jit and jit.version or _VERSION
end

if arg[1] == "--probe" then
  local ok, c = pcall(contestant, arg[2])
  local yes, why = false, c
  if ok then yes, why = c.available() end
  print(yes and "AVAILABLE" or ("UNAVAILABLE " .. tostring(why):gsub("\n", " ")))
  return
end

local name, path_in, steps, path_out = arg[1], arg[2], tonumber(arg[3]), arg[4]
assert(name and path_in and steps and path_out,
  "usage: run.lua <contestant> <state-in> <steps> <state-out> [--no-alloc]")
local measure_alloc = arg[5] ~= "--no-alloc"
local C = contestant(name)
assert(C.available())

local st = W.read_state(path_in)
collectgarbage("collect")
collectgarbage("collect")
local reset = reset_peak()
local base_kb = status_kb("VmRSS")
local heap0 = collectgarbage("count")

local sim = C.new(st)
collectgarbage("collect")
local heap_bytes = (collectgarbage("count") - heap0) * 1024
if sim.c_bytes then heap_bytes = heap_bytes + sim:c_bytes() end
local step = sim.step
local has_core, core = pcall(require, "steer.core")
local clock = has_core and core.testing and core.testing.clock or os.clock
local t0, w0 = os.clock(), clock()
for _ = 1, steps do step(sim) end
local cpu, wall = os.clock() - t0, clock() - w0
local peak_kb = reset and status_kb("VmHWM") or -1

if path_out ~= "-" then
  local x, y, vx, vy = sim:state()
  W.write_state(path_out, { n = st.n, L = st.L, x = x, y = y, vx = vx, vy = vy })
end

-- two more steps with the collector stopped: what a step allocates
local garbage = -1
if measure_alloc then
  collectgarbage("collect")
  collectgarbage("stop")
  step(sim)
  local g0 = collectgarbage("count")
  step(sim)
  garbage = (collectgarbage("count") - g0) * 1024
  collectgarbage("restart")
end

print(string.format("RESULT n=%d steps=%d cpu=%.6f wall=%.6f base_kb=%d peak_kb=%d "
  .. "heap_bytes=%d garbage_per_step=%d interp=%s", st.n, steps, cpu, wall, base_kb,
  peak_kb, math.floor(heap_bytes + 0.5), math.floor(garbage + 0.5),
  interpreter():gsub("%s", "_")))
