-- world:step: one snapshot, all forces then all integrations; flocking;
-- determinism; order independence; stats.
local steer = require "steer"
local support = require "support"
local near = support.near

-- The textbook's four-boid example: separation radius 1.3 weight 1.5,
-- alignment and cohesion radius 5, max_speed 2.5, max_force 4, dt 0.2.
local BOIDS = {
  { x = 0, y = 0, vx = 1, vy = 0 },
  { x = 1, y = 0.5, vx = 0.5, vy = 0.5 },
  { x = 0.5, y = 1.2, vx = 0, vy = 1 },
  { x = -0.8, y = 0.3, vx = -0.5, vy = 0.2 },
}
local FLOCK = { { "separation", radius = 1.3, weight = 1.5 },
                { "alignment", radius = 5 }, { "cohesion", radius = 5 } }

local function flock_world()
  local world = steer.world{}
  local agents = {}
  for k, b in ipairs(BOIDS) do
    agents[k] = world:add{ x = b.x, y = b.y, vx = b.vx, vy = b.vy,
                           max_speed = 2.5, max_force = 4 }
  end
  return world, agents
end

-- docs/API.md's formulas written out in plain Lua, independent of steer.
local function reference_step(boids, dt)
  local function len(x, y) return math.sqrt(x * x + y * y) end
  local function clamp(x, y, m)
    local l = len(x, y)
    if l * l > m * m then return x * m / l, y * m / l end
    return x, y
  end
  local forces = {}
  for i, p in ipairs(boids) do
    local sx, sy, sn, ax, ay, cx, cy, n = 0, 0, 0, 0, 0, 0, 0, 0
    for j, q in ipairs(boids) do
      if i ~= j then
        local dx, dy = q.x - p.x, q.y - p.y
        local d = len(dx, dy)
        if d > 1e-5 and d < 1.3 then
          sx, sy, sn = sx - dx / d / d, sy - dy / d / d, sn + 1
        end
        if d <= 5 then
          ax, ay, cx, cy, n = ax + q.vx, ay + q.vy, cx + dx, cy + dy, n + 1
        end
      end
    end
    local fx, fy = 0, 0
    if sn > 0 then fx, fy = 1.5 * sx / sn, 1.5 * sy / sn end
    if n > 0 then
      fx, fy = fx + ax / n - p.vx, fy + ay / n - p.vy
      local l = len(cx / n, cy / n)
      local ux, uy = 0, 0
      if l > 1e-5 then ux, uy = cx / n / l, cy / n / l end
      fx, fy = fx + ux * 2.5 - p.vx, fy + uy * 2.5 - p.vy
    end
    forces[i] = { clamp(fx, fy, 4) }
  end
  for i, p in ipairs(boids) do
    local vx, vy = clamp(p.vx + forces[i][1] * dt, p.vy + forces[i][2] * dt, 2.5)
    p.vx, p.vy = vx, vy
    p.x, p.y = p.x + vx * dt, p.y + vy * dt
  end
end

describe("the four-boid flocking example", function()
  it("matches docs/API.md's formulas written out in Lua", function()
    local world, agents = flock_world()
    for _, a in ipairs(agents) do a:set_behaviors(FLOCK) end
    local boids = {}
    for k, b in ipairs(BOIDS) do boids[k] = { x = b.x, y = b.y, vx = b.vx, vy = b.vy } end
    for step = 1, 5 do
      world:step(0.2)
      reference_step(boids, 0.2)
      for k, a in ipairs(agents) do
        local what = ("step %d boid %d"):format(step, k)
        near(a.x, boids[k].x, 1e-12, what .. " x")
        near(a.y, boids[k].y, 1e-12, what .. " y")
        near(a.vx, boids[k].vx, 1e-12, what .. " vx")
        near(a.vy, boids[k].vy, 1e-12, what .. " vy")
      end
    end
    -- the flock really moved and steered
    assert.is_true(math.abs(agents[4].vx - BOIDS[4].vx) > 0.1)
  end)

  it("runs the same through methods and through a weighted program (1e-12)", function()
    local w1, by_method = flock_world()
    local w2, by_program = flock_world()
    for _, a in ipairs(by_program) do a:set_behaviors(FLOCK) end
    for step = 1, 10 do
      local forces = {}
      for k, a in ipairs(by_method) do -- every force from the same snapshot
        local sx, sy = a:separation(1.3)
        local ax, ay = a:alignment(5)
        local cx, cy = a:cohesion(5)
        forces[k] = { steer.weighted(a.max_force, sx, sy, 1.5, ax, ay, 1, cx, cy, 1) }
      end
      for k, a in ipairs(by_method) do a:apply(forces[k][1], forces[k][2], 0.2) end
      w2:step(0.2)
      for k = 1, #BOIDS do
        local what = ("step %d boid %d"):format(step, k)
        near(by_program[k].x, by_method[k].x, 1e-12, what .. " x")
        near(by_program[k].y, by_method[k].y, 1e-12, what .. " y")
        near(by_program[k].vx, by_method[k].vx, 1e-12, what .. " vx")
        near(by_program[k].vy, by_method[k].vy, 1e-12, what .. " vy")
      end
    end
  end)
end)

describe("world:step", function()
  it("computes every force before integrating any agent", function()
    -- two agents seeking each other: with sequential updates the second
    -- would see the first's new position
    local world = steer.world{}
    local a = world:add{ x = 0, max_speed = 1, max_force = 10 }
    local b = world:add{ x = 4, max_speed = 1, max_force = 10 }
    a:set_behaviors{ { "seek", target = b } }
    b:set_behaviors{ { "seek", target = a } }
    world:step(0.5)
    -- each: force (+-1, 0), v = +-0.5, p moves by 0.25
    assert.are.same({ 0.25, 3.75 }, { a.x, b.x })
    assert.are.same({ 0.5, -0.5 }, { a.vx, b.vx })
  end)

  it("lets agents without a program coast through the pipeline", function()
    local world = steer.world{}
    local a = world:add{ x = 1, y = 2, vx = 3, vy = -4, max_speed = 10 }
    local fast = world:add{ vx = 6, vy = 8, max_speed = 5 }
    world:step(0.5)
    assert.are.same({ 2.5, 0 }, { a.x, a.y })
    assert.are.same({ 3, -4 }, { a.vx, a.vy })
    assert.are.same({ 3, 4 }, { fast.vx, fast.vy }) -- the speed clamp holds
    a:set_behaviors{ { "seek", target = { 0, 0 } } }
    a:set_behaviors(nil)
    world:step(0.5)
    assert.are.same({ 4, -2 }, { a.x, a.y })
  end)

  it("wraps positions on a torus and clamps them in a bounded world", function()
    local torus = steer.world{ bounds = { 10, 5 }, wrap = true }
    local a = torus:add{ x = 9.5, y = 0.2, vx = 2, vy = -1, max_speed = 5 }
    torus:step(0.5)
    near(a.x, 0.5, 1e-12)
    near(a.y, 4.7, 1e-12)
    local box = steer.world{ bounds = { 10, 5 } }
    local b = box:add{ x = 9.5, y = 0.2, vx = 2, vy = -1, max_speed = 5 }
    box:step(0.5)
    assert.are.same({ 10, 0 }, { b.x, b.y })
    assert.are.same({ 0, 0 }, { b.vx, b.vy }) -- stopped at both edges
  end)

  it("keeps the grid current: queries after a step see the new positions", function()
    local world = steer.world{ cell_size = 1 }
    local a = world:add{ x = 0, vx = 1, max_speed = 1 }
    world:add{ x = 10 }
    for _ = 1, 90 do world:step(0.1) end
    local found = {}
    for n in world:query(9, 0, 0.5) do found[#found + 1] = n end
    assert.are.equal(1, #found)
    assert.are.equal(a, found[1])
    near(a.x, 9, 1e-9)
  end)

  it("is safe when agents are added and removed between steps", function()
    local world = steer.world{ seed = 5 }
    local agents = {}
    for k = 1, 50 do
      agents[k] = world:add{ x = k % 7, y = k % 5, max_speed = 2, max_force = 3 }
      agents[k]:set_behaviors{ { "separation", radius = 2 }, { "wander" },
        { "seek", target = agents[1] } }
    end
    for step = 1, 30 do
      world:step(0.1)
      world:remove(agents[step])
      local b = world:add{ x = step, max_speed = 1 }
      b:set_behaviors{ { "pursue", target = agents[50] } }
    end
    assert.are.equal(50, #world)
    for a in world:agents() do support.all_finite(a.x, a.y, a.vx, a.vy) end
    -- agents that seek the removed agents[1] fell silent without error
    assert.is_false(agents[1].alive)
  end)

  it("rejects a non-positive dt", function()
    local world = steer.world{}
    assert.matches("bad argument #1 to 'step' %(positive number expected, got 0%)",
      support.error_of(world.step, world, 0))
    assert.matches("positive number expected, got %-1",
      support.error_of(world.step, world, -1))
    assert.matches("number expected, got no value", support.error_of(world.step, world))
  end)

  it("counts agents, candidates and neighbors in stats()", function()
    local world = steer.world{ cell_size = 100 }
    local agents = {}
    for k = 1, 4 do agents[k] = world:add{ x = k, y = 0 } end
    world:add{ x = 50, y = 0 } -- same cell, too far, no program
    for k = 1, 3 do agents[k]:set_behaviors{ { "alignment", radius = 1.5 } } end
    world:step(0.1)
    local s = world:stats()
    assert.are.equal(5, s.agents)
    assert.are.equal(3, s.programs)
    -- each of the 3 tests the 4 others in the one cell; neighbors within 1.5:
    -- agent 1 has 2, agent 2 has 1 and 3, agent 3 has 2 and 4
    assert.are.equal(12, s.candidates)
    assert.are.equal(5, s.neighbors)
    assert.is_true(s.memory > 0)
  end)
end)

describe("results of a step", function()
  local function scene(order)
    local world = steer.world{ bounds = { 40, 40 }, wrap = true }
    world:add_obstacle{ x = 20, y = 20, radius = 3 }
    local specs = {}
    for k = 1, 60 do
      specs[k] = { x = (k * 7.3) % 40, y = (k * 3.1) % 40,
                   vx = math.cos(k), vy = math.sin(k), max_speed = 2, max_force = 3 }
    end
    local agents = {}
    for n = 1, 60 do
      local k = order == "forward" and n or 61 - n
      agents[k] = world:add(specs[k])
    end
    for k = 1, 60 do
      agents[k]:set_behaviors{ { "separation", radius = 1.5, weight = 1.5 },
        { "alignment", radius = 5 }, { "cohesion", radius = 5 },
        { "avoid_obstacles", weight = 2 },
        { "pursue", target = agents[(k % 60) + 1], weight = 0.2 } }
    end
    return world, agents
  end

  it("do not depend on the order agents were added (1e-12)", function()
    local w1, a1 = scene("forward")
    local w2, a2 = scene("backward")
    for step = 1, 5 do
      w1:step(0.1)
      w2:step(0.1)
      for k = 1, 60 do
        near(a2[k].x, a1[k].x, 1e-12, ("step %d agent %d x"):format(step, k))
        near(a2[k].vy, a1[k].vy, 1e-12, ("step %d agent %d vy"):format(step, k))
      end
    end
  end)

  it("are the same bits in an unbounded world as in a bounded one of the same cells", function()
    -- a bounded world walks neighbors through its dense grid (the crowd
    -- kernel's rows); an unbounded one through its hashed grid's box, whose
    -- buckets hold the same cells row by row: with cells of 4 in both
    -- (400 / 100 cells, 1 / 4: the same cell for every point), every walk
    -- visits the same agents in the same order
    local path = steer.path{ { 170, 170 }, { 230, 170 }, { 230, 230 }, loop = true }
    local programs = {
      steer.program{ { "separation", radius = 1.5, weight = 1.5 },
        { "alignment", radius = 4 }, { "cohesion", radius = 4 } },
      steer.program{ { "separation", radius = 1.5, weight = 1.5 },
        { "alignment", radius = 4 }, { "cohesion", radius = 4 }, { "wander" } },
      steer.program{ combine = "priority", { "avoid_walls" }, { "avoid_obstacles" },
        { "separation", radius = 1.5 }, { "follow", path = path } },
      steer.program{ { "separation", radius = 3 }, { "cohesion", radius = 2, fov = 200 } },
    }
    local function run(def)
      def.cell_size, def.seed = 4, 5
      local world = steer.world(def)
      for k = 1, 30 do
        world:add_obstacle{ x = 150 + (k * 37.1) % 100, y = 150 + (k * 17.3) % 100, radius = 1 }
        world:add_wall{ x1 = 150 + (k * 23.9) % 100, y1 = 150 + (k * 41.3) % 100,
                        x2 = 152 + (k * 23.9) % 100, y2 = 153 + (k * 41.3) % 100 }
      end
      local agents = {}
      for k = 1, 4500 do -- enough for two threads to split the step
        agents[k] = world:add{ x = 150 + (k * 7.31) % 100, y = 150 + (k * 3.77) % 100,
          vx = 2 * math.cos(k), vy = 2 * math.sin(k), max_speed = 2.5, max_force = 4 }
        agents[k]:set_behaviors(programs[k % 4 + 1])
      end
      local state = {}
      for _ = 1, 10 do world:step(0.1) end
      for k, a in ipairs(agents) do state[k] = { a.x, a.y, a.vx, a.vy } end
      local stats = world:stats()
      world:close()
      return state, stats
    end
    local bounded, stats = run{ bounds = { 400, 400 } }
    assert.is_nil(support.first_difference(bounded, (run{}), 4))
    assert.is_nil(support.first_difference(bounded, (run{ threads = 2 }), 4))
    assert.is_true(stats.neighbors > 4500, "the crowd has neighbors")
  end)

  it("are bit-identical for two worlds built by the same calls (1,000 steps)", function()
    local function mixed()
      local world = steer.world{ seed = 11, bounds = { 50, 50 }, wrap = true }
      local path = steer.path{ { 5, 5 }, { 45, 5 }, { 45, 45 }, { 5, 45 }, loop = true }
      world:add_obstacle{ x = 25, y = 25, radius = 4 }
      world:add_wall{ x1 = 10, y1 = 30, x2 = 20, y2 = 35 }
      local first
      for k = 1, 120 do
        local a = world:add{ x = (k * 13.7) % 50, y = (k * 5.3) % 50,
                             vx = math.cos(k * 2), vy = math.sin(k * 2),
                             max_speed = 2.5, max_force = 4 }
        first = first or a
        if k % 3 == 0 then
          a:set_behaviors{ { "separation", radius = 1.5, weight = 1.5 },
            { "alignment", radius = 5 }, { "cohesion", radius = 5 },
            { "wander", weight = 0.5 }, { "avoid_obstacles", weight = 3 } }
        elseif k % 3 == 1 then
          a:set_behaviors{ combine = "priority", hold = 0.2, smoothing = 0.4,
            { "avoid_walls", hysteresis = 0.3 }, { "follow", path = path } }
        else
          a:set_behaviors{ combine = "dither", { "pursue", target = first, probability = 0.3 },
            { "wander" } }
        end
      end
      return world
    end
    local w1, w2 = mixed(), mixed()
    for _ = 1, 1000 do
      w1:step(0.05)
      w2:step(0.05)
    end
    assert.are.equal(w1:snapshot(), w2:snapshot())
    local moved = 0
    for a in w1:agents() do
      support.all_finite(a.x, a.y, a.vx, a.vy)
      if a.speed > 0.1 then moved = moved + 1 end
    end
    assert.is_true(moved > 60)
  end)
end)

describe("threads", function()
  -- a crowd big enough to be split (4096 agents and more), with programs
  -- that stream (flocking, wander, paths) and one that forces buffering
  -- (an agent target)
  local function crowd(threads, chase)
    local n = 5000
    local side = math.sqrt(n) * 4
    local world = steer.world{ bounds = { side, side }, wrap = true, seed = 3,
                               threads = threads }
    local path = steer.path{ { 10, 10 }, { 200, 10 }, { 200, 200 }, loop = true }
    local flock = steer.program{ { "separation", radius = 1.5, weight = 1.5 },
      { "alignment", radius = 5 }, { "cohesion", radius = 5 } }
    local first
    for k = 1, n do
      local a = world:add{ x = (k * 7.31) % side, y = (k * 3.77) % side,
                           vx = math.cos(k), vy = math.sin(k), max_speed = 2.5, max_force = 4 }
      first = first or a
      if k % 10 == 0 then
        a:set_behaviors{ { "wander" }, { "follow", path = path }, { "separation", radius = 2 } }
      elseif chase and k % 10 == 1 then
        a:set_behaviors{ { "pursue", target = first }, { "alignment", radius = 5 } }
      else
        a:set_behaviors(flock)
      end
    end
    for _ = 1, 20 do world:step(0.1) end
    return world
  end

  it("give bit-identical results for any thread count, streamed or buffered", function()
    for _, chase in ipairs{ false, true } do
      local one = crowd(1, chase):snapshot()
      assert.are.equal(one, crowd(2, chase):snapshot())
      assert.are.equal(one, crowd(3, chase):snapshot())
    end
  end)

  it("rejects a bad thread count", function()
    assert.matches("field 'threads': integer 1..64 expected, got 1.5",
      support.error_of(steer.world, { threads = 1.5 }))
    assert.matches("field 'threads': positive number expected, got 0",
      support.error_of(steer.world, { threads = 0 }))
  end)

  it("come back to a restored world through steer.restore's options, the same bits", function()
    -- a snapshot holds no thread count: restore gave 1 and no way back
    local saved = crowd(2, true):snapshot()
    local one = assert(steer.restore(saved))
    local two = assert(steer.restore(saved, { threads = 2 }))
    for _ = 1, 5 do one:step(0.1); two:step(0.1) end
    assert.are.equal(one:snapshot(), two:snapshot())
    assert.matches("bad argument #2 to 'restore' %(field 'threads': integer 1..64 expected, got 65%)",
      support.error_of(steer.restore, saved, { threads = 65 }))
    assert.matches("bad argument #2 to 'restore' %(field 'threads': positive number expected, got 0%)",
      support.error_of(steer.restore, saved, { threads = 0 }))
    assert.matches("unknown field 'thread': did you mean 'threads'%?",
      support.error_of(steer.restore, saved, { thread = 2 }))
    assert.matches("bad argument #2 to 'restore' %(table expected, got number%)",
      support.error_of(steer.restore, saved, 2))
    -- bad bytes still answer nil, message, options or not
    local none, message = steer.restore("nope", { threads = 2 })
    assert.is_nil(none)
    assert.is_string(message)
  end)
end)

describe("the crowd kernel", function()
  -- World steps walk flocking agents four (AVX) or two (SSE2) at a time in
  -- SIMD registers and combine pure flocking programs two at a time; the
  -- result must be the scalar walk's, bit for bit, at every width and on
  -- every path.
  local function crowd(opts)
    local side = opts.side
    local world = steer.world{ bounds = { side, side }, wrap = true, seed = 9,
                               cell_size = opts.cell }
    local r = opts.radius
    local flock = steer.program{ { "separation", radius = r * 0.3, weight = 1.5 },
      { "alignment", radius = r }, { "cohesion", radius = r, weight = 0.8 } }
    local narrow = steer.program{ { "cohesion", radius = r * 0.5 },
      { "separation", radius = r }, { "alignment", radius = r * 0.7 } }
    local mixed = steer.program{ { "separation", radius = r }, { "wander", weight = 0.1 } }
    local agents = {}
    for k = 1, opts.n do
      local s = opts.speed
      local a = world:add{ x = (k * 7.31 * side / 400) % side, y = (k * 3.77 * side / 400) % side,
        vx = s * math.cos(k), vy = s * math.sin(k), max_speed = s * (1 + k % 3),
        max_force = opts.forces[k % 4 + 1] }
      a:set_behaviors(k % 7 == 0 and narrow or k % 11 == 0 and mixed or flock)
      agents[k] = a
    end
    return world, agents, flock
  end

  local function run(width, buffered, opts)
    steer.testing.simd(width)
    local world, agents, flock = crowd(opts)
    -- a zero-weighted extra entry: an agent target makes the step buffered
    -- (every force by the scalar path), a point target keeps it streamed
    local extra = buffered and { "pursue", target = agents[2], weight = 0 }
      or { "seek", target = { 0, 0 }, weight = 0 }
    local last = agents[#agents]
    last:set_behaviors{ { "separation", radius = opts.radius * 0.3, weight = 1.5 },
      { "alignment", radius = opts.radius }, { "cohesion", radius = opts.radius, weight = 0.8 }, extra }
    for _ = 1, 8 do world:step(0.1) end
    steer.testing.simd()
    local state = {}
    for k, a in ipairs(agents) do
      support.all_finite(a.x, a.y, a.vx, a.vy)
      state[k] = { a.x, a.y, a.vx, a.vy }
    end
    return state, world:stats()
  end


  -- forces: max_force by k % 4; the huge and tiny crowds reach v2_clamp's
  -- and v2_normalize's rare branches (m2 >= 1e300, l2 <= 1e-290, a
  -- subnormal ratio), which the paired code leaves to the scalar code
  local scales = {
    { name = "ordinary numbers", n = 3000, side = 220, cell = 5, radius = 5, speed = 1.5,
      forces = { 0, 4, 8, 12 } },
    { name = "huge numbers", n = 600, side = 1e150, cell = 5e148, radius = 5e148,
      speed = 1e147, forces = { 0, 1e147, 1e149, 1e150 } },
    { name = "tiny numbers", n = 600, side = 1e-140, cell = 5e-142, radius = 5e-142,
      speed = 1e-146, forces = { 0, 1e-170, 1e-146, 1e-141 } },
  }
  for _, o in ipairs(scales) do
    it("gives the scalar walk's results bit for bit: " .. o.name, function()
      local scalar, stats = run(1, true, o)
      for _, way in ipairs{ { 1, false }, { 2, false }, { 2, true }, { 4, false } } do
        local diff = support.first_difference(scalar, (run(way[1], way[2], o)), 4)
        assert.is_nil(diff, ("width %d, %s: %s"):format(way[1],
          way[2] and "buffered" or "streamed", tostring(diff)))
      end
      assert.is_true(stats.neighbors > o.n, "the crowd has neighbors")
    end)
  end

  it("steer.testing.simd reports the width in use", function()
    local best = steer.testing.simd()
    assert.is_true(best == 1 or best == 2 or best == 4)
    assert.are.equal(1, steer.testing.simd(1))
    assert.are.equal(math.min(2, best), steer.testing.simd(3))
    assert.are.equal(best, steer.testing.simd(64))
    assert.are.equal(best, steer.testing.simd())
  end)
end)

describe("batched programs", function()
  -- Weighted programs of point targets, flow, wander and flocking are
  -- computed entry by entry for a batch of agents (program_batch.c); the
  -- result must be program_force's, bit for bit. The reference run adds a
  -- zero-weighted pursue entry, which makes every program unbatchable and
  -- the step buffered.
  local function run(reference, opts)
    local side = opts.side
    local world = steer.world{ bounds = { side, side }, wrap = opts.wrap, seed = 4, cell_size = side / 40 }
    -- the grid covers 80% of the world: some agents start outside it
    local nav = steer.navgrid{ width = 20, height = 20, cell_size = side / 25,
      cost = (function()
        local c = {}
        for k = 1, 400 do c[k] = (k % 7 == 3 and k % 20 ~= 0) and 0 or 1 + k % 3 end
        return c
      end)() }
    local field = nav:flow(side * 0.5, side * 0.5)
    local shared = steer.point(side * 0.3, side * 0.6)
    local programs = {
      { { "flow", field = field, slowing_radius = side / 6 } },
      { { "seek", target = { side * 0.9, side * 0.1 } }, { "wander", weight = 0.3 } },
      { { "arrive", target = shared, slowing_radius = side / 10 }, { "separation", radius = side / 60, weight = 2 } },
      { { "flee", target = { side / 2, side / 2 }, panic_radius = side / 4 },
        { "cohesion", radius = side / 40 }, { "alignment", radius = side / 50, weight = 0.5 } },
      { { "separation", radius = side / 80, weight = 1.5 }, { "alignment", radius = side / 40 },
        { "cohesion", radius = side / 40 }, { "wander", weight = 0.2 }, { "flow", field = field, weight = 0.7 } },
      -- bench/level's flocking + wander: flocking rules and wander in lanes
      { { "separation", radius = side / 80, weight = 1.5 }, { "alignment", radius = side / 40 },
        { "cohesion", radius = side / 40 }, { "wander" } },
    }
    local agents = {}
    for k = 1, opts.n do
      local s = opts.speed
      agents[k] = world:add{ x = (k * 7.31 * side / 400) % side, y = (k * 3.77 * side / 400) % side,
        vx = s * math.cos(k), vy = s * math.sin(k), max_speed = s * (1 + k % 3),
        max_force = opts.forces[k % 4 + 1] }
      if opts.angles then -- wander angles of every size (beyond 65536: libm), agents at rest
        agents[k].wander_angle = (k % 7 == 0) and k * 1e3 or (k % 13 == 0) and -k * 1e11 or k * 0.1
        if k % 11 == 0 then agents[k].wander_jitter = 1e16 end -- folded by fmod
        if k % 5 == 0 then agents[k].vx, agents[k].vy = 0, 0 end
      end
    end
    -- one program object per kind, shared by its agents (so they batch)
    for q, entries in ipairs(programs) do
      if reference then entries[#entries + 1] = { "pursue", target = agents[1], weight = 0 } end
      programs[q] = steer.program(entries)
    end
    local uses = opts.programs or { 1, 2, 3, 4, 5 }
    for k, a in ipairs(agents) do a:set_behaviors(programs[uses[k % #uses + 1]]) end
    for step = 1, 6 do
      if step == 3 then shared.x, shared.y = side * 0.7, side * 0.2 end
      world:step(0.1)
    end
    local state = {}
    for k, a in ipairs(agents) do
      support.all_finite(a.x, a.y, a.vx, a.vy)
      state[k] = { a.x, a.y, a.vx, a.vy }
    end
    return state
  end

  local cases = {
    { name = "a torus", wrap = true, n = 1500, side = 200, speed = 1.5, forces = { 0, 4, 8, 12 } },
    { name = "a bounded world", wrap = false, n = 1500, side = 200, speed = 1.5, forces = { 0, 4, 8, 12 } },
    { name = "huge numbers", wrap = true, n = 400, side = 1e150, speed = 1e147,
      forces = { 0, 1e147, 1e149, 1e150 } },
    -- one program for all: long batches, flow fields two agents at a time
    { name = "a crowd on one flow field", wrap = false, n = 2000, side = 100, speed = 3,
      forces = { 0, 4, 8, 1e-300 }, programs = { 1 } },
    { name = "a crowd flocking along a flow field", wrap = true, n = 2000, side = 100, speed = 3,
      forces = { 0, 4, 8, 12 }, programs = { 5 } },
    { name = "a crowd seeking and wandering", wrap = true, n = 2000, side = 100, speed = 3,
      forces = { 0, 4, 8, 12 }, programs = { 2 } },
    { name = "a crowd flocking and wandering, angles of every size", wrap = true, n = 2000,
      side = 100, speed = 3, forces = { 0, 4, 8, 12 }, programs = { 6 }, angles = true },
    { name = "a crowd flocking and wandering, huge numbers", wrap = true, n = 600, side = 1e150,
      speed = 1e147, forces = { 0, 1e147, 1e149, 1e150 }, programs = { 6 }, angles = true },
    { name = "a crowd arriving at a shared point", wrap = false, n = 2000, side = 100, speed = 3,
      forces = { 0, 4, 8, 12 }, programs = { 3 } },
    { name = "a crowd seeking, huge numbers", wrap = true, n = 600, side = 1e150, speed = 1e147,
      forces = { 0, 1e147, 1e149, 1e150 }, programs = { 2, 3 } },
    { name = "a crowd on one flow field, huge numbers", wrap = false, n = 600, side = 1e150,
      speed = 1e147, forces = { 0, 1e147, 1e149, 1e150 }, programs = { 1 } },
  }
  for _, o in ipairs(cases) do
    it("give program_force's results bit for bit: " .. o.name, function()
      local want = run(true, o)
      for _, width in ipairs{ 1, 2, 4 } do
        steer.testing.simd(width)
        local got = run(false, o)
        steer.testing.simd()
        local diff = support.first_difference(want, got, 4)
        if diff then error(("width %d, %s"):format(width, diff)) end
      end
    end)
  end
end)
