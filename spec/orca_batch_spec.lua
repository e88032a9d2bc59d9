-- The step's pass over agents whose program is one arrive at a point with
-- ORCA (csrc/orca_batch.c) and the half-planes in AVX lanes (csrc/orca_quad.c)
-- must give what program_force gives an agent at a time, bit for bit. The
-- reference run adds a zero-weighted seek to every such program, which
-- changes no force (x + 0 is x) but makes the program not plain, so the step
-- takes program_force and orca_force for it. (Snapshots would differ by
-- that entry: the agents' positions and velocities are compared.)
local steer = require "steer"
local support = require "support"

local function run(reference, opts)
  local side = 80
  local world = steer.world{ bounds = opts.bounded and { side, side } or nil,
    wrap = opts.wrap, seed = 5, threads = opts.threads }
  local rand = support.random(17)
  for _ = 1, 6 do
    world:add_obstacle{ x = rand() * side, y = rand() * side, radius = 0.5 + rand() * 2 }
  end
  for _ = 1, 10 do
    local x, y, a, l = rand() * side, rand() * side, rand() * 2 * math.pi, 2 + rand() * 12
    world:add_wall{ x1 = x, y1 = y, x2 = x + math.cos(a) * l, y2 = y + math.sin(a) * l }
  end
  local function plain(k, goal)
    local entries = {
      { "arrive", target = goal, slowing_radius = k % 4 == 0 and 0 or 0.5 + k % 7,
        weight = 0.5 + k % 5 },
      combine = k % 6 == 0 and "weighted" or nil,
      orca = k % 9 == 0 and true or { time_horizon = 1 + k % 8, obstacle_time_horizon = 0.5 + k % 3,
               neighbor_radius = 4 + k % 11, max_neighbors = ({ 0, 1, 3, 10, 64 })[k % 5 + 1] },
    }
    if reference then entries[2] = { "seek", target = { 1, 2 }, weight = 0 } end
    return entries
  end
  local agents = {}
  for k = 1, opts.n do
    local x, y = rand() * side, rand() * side
    if k % 23 == 0 then x, y = agents[k - 1].x, agents[k - 1].y end -- coincident
    local s = (k % 4) * 0.7
    agents[k] = world:add{ x = x, y = y, vx = s * math.cos(k), vy = s * math.sin(k),
      max_speed = 0.5 + k % 3, max_force = k % 5 == 0 and 0.3 or (k % 5 == 1 and 1e6 or 4),
      radius = k % 29 == 0 and 0 or 0.3 + (k % 4) * 0.4, ghost = k % 31 == 0 }
    local goal = { rand() * side, rand() * side }
    if k % 19 == 0 then goal = { x, y } end -- arrived: at rest on its goal
    -- runs of plain programs broken by others: seek with orca, smoothed
    -- arrive with orca, arrive alone, nothing
    local other = k % 13
    if other == 1 then
      agents[k]:set_behaviors{ { "seek", target = goal }, orca = true }
    elseif other == 2 then
      agents[k]:set_behaviors{ { "arrive", target = goal }, orca = true, smoothing = 0.5 }
    elseif other == 3 then
      agents[k]:set_behaviors{ { "arrive", target = goal } }
    elseif other ~= 4 then
      agents[k]:set_behaviors(plain(k, goal))
    end
  end
  local shots = {}
  for step = 1, opts.steps do
    -- the smallest steps: 1 / dt overflows, the change is too sudden
    world:step(step % 7 == 0 and 1e-300 or (step % 5 == 0 and 0.1 or 0.25))
    local t = {}
    for k, a in ipairs(agents) do t[k] = ("%a %a %a %a"):format(a.x, a.y, a.vx, a.vy) end
    shots[step] = table.concat(t, ";")
  end
  for _, a in ipairs(agents) do support.all_finite(a.x, a.y, a.vx, a.vy) end
  world:close()
  return shots
end

describe("ORCA's batched pass", function()
  local cases = {
    { name = "bounded", bounded = true, n = 200, steps = 12 },
    { name = "torus", bounded = true, wrap = true, n = 150, steps = 10 },
    { name = "unbounded, two threads (over 512 with orca)", n = 680, steps = 4, threads = 2 },
  }
  for _, case in ipairs(cases) do
    it("is program_force's, bit for bit, at every SIMD width: " .. case.name, function()
      local widest = steer.testing.simd()
      steer.testing.simd(1) -- the reference's half-planes in SSE2 pairs
      local expected = run(true, case)
      for _, width in ipairs{ 1, 2, 4 } do
        steer.testing.simd(width)
        local got = run(false, case)
        for step = 1, case.steps do
          assert(expected[step] == got[step],
                 ("width %d: step %d differs"):format(width, step))
        end
      end
      steer.testing.simd(widest)
    end)
  end
end)
