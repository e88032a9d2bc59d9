-- Session 42's new-user review, finding 5 (/work/tmp/s42/rev_core):
-- arguments that a sibling call takes were dropped silently. evade takes
-- flee's panic radius (method, program entry, stateless function), the
-- stateless flee honours its panic radius, the flocking methods take the
-- filter of their program entries, world:query_box takes query's groups,
-- and an extra argument to a behaviour method raises. Every case here
-- failed before.
local steer = require "steer"
local support = require "support"
local error_of = support.error_of
local unpack = table.unpack or unpack

local function pair(fx, fy) return { fx, fy } end

-- prey at the origin, still; the hunter 3 to the east running west at 1.
-- evade: T = 3 / 2 = 1.5, the predicted point (1.5, 0), desired (-2, 0)
-- (max_speed 2): the force (-2, 0), within max_force 4.
local function chase()
  local w = steer.world{}
  local prey = w:add{ max_speed = 2, max_force = 4 }
  local hunter = w:add{ x = 3, vx = -1 }
  return w, prey, hunter
end

describe("evade's panic radius", function()
  it("a:evade(b, r): zero when b is farther than r now, as flee measures", function()
    local _, prey, hunter = chase()
    assert.are.same({ -2, 0 }, pair(prey:evade(hunter)))
    assert.are.same({ -2, 0 }, pair(prey:evade(hunter, 5)))
    assert.are.same({ -2, 0 }, pair(prey:evade(hunter, 3)))   -- d = 3 is not > 3
    -- the predicted point (1.5 away) is inside 2, the hunter (3 away) is not
    assert.are.same({ 0, 0 }, pair(prey:evade(hunter, 2)))
    assert.are.same({ 0, 0 }, pair(prey:flee(hunter, 2)))     -- the same test
    assert.are.equal("bad argument #2 to 'evade' (non-negative number expected, got -1)",
      error_of(prey.evade, prey, hunter, -1))
  end)

  it("on a torus the distance is the short way, across the seam", function()
    local w = steer.world{ bounds = { 10, 10 }, wrap = true }
    local prey = w:add{ x = 9.5, y = 5, max_speed = 2, max_force = 4 }
    local hunter = w:add{ x = 0.5, y = 5 }
    -- the hunter's image at (10.5, 5) is 1 away (9 the long way): flee west
    assert.are.same({ -2, 0 }, pair(prey:evade(hunter, 1.5)))
    assert.are.same({ 0, 0 }, pair(prey:evade(hunter, 0.5)))
  end)

  it("the program entry takes panic_radius, reads it back and steps with it", function()
    local w, prey, hunter = chase()
    prey:set_behaviors{ { "evade", target = hunter, panic_radius = 2 } }
    assert.are.same({ 0, 0 }, pair(prey:steering(0.1)))
    assert.are.equal(2, prey:behaviors()[1].panic_radius)
    prey:set_behaviors{ { "evade", target = hunter, panic_radius = 5 } }
    assert.are.same({ -2, 0 }, pair(prey:steering(0.1)))
    prey:set_behaviors{ { "evade", target = hunter } }
    assert.is_nil(prey:behaviors()[1].panic_radius)
    assert.matches("entry 1 %('evade'%): panic_radius: non%-negative number expected, got %-1",
      error_of(prey.set_behaviors, prey, { { "evade", target = hunter, panic_radius = -1 } }))
    -- a step: outside the radius the prey stays put
    prey:set_behaviors{ { "evade", target = hunter, panic_radius = 2 } }
    hunter:set_behaviors{}
    w:step(0.1)
    assert.are.same({ 0, 0, 0, 0 }, { prey.x, prey.y, prey.vx, prey.vy })
  end)

  it("the entry's panic radius survives a snapshot", function()
    local w, prey, hunter = chase()
    prey:set_behaviors{ { "evade", target = hunter, panic_radius = 2.5 } }
    local copy = assert(steer.restore(w:snapshot()))
    local restored
    for a in copy:agents() do if a.id == prey.id then restored = a end end
    assert.are.equal(2.5, restored:behaviors()[1].panic_radius)
    assert.are.same({ 0, 0 }, pair(restored:steering(0.1)))
    assert.are.equal(w:snapshot(), copy:snapshot())
  end)

  it("steer.evade and steer.flee take a last panic_radius", function()
    -- p (0, 0), t (3, 0), tv (-1, 0), max_speed 2, max_force 4: as above
    assert.are.same({ -2, 0 }, pair(steer.evade(0, 0, 0, 0, 3, 0, -1, 0, 2, 4)))
    assert.are.same({ -2, 0 }, pair(steer.evade(0, 0, 0, 0, 3, 0, -1, 0, 2, 4, 3)))
    assert.are.same({ 0, 0 }, pair(steer.evade(0, 0, 0, 0, 3, 0, -1, 0, 2, 4, 2)))
    -- the review's call: the threat 2 away, panic radius 1
    assert.are.same({ 0, 0 }, pair(steer.flee(2, 0, 0, 0, 0, 0, 4, 8, 1)))
    assert.are.same({ 4, 0 }, pair(steer.flee(2, 0, 0, 0, 0, 0, 4, 8, 2)))
    assert.are.same({ 4, 0 }, pair(steer.flee(2, 0, 0, 0, 0, 0, 4, 8)))
    -- the limit: the squares stay finite
    assert.are.same({ 0, 0 }, pair(steer.flee(1e150, 0, 0, 0, -1e150, 0, 4, 8, 1e150)))
    assert.are.equal("bad argument #9 to 'flee' (non-negative number expected, got -1)",
      error_of(steer.flee, 2, 0, 0, 0, 0, 0, 4, 8, -1))
    assert.are.equal("bad argument #12 to 'evade' (no argument expected here, got number)",
      error_of(steer.evade, 0, 0, 0, 0, 3, 0, -1, 0, 2, 4, 3, 1))
    assert.are.equal("bad argument #9 to 'seek' (no argument expected here, got number)",
      error_of(steer.seek, 0, 0, 0, 0, 10, 0, 5, 10, 1))
    assert.are.equal("bad argument #10 to 'arrive' (no argument expected here, got number)",
      error_of(steer.arrive, 0, 0, 0, 0, 10, 0, 5, 10, 2, 1))
    assert.are.equal("bad argument #11 to 'pursue' (no argument expected here, got number)",
      error_of(steer.pursue, 0, 0, 0, 0, 10, 0, 0, 1, 5, 10, 1))
    assert.are.equal("bad argument #4 to 'clamp' (no argument expected here, got number)",
      error_of(steer.clamp, 3, 4, 1, 1))
  end)
end)

-- a at the origin facing +x (group 0); b at (1, 0), group 1, velocity
-- (0, 1); c at (0, 2), group 0, velocity (2, 0). Separation (inverse) is
-- the mean of -offset/d^2: b gives (-1, 0), c (0, -0.5).
local function flock()
  local w = steer.world{}
  local a = w:add{ max_speed = 2, max_force = 100 }
  local b = w:add{ x = 1, vy = 1, group = 1 }
  local c = w:add{ y = 2, vx = 2 }
  w:add{ x = 100, group = 1 } -- far away
  return w, a, b, c
end

describe("flocking methods take the program entries' filter", function()
  it("groups and fov, as hand-computed", function()
    local _, a = flock()
    assert.are.same({ -0.5, -0.25 }, pair(a:separation(3)))
    assert.are.same({ -1, 0 }, pair(a:separation(3, { groups = { 1 } })))
    assert.are.same({ 0, -0.5 }, pair(a:separation(3, { groups = { 0 } })))
    assert.are.same({ 0, 0 }, pair(a:separation(3, { groups = {} })))
    -- a 90 degree cone around +x: b (straight ahead) counts, c (90 off) not
    assert.are.same({ -1, 0 }, pair(a:separation(3, { fov = 90 })))
    assert.are.same({ 1, 0.5 }, pair(a:alignment(3)))
    assert.are.same({ 0, 1 }, pair(a:alignment(3, { groups = { 1 } })))
    -- cohesion toward c alone: normalize((0, 2)) * max_speed - v
    assert.are.same({ 0, 2 }, pair(a:cohesion(3, { groups = { 0 } })))
    assert.are.same({ 2, 0 }, pair(a:cohesion(3, { groups = { 1 }, fov = 90 })))
  end)

  it("equal the program entry's force", function()
    local _, a = flock()
    for _, rule in ipairs{ "separation", "alignment", "cohesion" } do
      for _, filter in ipairs{ { groups = { 1 } }, { groups = { 0, 1 }, fov = 120 }, { fov = 45 } } do
        local entry = { rule, radius = 3, groups = filter.groups, fov = filter.fov }
        a:set_behaviors{ entry }
        assert.are.same(pair(a:steering(0.1)), pair(a[rule](a, 3, filter)))
      end
    end
  end)

  it("a misspelt or foreign key, or a bad value, raises", function()
    local _, a = flock()
    assert.are.equal("bad argument #2 to 'separation' (unknown field 'grups': did you mean 'groups'?)",
      error_of(a.separation, a, 3, { grups = { 1 } }))
    assert.are.equal("bad argument #2 to 'cohesion' (unknown field 'falloff': expected 'groups' or 'fov')",
      error_of(a.cohesion, a, 3, { falloff = "linear" }))
    assert.are.equal("bad argument #2 to 'alignment' (field 'groups'[1]: integer 0..31 expected, got 32)",
      error_of(a.alignment, a, 3, { groups = { 32 } }))
    assert.are.equal("bad argument #2 to 'separation' (table expected, got number)",
      error_of(a.separation, a, 3, 5))
    assert.are.equal("bad argument #3 to 'separation' (no argument expected here, got number)",
      error_of(a.separation, a, 3, { groups = { 1 } }, 5))
  end)
end)

describe("extra arguments to behaviour methods raise", function()
  it("names the first extra argument; nil counts as left out", function()
    local w = steer.world{}
    local a = w:add{ max_speed = 2, max_force = 4 }
    local b = w:add{ x = 3 }
    local c = w:add{ x = -3 }
    local path = steer.path{ { 0, 0 }, { 5, 0 } }
    local calls = {
      { "seek", 3, { 1, 2, 3 } }, { "seek", 2, { { 1, 2 }, 3 } }, { "seek", 2, { b, 3 } },
      { "flee", 4, { 1, 2, 3, 4 } }, { "flee", 3, { b, 3, 4 } },
      { "arrive", 3, { { 1, 2 }, 3, 4 } }, { "pursue", 2, { b, 5 } }, { "evade", 3, { b, 5, 6 } },
      { "wander", 1, { 1 } }, { "avoid_obstacles", 2, { 3, 4 } }, { "avoid_walls", 3, { 3, true, 4 } },
      { "follow", 3, { path, {}, 1 } }, { "path_index", 2, { path, 1 } },
      { "apply", 5, { 0, 0, 0.1, 0, 1 } }, { "neighbors", 3, { 1, nil, 2 } },
      { "seed", 2, { 1, 2 } }, { "position", 1, { 1 } }, { "velocity", 1, { 1 } },
      { "face", 4, { 1, 2, 0.1, 1 } }, { "look_where_going", 2, { 0.1, 1 } },
      { "match_orientation", 3, { b, 0.1, 1 } }, { "hide", 4, { b, 1, 2, 3 } },
      { "queue", 4, { 3, 90, 2, 1 } }, { "interpose", 4, { b, c, 2, 1 } },
      { "offset_pursuit", 6, { b, 1, 0, 2, true, 9 } }, { "follow_leader", 6, { b, 2, 2, 2, true, 9 } },
      { "contain", 3, { { -5, -5, 5, 5 }, 3, 9 } }, { "avoid_agents", 4, { 3, 10, 0.5, 9 } },
      { "orca_velocity", 4, { 0, 0, {}, 9 } },
    }
    for _, call in ipairs(calls) do
      local name, argn, args = call[1], call[2], call[3]
      local msg = error_of(a[name], a, unpack(args, 1, argn))
      assert.are.equal(("bad argument #%d to '%s' (no argument expected here, got number)")
        :format(argn, name), msg)
    end
    local f = steer.formation{ anchor = b, shape = "line", count = 2 }
    assert.are.equal("bad argument #3 to 'formation' (no argument expected here, got number)",
      error_of(a.formation, a, f, 2, 9))
    -- the arguments are checked in order: a bad region before an extra one
    assert.are.equal("bad argument #1 to 'contain' (region {x1, y1, x2, y2}, polygon or steer.Path"
      .. " expected, got string)", error_of(a.contain, a, "bad", 3, 9))
    assert.are.equal("bad argument #2 to 'contain' (number expected, got string)",
      error_of(a.contain, a, { -5, -5, 5, 5 }, "x", 9))
    assert.are.equal("bad argument #5 to 'query' (no argument expected here, got number)",
      error_of(w.query, w, 0, 0, 1, nil, 9))
  end)

  it("raises past the documented forms, which keep working", function()
    local w = steer.world{}
    local a = w:add{ max_speed = 5, max_force = 10 }
    local b = w:add{ x = 3, y = 4 }
    assert.are.equal("bad argument #2 to 'seek' (no argument expected here, got number)",
      error_of(a.seek, a, { 3, 4 }, 1))
    local want = pair(a:seek(3, 4))
    assert.are.same(want, pair(a:seek(b)))
    assert.are.same(want, pair(a:seek{ 3, 4 }))
    assert.are.same(want, pair(a:seek({ x = 3, y = 4 }, nil)))
    assert.are.same(want, pair(a:seek(3, 4, nil)))
    assert.are.same({ 0, 0 }, pair(a:flee({ 3, 4 }, 1)))
    assert.are.same({ 0, 0 }, pair(a:flee(3, 4, 1)))
    assert.are.same(pair(a:arrive(3, 4)), pair(a:arrive(3, 4, 2)))
    assert.are.same(pair(a:separation(3)), pair(a:separation(3, nil)))
  end)
end)

describe("world:query_box takes query's groups", function()
  -- a fixed scatter of agents in groups 0..3 (a linear congruential walk)
  local function scatter()
    local w = steer.world{}
    local seed, agents = 7, {}
    local function rand()
      seed = (seed * 1103515245 + 12345) % 2147483648
      return seed / 2147483648
    end
    for k = 1, 200 do
      agents[k] = w:add{ x = rand() * 40 - 20, y = rand() * 40 - 20, group = k % 4,
        ghost = k % 37 == 0 }
    end
    return w, agents
  end

  it("yields exactly the agents inside of the groups listed", function()
    local w, agents = scatter()
    local wanted = { [1] = true, [3] = true }
    local want, n = {}, 0
    for _, a in ipairs(agents) do
      if a.x >= -10 and a.x <= 5 and a.y >= -3 and a.y <= 12 and wanted[a.group] and not a.ghost then
        want[a] = true
        n = n + 1
      end
    end
    assert.is_true(n > 5)
    local got = 0
    for a in w:query_box(5, 12, -10, -3, { groups = { 3, 1 } }) do
      assert.is_true(want[a])
      got = got + 1
    end
    assert.are.equal(n, got)
    local none = 0
    for _ in w:query_box(-20, -20, 20, 20, { groups = {} }) do none = none + 1 end
    assert.are.equal(0, none)
    local all = 0
    for _ in w:query_box(-20, -20, 20, 20, {}) do all = all + 1 end
    assert.are.equal(200 - 5, all) -- five ghosts
  end)

  it("a misspelt key, a view cone or an extra argument raises", function()
    local w = scatter()
    assert.are.equal("bad argument #5 to 'query_box' (unknown field 'grups': did you mean 'groups'?)",
      error_of(w.query_box, w, 0, 0, 1, 1, { grups = { 1 } }))
    assert.are.equal("bad argument #5 to 'query_box' (field 'fov': a box has no view cone "
      .. "(world:query takes one))", error_of(w.query_box, w, 0, 0, 1, 1, { fov = 90 }))
    assert.are.equal("bad argument #5 to 'query_box' (table expected, got number)",
      error_of(w.query_box, w, 0, 0, 1, 1, 3))
    assert.are.equal("bad argument #6 to 'query_box' (no argument expected here, got number)",
      error_of(w.query_box, w, 0, 0, 1, 1, nil, 3))
  end)
end)

describe("program methods and steer.program", function()
  it("raise on an argument past the last one, naming it", function()
    local w = steer.world{}
    local a = w:add{}
    assert.are.equal("bad argument #2 to 'program' (no argument expected here, got number)",
      error_of(steer.program, { { "wander" } }, 3))
    assert.are.equal("bad argument #2 to 'set_behaviors' (no argument expected here, got number)",
      error_of(a.set_behaviors, a, { { "wander" } }, 3))
    assert.is_nil(a:behaviors()) -- refused: nothing set
    assert.are.equal("bad argument #2 to 'set_behaviors' (no argument expected here, got string)",
      error_of(a.set_behaviors, a, nil, "x"))
    a:set_behaviors{ { "seek", target = { 1, 2 }, tag = "go" } }
    assert.are.equal("bad argument #4 to 'set_target' (no argument expected here, got number)",
      error_of(a.set_target, a, "go", 3, 4, 5))
    assert.are.equal("bad argument #3 to 'set_target' (no argument expected here, got number)",
      error_of(a.set_target, a, "go", { 3, 4 }, 5))
    assert.are.same({ 1, 2 }, a:behaviors()[1].target) -- refused: unchanged
    assert.are.equal("bad argument #3 to 'set_weight' (no argument expected here, got boolean)",
      error_of(a.set_weight, a, "go", 2, true))
    assert.are.equal(1, a:behaviors()[1].weight)
    assert.are.equal("bad argument #2 to 'steering' (no argument expected here, got table)",
      error_of(a.steering, a, 0.1, {}))
    assert.are.equal("bad argument #1 to 'active_behavior' (no argument expected here, got number)",
      error_of(a.active_behavior, a, 1))
    assert.are.equal("bad argument #1 to 'behaviors' (no argument expected here, got number)",
      error_of(a.behaviors, a, 1))
    -- the documented forms, and a trailing nil, still work
    a:set_target("go", 3, 4)
    a:set_target("go", { 5, 6 }, nil)
    a:set_weight("go", 2)
    assert.are.same({ 5, 6 }, a:behaviors()[1].target)
    assert.are.equal(2, a:behaviors()[1].weight)
    local fx, fy = a:steering()
    assert.is_true(fx ~= 0 or fy ~= 0)
    assert.are.equal("userdata", type(steer.program({ { "wander" } }, nil)))
  end)
end)
