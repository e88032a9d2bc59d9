-- Behavior programs (docs/API.md section 4): entries, combine modes, smoothing,
-- jitter controls, setters and errors.
local steer = require "steer"
local support = require "support"
local near, error_of = support.near, support.error_of

-- An agent at the origin at rest, alone in its world: seek toward a point
-- at distance d along direction u gives exactly u * max_speed, which lets
-- the combine specs feed known forces. seek_entry(x, y) is such an entry.
local function lone(max_speed, max_force)
  local world = steer.world{}
  return world:add{ max_speed = max_speed or 1, max_force = max_force or 1e6 },
    world
end

local function seek_entry(x, y, extra)
  local e = { "seek", target = { x, y } }
  for k, v in pairs(extra or {}) do e[k] = v end
  return e
end

describe("program entries", function()
  -- two identical worlds: one runs the method, the other the program
  local function twins(build)
    local w1, w2 = steer.world{ seed = 3 }, steer.world{ seed = 3 }
    return build(w1), build(w2)
  end

  local function scene(world)
    world:add_obstacle{ x = 4, y = 0.5, radius = 1 }
    world:add_wall{ x1 = 2, y1 = -5, x2 = 2, y2 = 5 }
    local a = world:add{ x = 0, y = 0, vx = 1, vy = 0.2, max_speed = 2,
                         max_force = 1e6, radius = 0.5 }
    world:add{ x = 0.8, y = 0.3, vx = -0.5, vy = 0.1 }
    world:add{ x = -0.6, y = 1.1, vx = 0.2, vy = 0.4 }
    world:add{ x = 3, y = -2, vx = 0.3, vy = 0.9 }
    return a
  end

  local path = steer.path{ { 0, 0.3 }, { 6, 1 }, { 6, 6 } }

  -- name, method call, entry (targets given as functions of the world)
  local cases = {
    { "seek", function(a) return a:seek(5, 3) end, { "seek", target = { 5, 3 } } },
    { "seek an agent", function(a) return a:seek(a:world():get(4)) end,
      function(w) return { "seek", target = w:get(4) } end },
    { "flee", function(a) return a:flee(1, 1, 3) end,
      { "flee", target = { 1, 1 }, panic_radius = 3 } },
    { "arrive", function(a) return a:arrive(1, 0.5, 4) end,
      { "arrive", target = { 1, 0.5 }, slowing_radius = 4 } },
    { "pursue", function(a) return a:pursue(a:world():get(4)) end,
      function(w) return { "pursue", target = w:get(4) } end },
    { "evade", function(a) return a:evade(a:world():get(4)) end,
      function(w) return { "evade", target = w:get(4) } end },
    { "wander", function(a) return a:wander() end, { "wander" } },
    { "avoid_obstacles", function(a) return a:avoid_obstacles(4) end,
      { "avoid_obstacles", feeler_length = 4 } },
    { "avoid_walls", function(a) return a:avoid_walls(3) end,
      { "avoid_walls", feeler_length = 3 } },
    { "follow", function(a) return a:follow(path, { arrival_radius = 0.6, slowing_radius = 2 }) end,
      { "follow", path = path } },
    { "separation", function(a) return a:separation(1.3) end, { "separation", radius = 1.3 } },
    { "alignment", function(a) return a:alignment(5) end, { "alignment", radius = 5 } },
    { "cohesion", function(a) return a:cohesion(5) end, { "cohesion", radius = 5 } },
  }

  for _, case in ipairs(cases) do
    it("'" .. case[1] .. "' yields exactly the force of the method", function()
      local a1, a2 = twins(scene)
      local entry = case[3]
      if type(entry) == "function" then entry = entry(a2:world()) end
      a2:set_behaviors{ entry }
      for step = 1, 3 do -- repeated: stateful entries (wander, follow) stay in step
        local mx, my = case[2](a1)
        if step == 1 then
          assert.is_true(mx ~= 0 or my ~= 0, "the case should produce a force")
        end
        -- the program's combination clamps, as every combine mode does
        mx, my = steer.clamp(mx, my, a2.max_force)
        local px, py = a2:steering()
        assert.are.equal(mx, px)
        assert.are.equal(my, py)
        a1:apply(mx, my, 0.1)
        a2:apply(px, py, 0.1)
      end
    end)
  end

  it("scales by weight", function()
    local a = lone(2)
    a:set_behaviors{ seek_entry(3, 4, { weight = -0.5 }) }
    local fx, fy = a:steering()
    near(fx, -0.6, 1e-12)
    near(fy, -0.8, 1e-12)
  end)

  it("tracks an agent target live and falls silent once it is removed", function()
    local world = steer.world{}
    local a = world:add{ max_speed = 1, max_force = 10 }
    local b = world:add{ x = 10 }
    a:set_behaviors{ { "seek", target = b } }
    assert.are.equal(1, (a:steering()))
    b.x, b.y = 0, -10
    local fx, fy = a:steering()
    near(fx, 0, 1e-15)
    near(fy, -1, 1e-15)
    world:remove(b)
    fx, fy = a:steering()
    assert.are.same({ 0, 0 }, { fx, fy })
    world:step(0.1) -- stepping with a dead target is fine
    assert.are.same({ 0, 0 }, { a.x, a.y })
  end)

  it("follows a path target with seek (no slowing) or arrive (slowing at the end)", function()
    local path = steer.path{ { 1, 0 }, { 2, 0 } }
    local world = steer.world{}
    local a = world:add{ x = 1.9, max_speed = 1, max_force = 10 }
    local b = world:add{ x = 1.9, max_speed = 1, max_force = 10 }
    a:set_behaviors{ { "seek", target = path, arrival_radius = 1 } }
    b:set_behaviors{ { "arrive", target = path, arrival_radius = 1, slowing_radius = 2 } }
    -- both advance from waypoint 1 (within 1 of it) to waypoint 2 at 0.1
    near((a:steering()), 1, 1e-12)           -- seek: full speed
    near((b:steering()), 0.1 / 2, 1e-12)     -- arrive: 0.1 / 2 of max speed
    assert.are.equal(2, a:path_index())
    assert.are.equal(2, b:path_index(path))
  end)
end)

describe("combine modes", function()
  it("weighted: clamp of the weighted sum", function()
    local a = lone(1, 1.5)
    a:set_behaviors{ seek_entry(1, 0, { weight = 2 }), seek_entry(0, 1) }
    -- sum (2, 1), length sqrt 5 > 1.5
    local fx, fy = a:steering()
    near(fx, 2 * 1.5 / math.sqrt(5), 1e-12)
    near(fy, 1.5 / math.sqrt(5), 1e-12)
  end)

  for _, mode in ipairs{ "weighted", "priority", "prioritized_sum", "dither" } do
    it(mode .. ": all-zero forces give zero", function()
      local a = lone()
      -- seek toward its own position and separation without neighbors: zero
      a:set_behaviors{ combine = mode, { "seek", target = { 0, 0 } },
                       { "separation", radius = 3 } }
      assert.are.same({ 0, 0 }, { a:steering() })
      assert.is_nil(a:active_behavior())
    end)

    it(mode .. ": a single entry gives its own force, clamped", function()
      local a = lone(3, 2)
      a:set_behaviors{ combine = mode, seek_entry(0, 5) }
      local fx, fy = a:steering()
      near(fx, 0, 1e-15)
      near(fy, 2, 1e-12)
    end)
  end

  it("priority: the first entry whose force has squared length > 1e-4 wins", function()
    local a = lone(1)
    a:set_behaviors{ combine = "priority",
      seek_entry(1, 0, { weight = 0.01 }),   -- |f|^2 = 1e-4: silent
      seek_entry(0, 1, { tag = "north" }),
      seek_entry(-1, 0) }
    local fx, fy = a:steering()
    near(fx, 0, 1e-15)
    near(fy, 1, 1e-12)
    local index, name = a:active_behavior()
    assert.are.equal(2, index)
    assert.are.equal("north", name)
  end)

  it("prioritized_sum: adds in order until max_force is used up, cutting the last", function()
    local a = lone(1, 1.5)
    a:set_behaviors{ combine = "prioritized_sum",
      seek_entry(1, 0), seek_entry(0, 1, { weight = 2 }), seek_entry(-1, 0) }
    -- (1, 0) fits; (0, 2) is cut to (0, k) with |(1, k)| = 1.5: k = sqrt(1.25);
    -- the budget is used up, so (-1, 0) is never added
    local fx, fy = a:steering()
    near(fx, 1, 1e-12)
    near(fy, math.sqrt(1.25), 1e-12)
    near(steer.length(fx, fy), 1.5, 1e-12)
  end)

  it("prioritized_sum: the running total's length is the budget, not the sum of lengths", function()
    local a = lone(1, 1.5)
    a:set_behaviors{ combine = "prioritized_sum",
      seek_entry(1, 0), seek_entry(0, 1), seek_entry(-1, 0) }
    -- |(1, 1)| = 1.414 < 1.5, so (-1, 0) is added whole: (0, 1)
    local fx, fy = a:steering()
    near(fx, 0, 1e-12)
    near(fy, 1, 1e-12)
  end)

  it("prioritized_sum: forces that exactly use up max_force stop the sum", function()
    local a = lone(1, 2)
    a:set_behaviors{ combine = "prioritized_sum",
      seek_entry(1, 0), seek_entry(1, 0), seek_entry(0, 1) }
    local fx, fy = a:steering()
    near(fx, 2, 1e-12)
    near(fy, 0, 1e-15)
    assert.are.same({ fx, fy }, { steer.prioritized_sum(2, 1, 0, 1, 0, 0, 1) })
  end)

  -- the agent's generator, by hand: s = s * 1103515245 + 12345 mod 2^32
  local function lcg(s)
    -- exact in doubles: split the multiplier into 16-bit halves
    local lo, hi = 1103515245 % 65536, math.floor(1103515245 / 65536)
    local t = (s * lo + ((s * hi) % 65536) * 65536 + 12345) % 4294967296
    return t, t / 4294967295
  end

  it("dither: consults each entry with its probability, from the agent's generator", function()
    local s1, u1 = lcg(42)
    local s2 = lcg(s1)
    local _, u3 = lcg(s2)
    local function run(p1, p2, p3)
      local a = lone(1)
      a:seed(42)
      a:set_behaviors{ combine = "dither", seek_entry(1, 0, { probability = p1 }),
        seek_entry(0, 1, { probability = p2 }), seek_entry(-1, 0, { probability = p3 }) }
      return { a:steering() }, (a:active_behavior())
    end
    local above = function(u) return math.min(1, u + 1e-9) end
    -- the first roll decides the first entry: chosen when roll < probability
    local f, winner = run(above(u1), 0, 0)
    assert.are.same({ 1, 0 }, f)
    assert.are.equal(1, winner)
    f, winner = run(u1 - 1e-9, 0, 0)
    assert.are.same({ 0, 0 }, f)
    assert.is_nil(winner)
    -- every entry consulted draws: the third entry gets the third roll
    f, winner = run(0, 0, above(u3))
    assert.are.same({ -1, 0 }, f)
    assert.are.equal(3, winner)
    f = run(0, 0, u3 - 1e-9)
    assert.are.same({ 0, 0 }, f)
    -- probability 1 always consults
    assert.are.same({ 0, 1 }, (run(0, 1, 1)))
  end)

  it("smoothing: the first smoothed force is the first raw force, then lerp", function()
    local golden = support.golden("11_lerp_smoothing")
    local a = lone(1)
    local raw = golden.parameters.raw_sequence
    a:set_behaviors{ smoothing = golden.parameters.smoothing, { "seek", target = { 1, 0 } } }
    for k, row in ipairs(golden.rows) do
      -- steer the raw force by moving the target: seek at rest = normalize(t) * max_speed
      a.max_speed = steer.length(raw[k][1], raw[k][2])
      a:set_target("seek", raw[k][1], raw[k][2])
      local fx, fy = a:steering()
      near(fx, row.smoothed[1], golden.tolerance, "frame " .. row.frame)
      near(fy, row.smoothed[2], golden.tolerance, "frame " .. row.frame)
    end
  end)
end)

describe("jitter controls", function()
  -- An agent skirting a large obstacle on its way to a goal: each frame its
  -- feeler enters the obstacle's reach, avoidance pushes it out, seek
  -- steers it back in. Counts the switches of the winning entry while it
  -- passes the obstacle (2 < x < 10) and the frames that took.
  local function skirt(hold, hysteresis)
    local world = steer.world{}
    world:add_obstacle{ x = 10, y = 0, radius = 5 }
    local a = world:add{ x = 0, y = 0.5, vx = 1, max_speed = 1, max_force = 0.5,
                         radius = 0.5 }
    a:set_behaviors{ combine = "priority", hold = hold,
      { "avoid_obstacles", feeler_length = 3, hysteresis = hysteresis },
      { "seek", target = { 30, 0.5 } } }
    local switches, frames, last = 0, 0, nil
    for _ = 1, 400 do
      world:step(0.1)
      local _, name = a:active_behavior()
      if a.x > 2 and a.x < 10 then
        frames = frames + 1
        if last and name ~= last then switches = switches + 1 end
      end
      last = name
    end
    assert.is_true(frames > 100, "the agent should take a while to pass")
    assert.is_true(a.x > 25, "and get past the obstacle")
    return switches, frames
  end

  it("without hold or hysteresis the winner flickers most frames", function()
    local switches, frames = skirt(0, 0)
    assert.is_true(switches > 0.6 * frames, ("%d switches in %d frames"):format(switches, frames))
  end)

  it("hold keeps the last winner in control after it falls silent", function()
    local flicker = skirt(0, 0)
    local held = skirt(0.5, 0)
    assert.is_true(held * 3 < flicker, ("held %d vs %d"):format(held, flicker))
  end)

  it("hysteresis keeps avoidance on a little longer", function()
    local flicker = skirt(0, 0)
    local sticky = skirt(0, 1)
    assert.is_true(sticky * 3 < flicker, ("sticky %d vs %d"):format(sticky, flicker))
  end)

  it("hold returns the held force while the winner is silent", function()
    local a, world = lone(1, 5)
    local target = world:add{ x = 0, y = 0 } -- seek toward this agent
    a:set_behaviors{ combine = "priority", hold = 0.3,
      { "seek", target = target, tag = "chase" }, seek_entry(-1, 0) }
    target.x = 1
    near((a:steering(0.1)), 1, 1e-12) -- chase wins
    target.x = 0                      -- chase falls silent (target on top)
    for _ = 1, 3 do
      local fx = a:steering(0.1)
      near(fx, 1, 1e-12)              -- held
      assert.are.equal("chase", select(2, a:active_behavior()))
    end
    near((a:steering(0.1)), -1, 1e-12) -- hold ran out: the next entry
  end)
end)

describe("setters", function()
  it("set_target and set_weight change one agent, not the others sharing the program", function()
    local world = steer.world{}
    local a = world:add{ max_speed = 1, max_force = 10 }
    local b = world:add{ max_speed = 1, max_force = 10 }
    local program = { { "seek", target = { 1, 0 }, tag = "goal" } }
    a:set_behaviors(program)
    b:set_behaviors(program)
    a:set_target("goal", 0, 1)
    a:set_weight(1, 2)
    assert.are.same({ 0, 2 }, { a:steering() })
    assert.are.same({ 1, 0 }, { b:steering() })
    b:set_target("seek", a)            -- by behavior name, to an agent
    assert.are.same({ 0, 0 }, { b:steering() }) -- a sits on b
    a.x = 3
    assert.are.same({ 1, 0 }, { b:steering() })
  end)

  it("a shared steer.program serves many agents", function()
    local world = steer.world{}
    local prog = steer.program{ combine = "weighted", { "seek", target = { 0, 5 } } }
    local agents = {}
    for k = 1, 3 do
      agents[k] = world:add{ x = k, max_speed = 1, max_force = 10 }
      agents[k]:set_behaviors(prog)
    end
    for k = 1, 3 do
      local fx, fy = agents[k]:steering()
      near(fx, -k / math.sqrt(k * k + 25), 1e-12)
      near(fy, 5 / math.sqrt(k * k + 25), 1e-12)
    end
    assert.matches("steer.Program", tostring(prog))
  end)

  it("behaviors() describes the program with every parameter", function()
    local world = steer.world{}
    local a = world:add{}
    local b = world:add{}
    local path = steer.path{ { 0, 0 }, { 1, 1 } }
    a:set_behaviors{ combine = "priority", hold = 0.25, smoothing = 0.5,
      { "avoid_walls", hysteresis = 0.2 }, { "pursue", target = b, tag = "chase" },
      { "follow", path = path }, { "separation", radius = 2, weight = 3 } }
    local d = a:behaviors()
    assert.are.equal("priority", d.combine)
    assert.are.equal(0.25, d.hold)
    assert.are.equal(0.5, d.smoothing)
    assert.are.equal("avoid_walls", d[1][1])
    assert.are.equal(3, d[1].feeler_length)
    assert.are.equal(0.2, d[1].hysteresis)
    assert.are.equal(b, d[2].target)
    assert.are.equal("chase", d[2].tag)
    assert.are.equal(2, #d[3].path)
    assert.are.equal(0.6, d[3].arrival_radius)
    assert.are.equal(3, d[4].weight)
    assert.are.equal(2, d[4].radius)
    -- the description is itself a valid program
    local c = world:add{}
    c:set_behaviors(d)
    assert.are.same(d[4], c:behaviors()[4])
    a:set_behaviors(nil)
    assert.is_nil(a:behaviors())
  end)
end)

describe("bad programs", function()
  local function attempt(program)
    local world = steer.world{}
    local a = world:add{ max_speed = 1, max_force = 10 }
    a:set_behaviors{ { "seek", target = { 1, 0 } } }
    local msg = error_of(a.set_behaviors, a, program)
    -- the previous program is still in place
    assert.are.equal(1, (a:steering()))
    assert.are.equal("seek", a:behaviors()[1][1])
    return msg
  end

  it("name the problem and keep the previous program", function()
    assert.matches("bad argument #1 to 'set_behaviors' %(entry 1 %('%?'%): unknown behavior 'seeek': "
      .. "expected one of seek, flee, arrive, ", attempt{ { "seeek", target = { 1, 0 } } })
    assert.matches("unknown combine mode 'best'", attempt{ combine = "best" })
    assert.matches("combine: string expected, got number", attempt{ combine = 3 })
    assert.matches("entry 2 %('arrive'%): missing 'target'",
      attempt{ { "wander" }, { "arrive" } })
    assert.matches("entry 1 %('separation'%): missing 'radius'", attempt{ { "separation" } })
    assert.matches("entry 1 %('separation'%): unknown parameter 'raduis'",
      attempt{ { "separation", raduis = 2 } })
    assert.matches("entry 1 %('seek'%): 'weight' must be a number, got string",
      attempt{ { "seek", target = { 1, 0 }, weight = "heavy" } })
    assert.matches("entry 1 %('pursue'%): target must be an agent",
      attempt{ { "pursue", target = { 1, 0 } } })
    assert.matches("entry 1 %('follow'%): missing 'path'", attempt{ { "follow" } })
    assert.matches("entry 1 %('flee'%): target must be an agent, a steer.SharedPoint, {x, y} or {x =, y =}, got string",
      attempt{ { "flee", target = "player" } })
    assert.matches("entry 1 %('seek'%): target y: finite number expected, got nan",
      attempt{ { "seek", target = { 1, 0 / 0 } } })
    assert.matches("entry 1: table expected, got number", attempt{ 5 })
    assert.matches("entry 1 %('separation'%): radius: non%-negative number expected, got %-1",
      attempt{ { "separation", radius = -1 } })
    assert.matches("smoothing must be in %(0, 1%] %(1: no smoothing; smaller is smoother%), got 2%)$",
      attempt{ smoothing = 2 })
    assert.matches("unknown program field 'combin'", attempt{ combin = "priority" })
    assert.matches("table expected, got string", attempt("seek"))
    assert.matches("probability must be in %[0, 1%]",
      attempt{ combine = "dither", { "wander", probability = 1.5 } })
  end)

  it("refuse targets that are removed or belong to another world", function()
    local other = steer.world{}:add{}
    assert.matches("target agent belongs to another world",
      attempt{ { "seek", target = other } })
    local world = steer.world{}
    local a, b = world:add{}, world:add{}
    world:remove(b)
    assert.matches("target agent has been removed",
      error_of(a.set_behaviors, a, { { "seek", target = b } }))
    local prog = steer.program{ { "seek", target = other } }
    assert.matches("program targets agents of another world",
      error_of(a.set_behaviors, a, prog))
  end)

  it("setters name the entry and check its target", function()
    local world = steer.world{}
    local a = world:add{}
    assert.matches("calling 'set_target' on bad self %(agent has no behaviors%)",
      error_of(a.set_target, a, 1, 0, 0))
    a:set_behaviors{ { "wander" }, { "seek", target = { 1, 1 } } }
    assert.matches("bad argument #1 to 'set_target' %(no entry 'chase'%)",
      error_of(a.set_target, a, "chase", 0, 0))
    assert.matches("no entry 3 %(the program has 2%)", error_of(a.set_weight, a, 3, 1))
    assert.matches("entry 1 %('wander'%): takes no target", error_of(a.set_target, a, 1, 0, 0))
    assert.matches("bad argument #2 to 'set_weight' %(number expected, got nil%)",
      error_of(a.set_weight, a, 2, nil))
  end)
end)

describe("behaviors() passed back", function()
  -- a second review (session 40) found groups, fov, falloff, the corridor's
  -- parameters and turn left out: the program read back steered otherwise
  it("keeps groups, fov, falloff, the corridor and turn, and steers the same", function()
    local path = steer.path{ { 0, 0 }, { 10, 0 }, { 10, 10 } }
    local defs = {
      { { "separation", radius = 6, falloff = "linear", groups = { 1, 3 }, fov = 90 } },
      { { "alignment", radius = 6, groups = { 0 }, fov = 200 } },
      { { "cohesion", radius = 6, groups = { 1 }, fov = 90 } },
      { { "avoid_agents", groups = { 1 }, fov = 120 } },
      { { "follow", path = path, path_radius = 2, look_ahead = 0.5, start = 3 } },
      { { "follow", path = path, start = "nearest" } },
      { turn = "velocity", { "seek", target = { 0, 10 } } },
    }
    for _, def in ipairs(defs) do
      local w = steer.world{}
      local a = w:add{ x = 1, y = 1, vx = 1, max_speed = 2, max_force = 4, angle = 0.3 }
      w:add{ x = 2, y = 1.5, vx = -1, group = 0 }
      w:add{ x = 0, y = 3, vy = 1, group = 1 }
      w:add{ x = 1.5, y = 0, vx = 1, vy = 1, group = 3 }
      a:set_behaviors(def)
      local fx, fy = a:steering()
      local back = a:behaviors()
      for k, v in pairs(def[1]) do
        if type(v) == "userdata" then -- a path comes back as the world's copy
          assert.are.equal(tostring(v), tostring(back[1][k]))
        elseif k ~= 1 then
          assert.are.same(v, back[1][k], tostring(k))
        end
      end
      assert.are.equal(def.turn, back.turn)
      a:set_behaviors(back)
      local again = a:behaviors()
      for k, v in pairs(back[1]) do
        if type(v) ~= "userdata" then assert.are.same(v, again[1][k], tostring(k)) end
      end
      local gx, gy = a:steering()
      assert.are.same({ fx, fy }, { gx, gy })
      w:step(0.5)
      if def.turn then assert.are_not.equal(0.3, a.angle) end
    end
    -- the defaults stay out: every group, no corridor, the first waypoint
    local a = steer.world{}:add{}
    a:set_behaviors{ { "separation", radius = 2 }, { "follow", path = path } }
    local b = a:behaviors()
    assert.are.same({ nil, 360, "inverse" }, { b[1].groups, b[1].fov, b[1].falloff })
    assert.are.same({ nil, nil, 1 }, { b[2].path_radius, b[2].start, b[2].look_ahead })
  end)
end)
