-- Moving a flow field's goals (f:set_goals), switching an agent's field
-- (a:set_target on a flow entry), and the grid's far edges, which belong to
-- the last column and row (a world's closed bounds hold agents there).
-- Every distance below is counted by hand on the grids drawn.
local steer = require "steer"
local support = require "support"
local near, error_of = support.near, support.error_of
local fail_after = steer.testing.fail_allocations
local SQRT2 = math.sqrt(2)
local unpack = table.unpack or unpack

-- A grid from rows of text ('.' cost 1, '#' blocked), cells of size s.
local function grid_of(rows, s, origin)
  local cost = {}
  for _, row in ipairs(rows) do
    for c in row:gmatch(".") do cost[#cost + 1] = c == "#" and 0 or 1 end
  end
  return steer.navgrid{ width = #rows[1], height = #rows, cost = cost, cell_size = s, origin = origin }
end

-- Every cell's distance, row by row (nil as false).
local function distances(f, W, H, s)
  local out = {}
  for cy = 0, H - 1 do
    for cx = 0, W - 1 do out[#out + 1] = f:distance((cx + 0.5) * s, (cy + 0.5) * s) or false end
  end
  return out
end

--   x: 0 1 2 3      cells of 2 world units
--   y0 . . . .
--   y1 . # # .
--   y2 . . . .
local ROWS = { "....", ".##.", "...." }

describe("f:set_goals", function()
  it("recomputes the field in place toward the new goal and returns it", function()
    local nav = grid_of(ROWS, 2)
    local f = nav:flow(1, 1)                      -- cell (0, 0)
    near(f:distance(7, 1), 6, 0, "3 cells east")
    near(f:distance(7, 5), 10, 0, "around the wall: 5 cells")
    assert.are.equal(f, f:set_goals(7, 5))        -- cell (3, 2)
    near(f:distance(1, 1), 10, 0, "now the far corner")
    near(f:distance(7, 1), 4, 0, "2 cells down")
    near(f:distance(1, 5), 6, 0, "3 cells east")
    assert.are.equal(0, f:distance(7.9, 4.1))
    assert.is_nil(f:distance(3, 3))               -- blocked
    assert.are.same({ 1, 0 }, { f:direction(5, 1) })   -- east, then down
    assert.is_false(f:stale())
  end)

  it("takes every goal form of nav:flow", function()
    local nav = grid_of(ROWS, 2)
    local f = nav:flow(1, 1)
    local world = steer.world{}
    local a = world:add{ x = 7, y = 5 }
    f:set_goals(a)                                   -- an agent
    near(f:distance(1, 1), 10, 0, "agent")
    f:set_goals{ 1, 1 }                              -- {x, y}
    near(f:distance(1, 1), 0, 0, "{x, y}")
    f:set_goals(steer.point(7, 1))                   -- a shared point
    near(f:distance(1, 1), 6, 0, "steer.point")
    f:set_goals{ x = 1, y = 5 }                      -- {x =, y =}
    near(f:distance(7, 5), 6, 0, "{x =, y =}")
    -- a list: the nearest of both goals
    f:set_goals{ { 1, 1 }, steer.point(7, 5) }
    near(f:distance(7, 1), 4, 0, "list: the nearer goal")
    near(f:distance(1, 5), 4, 0, "list: the nearer goal")
    near(f:distance(3, 5), 4, 0, "list: 2 from (3, 2), 3 from (0, 0)")
    -- fewer goals again, then more than ever (the goals' room grows)
    f:set_goals{ { 7, 1 } }
    near(f:distance(1, 1), 6, 0, "one goal again")
    f:set_goals{ { 1, 1 }, { 7, 1 }, { 1, 5 }, { 7, 5 } }
    assert.are.same({ 0, 2, 2, 0, 2, false, false, 2, 0, 2, 2, 0 }, distances(f, 4, 3, 2))
  end)

  it("raises as nav:flow does, naming set_goals, and leaves the field unchanged", function()
    local nav = grid_of(ROWS, 2)
    local f = nav:flow(1, 1)
    local before = distances(f, 4, 3, 2)
    local world = steer.world{}
    local gone = world:add{ x = 1, y = 1 }
    world:remove(gone)
    local cases = {
      { "bad argument #1 to 'set_goals' (goal (9, 1) is outside the grid)", 9, 1 },
      { "bad argument #1 to 'set_goals' (goal 2 (-1, 0) is outside the grid)", { { 7, 5 }, { -1, 0 } } },
      { "bad argument #1 to 'set_goals' (goal 2: y: number expected, got nil)", { { 7, 5 }, { 1 } } },
      { "bad argument #1 to 'set_goals' (goal 1: agent has been removed)", { gone } },
      { "bad argument #1 to 'set_goals' (at least one goal expected)", {} },
      { "bad argument #1 to 'set_goals' (goal 2: steer.Agent, steer.SharedPoint, {x, y} or {x =, y =} expected, got string)",
        { { 7, 5 }, "here" } },
      { "bad argument #2 to 'set_goals' (number expected, got no value)", 7 },
    }
    for _, case in ipairs(cases) do
      local message = error_of(f.set_goals, f, unpack(case, 2))
      assert.are.equal(case[1], message:match("bad argument.*$"))
      assert.are.same(before, distances(f, 4, 3, 2))
    end
    assert.matches("calling 'set_goals' on bad self", error_of(f.set_goals, nav, 1, 1))
  end)

  it("recomputes from the grid's costs now, like f:update()", function()
    local nav = grid_of(ROWS, 2)
    local f = nav:flow(1, 1)
    nav:set_cost(1, 0, 0)                         -- the top row is cut
    assert.is_true(f:stale())
    f:set_goals(1, 1)
    assert.is_false(f:stale())
    near(f:distance(7, 1), 14, 0, "around the bottom: 7 cells")
  end)

  it("steers the field's agents toward the new goal at once, their programs untouched", function()
    local nav = grid_of(ROWS, 2)
    local f = nav:flow(1, 1)
    local world = steer.world{}
    local prog = steer.program{ { "flow", field = f } }
    local a = world:add{ x = 5, y = 1, max_speed = 2, max_force = 100, program = prog }
    local b = world:add{ x = 5, y = 1, max_speed = 2, max_force = 100, program = prog }
    assert.are.same({ -2, 0 }, { a:steering() })  -- west to (0, 0)
    f:set_goals(7, 5)
    assert.are.same({ 2, 0 }, { a:steering() })   -- east, around the wall
    assert.are.same({ 2, 0 }, { b:steering() })
    assert.are.equal(f, a:behaviors()[1].field)
    assert.are.equal(f, b:behaviors()[1].field)
  end)

  it("moved to where it was changes nothing: no clock, smoothing or hold restarts", function()
    -- ORCA, smoothing and hold keep their state across set_goals, unlike a
    -- new program: a run that moves the goal onto itself every other step
    -- is the same, bit for bit, as a run that never moves it
    local function run(move)
      local nav = steer.navgrid{ width = 20, height = 4, cell_size = 2 }
      local f = nav:flow(39, 3)
      local world = steer.world{}
      local agents = {}
      for k = 1, 6 do
        agents[k] = world:add{ x = 1 + k * 1.5, y = 2 + (k % 2) * 3, radius = 0.6, max_speed = 3, max_force = 20,
          program = { { "flow", field = f }, smoothing = 0.3, hold = 0.2, orca = true } }
      end
      world:add{ x = 12, y = 4, radius = 1, max_speed = 0 }
      for step = 1, 80 do
        if move and step % 2 == 0 then f:set_goals(39, 3) end
        world:step(0.1)
      end
      local out = {}
      for k, a in ipairs(agents) do out[k] = { a.x, a.y, a.vx, a.vy } end
      return out
    end
    assert.are.same(run(false), run(true))
  end)

  it("leaves the field as it was when memory runs out", function()
    local nav = grid_of(ROWS, 2)
    local f = nav:flow(1, 1)
    local before = distances(f, 4, 3, 2)
    local failed = 0
    for n = 0, 10 do
      fail_after(n)
      local ok, err = pcall(f.set_goals, f, { { 7, 5 }, { 7, 1 } })
      fail_after(nil)
      if ok then break end
      failed = failed + 1
      assert.matches("not enough memory", tostring(err))
      assert.are.same(before, distances(f, 4, 3, 2))
    end
    assert.is_true(failed >= 1)
    near(f:distance(1, 1), 6, 0, "moved once memory is there")
  end)
end)

describe("a:set_target on a flow entry", function()
  it("switches one agent's field, copy on write", function()
    local nav = grid_of(ROWS, 2)
    local f, g = nav:flow(1, 1), nav:flow(7, 5)
    local world = steer.world{}
    local prog = steer.program{ { "flow", field = f, tag = "chase" } }
    local a = world:add{ x = 5, y = 1, max_speed = 2, max_force = 100, program = prog }
    local b = world:add{ x = 5, y = 1, max_speed = 2, max_force = 100, program = prog }
    assert.is_nil(a:set_target("chase", g))
    assert.are.equal(g, a:behaviors()[1].field)
    assert.are.equal(f, b:behaviors()[1].field)     -- the other agent keeps f
    assert.are.same({ 2, 0 }, { a:steering() })
    assert.are.same({ -2, 0 }, { b:steering() })
    -- by index and by behavior name too; a field of another grid is fine
    local other = steer.navgrid{ width = 8, height = 1 }:flow(7.5, 0.5)
    a:set_target(1, other)
    assert.are.equal(other, a:behaviors()[1].field)
    a:set_target("flow", f)
    assert.are.same({ -2, 0 }, { a:steering() })
  end)

  it("raises on anything but a steer.FlowField", function()
    local nav = grid_of(ROWS, 2)
    local f = nav:flow(1, 1)
    local world = steer.world{}
    local a = world:add{ x = 5, y = 1, program = { { "flow", field = f, tag = "chase" } } }
    local function msg(...) return (error_of(a.set_target, a, ...)):match("bad argument.*$") end
    assert.are.equal("bad argument #2 to 'set_target' (entry 1 ('flow'): takes a steer.FlowField, got table)",
      msg("chase", { 1, 1 }))
    assert.are.equal("bad argument #2 to 'set_target' (entry 1 ('flow'): takes a steer.FlowField, got number)",
      msg("chase", 1, 1))
    assert.are.equal("bad argument #2 to 'set_target' (entry 1 ('flow'): takes a steer.FlowField, got no value)",
      msg("chase"))
    assert.are.equal("bad argument #2 to 'set_target' (entry 1 ('flow'): takes a steer.FlowField, got steer.NavGrid)",
      msg("chase", nav))
    assert.are.equal("bad argument #3 to 'set_target' (no argument expected here, got number)",
      msg("chase", f, 5))
    assert.are.equal(f, a:behaviors()[1].field)
  end)
end)

describe("the grid's far edges", function()
  it("belong to the last column and row; beyond is outside", function()
    local nav = steer.navgrid{ width = 4, height = 3, cell_size = 2, origin = { 10, -4 } }
    assert.are.same({ 3, 2 }, { nav:cell_of(18, 2) })       -- the far corner
    assert.are.same({ 3, 0 }, { nav:cell_of(18, -4) })
    assert.are.same({ 0, 2 }, { nav:cell_of(10, 2) })
    assert.are.same({ 2, 2 }, { nav:cell_of(15.5, 2) })
    assert.is_nil(nav:cell_of(18 + 1e-12, 0))
    assert.is_nil(nav:cell_of(12, 2 + 1e-12))
    assert.is_nil(nav:cell_of(9.999, 0))
  end)

  it("hold a player pushed against the world's bounds: flow, path, distance", function()
    -- the review's case: bounds = the grid's size, the player held against the right edge
    local T, W, H = 16, 20, 10
    local world = steer.world{ bounds = { W * T, H * T } }
    local nav = steer.navgrid{ width = W, height = H, cell_size = T }
    local player = world:add{ x = 300, y = 80, radius = 6, max_speed = 80, program = { collide = true } }
    for _ = 1, 60 do player.vx, player.vy = 80, 0; world:step(1 / 60) end
    assert.are.equal(320, player.x)
    assert.are.same({ 19, 5 }, { nav:cell_of(player) })
    local f = nav:flow(player)
    assert.are.equal(0, f:distance(player))
    near(f:distance(20, 80), 18 * T, 0, "cells 1 to 19 of row 5")
    local path, length, cost = nav:path(20, 80, player)
    assert.are.equal(2, #path)
    assert.are.same({ 320, 80 }, { path:point(2) })
    assert.are.equal(300, length)
    assert.are.equal(18 * T, cost)
    -- the bottom edge and the corner, toward the top left cell
    local g = nav:flow(8, 8)
    near(g:distance(8, 160), 9 * T, 0, "9 cells down")
    near(g:distance(320, 80), (14 + 5 * SQRT2) * T, 1e-12, "5 diagonal, 14 straight")
    near(g:distance(320, 160), (10 + 9 * SQRT2) * T, 1e-12, "9 diagonal, 10 straight")
    assert.is_nil(g:distance(320.5, 80))
    assert.are.same({ nil, "goal outside the grid" }, { nav:path(20, 80, 320.5, 80) })
    assert.are.same({ nil, "start outside the grid" }, { nav:path(20, 160.5, 20, 80) })
    assert.matches("goal %(320.5, 80%) is outside the grid", error_of(nav.flow, nav, 320.5, 80))
    f:set_goals(320, 160)
    assert.are.equal(0, f:distance(320, 160))
  end)

  it("steer an agent on the edge by its cell, as one inside it", function()
    local T = 16
    local nav = steer.navgrid{ width = 20, height = 10, cell_size = T }
    local f = nav:flow(316, 76)                   -- in cell (19, 4)
    local world = steer.world{}
    -- on the edge in the goal cell: arrive at the goal point (not toward a
    -- cell centre, as from outside)
    local a = world:add{ x = 320, y = 72, max_speed = 10, max_force = 1e9 }
    local ex, ey = steer.arrive(320, 72, 0, 0, 316, 76, 10, 1e9, 2)
    assert.are.same({ ex, ey }, { a:flow(f) })
    near(ex, -10 / SQRT2, 1e-12, "full speed toward the goal")
    near(ey, 10 / SQRT2, 1e-12, "full speed toward the goal")
    -- a row below, on the edge: the cell's step (up, to the goal cell),
    -- not blended with anything beyond the edge
    local b = world:add{ x = 320, y = 88, max_speed = 10, max_force = 1e9 }
    assert.are.same({ 0, -10 }, { b:flow(f) })
    assert.are.same({ 0, -1 }, { f:direction(320, 88) })
    -- just beyond: toward the centre of the nearest cell, (312, 88)
    local c = world:add{ x = 321, y = 88, max_speed = 10, max_force = 1e9 }
    assert.are.same({ -10, 0 }, { c:flow(f) })
  end)

  it("steer a crowd sharing a program (two at a time) as one agent at a time", function()
    local T = 16
    local nav = grid_of({ "....#...", "........", "..##....", "........" }, T)
    local f = nav:flow(100, 20)
    local W, H = 8 * T, 4 * T
    local spots = { { W, 8 }, { W, 40 }, { W, H }, { 0, H }, { 70, H }, { W, 0 }, { 72, 0 }, { 50, 20 },
      { W, 30 }, { 33, H }, { W + 1, 24 }, { 10, 10 } }
    -- one program object for all (a batch), or one each (one agent at a time)
    local function run(shared)
      local world = steer.world{ bounds = { W, H } }
      local prog = steer.program{ { "flow", field = f, slowing_radius = 2 } }
      local agents = {}
      for k, p in ipairs(spots) do
        agents[k] = world:add{ x = p[1], y = p[2], vx = k % 3 - 1, vy = 0.5, max_speed = 10, max_force = 30,
          program = shared and prog or steer.program{ { "flow", field = f, slowing_radius = 2 } } }
      end
      local forces = {}
      for k, a in ipairs(agents) do
        local fx, fy = a:flow(f, 2)
        support.all_finite(fx, fy)
        forces[k] = { fx, fy }
        assert.are.same(forces[k], { a:steering() })
      end
      world:step(0.05)
      local out = {}
      for k, a in ipairs(agents) do out[k] = { a.x, a.y, a.vx, a.vy } end
      return out, forces
    end
    local one, forces = run(false)
    assert.are.same(one, (run(true)))
    -- on the right edge, row 0 (y = 8): the cell's own step, at full speed
    -- (no blend beyond the edge); the goal is cell (6, 1)
    -- (velocity (0, 0.5)): diagonally down left, beside no blocked corner
    near(forces[1][1], -10 / SQRT2, 1e-12, "full speed, down left")
    near(forces[1][2], 10 / SQRT2 - 0.5, 1e-12, "full speed, down left")
    -- beyond the edge (W + 1, 24), velocity (1, 0.5): toward the centre of
    -- cell (7, 1), (120, 24), at full speed
    assert.are.same({ -10 - 1, -0.5 }, forces[11])
  end)
end)
