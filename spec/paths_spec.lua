-- Path following (docs/API.md section 3.7): waypoint progression, looping paths,
-- arrive at the last waypoint, path_index, and the steer.Path type.
local steer = require "steer"
local support = require "support"
local vec_near, rel_near = support.vec_near, support.rel_near

local BIG, TINY = 1e150, 1e-300
local S2 = math.sqrt(2)

local function eq(what, ex, ey, fx, fy)
  vec_near(fx, fy, ex, ey, 1e-12, what)
end

-- two results packed by {f()} must be the same force
local function same(what, expected, actual)
  vec_near(actual[1], actual[2], expected[1], expected[2], 1e-12, what)
end

local function agent(opts, world_opts)
  local w = steer.world(world_opts or {})
  return w:add(opts), w
end

describe("steer.path", function()
  it("keeps its points, count and loop flag", function()
    local p = steer.path{ { 0, 0 }, { 4, 0.5 }, { -4, 4 } }
    assert.are.equal(3, #p)
    assert.is_false(p:loops())
    assert.are.same({ 4, 0.5 }, { p:point(2) })
    assert.are.same({ -4, 4 }, { p:point(3) })
    local q = steer.path{ { 1, 2 }, loop = true }
    assert.are.equal(1, #q)
    assert.is_true(q:loops())
    assert.truthy(tostring(p):find("steer.Path", 1, true))
  end)

  it("copies the table: later edits do not change the path", function()
    local t = { { 0, 0 }, { 4, 0 } }
    local p = steer.path(t)
    t[2][1] = 99
    t[3] = { 5, 5 }
    assert.are.equal(2, #p)
    assert.are.same({ 4, 0 }, { p:point(2) })
  end)

  it("takes `loop` and its points, and raises on any other string key", function()
    assert.is_true(steer.path{ { 0, 0 }, { 1, 0 }, loop = true }:loops())
    assert.is_false(steer.path{ { 0, 0 }, { 1, 0 }, loop = false }:loops())
    -- add_polygon's word would have made an open path
    assert.are.equal("bad argument #1 to 'path' (unknown field 'closed': expected 'loop')",
      support.error_of(steer.path, { { 0, 0 }, { 1, 0 }, closed = true }))
  end)

  it("holds limit values exactly", function()
    local p = steer.path{ { BIG, -BIG }, { TINY, -TINY } }
    assert.are.same({ BIG, -BIG }, { p:point(1) })
    assert.are.same({ TINY, -TINY }, { p:point(2) })
  end)
end)

describe("a:follow", function()
  local path = steer.path{ { 0, 0 }, { 4, 0 }, { 4, 4 } }

  it("seeks the current waypoint while it is arrival_radius or farther", function()
    local a = agent{ x = 1, max_speed = 2, max_force = 10 }
    eq("seek waypoint 1", -2, 0, a:follow(path))
    assert.are.equal(1, a:path_index())
    -- same as a:seek of that waypoint
    same("equals a:seek", { a:seek(0, 0) }, { a:follow(path) })
    assert.are.equal(1, a:path_index())
  end)

  it("reads its four documented options, and raises on a misspelt one", function()
    -- arrival_radius 0.4: at 0.5 from waypoint 1 it stays there (0.6 would advance)
    local a = agent{ x = 0.5, max_speed = 2, max_force = 10 }
    eq("stay on waypoint 1", -2, 0, a:follow(path, { arrival_radius = 0.4 }))
    assert.are.equal(1, a:path_index())
    -- slowing_radius 8: half speed at 4 from the end (2 would be full speed)
    local one = steer.path{ { 4, 0 } }
    local b = agent{ max_speed = 2, max_force = 10 }
    eq("arrive slowing within 8", 1, 0, b:follow(one, { slowing_radius = 8 }))
    same("equals a:arrive", { b:arrive(4, 0, 8) }, { b:follow(one, { slowing_radius = 8 }) })
    -- path_radius and look_ahead: cruising inside the corridor needs no force,
    -- where waypoint by waypoint it would turn toward the line's end
    local line = steer.path{ { 0, 0 }, { 10, 0 } }
    local c = agent{ y = 0.5, vx = 2, max_speed = 2, max_force = 10 }
    eq("inside the corridor", 0, 0, c:follow(line, { path_radius = 1, look_ahead = 1 }))
    local d = agent{ y = 0.5, vx = 2, max_speed = 2, max_force = 10 }
    local _, fy = d:follow(line)
    assert.is_true(fy < -0.05, "waypoint mode turns toward the line: " .. fy)
    local e = agent{ x = 0.5, max_speed = 2, max_force = 10 }
    assert.are.equal("bad argument #2 to 'follow' (unknown field 'arival_radius': "
      .. "did you mean 'arrival_radius'?)",
      support.error_of(e.follow, e, path, { arival_radius = 0.4 }))
    assert.is_nil(e:path_index()) -- the failed call started no following
  end)

  it("advances when |target - p| < arrival_radius (0.6 by default)", function()
    local a = agent{ x = 0.5, max_speed = 2, max_force = 10 }
    eq("advance, seek waypoint 2", 2, 0, a:follow(path))
    assert.are.equal(2, a:path_index())
    local b = agent{ x = 0.5, max_speed = 2, max_force = 10 }
    -- d = 0.5 is not < 0.5: stay
    eq("on the boundary", -2, 0, b:follow(path, { arrival_radius = 0.5 }))
    assert.are.equal(1, b:path_index())
    local c = agent{ max_speed = 2, max_force = 10 }
    -- arrival_radius 0: even d = 0 is not < 0
    eq("radius 0 on the waypoint", 0, 0, c:follow(path, { arrival_radius = 0 }))
    assert.are.equal(1, c:path_index())
  end)

  it("advances one waypoint per call", function()
    local close = steer.path{ { 0, 0 }, { 0.1, 0 }, { 0.2, 0 }, { 5, 0 } }
    local a = agent{ max_speed = 2, max_force = 10 }
    eq("call 1: seek (0.1, 0)", 2, 0, a:follow(close))
    assert.are.equal(2, a:path_index())
    eq("call 2: seek (0.2, 0)", 2, 0, a:follow(close))
    assert.are.equal(3, a:path_index())
    eq("call 3: arrive at (5, 0)", 2, 0, a:follow(close))
    assert.are.equal(4, a:path_index())
    a:follow(close)
    assert.are.equal(4, a:path_index(), "never past the last waypoint")
  end)

  it("progresses as the agent moves (written positions)", function()
    local a = agent{ max_speed = 2, max_force = 10 }
    assert.is_nil(a:path_index())       -- never followed a path
    a:follow(path)
    assert.are.equal(2, a:path_index())
    a.x = 3.5                            -- 0.5 from (4, 0)
    a:follow(path)
    assert.are.equal(3, a:path_index())
  end)

  it("arrives at the last waypoint: the force equals a:arrive's", function()
    local a = agent{ max_speed = 2, max_force = 10 }
    a:follow(path)
    a.x = 4
    a:follow(path)
    assert.are.equal(3, a:path_index())
    a.x, a.y = 4, 3                      -- 1 below the last waypoint
    -- arrive with slowing radius 2: speed 2 * 1/2
    eq("arrive", 0, 1, a:follow(path))
    same("equals a:arrive", { a:arrive(4, 4) }, { a:follow(path) })
    -- slowing_radius 4: speed 2 * 1/4
    eq("slowing_radius 4", 0, 0.5, a:follow(path, { slowing_radius = 4 }))
    same("equals a:arrive(x, y, 4)", { a:arrive(4, 4, 4) },
      { a:follow(path, { slowing_radius = 4 }) })
    a.vx, a.vy = 0.3, -0.2
    same("with velocity", { a:arrive(4, 4) }, { a:follow(path) })
    a.x, a.y = 4, 4                      -- on it: desired 0, force -v
    eq("on the last waypoint", -0.3, 0.2, a:follow(path))
    assert.are.equal(3, a:path_index())
  end)

  it("a looping path wraps to its first waypoint and never arrives", function()
    local loop = steer.path{ { 0, 0 }, { 4, 0 }, { 4, 4 }, loop = true }
    local a = agent{ max_speed = 2, max_force = 10 }
    a:follow(loop)
    assert.are.equal(2, a:path_index())
    a.x = 4
    a:follow(loop)
    assert.are.equal(3, a:path_index())
    a.y = 3
    -- seek, not arrive: full speed although the waypoint is 1 away
    eq("seek the third waypoint", 0, 2, a:follow(loop))
    a.y = 4
    eq("wrapped: seek (0, 0)", -S2, -S2, a:follow(loop))
    assert.are.equal(1, a:path_index())
  end)

  it("one-waypoint paths", function()
    local one = steer.path{ { 0, 0 } }
    local a = agent{ x = 1, max_speed = 2, max_force = 10 }
    eq("arrive", -1, 0, a:follow(one))
    assert.are.equal(1, a:path_index())
    local one_loop = steer.path{ { 0, 0 }, loop = true }
    local b = agent{ vx = 1, max_speed = 2, max_force = 10 }
    eq("loop: wraps onto itself, seeks it", -1, 0, b:follow(one_loop))
    assert.are.equal(1, b:path_index())
  end)

  it("a different path starts at its first waypoint", function()
    local other = steer.path{ { 10, 0 }, { 20, 0 } }
    local a = agent{ max_speed = 2, max_force = 10 }
    a:follow(path)
    assert.are.equal(2, a:path_index())
    assert.are.equal(2, a:path_index(path))
    assert.are.equal(1, a:path_index(other))
    eq("seek (10, 0)", 2, 0, a:follow(other))
    assert.are.equal(1, a:path_index())
    assert.are.equal(1, a:path_index(path))
    a:follow(path)                       -- back to the first: restarts
    assert.are.equal(2, a:path_index())
  end)

  it("keeps following a path whose variable was dropped", function()
    local a = agent{ max_speed = 2, max_force = 10 }
    do
      local p = steer.path{ { 0, 0 }, { 4, 0 } }
      a:follow(p)
    end
    collectgarbage(); collectgarbage()
    assert.are.equal(2, a:path_index())
  end)

  it("zero speeds, limits", function()
    local a = agent{ x = 1, vx = 1, max_speed = 0, max_force = 10 }
    eq("max_speed 0", -1, 0, a:follow(path))
    local b = agent{ x = -BIG, max_speed = BIG, max_force = BIG }
    local far = steer.path{ { -BIG, 0 }, { BIG, 0 } }
    local fx, fy = b:follow(far)
    rel_near(fx, BIG, 1e-12, "huge x"); rel_near(fy, 0, 0, "huge y")
    assert.are.equal(2, b:path_index())
    local c = agent{ max_speed = 1, max_force = 1 }
    local tiny = steer.path{ { 0, 0 }, { TINY, 0 } }
    eq("tiny path", 0, 0, c:follow(tiny))
    assert.are.equal(2, c:path_index())
    eq("tiny radii", -1, 0, agent{ x = 1 }:follow(path,
      { arrival_radius = TINY, slowing_radius = TINY }))
    fx, fy = agent{ x = 1 }:follow(path, { arrival_radius = BIG, slowing_radius = BIG })
    support.all_finite(fx, fy)
  end)

  it("follows across the seam of a torus", function()
    local seam = steer.path{ { 99, 10 }, { 1, 10 } }
    local a = agent({ x = 99, y = 10, max_speed = 1, max_force = 10 },
      { bounds = { 100, 80 }, wrap = true })
    -- advance; (1, 10) is 2 away through the seam: arrive at full speed
    eq("towards +x", 1, 0, a:follow(seam))
    assert.are.equal(2, a:path_index())
  end)
end)

-- legs joined into one route (a game developer's review, session 43: a patrol
-- of nav:path legs meant copying points with path:point)
describe("steer.path with paths among its points", function()
  local function points(p)
    local out = {}
    for i = 1, #p do out[#out + 1] = { p:point(i) } end
    return out
  end

  it("splices each leg's points in, a shared joint once", function()
    local a = steer.path{ { 0, 0 }, { 1, 0 } }
    local b = steer.path{ { 1, 0 }, { 1, 1 }, loop = true }
    local p = steer.path{ a, b, { 0, 1 } }
    assert.are.same({ { 0, 0 }, { 1, 0 }, { 1, 1 }, { 0, 1 } }, points(p))
    assert.is_false(p:loops())                        -- b's loop is not carried over
    -- legs that do not meet keep every point; a point between legs stays
    assert.are.same({ { 0, 0 }, { 1, 0 }, { 5, 5 }, { 1, 0 }, { 1, 1 } },
      points(steer.path{ a, { 5, 5 }, b }))
    -- plain points are never merged, even when equal (to a leg's end too)
    assert.are.same({ { 0, 0 }, { 1, 0 }, { 1, 0 }, { 1, 1 } }, points(steer.path{ a, { 1, 0 }, { 1, 1 } }))
    assert.are.same({ { 1, 0 }, { 1, 0 } }, points(steer.path{ { 1, 0 }, { 1, 0 } }))
  end)

  it("closes a loop of legs on its first point", function()
    local nav = steer.navgrid{ width = 8, height = 8 }
    local A, B, C = { 0.5, 0.5 }, { 7.5, 0.5 }, { 7.5, 7.5 }
    local loop = steer.path{ nav:path(A, B), nav:path(B, C), nav:path(C, A), loop = true }
    assert.are.same({ { 0.5, 0.5 }, { 7.5, 0.5 }, { 7.5, 7.5 } }, points(loop))
    assert.is_true(loop:loops())
    local open = steer.path{ nav:path(A, B), nav:path(B, A) }
    assert.are.same({ { 0.5, 0.5 }, { 7.5, 0.5 }, { 0.5, 0.5 } }, points(open))
    -- a guard walks it round: waypoint 3, then 1 again
    local w = steer.world{}
    local g = w:add{ x = 0.5, y = 0.5, max_speed = 4, max_force = 20,
      program = { { "follow", path = loop, weight = 4, arrival_radius = 0.5 } } }
    local seen = {}
    for _ = 1, 600 do
      w:step(1 / 30)
      seen[#seen + 1] = g:path_index()
    end
    local order = { seen[1] }
    for _, k in ipairs(seen) do if k ~= order[#order] then order[#order + 1] = k end end
    assert.are.same({ 2, 3, 1, 2, 3, 1 }, { (table.unpack or unpack)(order, 1, 6) })
  end)

  it("says what went wrong", function()
    local a = steer.path{ { 0, 0 }, { 1, 0 } }
    local nav = steer.navgrid{ width = 4, height = 4 }
    assert.are.equal("bad argument #1 to 'path' (point 2: table {x, y}, {x =, y =} or steer.Path "
      .. "expected, got string)", support.error_of(steer.path, { a, "b" }))
    -- a nav:path call last in the table gives its length and cost too: skipped
    assert.are.same({ { 0, 0 }, { 1, 0 }, { 1.5, 0.5 }, { 3.5, 0.5 } },
      points(steer.path{ a, nav:path({ 1.5, 0.5 }, { 3.5, 0.5 }) }))
    -- but only there, and only both
    assert.matches("point 2: table {x, y}, {x =, y =} or steer.Path expected, got number",
      support.error_of(steer.path, { a, 3 }))
    assert.matches("point 3: table {x, y}, {x =, y =} or steer.Path expected, got number",
      support.error_of(steer.path, { a, a, 3, { 1, 1 } }))
    assert.are.equal(4, #steer.path{ a, (nav:path({ 1, 0.5 }, { 3.5, 0.5 })) })
    -- a leg that found no path is a nil among the legs
    assert.are.equal("bad argument #1 to 'path' (point 2: table {x, y}, {x =, y =} or steer.Path "
      .. "expected, got nil (a nav:path that found no path?))",
      support.error_of(steer.path, { a, (nav:path({ 1, 0.5 }, { 9, 9 })), a }))
  end)
end)
