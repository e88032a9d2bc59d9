-- The navigation calls take every point form (API.md, Points): nav:path,
-- nav:flow (one point or a list), nav:cell_of, f:distance, f:direction;
-- their errors name the function and the argument however many slots a
-- point takes; steer.FlowField and steer.NavGrid handles keep their
-- identity (a:behaviors(), f:grid()); the map and tile checks.
local steer = require "steer"
local support = require "support"
local error_of = support.error_of
local SQRT2 = math.sqrt(2)
local OCTILE = 4 + 2 * SQRT2 -- 6 cells right and 2 up: 2 diagonal, 4 straight

-- An open 8 x 4 grid of unit cells; points at cell centres.
local function open_grid() return steer.navgrid{ width = 8, height = 4 } end

-- Every form of the point (x, y), as argument lists.
local function forms(world, x, y)
  local agent = world:add{ x = x, y = y }
  return {
    { label = "x, y", x, y },
    { label = "agent", agent },
    { label = "steer.point", steer.point(x, y) },
    { label = "{x, y}", { x, y } },
    { label = "{x =, y =}", { x = x, y = y } },
  }
end

local unpack = table.unpack or unpack

-- args1 .. args2 .. rest as one list
local function join(...)
  local out, n = {}, 0
  for i = 1, select("#", ...) do
    local list = select(i, ...)
    for k = 1, (list.n or #list) do
      n = n + 1
      out[n] = list[k]
    end
  end
  out.n = n
  return out
end

describe("nav:path with point forms", function()
  it("gives the same path for every pair of forms, with and without options", function()
    local nav = open_grid()
    local world = steer.world{}
    local from, to = forms(world, 1.5, 1.5), forms(world, 7.5, 3.5)
    for _, p in ipairs(from) do
      for _, q in ipairs(to) do
        local path, length, cost = nav:path(unpack(join(p, q)))
        assert.are.equal(3, #path, p.label .. " -> " .. q.label)
        support.close(length, OCTILE, 1e-12, p.label .. " -> " .. q.label)
        support.close(cost, OCTILE, 1e-12, "cost")
        local x1, y1 = path:point(1)
        local x3, y3 = path:point(3)
        assert.are.same({ 1.5, 1.5, 7.5, 3.5 }, { x1, y1, x3, y3 })
        -- 4-neighbor moves: 6 + 2 cells
        local _, l4 = nav:path(unpack(join(p, q, { { diagonal = false } })))
        assert.are.equal(8, l4, p.label .. " -> " .. q.label .. " with options")
      end
    end
  end)

  it("takes agents of any world, where the call runs", function()
    local nav = open_grid()
    local w1, w2 = steer.world{}, steer.world{}
    local a, b = w1:add{ x = 0.5, y = 0.5 }, w2:add{ x = 3.5, y = 0.5 }
    local _, length = nav:path(a, b)
    assert.are.equal(3, length)
    b.x = 0.5
    b.y = 3.5
    _, length = nav:path(a, b)
    assert.are.equal(3, length)
  end)

  it("reports no path for points outside as before", function()
    local nav = open_grid()
    local p, reason = nav:path({ -1, 0 }, { x = 1, y = 1 })
    assert.is_nil(p)
    assert.are.equal("start outside the grid", reason)
    p, reason = nav:path(steer.point(1, 1), 9, 9)
    assert.is_nil(p)
    assert.are.equal("goal outside the grid", reason)
  end)

  it("names the argument a bad point or option is in", function()
    local nav = open_grid()
    local world = steer.world{}
    local a = world:add{}
    local gone = world:add{}
    world:remove(gone)
    local FORMS = "number, steer.Agent, steer.SharedPoint, {x, y} or {x =, y =}"
    assert.are.equal("bad argument #1 to 'path' (" .. FORMS .. " expected, got no value)",
      error_of(nav.path, nav))
    assert.are.equal("bad argument #2 to 'path' (" .. FORMS .. " expected, got no value)",
      error_of(nav.path, nav, a))
    assert.are.equal("bad argument #3 to 'path' (" .. FORMS .. " expected, got no value)",
      error_of(nav.path, nav, 1, 1))
    assert.are.equal("bad argument #2 to 'path' (number expected, got no value)",
      error_of(nav.path, nav, 1))
    assert.are.equal("bad argument #4 to 'path' (number expected, got no value)",
      error_of(nav.path, nav, 1, 1, 2))
    assert.are.equal("bad argument #3 to 'path' (number expected, got nil)",
      error_of(nav.path, nav, a, 1, nil))
    assert.are.equal("bad argument #2 to 'path' (point y: number expected, got nil)",
      error_of(nav.path, nav, { 1, 1 }, { 2 }))
    assert.are.equal("bad argument #3 to 'path' (point x: finite number expected, got nan)",
      error_of(nav.path, nav, 1, 1, { x = 0 / 0, y = 1 }))
    assert.are.equal("bad argument #1 to 'path' (agent has been removed)",
      error_of(nav.path, nav, gone, a))
    assert.are.equal("bad argument #2 to 'path' (" .. FORMS .. " expected, got boolean)",
      error_of(nav.path, nav, a, true))
    -- the options follow the points: argument 3 after two one-slot points
    assert.are.equal("bad argument #3 to 'path' (unknown option 'smoth': did you mean 'smooth'?)",
      error_of(nav.path, nav, a, { 2, 2 }, { smoth = true }))
    assert.are.equal("bad argument #3 to 'path' (unknown option 'fast': expected 'smooth', 'diagonal' or 'clearance')",
      error_of(nav.path, nav, a, { 2, 2 }, { fast = true }))
    assert.are.equal("bad argument #4 to 'path' ('smooth' must be a boolean, got number)",
      error_of(nav.path, nav, 1, 1, a, { smooth = 1 }))
    assert.are.equal("bad argument #5 to 'path' (table expected, got string)",
      error_of(nav.path, nav, 1, 1, 2, 2, "smooth"))
  end)
end)

describe("nav:flow with point forms", function()
  it("builds the same field from every form of one goal", function()
    local nav = open_grid()
    local world = steer.world{}
    for _, goal in ipairs(forms(world, 7.5, 3.5)) do
      local f = nav:flow(unpack(goal, 1, goal.n or #goal))
      support.close(f:distance(1.5, 1.5), OCTILE, 1e-12, goal.label)
      assert.are.equal(0, f:distance(7.5, 3.5))
    end
  end)

  it("takes a list of goals of the one-value forms", function()
    local nav = open_grid()
    local world = steer.world{}
    local a = world:add{ x = 0.5, y = 0.5 }
    local list = { a, steer.point(7.5, 0.5), { 0.5, 3.5 }, { x = 7.5, y = 3.5 } }
    local f = nav:flow(list)
    -- every goal cell costs 0; (3.5, 1.5) is 3 cells from the nearest
    -- goal (a diagonal and 2 straight from (0.5, 0.5), or from (0.5, 3.5))
    for _, p in ipairs{ { 0.5, 0.5 }, { 7.5, 0.5 }, { 0.5, 3.5 }, { 7.5, 3.5 } } do
      assert.are.equal(0, f:distance(p[1], p[2]))
    end
    support.close(f:distance(3.5, 1.5), 2 + SQRT2, 1e-12, "between the goals")
    -- one goal as a list of one
    support.close(nav:flow{ { x = 7.5, y = 3.5 } }:distance(1.5, 1.5), OCTILE, 1e-12, "list of one")
  end)

  it("tells a point table from a list", function()
    local nav = open_grid()
    -- {x, y} and {x =, y =} are one goal; a table of tables a list
    assert.are.equal(0, nav:flow{ 7.5, 3.5 }:distance(7.5, 3.5))
    assert.are.equal(0, nav:flow{ x = 7.5, y = 3.5 }:distance(7.5, 3.5))
    assert.are.equal(1, nav:flow{ { 6.5, 3.5 } }:distance(7.5, 3.5))
    assert.are.equal("bad argument #1 to 'flow' (at least one goal expected)", error_of(nav.flow, nav, {}))
    assert.are.equal("bad argument #1 to 'flow' (point y: number expected, got nil)",
      error_of(nav.flow, nav, { x = 1 }))
  end)

  it("checks the arguments before anything else: 'got no value', not 'got userdata'", function()
    local nav = open_grid()
    assert.are.equal(
      "bad argument #1 to 'flow' (number, steer.Agent, steer.SharedPoint, {x, y} or {x =, y =} expected, got no value)",
      error_of(nav.flow, nav))
    assert.are.equal("bad argument #2 to 'flow' (number expected, got no value)", error_of(nav.flow, nav, 1))
    assert.are.equal("bad argument #2 to 'flow' (number expected, got nil)", error_of(nav.flow, nav, 1, nil))
  end)

  it("names the goal of a list that is bad", function()
    local nav = open_grid()
    local world = steer.world{}
    local gone = world:add{}
    world:remove(gone)
    assert.are.equal("bad argument #1 to 'flow' (goal 2: x: number expected, got nil)",
      error_of(nav.flow, nav, { { 1, 1 }, { y = 1 } }))
    assert.are.equal("bad argument #1 to 'flow' (goal 1: y: finite number expected, got inf)",
      error_of(nav.flow, nav, { { 1, math.huge } }))
    assert.are.equal("bad argument #1 to 'flow' (goal 2: agent has been removed)",
      error_of(nav.flow, nav, { { 1, 1 }, gone }))
    assert.are.equal(
      "bad argument #1 to 'flow' (goal 3: steer.Agent, steer.SharedPoint, {x, y} or {x =, y =} expected, got number)",
      error_of(nav.flow, nav, { { 1, 1 }, { 2, 2 }, 5 }))
    assert.are.equal("bad argument #1 to 'flow' (goal 2 (-1, 0) is outside the grid)",
      error_of(nav.flow, nav, { steer.point(1, 1), steer.point(-1, 0) }))
    assert.are.equal("bad argument #1 to 'flow' (goal (9, 1) is outside the grid)",
      error_of(nav.flow, nav, { 9, 1 }))
    local closed = steer.world{}
    local b = closed:add{}
    closed:close()
    assert.are.equal("bad argument #1 to 'flow' (goal 1: world is closed)", error_of(nav.flow, nav, { b }))
  end)
end)

describe("nav:cell_of, f:distance and f:direction with point forms", function()
  it("agree with the x, y form for every form", function()
    local nav = steer.navgrid{ width = 8, height = 4, cell_size = 2, origin = { -4, 0 } }
    local f = nav:flow(11, 7)
    local world = steer.world{}
    local cx, cy = nav:cell_of(3.25, 1.5)
    assert.are.same({ 3, 0 }, { cx, cy })
    local d = f:distance(3.25, 1.5)
    support.close(d, 2 * (3 * SQRT2 + 1), 1e-12, "distance") -- cell (3, 0) to (7, 3)
    local dx, dy = f:direction(3.25, 1.5)
    for _, p in ipairs(forms(world, 3.25, 1.5)) do
      local args = { unpack(p, 1, p.n or #p) }
      assert.are.same({ cx, cy }, { nav:cell_of(unpack(args)) }, p.label)
      assert.are.equal(d, f:distance(unpack(args)), p.label)
      assert.are.same({ dx, dy }, { f:direction(unpack(args)) }, p.label)
    end
    assert.is_nil(nav:cell_of{ -5, 0 })
    assert.is_nil(f:distance(steer.point(100, 0)))
  end)

  it("name the argument of a bad point", function()
    local nav = open_grid()
    local f = nav:flow(1, 1)
    local FORMS = "number, steer.Agent, steer.SharedPoint, {x, y} or {x =, y =}"
    assert.are.equal("bad argument #1 to 'cell_of' (" .. FORMS .. " expected, got string)",
      error_of(nav.cell_of, nav, "a"))
    assert.are.equal("bad argument #2 to 'cell_of' (number out of range, |1e+151| > 1e150)",
      error_of(nav.cell_of, nav, 1, 1e151))
    assert.are.equal("bad argument #1 to 'distance' (point y: number expected, got nil)",
      error_of(f.distance, f, { 1 }))
    assert.are.equal("bad argument #2 to 'direction' (number expected, got no value)",
      error_of(f.direction, f, 1))
    assert.are.equal("calling 'direction' on bad self (steer.FlowField expected, got table)",
      error_of(f.direction, {}, 1, 1))
  end)
end)

describe("nav:cost", function()
  it("says nan, not -nan", function()
    local nav = open_grid()
    assert.are.equal("bad argument #1 to 'cost' (integer expected, got nan)", error_of(nav.cost, nav, 0 / 0, 0))
    assert.are.equal("bad argument #2 to 'set_cost' (integer expected, got nan)",
      error_of(nav.set_cost, nav, 0, -(0 / 0), 1))
  end)
end)

describe("steer.FlowField and steer.NavGrid handles", function()
  it("a:behaviors() gives back the field it was given, every time", function()
    local nav = open_grid()
    local field = nav:flow(1, 1)
    local world = steer.world{}
    local a, b = world:add{}, world:add{}
    a:set_behaviors{ { "flow", field = field } }
    b:set_behaviors{ { "seek", target = { 1, 1 } }, { "flow", field = field } }
    assert.are.equal(field, a:behaviors()[1].field)
    assert.are.equal(a:behaviors()[1].field, a:behaviors()[1].field)
    assert.are.equal(field, b:behaviors()[2].field)
    -- the round trip keeps the field
    b:set_behaviors(b:behaviors())
    assert.are.equal(field, b:behaviors()[2].field)
  end)

  it("f:grid() is the grid the field was made from", function()
    local nav = open_grid()
    local f = nav:flow(1, 1)
    assert.are.equal(nav, f:grid())
    assert.are.equal(nav, nav:flow{ { 2, 2 } }:grid())
    local map = steer.navgrid_from_map("type octile\nheight 1\nwidth 2\nmap\n..\n")
    assert.are.equal(map, map:flow(0.5, 0.5):grid())
  end)

  it("a field or grid whose handle was collected comes back as one working handle", function()
    local world = steer.world{}
    local a = world:add{ x = 0.5, y = 0.5, max_speed = 1, max_force = 10 }
    do
      local nav = open_grid()
      a:set_behaviors{ { "flow", field = nav:flow(7.5, 0.5) } }
    end
    for _ = 1, 3 do collectgarbage("collect") end
    local field = a:behaviors()[1].field
    assert.are.equal(field, a:behaviors()[1].field)
    assert.are.equal(7, field:distance(0.5, 0.5))
    local grid = field:grid()
    assert.are.equal(grid, field:grid())
    assert.are.same({ 8, 4 }, { grid:size() })
    assert.are.equal(grid, grid:flow(1, 1):grid())
    -- and again once these handles are gone too
    field, grid = nil, nil
    for _ = 1, 3 do collectgarbage("collect") end
    field = a:behaviors()[1].field
    assert.are.equal(7, field:distance(a))
    assert.are.same({ 1, 0 }, { a:flow(field) })
  end)

  it("never hands out a handle whose field was released", function()
    local world = steer.world{}
    local a = world:add{}
    local nav = open_grid()
    for k = 1, 300 do
      local f = nav:flow(0.5 + k % 8, 0.5)
      a:set_behaviors{ { "flow", field = f } }
      assert.are.equal(f, a:behaviors()[1].field)
      f = nil
      if k % 3 == 0 then collectgarbage("collect") end
      if k % 3 == 1 then
        -- the program still holds the field: a live handle, the same twice
        local g = a:behaviors()[1].field
        assert.are.equal(g, a:behaviors()[1].field)
        assert.are.equal(0, g:distance(0.5 + k % 8, 0.5))
        assert.are.equal(nav, g:grid())
      end
      if k % 5 == 0 then a:set_behaviors{} end -- releases the field
    end
  end)
end)

describe("steer.navgrid_from_map's first line", function()
  it("must be 'type octile'", function()
    local body = "\nheight 1\nwidth 1\nmap\n.\n"
    assert.are.same({ 1, 1 }, { steer.navgrid_from_map("type octile" .. body):size() })
    assert.are.same({ 1, 1 }, { steer.navgrid_from_map("type octile\r" .. body):size() })
    for _, first in ipairs{ "type tile", "type ", "type octile2", "typo", "type  octile", "" } do
      assert.are.equal("bad argument #1 to 'navgrid_from_map' (the first line must be 'type octile')",
        error_of(steer.navgrid_from_map, first .. body), first)
    end
  end)
end)

describe("steer.walls_from_tiles", function()
  it("refuses a NaN or infinite tile, naming it", function()
    assert.are.equal("bad argument #1 to 'walls_from_tiles' (tile 1: finite number expected, got nan)",
      error_of(steer.walls_from_tiles, { 0 / 0 }, 1, 1, 1))
    assert.are.equal("bad argument #1 to 'walls_from_tiles' (tile 3: finite number expected, got -inf)",
      error_of(steer.walls_from_tiles, { 0, 1, -math.huge, 0 }, 2, 2, 1))
    -- any other number is still solid when it is not 0
    assert.are.equal(4, #steer.walls_from_tiles({ 0, 1e300 }, 2, 1, 1))
    assert.are.equal(0, #steer.walls_from_tiles({ 0, -0.0 }, 2, 1, 1))
  end)
end)
