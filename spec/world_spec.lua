-- Worlds and agent handles (docs/API.md section 3 and its Conventions):
-- fields, removal, stale handles, ids, handle identity and lifetime,
-- per-agent data, iteration while removing, torus and clamped positions.
local steer = require "steer"
local support = require "support"
local vec_near, raises = support.vec_near, support.raises

local BIG, TINY = 1e150, 1e-300

local function eq(what, ex, ey, fx, fy)
  vec_near(fx, fy, ex, ey, 1e-12, what)
end

describe("agent fields", function()
  it("have the documented defaults", function()
    local w = steer.world{}
    local a = w:add{}
    assert.are.equal(1, a.id)                    -- ids are 1-based
    assert.are.equal(2, w:add().id)
    assert.are.same({ 0, 0, 0, 0 }, { a.x, a.y, a.vx, a.vy })
    assert.are.equal(1, a.max_speed)
    assert.are.equal(1, a.max_force)
    assert.are.equal(0.5, a.radius)
    assert.are.equal(1.2, a.wander_radius)
    assert.are.equal(2, a.wander_distance)
    assert.are.equal(0.5, a.wander_jitter)
    assert.are.equal(0, a.wander_angle)
    assert.are.equal(0, a.speed)
    assert.are.equal(0, a.heading)
    assert.is_true(a.alive)
    assert.are.equal(2, #w)
  end)

  it("read back exactly what was written", function()
    local a = steer.world{}:add{ x = 0.1, y = -BIG, vx = TINY, vy = 1 / 3,
      max_speed = BIG, max_force = TINY, radius = 0 }
    assert.are.same({ 0.1, -BIG, TINY, 1 / 3 }, { a.x, a.y, a.vx, a.vy })
    assert.are.same({ BIG, TINY, 0 }, { a.max_speed, a.max_force, a.radius })
    a.x, a.y, a.vx, a.vy = 1 / 7, -0.3, -BIG, BIG
    a.max_speed, a.max_force, a.radius = 0, BIG, TINY
    a.wander_radius, a.wander_distance, a.wander_jitter, a.wander_angle = 3, 0, BIG, -2.5
    assert.are.same({ 1 / 7, -0.3, -BIG, BIG }, { a.x, a.y, a.vx, a.vy })
    assert.are.same({ 0, BIG, TINY }, { a.max_speed, a.max_force, a.radius })
    assert.are.same({ 3, 0, BIG, -2.5 },
      { a.wander_radius, a.wander_distance, a.wander_jitter, a.wander_angle })
    assert.are.same({ 1 / 7, -0.3 }, { a:position() })
    assert.are.same({ -BIG, BIG }, { a:velocity() })
  end)

  it("speed and heading follow the velocity", function()
    local a = steer.world{}:add{ vx = 3, vy = 4 }
    assert.are.equal(5, a.speed)
    assert.are.equal((math.atan2 or math.atan)(4, 3), a.heading)
    a.vx, a.vy = -1, 0
    support.close(a.heading, math.pi, 1e-15, "heading of (-1, 0)")
    a.vx, a.vy = 0, -2
    support.close(a.heading, -math.pi / 2, 1e-15, "heading of (0, -2)")
    a.vx, a.vy = BIG, BIG
    support.rel_near(a.speed, math.sqrt(2) * BIG, 1e-12, "huge speed")
    a.vx, a.vy = TINY, TINY
    support.rel_near(a.speed, math.sqrt(2) * TINY, 1e-12, "tiny speed")
    support.close(a.heading, math.pi / 4, 1e-15, "tiny heading")
  end)

  it("tostring names the type", function()
    local w = steer.world{}
    local a = w:add{ x = 3, y = 4 }
    assert.truthy(tostring(a):find("steer.Agent", 1, true))
    assert.truthy(tostring(w):find("steer.World", 1, true))
  end)
end)

describe("per-agent data", function()
  it("stores any other key on the agent", function()
    local w = steer.world{}
    local a, b = w:add{}, w:add{}
    a.name = "guard"
    a[1] = "first"
    local t = {}
    a.memory = t
    assert.are.equal("guard", a.name)
    assert.are.equal("first", a[1])
    assert.are.equal(t, a.memory)
    assert.is_nil(b.name)
    assert.is_nil(b[1])
    a.name = nil
    assert.is_nil(a.name)
    b.name = nil                         -- clearing an absent key is fine
    assert.is_nil(b.name)
  end)

  it("takes custom keys given to world:add{}", function()
    local w = steer.world{}
    local a = w:add{ x = 3, name = "guard", team = 2, [1] = "first" }
    assert.are.equal(3, a.x)
    assert.are.equal("guard", a.name)
    assert.are.equal(2, a.team)
    assert.are.equal("first", a[1])
    assert.is_nil(w:add{ x = 1 }.name)
  end)

  it("survives the handle being collected", function()
    local w = steer.world{}
    local id
    do
      local a = w:add{ x = 5, name = "scout" }
      a.level = 3
      id = a.id
    end
    collectgarbage(); collectgarbage()
    local a = w:get(id)
    assert.are.equal(5, a.x)
    assert.are.equal("scout", a.name)
    assert.are.equal(3, a.level)
  end)

  it("stays with its agent when others are removed", function()
    local w = steer.world{}
    local agents = {}
    local paths = {}
    for k = 1, 6 do
      local a = w:add{ x = k, vy = -k, name = "n" .. k }
      agents[k] = a
      -- cold state too: wander parameters, angle, generator, path progress
      a.wander_radius, a.wander_angle = k / 10, k
      a:seed(k)
      paths[k] = steer.path{ { k, 0 }, { 50, 0 } }
      a:follow(paths[k])                   -- on the first waypoint: now 2
    end
    w:remove(agents[1])
    w:remove(agents[4])
    for _, k in ipairs({ 2, 3, 5, 6 }) do
      local a = agents[k]
      assert.are.equal(k, a.x)
      assert.are.equal(-k, a.vy)
      assert.are.equal("n" .. k, a.name)
      assert.are.equal(a, w:get(a.id))
      assert.are.equal(k / 10, a.wander_radius)
      assert.are.equal(k, a.wander_angle)
      assert.are.equal(2, a:path_index(paths[k]))
      local twin = steer.world{}:add{ x = k, vy = -k, wander_radius = k / 10 }
      twin.wander_angle = k
      twin:seed(k)
      assert.are.same({ twin:wander() }, { a:wander() })
    end
  end)

  it("is gone with the agent: a new agent starts without data", function()
    local w = steer.world{}
    local a = w:add{ name = "old" }
    w:remove(a)
    local b = w:add{}
    assert.is_nil(b.name)
  end)
end)

describe("world:add{program = ...}", function()
  it("gives the new agent its program, as set_behaviors would", function()
    local world = steer.world{}
    local p = steer.program{ { "seek", target = { 10, 0 } } }
    local a = world:add{ x = 0, y = 0, max_speed = 2, max_force = 4, program = p, name = "a" }
    local b = world:add{ x = 0, y = 0, max_speed = 2, max_force = 4,
                         program = { { "seek", target = { 0, -10 } } } }
    local c = world:add{ x = 0, y = 0, max_speed = 2, max_force = 4 }
    c:set_behaviors(p)
    world:step(0.1)
    -- seek from rest: force = desired velocity (2, 0) or (0, -2), under max_force;
    -- v = f * dt
    assert.are.equal(0.2, a.vx)
    assert.are.equal(0, a.vy)
    assert.are.equal(0, b.vx)
    assert.are.equal(-0.2, b.vy)
    assert.are.equal(a.vx, c.vx)
    assert.is_nil(a.program, "not the agent's own data")
    assert.are.equal("a", a.name)
    assert.are.equal(3, world:stats().programs)
  end)

  it("raises naming the field, and adds nothing, for a bad program", function()
    local world = steer.world{}
    local other = steer.world{}
    local far = other:add{}
    local bad = {
      { 5, "field 'program': steer.Program or table expected, got number" },
      { { { "seekk" } }, "unknown behavior 'seekk'" },
      { { { "pursue", target = far } }, "target agent belongs to another world" },
    }
    for _, case in ipairs(bad) do
      local ok, err = pcall(world.add, world, { x = 1, program = case[1] })
      assert.is_false(ok)
      assert.truthy(tostring(err):find("bad argument #1 to 'add'", 1, true), err)
      assert.truthy(tostring(err):find(case[2], 1, true), err)
    end
    assert.are.equal(0, #world)
  end)
end)

describe("world:remove and stale handles", function()
  local function setup()
    local w = steer.world{}
    local a = w:add{ x = 1, name = "a" }
    local b = w:add{ x = 2 }
    local c = w:add{ x = 3 }
    w:remove(a)
    return w, a, b, c
  end

  it("removes the agent and leaves the others intact", function()
    local w, a, b, c = setup()
    assert.are.equal(2, #w)
    assert.is_false(a.alive)
    assert.is_true(b.alive and c.alive)
    assert.is_nil(w:get(a.id))
    assert.are.equal(1, a.id)               -- still readable
    assert.are.same({ 2, 3 }, { b.x, c.x })
    assert.are.equal(w, a:world())
    assert.truthy(tostring(a):find("steer.Agent", 1, true))
  end)

  it("every method of a removed agent raises 'agent has been removed'", function()
    local w, a, b = setup()
    local path = steer.path{ { 0, 0 } }
    local calls = {
      seek = { 1, 2 }, flee = { 1, 2 }, arrive = { 1, 2 }, pursue = { b },
      evade = { b }, wander = {}, avoid_obstacles = {}, avoid_walls = {},
      follow = { path }, path_index = {}, separation = { 1 }, alignment = { 1 },
      cohesion = { 1 }, apply = { 0, 0, 1 }, neighbors = { 1 }, seed = { 1 },
      position = {}, velocity = {},
    }
    for name, args in pairs(calls) do
      raises({ "'" .. name .. "'", "agent has been removed" },
        a[name], a, (table.unpack or unpack)(args))
    end
    assert.are.equal(2, #w)
  end)

  it("field reads and writes of a removed agent raise", function()
    local _, a = setup()
    for _, key in ipairs({ "x", "y", "vx", "vy", "max_speed", "max_force", "radius",
        "speed", "heading", "wander_radius", "wander_distance", "wander_jitter",
        "wander_angle" }) do
      raises("cannot access field '" .. key .. "' of steer.Agent: agent has been removed",
        function() return a[key] end)
    end
    for _, key in ipairs({ "x", "vy", "max_speed", "radius", "wander_angle" }) do
      raises("cannot access field '" .. key .. "' of steer.Agent: agent has been removed",
        function() a[key] = 1 end)
    end
  end)

  it("custom fields of a removed agent stay readable; writing them raises", function()
    local _, a = setup()
    assert.are.equal("a", a.name)           -- given to world:add before removal
    assert.is_nil(a.team)
    raises("cannot access field 'team' of steer.Agent: agent has been removed",
      function() a.team = 1 end)
  end)

  it("a removed agent as an argument raises", function()
    local w, a, b = setup()
    raises({ "bad argument #1 to 'seek'", "agent has been removed" }, b.seek, b, a)
    raises({ "bad argument #1 to 'pursue'", "agent has been removed" }, b.pursue, b, a)
    raises({ "bad argument #1 to 'remove'", "agent has been removed" }, w.remove, w, a)
    assert.are.equal(2, #w)
  end)

  it("world:get of removed or unknown ids is nil", function()
    local w, a = setup()
    assert.is_nil(w:get(a.id))
    assert.is_nil(w:get(0))
    assert.is_nil(w:get(-1))
    assert.is_nil(w:get(4))
    assert.is_nil(w:get(2 ^ 40))
  end)
end)

describe("ids and handles", function()
  it("ids are never reused", function()
    local w = steer.world{}
    local seen = {}
    local keep = { w:add{}, w:add{}, w:add{} }
    for _, a in ipairs(keep) do seen[a.id] = true end
    for _ = 1, 300 do
      local a = w:add{}
      assert.is_nil(seen[a.id], "id " .. a.id .. " reused")
      seen[a.id] = true
      assert.is_true(a.id >= 1 and a.id < 2 ^ 53 and a.id % 1 == 0)
      w:remove(a)
      assert.is_nil(w:get(a.id))
    end
    w:remove(keep[2])
    local b = w:add{}
    assert.is_nil(seen[b.id])
    assert.is_nil(w:get(keep[2].id))
    assert.are.equal(3, #w)
  end)

  it("world:get(id) is the handle world:add returned", function()
    local w = steer.world{}
    local a, b = w:add{ x = 1 }, w:add{ x = 2 }
    assert.is_true(rawequal(a, w:get(a.id)))
    assert.is_true(rawequal(b, w:get(b.id)))
    for h in w:agents() do
      assert.is_true(rawequal(h, w:get(h.id)))
    end
    for h in w:query(1, 0, 0.5) do assert.is_true(rawequal(h, a)) end
    for h in b:neighbors(5) do assert.is_true(rawequal(h, a)) end
  end)

  it("a handle keeps its world alive", function()
    local a
    do
      local w = steer.world{}
      a = w:add{ x = 1 }
      w:add{ x = 2 }
    end
    collectgarbage(); collectgarbage()
    local w = a:world()
    assert.are.equal(2, #w)
    local c = w:add{ x = 4 }
    assert.are.equal(3, #w)
    eq("seek through the kept world", 1, 0, a:seek(c))
    assert.is_true(rawequal(a, w:get(a.id)))
  end)

  it("a removed handle keeps its world alive too", function()
    local a
    do
      local w = steer.world{}
      a = w:add{}
      w:add{ x = 7 }
      w:remove(a)
    end
    collectgarbage(); collectgarbage()
    local w = a:world()
    assert.are.equal(1, #w)
    local n = 0
    for h in w:agents() do n = n + 1; assert.are.equal(7, h.x) end
    assert.are.equal(1, n)
  end)
end)

describe("world:agents()", function()
  local function world_of(n)
    local w = steer.world{}
    local list = {}
    for k = 1, n do list[k] = w:add{ x = k } end
    return w, list
  end

  it("visits every live agent once, in a stable order", function()
    local w, list = world_of(20)
    local first, again = {}, {}
    for a in w:agents() do first[#first + 1] = a end
    for a in w:agents() do again[#again + 1] = a end
    assert.are.equal(20, #first)
    local seen = {}
    for k, a in ipairs(first) do
      assert.is_true(rawequal(a, again[k]))
      assert.is_nil(seen[a.id])
      seen[a.id] = true
    end
    for _, a in ipairs(list) do assert.is_true(seen[a.id]) end
    local n = 0
    for _ in steer.world{}:agents() do n = n + 1 end
    assert.are.equal(0, n)
  end)

  it("survives removing the current agent", function()
    local w, list = world_of(20)
    local seen, n = {}, 0
    for a in w:agents() do
      assert.is_nil(seen[a.id])
      seen[a.id] = true
      n = n + 1
      w:remove(a)
    end
    assert.are.equal(20, n)
    assert.are.equal(0, #w)
    for _, a in ipairs(list) do assert.is_false(a.alive) end
  end)

  it("skips agents removed before they are reached", function()
    local w, list = world_of(20)
    local removed, seen = {}, {}
    for a in w:agents() do
      assert.is_nil(removed[a.id], "visited a removed agent")
      assert.is_nil(seen[a.id])
      seen[a.id] = true
      -- remove two others: one maybe visited already, one maybe not
      for _, other in ipairs({ list[(a.x * 7) % 20 + 1], list[(a.x * 3) % 20 + 1] }) do
        if other.alive and other ~= a then
          removed[other.id] = true
          w:remove(other)
        end
      end
    end
    for _, a in ipairs(list) do
      assert.is_true(seen[a.id] or removed[a.id], "agent " .. a.id .. " lost")
    end
    local live = 0
    for _ in w:agents() do live = live + 1 end
    assert.are.equal(#w, live)
  end)

  it("a query iterator skips agents removed while it runs", function()
    local w, list = world_of(10)
    local n = 0
    for a in w:query(5, 0, 100) do
      n = n + 1
      for _, other in ipairs(list) do
        if other ~= a and other.alive then w:remove(other) end
      end
    end
    assert.are.equal(1, n)
    assert.are.equal(1, #w)
  end)
end)

describe("positions in bounded worlds", function()
  it("wrap into [0, w) x [0, h) on a torus, on write", function()
    local w = steer.world{ bounds = { 100, 80 }, wrap = true }
    local a = w:add{ x = 105, y = -10 }
    assert.are.same({ 5, 70 }, { a.x, a.y })
    a.x = -5;  assert.are.equal(95, a.x)
    a.x = 250; assert.are.equal(50, a.x)
    a.x = 100; assert.are.equal(0, a.x)
    a.y = 80;  assert.are.equal(0, a.y)
    a.y = -80; assert.are.equal(0, a.y)
    for _, v in ipairs({ -TINY, TINY, BIG, -BIG, 99.99999999999999, -1e-14 }) do
      a.x = v
      assert.is_true(a.x >= 0 and a.x < 100, "x = " .. v .. " wrapped to " .. a.x)
      a.y = v
      assert.is_true(a.y >= 0 and a.y < 80, "y = " .. v .. " wrapped to " .. a.y)
    end
  end)

  it("wrap after integration", function()
    local w = steer.world{ bounds = { 100, 80 }, wrap = true }
    local a = w:add{ x = 99.5, y = 10, vx = 1 }
    a:apply(0, 0, 1)
    assert.are.same({ 0.5, 10 }, { a:position() })
    assert.are.same({ 1, 0 }, { a:velocity() })
    local b = w:add{ x = 0.25, y = 0.5, vx = -1, vy = -1, max_speed = 2 }
    b:apply(0, 0, 1)
    assert.are.same({ 99.25, 79.5 }, { b:position() })
  end)

  it("clamp into [0, w] x [0, h] without wrap, on write", function()
    local w = steer.world{ bounds = { 100, 80 } }
    local a = w:add{ x = -3, y = 200 }
    assert.are.same({ 0, 80 }, { a.x, a.y })
    a.x = 150; assert.are.equal(100, a.x)
    a.x = -BIG; assert.are.equal(0, a.x)
    a.y = 40; assert.are.equal(40, a.y)
    a.vx = -5                            -- writes never touch the velocity
    assert.are.equal(-5, a.vx)
  end)

  it("stop at the edges after integration: the outward velocity is zeroed", function()
    local w = steer.world{ bounds = { 100, 80 } }
    local a = w:add{ x = 99.5, y = 10, vx = 1, vy = 0.5, max_speed = 5 }
    a:apply(0, 0, 1)
    assert.are.same({ 100, 10.5 }, { a:position() })
    assert.are.same({ 0, 0.5 }, { a:velocity() })
    local b = w:add{ x = 100, y = 10, vx = -1, max_speed = 5 }
    b:apply(0, 0, 1)                     -- moving inwards: untouched
    assert.are.same({ 99, 10 }, { b:position() })
    assert.are.same({ -1, 0 }, { b:velocity() })
    local c = w:add{ x = 0.5, y = 0.5, vx = -1, vy = -1, max_speed = 5 }
    c:apply(0, 0, 1)
    assert.are.same({ 0, 0 }, { c:position() })
    assert.are.same({ 0, 0 }, { c:velocity() })
    local d = w:add{ x = 100, y = 10, vy = 1, max_speed = 5 }
    d:apply(3, 0, 1)                     -- pushed outwards, slides along
    assert.are.same({ 100, 11 }, { d:position() })
    assert.are.same({ 0, 1 }, { d:velocity() })
  end)

  it("unbounded worlds keep any position", function()
    local a = steer.world{}:add{ x = -BIG, y = BIG }
    assert.are.same({ -BIG, BIG }, { a:position() })
    a.x = 12345.678
    assert.are.equal(12345.678, a.x)
  end)
end)

describe("obstacles and walls of a world", function()
  it("are handles, iterated and cleared", function()
    local w = steer.world{}
    local o1 = w:add_obstacle{ x = 1, y = 2, radius = 3 }
    local o2 = w:add_obstacle{ x = -1, y = 0, radius = 0 }
    local s = w:add_wall{ x1 = 0, y1 = 0, x2 = 1, y2 = 1 }
    local seen = {}
    for o in w:obstacles() do seen[#seen + 1] = { o.x, o.y, o.radius } end
    assert.are.same({ { 1, 2, 3 }, { -1, 0, 0 } }, seen)
    local walls = {}
    for h in w:walls() do walls[#walls + 1] = h end
    assert.are.same({ s }, walls)
    assert.are.same({ 0, 0, 1, 1 }, { s.x1, s.y1, s.x2, s.y2 })
    assert.are.equal(o1, (w:obstacles()(w)))
    -- tip (-1.5, 0): both obstacles are touched, the one at (-1, 0) is nearer
    local a = w:add{ x = -3, vx = 1, radius = 0.6 }
    -- heading straight at o2's centre: pushed to its left (docs/API.md 3.6)
    eq("obstacle felt", 0, 1, a:avoid_obstacles(1.5))
    w:clear_obstacles()
    w:clear_walls()
    assert.is_nil(w:obstacles()(w))
    assert.is_nil(w:walls()(w))
    assert.is_false(o2.alive)
    eq("nothing left", 0, 0, a:avoid_obstacles(1.5))
  end)
end)

describe("world:add_many", function()
  local FLOCK = { { "separation", radius = 1.5, weight = 1.5 }, { "alignment", radius = 5 } }

  it("adds agents from columns and shared values, with one program", function()
    local world = steer.world{}
    local n = world:add_many({ x = { 1, 2, 3 }, y = { 4, 5, 6 }, vx = 0.5, max_speed = 3,
                               wander_jitter = { 0.1, 0.2, 0.3 } }, FLOCK)
    assert.are.equal(3, n)
    assert.are.equal(3, #world)
    local a = world:get(2)
    assert.are.same({ 2, 5, 0.5, 0, 3, 1, 0.5, 0.2 },
      { a.x, a.y, a.vx, a.vy, a.max_speed, a.max_force, a.radius, a.wander_jitter })
    assert.are.equal("separation", a:behaviors()[1][1])
    assert.are.equal(0, world:add_many{ n = 0 })
    assert.are.equal(4, world:add_many{ n = 4, y = 1 })
    assert.are.equal(7, #world)
  end)

  it("matches agents added one by one, step for step", function()
    local a, b = steer.world{ seed = 3 }, steer.world{ seed = 3 }
    local xs, ys = {}, {}
    for k = 1, 50 do xs[k], ys[k] = (k * 7.3) % 20, (k * 3.1) % 20 end
    a:add_many({ x = xs, y = ys, vx = 1, max_speed = 2, max_force = 3 },
      { { "wander" }, { "cohesion", radius = 4 } })
    for k = 1, 50 do
      b:add{ x = xs[k], y = ys[k], vx = 1, max_speed = 2, max_force = 3 }:set_behaviors{
        { "wander" }, { "cohesion", radius = 4 } }
    end
    for _ = 1, 20 do a:step(0.1); b:step(0.1) end
    assert.are.equal(a:snapshot(), b:snapshot())
  end)

  it("checks every value before adding any", function()
    local world = steer.world{}
    world:add{}
    assert.matches("field 'x'%[2%]: number expected, got string",
      support.error_of(world.add_many, world, { x = { 1, "two", 3 } }))
    assert.matches("field 'y': 1 values, expected 2",
      support.error_of(world.add_many, world, { x = { 1, 2 }, y = { 1 } }))
    assert.matches("field 'max_force'%[1%]: non%-negative number expected, got %-1",
      support.error_of(world.add_many, world, { max_force = { -1 } }))
    assert.matches("give n or columns of values", support.error_of(world.add_many, world, {}))
    assert.matches("unknown behavior", support.error_of(world.add_many, world, { n = 2 }, { { "teleport" } }))
    assert.are.equal(1, #world)
  end)

  it("refuses columns with holes or other keys under every interpreter", function()
    local world = steer.world{}
    -- LuaJIT's length of { 1, nil, 3 } is 1: it added one agent, Lua 5.4 raised
    local err = support.error_of(world.add_many, world, { x = { 1, nil, 3 }, y = 0 })
    assert.is_truthy(err:find("field 'x'[2]: number expected, got nil", 1, true) or
      err:find("field 'x': a value at [3], past the column's length, 1 (a hole before it?)", 1, true), err)
    assert.matches("field 'x': unexpected string key",
      support.error_of(world.add_many, world, { x = { 1, 2, foo = 3 } }))
    assert.matches("field 'x': a value at %[2.5%]",
      support.error_of(world.add_many, world, { x = { 1, 2, [2.5] = 3 } }))
    assert.matches("field 'group': integer 0..31 expected, got 32",
      support.error_of(world.add_many, world, { n = 1, group = 32 }))
    assert.matches("field 'ghost': boolean expected, got number",
      support.error_of(world.add_many, world, { n = 1, ghost = 1 }))
    assert.are.equal(0, #world)
    assert.are.equal(2, world:add_many{ x = { 1, 2 }, y = { 3, 4 } })
  end)

  it("adds all or none when memory runs out", function()
    for n = 0, 40 do
      local world = steer.world{}
      world:add{}
      local before = world:snapshot()
      steer.testing.fail_allocations(n)
      local ok, err = pcall(world.add_many, world, { n = 30, x = 1 }, { { "wander" } })
      steer.testing.fail_allocations(nil)
      if ok then
        assert.are.equal(31, #world)
        assert.is_true(n > 0)
        return
      end
      assert.matches("not enough memory", err)
      assert.are.equal(before, world:snapshot())
    end
    error("never succeeded")
  end)

  it("world:velocities() lists velocities in the order of positions()", function()
    local world = steer.world{}
    world:add_many{ vx = { 1, 2, 3 }, vy = { -1, -2, -3 } }
    local v, n = world:velocities()
    local ids = world:ids()
    assert.are.equal(3, n)
    for k = 1, n do
      local a = world:get(ids[k])
      assert.are.same({ a.vx, a.vy }, { v[2 * k - 1], v[2 * k] })
    end
  end)
end)

describe("steer.world's options", function()
  it("raise on a key that is no option, naming the one meant", function()
    local ok, err = pcall(steer.world, { bound = { 100, 100 } })
    assert.is_false(ok)
    assert.matches("bad argument #1 to 'world' %(unknown field 'bound': did you mean 'bounds'%?%)", err)
    ok, err = pcall(steer.world, { Seed = 3 })
    assert.matches("unknown field 'Seed': did you mean 'seed'%?", err)
    ok, err = pcall(steer.world, { size = 3 })
    assert.matches("unknown field 'size': expected 'cell_size', 'seed', 'bounds', 'wrap', 'capacity', 'threads' or 'max_step'", err)
    local w = steer.world{ cell_size = 2, seed = 4, bounds = { 10, 10 }, wrap = true, capacity = 8, threads = 1 }
    assert.are.equal(10, (w:bounds()))
  end)
end)
