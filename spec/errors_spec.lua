-- docs/API.md section 5: one spec per class of error. Every message names the
-- function and the argument ("bad argument #2 to 'seek' (...)"; methods
-- count arguments without self; errors about self read "calling 'seek' on
-- bad self (...)"), and a failed call leaves the world as it was.
local steer = require "steer"
local support = require "support"
local raises = support.raises

local NAN, INF = 0 / 0, math.huge

-- F"x": a detail saying the message names field or option x, as
-- "field 'x': ..." or "x: ..."
local function F(key) return { field = key } end

-- fn(...) must raise "bad argument #k to 'fname' (" plus every detail
local function bad(k, fname, details, fn, ...)
  local frags, fields = { ("bad argument #%d to '%s' ("):format(k, fname) }, {}
  if type(details) ~= "table" then details = { details } end
  for _, d in ipairs(details) do
    if type(d) == "table" then fields[#fields + 1] = d.field
    else frags[#frags + 1] = d end
  end
  local err = raises(frags, fn, ...)
  for _, key in ipairs(fields) do
    assert.truthy(err:find("'" .. key .. "'", 1, true) or err:find("(" .. key .. ":", 1, true),
      "message does not name " .. key .. ": " .. err)
  end
  return err
end

local function bad_self(fname, details, fn, ...)
  local frags = { ("calling '%s' on bad self ("):format(fname) }
  if type(details) == "string" then details = { details } end
  for _, d in ipairs(details or {}) do frags[#frags + 1] = d end
  return raises(frags, fn, ...)
end

-- a field write must fail naming the field and the problem, and leave the
-- field as it was
local function bad_field(a, key, value, detail)
  local before = a[key]
  local ok, err = pcall(function() a[key] = value end)
  assert.is_false(ok, "writing " .. tostring(value) .. " to " .. key)
  err = tostring(err)
  assert.truthy(err:find("'" .. key .. "'", 1, true) or err:find("(" .. key .. ":", 1, true),
    "message does not name field " .. key .. ": " .. err)
  assert.truthy(err:find(detail, 1, true), "message lacks '" .. detail .. "': " .. err)
  assert.are.equal(before, a[key])
end

local function fixture()
  local w = steer.world{}
  local a = w:add{ x = 1, y = 2, vx = 0.5, max_speed = 2, max_force = 3 }
  local b = w:add{ x = 4, y = 6 }
  return w, a, b
end

describe("errors: wrong types", function()
  it("in the stateless functions", function()
    bad(5, "seek", "number expected, got string", steer.seek, 0, 0, 0, 0, "x", 0, 1, 1)
    bad(8, "seek", "number expected, got no value", steer.seek, 0, 0, 0, 0, 0, 0, 1)
    bad(1, "flee", "number expected, got nil", steer.flee, nil, 0, 0, 0, 0, 0, 1, 1)
    bad(9, "arrive", "number expected, got boolean", steer.arrive, 0, 0, 0, 0, 1, 0, 1, 1, true)
    bad(9, "pursue", "number expected, got table", steer.pursue, 0, 0, 0, 0, 0, 0, 0, 0, {}, 1)
    bad(3, "evade", "number expected, got string", steer.evade, 0, 0, "1", 0, 0, 0, 0, 0, 1, 1)
    bad(2, "clamp", "number expected, got table", steer.clamp, 1, {}, 1)
    bad(5, "lerp", "number expected, got nil", steer.lerp, 0, 0, 1, 1, nil)
    bad(4, "weighted", "number expected, got no value", steer.weighted, 1, 1, 0)
    bad(1, "priority", "number expected, got string", steer.priority, "1")
    bad(3, "prioritized_sum", "number expected, got no value", steer.prioritized_sum, 1, 1)
  end)

  it("in agent methods", function()
    local w, a, b = fixture()
    bad(2, "seek", "number expected, got nil", a.seek, a, 1, nil)   -- the example of docs/API.md section 5
    bad(1, "seek", "got no value", a.seek, a)
    bad(1, "seek", "point x: number expected, got nil", a.seek, a, {})
    bad(1, "seek", "number, steer.Agent, steer.SharedPoint, {x, y} or {x =, y =} expected, got boolean", a.seek, a, true)
    bad(3, "flee", "number expected, got string", a.flee, a, 1, 2, "x")
    bad(2, "arrive", "number expected, got string", a.arrive, a, b, "x")
    bad(1, "pursue", "steer.Agent expected, got number", a.pursue, a, 5)
    bad(1, "evade", "steer.Agent expected, got no value", a.evade, a)
    bad(1, "apply", "number expected, got string", a.apply, a, "1", 2, 1)
    bad(3, "apply", "number expected, got string", a.apply, a, 1, 2, "x")
    bad(3, "apply", "got no value", a.apply, a, 1, 2)
    bad(1, "separation", "got no value", a.separation, a)
    bad(1, "alignment", "got string", a.alignment, a, "1")
    bad(1, "cohesion", "got boolean", a.cohesion, a, false)
    bad(1, "neighbors", "got nil", a.neighbors, a, nil)
    bad(1, "avoid_obstacles", "got string", a.avoid_obstacles, a, "3")
    bad(1, "avoid_walls", "got table", a.avoid_walls, a, {})
    bad(1, "seed", "integer expected", a.seed, a, 1.5)
    bad(1, "follow", "steer.Path expected, got table", a.follow, a, {})
    bad_self("seek", "steer.Agent expected", a.seek, 5, 1, 2)
    bad_self("seek", "steer.Agent expected", a.seek, w, 1, 2)
    bad_self("apply", "steer.Agent expected", a.apply, nil, 0, 0, 1)
    bad_self("world", "steer.Agent expected", a.world, 5)
    bad_self("position", "steer.Agent expected", a.position, {})
    assert.are.same({ 1, 2, 0.5, 0 }, { a.x, a.y, a.vx, a.vy })
  end)

  it("in world methods and constructors", function()
    local w, a = fixture()
    bad(1, "query", "number, steer.Agent, steer.SharedPoint, {x, y} or {x =, y =} expected, got string", w.query, w, "a", 0, 1)
    bad(3, "query", "got no value", w.query, w, 0, 0)
    bad(1, "add", "table expected, got number", w.add, w, 5)
    bad(1, "add", { F"x", "number expected, got string" }, w.add, w, { x = "1" })
    bad(1, "add", { F"max_speed", "got boolean" }, w.add, w, { max_speed = true })
    bad(1, "get", "got string", w.get, w, "x")
    bad(1, "remove", "steer.Agent expected", w.remove, w, 5)
    bad(1, "add_obstacle", "table expected, got number", w.add_obstacle, w, 5)
    bad(1, "add_obstacle", { F"radius", "got nil" }, w.add_obstacle, w, { x = 1, y = 2 })
    bad(1, "add_wall", { F"y2", "got nil" }, w.add_wall, w, { x1 = 0, y1 = 0, x2 = 1 })
    bad_self("add", "steer.World expected", w.add, 5)
    bad_self("query", "steer.World expected", w.query, a, 0, 0, 1)
    bad(1, "world", "table expected, got number", steer.world, 5)
    bad(1, "path", "table expected, got string", steer.path, "x")
    assert.are.equal(2, #w)
    assert.is_nil(w:obstacles()(w))
    assert.is_nil(w:walls()(w))
  end)

  it("in field writes", function()
    local _, a = fixture()
    bad_field(a, "x", "1", "number expected, got string")
    bad_field(a, "vy", {}, "number expected, got table")
    bad_field(a, "max_speed", true, "number expected, got boolean")
  end)
end)

describe("errors: non-finite numbers", function()
  it("are rejected everywhere a number enters", function()
    local w, a = fixture()
    bad(1, "seek", "finite number expected", steer.seek, NAN, 0, 0, 0, 0, 0, 1, 1)
    bad(6, "seek", "finite number expected", steer.seek, 0, 0, 0, 0, 0, -INF, 1, 1)
    bad(3, "clamp", "non-negative number expected", steer.clamp, 1, 1, INF)
    bad(3, "clamp", "non-negative number expected", steer.clamp, 1, 1, NAN)
    bad(4, "weighted", "finite number expected", steer.weighted, 1, 1, 1, NAN)
    bad(5, "lerp", "finite number expected", steer.lerp, 0, 0, 1, 1, INF)
    bad(1, "seek", "finite number expected", a.seek, a, INF, 0)
    bad(2, "seek", "finite number expected", a.seek, a, 0, -INF)
    bad(3, "flee", "non-negative number expected", a.flee, a, 1, 1, INF)
    bad(1, "apply", "finite number expected", a.apply, a, NAN, 0, 1)
    bad(3, "apply", "positive number expected", a.apply, a, 0, 0, INF)
    bad(1, "separation", "non-negative number expected", a.separation, a, NAN)
    bad(2, "query", "finite number expected", w.query, w, 0, NAN, 1)
    bad(1, "add", { F"vx", "finite number expected" }, w.add, w, { vx = NAN })
    bad(1, "add_obstacle", { F"x", "finite number expected" }, w.add_obstacle, w,
      { x = NAN, y = 0, radius = 1 })
    bad(1, "path", "finite number expected", steer.path, { { 0, NAN } })
    bad(1, "world", { F"cell_size", "positive number expected" }, steer.world, { cell_size = INF })
    bad_field(a, "x", NAN, "finite number expected")
    bad_field(a, "vy", -INF, "finite number expected")
    bad_field(a, "radius", INF, "non-negative number expected")
    assert.are.equal(2, #w)
    assert.are.same({ 1, 2, 0.5, 0 }, { a.x, a.y, a.vx, a.vy })
  end)
end)

describe("errors: negative radii, speeds and forces", function()
  it("in the stateless functions", function()
    local neg = "non-negative number expected, got -1"
    bad(7, "seek", neg, steer.seek, 0, 0, 0, 0, 1, 0, -1, 1)
    bad(8, "flee", neg, steer.flee, 0, 0, 0, 0, 1, 0, 1, -1)
    bad(9, "arrive", neg, steer.arrive, 0, 0, 0, 0, 1, 0, 1, 1, -1)
    bad(9, "pursue", neg, steer.pursue, 0, 0, 0, 0, 1, 0, 0, 0, -1, 1)
    bad(10, "evade", neg, steer.evade, 0, 0, 0, 0, 1, 0, 0, 0, 1, -1)
    bad(3, "clamp", neg, steer.clamp, 1, 1, -1)
    bad(1, "weighted", neg, steer.weighted, -1)
    bad(1, "priority", neg, steer.priority, -1, 1, 1)
    bad(1, "prioritized_sum", neg, steer.prioritized_sum, -1, 1, 1)
  end)

  it("in methods, options and fields", function()
    local w, a, b = fixture()
    local neg = "non-negative number expected"
    bad(3, "flee", neg, a.flee, a, 1, 2, -1)
    bad(2, "flee", neg, a.flee, a, b, -1)
    bad(3, "arrive", neg, a.arrive, a, 1, 2, -0.5)
    bad(1, "avoid_obstacles", neg, a.avoid_obstacles, a, -1)
    bad(1, "avoid_walls", neg, a.avoid_walls, a, -1)
    bad(1, "separation", neg, a.separation, a, -1)
    bad(1, "alignment", neg, a.alignment, a, -1)
    bad(1, "cohesion", neg, a.cohesion, a, -1)
    bad(1, "neighbors", neg, a.neighbors, a, -1)
    bad(3, "query", neg, w.query, w, 0, 0, -1)
    local p = steer.path{ { 0, 0 } }
    bad(2, "follow", { F"arrival_radius", neg }, a.follow, a, p, { arrival_radius = -1 })
    bad(2, "follow", { F"slowing_radius", neg }, a.follow, a, p, { slowing_radius = -2 })
    for _, key in ipairs({ "max_speed", "max_force", "radius", "wander_radius",
        "wander_distance", "wander_jitter" }) do
      bad(1, "add", { F(key), neg }, w.add, w, { [key] = -1 })
      bad_field(a, key, -1, neg)
    end
    bad(1, "add_obstacle", { F"radius", neg }, w.add_obstacle, w, { x = 0, y = 0, radius = -1 })
    assert.are.equal(2, #w)
    assert.is_nil(w:obstacles()(w))
    assert.is_nil(a:path_index())
  end)
end)

describe("errors: non-positive dt", function()
  it("a:apply rejects dt <= 0 and changes nothing", function()
    local _, a = fixture()
    bad(3, "apply", "positive number expected, got 0", a.apply, a, 1, 1, 0)
    bad(3, "apply", "positive number expected, got -1", a.apply, a, 1, 1, -1)
    bad(3, "apply", "positive number expected", a.apply, a, 1, 1, -0.0)
    bad(3, "apply", "positive number expected", a.apply, a, 1, 1, NAN)
    assert.are.same({ 1, 2, 0.5, 0 }, { a.x, a.y, a.vx, a.vy })
    a:apply(0, 0, 1e-300)                   -- the smallest dt is fine
  end)
end)

describe("errors: removed agents", function()
  it("name the function and the argument", function()
    local w, a, b = fixture()
    w:remove(a)
    bad_self("seek", "agent has been removed", a.seek, a, 1, 2)
    bad_self("apply", "agent has been removed", a.apply, a, 0, 0, 1)
    bad(1, "pursue", "agent has been removed", b.pursue, b, a)
    bad(1, "seek", "agent has been removed", b.seek, b, a)
    bad(1, "remove", "agent has been removed", w.remove, w, a)
    raises("cannot access field 'x' of steer.Agent: agent has been removed",
      function() return a.x end)
    assert.is_false(a.alive)
    assert.are.equal(1, #w)
  end)
end)

describe("errors: agents of another world", function()
  it("cannot be targets or be removed from this world", function()
    local w, a = fixture()
    local other = steer.world{}
    local c = other:add{ x = 3 }
    local msg = "agent belongs to another world"
    bad(1, "seek", msg, a.seek, a, c)
    bad(1, "flee", msg, a.flee, a, c)
    bad(1, "arrive", msg, a.arrive, a, c)
    bad(1, "pursue", msg, a.pursue, a, c)
    bad(1, "evade", msg, a.evade, a, c)
    bad(1, "remove", msg, w.remove, w, c)
    assert.is_true(c.alive)
    assert.are.equal(1, #other)
    assert.are.equal(2, #w)
  end)
end)

describe("errors: numbers out of range (|x| > 1e150)", function()
  it("are rejected; 1e150 itself is fine", function()
    local w, a = fixture()
    local range = "out of range"
    local above = 1e150 * (1 + 2 ^ -52)     -- the next double above 1e150
    bad(1, "seek", range, steer.seek, 1e300, 0, 0, 0, 0, 0, 1, 1)
    bad(7, "seek", range, steer.seek, 0, 0, 0, 0, 0, 0, above, 1)
    bad(4, "weighted", range, steer.weighted, 1, 1, 1, -1e300)
    bad(3, "clamp", range, steer.clamp, 1, 1, 1e300)
    bad(2, "seek", range, a.seek, a, 0, -1e300)
    -- a force of any finite size is fine: apply clamps it to max_force first
    a:apply(1e300, -1e308, 1)
    support.all_finite(a.x, a.y, a.vx, a.vy)
    a.x, a.y, a.vx, a.vy = 0, 0, 0, 0
    bad(1, "apply", "finite number expected, got inf", a.apply, a, 1 / 0, 0, 1)
    bad(3, "apply", range, a.apply, a, 0, 0, 1e300)
    bad(3, "flee", range, a.flee, a, 0, 0, above)
    bad(1, "query", range, w.query, w, 1e300, 0, 1)
    bad(3, "query", range, w.query, w, 0, 0, 1e300)
    bad(1, "add", { F"x", range }, w.add, w, { x = 1e300 })
    bad(1, "add", { F"max_speed", range }, w.add, w, { max_speed = above })
    bad(1, "add_obstacle", range, w.add_obstacle, w, { x = 0, y = 0, radius = 1e300 })
    bad(1, "add_wall", range, w.add_wall, w, { x1 = -1e300, y1 = 0, x2 = 0, y2 = 1 })
    bad(1, "path", range, steer.path, { { 0, 0 }, { 1e300, 0 } })
    bad(2, "follow", range, a.follow, a, steer.path{ { 0, 0 } }, { slowing_radius = 1e300 })
    bad(1, "world", { F"cell_size", range }, steer.world, { cell_size = 1e300 })
    bad(1, "world", { F"bounds[1]", range }, steer.world, { bounds = { 1e300, 10 } })
    bad_field(a, "x", 1e300, range)
    bad_field(a, "max_force", above, range)
    assert.are.equal(2, #w)
    -- at the limit
    support.all_finite(steer.seek(1e150, -1e150, 1e150, 1e150, -1e150, 1e150, 1e150, 1e150))
    a.x, a.vy, a.max_speed = -1e150, 1e150, 1e150
    assert.are.same({ -1e150, 1e150, 1e150 }, { a.x, a.vy, a.max_speed })
    local c = w:add{ x = 1e150, radius = 1e150 }
    assert.are.equal(1e150, c.x)
  end)
end)

describe("errors: bad path tables", function()
  it("steer.path names the point and the problem", function()
    bad(1, "path", "table expected, got no value", steer.path)
    bad(1, "path", "at least one point", steer.path, {})
    bad(1, "path", { "point 1", "table {x, y}, {x =, y =} or steer.Path expected, got number" }, steer.path, { 5 })
    bad(1, "path", { "point 2: y: number expected, got nil" }, steer.path,
      { { 0, 0 }, { 1 } })
    bad(1, "path", { "point 1: x: number expected, got string" }, steer.path,
      { { "0", 0 } })
    bad(1, "path", { "point 2: y: number expected, got nil" }, steer.path,
      { { 0, 0 }, { x = 1 } })
    bad(1, "path", { "point 3", "finite number expected" }, steer.path,
      { { 0, 0 }, { 1, 1 }, { INF, 0 } })
    bad(1, "path", { "point 1", "out of range" }, steer.path, { { 0, -1e300 } })
  end)

  it("a:follow checks its path and options", function()
    local _, a = fixture()
    local p = steer.path{ { 0, 0 }, { 1, 0 } }
    bad(1, "follow", "steer.Path expected, got no value", a.follow, a)
    bad(1, "follow", "steer.Path expected, got table", a.follow, a, { { 0, 0 } })
    bad(2, "follow", "table expected, got number", a.follow, a, p, 5)
    bad(2, "follow", { F"arrival_radius", "number expected, got string" }, a.follow, a, p,
      { arrival_radius = "x" })
    bad(1, "point", "out of range", p.point, p, 3)
    bad(1, "point", "out of range", p.point, p, 0)
    bad(1, "point", "out of range", p.point, p, 2 ^ 40)
    bad(1, "point", "integer expected", p.point, p, 1.5)
    assert.is_nil(a:path_index())
  end)
end)

describe("errors: bad world options", function()
  it("steer.world names the option", function()
    bad(1, "world", "table expected, got number", steer.world, 5)
    bad(1, "world", { F"cell_size", "positive number expected, got 0" }, steer.world,
      { cell_size = 0 })
    bad(1, "world", { F"cell_size", "positive number expected" }, steer.world, { cell_size = -5 })
    bad(1, "world", { F"cell_size", "number expected, got string" }, steer.world,
      { cell_size = "5" })
    bad(1, "world", { F"cell_size", "positive number expected" }, steer.world,
      { cell_size = NAN })
    bad(1, "world", { F"bounds", "table" }, steer.world, { bounds = 5 })
    bad(1, "world", { F"bounds[2]", "got nil" }, steer.world, { bounds = { 100 } })
    bad(1, "world", { F"bounds[1]", "positive number expected" }, steer.world,
      { bounds = { 0, 10 } })
    bad(1, "world", { F"bounds[2]", "positive number expected" }, steer.world,
      { bounds = { 10, -1 } })
    bad(1, "world", { F"wrap", "bounds" }, steer.world, { wrap = true })
    bad(1, "world", { F"seed", "integer expected" }, steer.world, { seed = 1.5 })
    bad(1, "world", { F"seed", "number expected, got string" }, steer.world, { seed = "1" })
  end)
end)

describe("errors: read-only fields and methods", function()
  it("cannot be assigned", function()
    local _, a = fixture()
    for _, key in ipairs({ "id", "speed", "heading", "alive" }) do
      raises({ "'" .. key .. "'", "read-only" }, function() a[key] = 1 end)
    end
    raises({ "'seek'", "method" }, function() a.seek = 1 end)
    assert.are.equal(1, a.id)
    assert.is_function(a.seek)
  end)
end)

describe("errors: choices beyond docs/API.md sections 1-5", function()
  it("field writes say which field and what is wrong", function()
    local a = steer.world{}:add{}
    local function msg(fn) return support.error_of(fn) end
    assert.matches("cannot set field 'x' of steer.Agent: number expected, got string",
      msg(function() a.x = "far" end))
    assert.matches("cannot set field 'max_speed' of steer.Agent: non%-negative number expected, got %-1",
      msg(function() a.max_speed = -1 end))
    assert.matches("cannot set field 'vy' of steer.Agent: number out of range",
      msg(function() a.vy = 1e300 end))
    assert.matches("field 'speed' of steer.Agent is read%-only", msg(function() a.speed = 1 end))
    assert.matches("cannot assign to method 'seek' of steer.Agent", msg(function() a.seek = 1 end))
  end)

  it("world:add refuses names the agent uses itself", function()
    local w = steer.world{}
    for _, key in ipairs{ "id", "speed", "alive", "seek", "wander_angle" } do
      assert.matches("bad argument #1 to 'add' %(field '" .. key .. "' is the agent's own",
        support.error_of(w.add, w, { [key] = 1 }))
    end
    assert.are.equal(0, #w)
  end)

  it("clamp and normalize take any finite vector, even one too long for a double", function()
    local x, y = steer.clamp(1e300, -1e308, 2)
    support.near(steer.length(x, y), 2, 1e-12)
    local big = 1.7976931348623157e308
    x, y = steer.clamp(big, -big, 2)
    support.near(x, math.sqrt(2), 1e-12)
    support.near(y, -math.sqrt(2), 1e-12)
    x, y = steer.normalize(big, big)
    support.near(x, math.sqrt(0.5), 1e-15)
    -- length keeps the limit: a longer vector's length could be infinite
    assert.matches("out of range", support.error_of(steer.length, 1e300, 0))
  end)

  it("an absurd wander jitter keeps the wander angle a valid number", function()
    local a = steer.world{}:add{ wander_jitter = 1e150 }
    for _ = 1, 100 do support.all_finite(a:wander()) end
    assert.is_true(math.abs(a.wander_angle) <= 1e150)
    a.wander_angle = a.wander_angle -- and it can be written back
  end)
end)

-- The exact message of fn(...): a C function's error carries no position.
local function message(fn, ...) return support.error_of(fn, ...) end

describe("errors: steer's own handles are named by their type", function()
  it("in type errors of functions, methods and self", function()
    local w, a = fixture()
    local rock = w:add_obstacle{ x = 0, y = 0, radius = 1 }
    local wall = w:add_wall{ x1 = 0, y1 = 0, x2 = 1, y2 = 0 }
    local pit = w:add_polygon{ 0, 0, 4, 0, 2, 3 }
    local p, mouse = steer.path{ { 0, 0 } }, steer.point(1, 2)
    assert.are.equal("bad argument #1 to 'remove' (steer.Agent expected, got steer.Obstacle)",
      message(w.remove, w, rock))
    assert.are.equal("bad argument #1 to 'remove' (steer.Agent expected, got steer.Wall)",
      message(w.remove, w, wall))
    assert.are.equal("bad argument #1 to 'contain' (region {x1, y1, x2, y2}, polygon or "
      .. "steer.Path expected, got steer.Polygon)", message(a.contain, a, pit))
    assert.are.equal("bad argument #1 to 'follow' (steer.Path expected, got steer.Agent)",
      message(a.follow, a, a))
    assert.are.equal("bad argument #2 to 'point' (number expected, got steer.SharedPoint)",
      message(steer.point, 1, mouse))
    assert.are.equal("calling 'seek' on bad self (steer.Agent expected, got steer.World)",
      message(a.seek, w, 1, 2))
    assert.are.equal("calling 'loops' on bad self (steer.Path expected, got steer.SharedPoint)",
      message(p.loops, mouse))
  end)

  it("inside points, paths, options and field writes", function()
    local w, a = fixture()
    local rock = w:add_obstacle{ x = 0, y = 0, radius = 1 }
    local p = steer.path{ { 0, 0 } }
    assert.are.equal("bad argument #1 to 'seek' (point x: number expected, got steer.Agent)",
      message(a.seek, a, { x = a, y = 1 }))
    assert.are.equal("bad argument #1 to 'path' (point 2: table {x, y}, {x =, y =} or "
      .. "steer.Path expected, got steer.Obstacle)", message(steer.path, { { 0, 0 }, rock }))
    assert.are.equal("bad argument #2 to 'follow' (field 'arrival_radius': number expected, "
      .. "got steer.Obstacle)", message(a.follow, a, p, { arrival_radius = rock }))
    assert.matches("cannot set field 'max_speed' of steer%.Agent: number expected, got "
      .. "steer%.Obstacle$", message(function() a.max_speed = rock end))
  end)

  it("other values keep Lua's names, even under a borrowed __name", function()
    local w, a = fixture()
    assert.are.equal("bad argument #1 to 'remove' (steer.Agent expected, got userdata)",
      message(w.remove, w, io.stdout))
    assert.are.equal("bad argument #1 to 'remove' (steer.Agent expected, got table)",
      message(w.remove, w, setmetatable({}, { __name = "steer.Agent" })))
    assert.are.equal("bad argument #1 to 'remove' (steer.Agent expected, got no value)",
      message(w.remove, w))
    -- a userdata whose metatable claims a steer name is not one of steer's
    local mt = getmetatable(io.stdout)
    local name = rawget(mt, "__name")
    rawset(mt, "__name", "steer.Obstacle")
    local ok, err = pcall(w.remove, w, io.stdout)
    rawset(mt, "__name", name)
    assert.is_false(ok)
    assert.are.equal("bad argument #1 to 'remove' (steer.Agent expected, got userdata)", err)
    assert.are.equal("bad argument #2 to 'follow' (table expected, got userdata)",
      message(a.follow, a, steer.path{ { 0, 0 } }, io.stdout))
  end)
end)

describe("errors: unknown keys in steer.path and a:follow's options", function()
  it("steer.path names the key, and the one meant when it is close", function()
    assert.are.equal("bad argument #1 to 'path' (unknown field 'closed': expected 'loop')",
      message(steer.path, { { 0, 0 }, { 1, 0 }, { 1, 1 }, closed = true }))
    assert.are.equal("bad argument #1 to 'path' (unknown field 'lop': expected 'loop')",
      message(steer.path, { { 0, 0 }, lop = true }))
    assert.are.equal("bad argument #1 to 'path' (unknown field 'Loop': did you mean 'loop'?)",
      message(steer.path, { { 0, 0 }, Loop = true }))
    -- the points come first: an empty path says so whatever its keys
    assert.are.equal("bad argument #1 to 'path' (a path needs at least one point)",
      message(steer.path, { closed = true }))
  end)

  it("a:follow names the option, and changes nothing", function()
    local _, a = fixture()
    local p = steer.path{ { 5, 0 }, { 9, 0 } }
    assert.are.equal("bad argument #2 to 'follow' (unknown field 'arival_radius': "
      .. "did you mean 'arrival_radius'?)", message(a.follow, a, p, { arival_radius = 3 }))
    assert.are.equal("bad argument #2 to 'follow' (unknown field 'lookahead': "
      .. "did you mean 'look_ahead'?)", message(a.follow, a, p, { lookahead = 1 }))
    assert.are.equal("bad argument #2 to 'follow' (unknown field 'loop': expected "
      .. "'arrival_radius', 'slowing_radius', 'path_radius' or 'look_ahead')",
      message(a.follow, a, p, { arrival_radius = 1, loop = true }))
    assert.is_nil(a:path_index()) -- the failed calls started no following
  end)
end)

describe("errors: steer.point takes both coordinates", function()
  it("a missing x or y is an error, as everywhere a number is", function()
    assert.are.equal("bad argument #1 to 'point' (number expected, got no value)",
      message(steer.point))
    assert.are.equal("bad argument #2 to 'point' (number expected, got no value)",
      message(steer.point, 1))
    assert.are.equal("bad argument #2 to 'point' (number expected, got nil)",
      message(steer.point, 1, nil))
    assert.are.equal("bad argument #1 to 'point' (number expected, got nil)",
      message(steer.point, nil, 2))
    local p = steer.point(-3, 4)
    assert.are.same({ -3, 4 }, { p.x, p.y })
  end)

  -- a game developer's review (session 43): world:add{ collide = true } was
  -- kept as the agent's data and did nothing
  it("world:add refuses a program's own fields", function()
    local w = steer.world{}
    for _, key in ipairs{ "collide", "orca", "combine" } do
      local ok, err = pcall(w.add, w, { [key] = true })
      assert.is_false(ok)
      assert.are.equal(("bad argument #1 to 'add' (field '%s' is a program's field: put it in "
        .. "the program (program = { %s = ..., ... }))"):format(key, key), err)
    end
    assert.are.equal(0, #w)
    local a = w:add{ program = { collide = true, { "wander" } }, hold = 3 }
    assert.are.equal(3, a.hold)                     -- other program words stay own data
    assert.is_true(a:behaviors().collide)
  end)
end)
