--- bench/snapshot.lua - world:snapshot() is linear in agents, programs and
-- paths (issue 11): 64,000 agents with a program each (their own targets and
-- paths) against 64,000 sharing one program, timed side by side in one run.
--   lua5.4 bench/snapshot.lua [agents] [max ratio] [--strict]
-- Prints the times, their ratio and "N passed, N failed" against the bounds
-- (3 by default); exits 1 on a failed bound only with --strict (a loaded
-- machine makes timings noisy). Run with LUA_PATH/LUA_CPATH finding steer.
local steer = require "steer"
local clock = steer.testing.clock

local N = math.floor(tonumber(arg[1]) or 64000)
local BOUND = tonumber(arg[2]) or 3

-- Agents wander with their own parameters (so each has its cold state, as in
-- a crowd) and seek: a point of their own or one shared program.
-- kind: "shared" (one program), "own" (a program each: its own target),
-- "paths" (a program each following its own path)
local function build(kind, n)
  local w = steer.world{ seed = 7, bounds = { 1000, 1000 }, capacity = n }
  w:add_many{ n = n, x = 500, y = 500, wander_jitter = 0.7 }
  local shared = steer.program{ { "seek", target = { 1, 2 } } }
  local k = 0
  for a in w:agents() do
    k = k + 1
    if kind == "own" then
      a:set_behaviors{ { "seek", target = { k, k % 97 } } }
    elseif kind == "paths" then
      a:set_behaviors{ { "follow", path = steer.path{ { k, 0 }, { k, 1 } } } }
    else
      a:set_behaviors(shared)
    end
  end
  return w
end

-- The best of a few runs, the two worlds taking turns so that both see the
-- same machine: the time a snapshot takes, not the machine's noise.
local function time_snapshot(w)
  -- the collector's work on the rest of the heap is not the snapshot's
  collectgarbage("collect")
  collectgarbage("stop")
  local t0 = clock()
  local s = w:snapshot()
  local t = clock() - t0
  collectgarbage("restart")
  return t, #s
end

local function race(a, b, rounds)
  local best_a, best_b, bytes_a, bytes_b = math.huge, math.huge, 0, 0
  for _ = 1, rounds do
    local t
    t, bytes_a = time_snapshot(a)
    best_a = math.min(best_a, t)
    t, bytes_b = time_snapshot(b)
    best_b = math.min(best_b, t)
  end
  return best_a, best_b, bytes_a, bytes_b
end

local own, shared = build("own", N), build("shared", N)
local t_own, t_shared, b_own, b_shared = race(own, shared, 9)
own, shared = nil, nil
collectgarbage()
-- paths: linear when twice the agents (and paths) take about twice the time
local t_paths, t_half = race(build("paths", N), build("paths", N / 2), 5)
local ratio, growth = t_own / t_shared, t_paths / t_half
print(("snapshot of %d agents: own programs %.4f s (%d bytes), one shared %.4f s (%d bytes)")
  :format(N, t_own, b_own, t_shared, b_shared))
print(("own paths: %d agents %.4f s, %d agents %.4f s"):format(N, t_paths, N / 2, t_half))
print(("ratio own/shared %.2f (bound %.1f; bytes ratio %.2f); paths %d/%d agents %.2f (bound 3, linear 2, quadratic 4)")
  :format(ratio, BOUND, b_own / b_shared, N, N / 2, growth))
local passed = (ratio <= BOUND and 1 or 0) + (growth <= 3 and 1 or 0)
print(("%d passed, %d failed"):format(passed, 2 - passed))
local strict = arg[3] == "--strict" or arg[1] == "--strict"
os.exit((passed == 2 or not strict) and 0 or 1)
