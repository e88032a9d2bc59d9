-- A world of 1,000,000 agents can be built and stepped (make scale).
-- Prints the world's memory per agent; ends "N passed, N failed".
local steer = require "steer"
local N = tonumber(arg and arg[1]) or 1000000
local side = math.sqrt(N) * 4
local clock = os.clock

local passed, failed = 0, 0
local function check(ok, what)
  if ok then passed = passed + 1 else failed = failed + 1 end
  print((ok and "ok: " or "FAILED: ") .. what)
end

local t0 = clock()
local world = steer.world{ bounds = { side, side }, wrap = true, seed = 1, capacity = N }
local flock = steer.program{ { "separation", radius = 1.5, weight = 1.5 },
  { "alignment", radius = 5 }, { "cohesion", radius = 5 } }
local s = 12345
local function rnd() s = (s * 16807) % 2147483647 return s / 2147483647 end
for _ = 1, N do
  local angle, speed = rnd() * 2 * math.pi, 1 + rnd()
  world:add{ x = rnd() * side, y = rnd() * side, vx = math.cos(angle) * speed,
             vy = math.sin(angle) * speed, max_speed = 2.5, max_force = 4 }:set_behaviors(flock)
end
local built = clock() - t0
check(#world == N, ("built %d agents in %.1f s"):format(#world, built))
collectgarbage()
t0 = clock()
world:step(0.1)
world:step(0.1)
local stepped = (clock() - t0) / 2
local stats = world:stats()
check(stats.agents == N and stats.programs == N,
  ("stepped them in %.2f s per step (%.1f neighbors per agent)"):format(stepped, stats.neighbors / N / 3))
local finite = true
for a in world:agents() do
  local x, y, vx, vy = a.x, a.y, a.vx, a.vy
  if not (x == x and y == y and vx == vx and vy == vy and x >= 0 and x < side) then finite = false break end
end
check(finite, "every agent is finite and inside the torus")
local bytes = stats.memory / N
check(bytes > 0, ("world memory: %.1f bytes per agent (%s)"):format(bytes, _VERSION .. (jit and " " .. jit.version or "")))
print(("%d passed, %d failed"):format(passed, failed))
os.exit(failed == 0 and 0 or 1)
