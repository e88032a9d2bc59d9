-- What an adversarial review found in session 54, each checked the way it
-- was found: points of ray casts read as every other point, polygons
-- without an edge, the messages of iterators and of set_anchor, and
-- steer.formation reading its table raw. (The finalizers inside agent
-- methods, f:members(), add_walls out of memory and tile maps with a side
-- of 0 are in reentrancy_spec, reliability_spec and levels_spec.)
local steer = require "steer"
local support = require "support"
local error_of = support.error_of
local unpack = table.unpack or unpack

describe("review of session 54", function()
  it("world:raycast and line_of_sight read table points as every point is read", function()
    local w = steer.world{}
    w:add_wall{ x1 = 5, y1 = -5, x2 = 5, y2 = 5 }
    -- {x, y} and {x =, y =} both work
    assert.are.equal(0.5, (w:raycast({ 0, 0 }, { x = 10, y = 0 })))
    -- an array missing its [2] is refused, as a:seek refuses it
    assert.matches("bad argument #1 to 'raycast' %(point y: number expected, got nil%)",
      error_of(w.raycast, w, { 0, y = 0 }, { 10, 0 }))
    assert.matches("bad argument #1 to 'raycast' %(point y: number expected, got nil%)",
      error_of(w.raycast, w, { 0 }, { 10, 0 }))
    assert.matches("bad argument #2 to 'raycast' %(point y: finite number expected, got nan%)",
      error_of(w.raycast, w, { 0, 0 }, { 10, 0 / 0 }))
    assert.matches("bad argument #2 to 'line_of_sight' %(point x: number out of range",
      error_of(w.line_of_sight, w, { 0, 0 }, { 2e150, 0 }))
    local a = w:add{}
    assert.matches("bad argument #1 to 'seek' %(point y: number expected, got nil%)",
      error_of(a.seek, a, { 0, y = 0 }))
  end)

  it("add_polygon refuses points that make no edge", function()
    local w = steer.world{}
    for _, pts in ipairs{ { 0, 0, 0, 0 }, { 1, 1, 1, 1, 1, 1 }, { { 2, 3 }, { x = 2, y = 3 } },
                          { 0, 0, 0, 0, closed = false } } do
      assert.matches("bad argument #1 to 'add_polygon' %(every edge has zero length %(the points coincide%)%)",
        error_of(w.add_polygon, w, pts))
    end
    assert.are.equal(0, #w:segments())
    -- one edge of some length is a polygon (its zero-length edges left out)
    local p = w:add_polygon{ 0, 0, 0, 0, 1, 0 }
    assert.are.equal(2, p.edges)
  end)

  it("an iterator of a closed world names the call that made it", function()
    for _, make in ipairs{
      { "agents", function(w) return w:agents() end },
      { "query", function(w) return w:query(0, 0, 10) end },
      { "query_box", function(w) return w:query_box(-5, -5, 5, 5) end },
      { "neighbors", function(w) return w:get(1):neighbors(10) end },
    } do
      local w = steer.world{}
      w:add{}
      w:add{ x = 1 }
      local it = make[2](w)
      w:close()
      assert.matches("the " .. make[1] .. "%(%) iterator: world is closed", error_of(it))
    end
  end)

  it("set_anchor names the coordinate out of range, in either form", function()
    local w = steer.world{}
    local f = steer.formation{ anchor = w:add{}, shape = "line", count = 2 }
    assert.matches("bad argument #1 to 'set_anchor' %(anchor x: number out of range",
      error_of(f.set_anchor, f, 2e150, 0))
    assert.matches("bad argument #2 to 'set_anchor' %(anchor y: finite number expected, got nan%)",
      error_of(f.set_anchor, f, 0, 0 / 0))
    assert.matches("bad argument #2 to 'set_anchor' %(number expected, got string%)",
      error_of(f.set_anchor, f, 0, "a"))
    assert.matches("bad argument #1 to 'set_anchor' %(anchor x: finite number expected, got inf%)",
      error_of(f.set_anchor, f, { 1 / 0, 0 }))
    f:set_anchor(3, 4)
    assert.are.same({ 3, 4 }, { f:anchor() })
  end)

  it("navigation methods, a:flow and world:step name an extra argument", function()
    local nav = steer.navgrid{ width = 8, height = 4 }
    local f = nav:flow(0.5, 0.5)
    local w = steer.world{}
    local a = w:add{}
    -- two goals as four numbers would silently drop the second: goals go in a list
    assert.matches("bad argument #3 to 'flow' %(no argument expected here, got number%)",
      error_of(nav.flow, nav, 0.5, 0.5, 7.5, 3.5))
    assert.matches("bad argument #3 to 'set_goals' %(no argument expected here, got number%)",
      error_of(f.set_goals, f, 7.5, 3.5, 0.5, 0.5))
    assert.matches("bad argument #2 to 'flow' %(no argument expected here, got number%)",
      error_of(nav.flow, nav, { { 0.5, 0.5 }, { 7.5, 3.5 } }, 1))
    for _, c in ipairs{
      { "path", nav, { 0.5, 0.5, 7.5, 3.5, {}, 5 }, 6 },
      { "cell_of", nav, { 0.5, 0.5, 1 }, 3 },
      { "cost", nav, { 1, 1, 2 }, 3 },
      { "set_cost", nav, { 1, 1, 2, 3 }, 4 },
      { "center_of", nav, { 1, 1, 2 }, 3 },
      { "distance", f, { 0.5, 0.5, 1 }, 3 },
      { "direction", f, { { 0.5, 0.5 }, 1 }, 2 },
      { "flow", a, { f, 2, 3 }, 3 },
      { "step", w, { 0.1, 2 }, 2 },
    } do
      local name, self, args, argn = c[1], c[2], c[3], c[4]
      assert.are.equal(("bad argument #%d to '%s' (no argument expected here, got number)"):format(argn, name),
        error_of(self[name], self, unpack(args)))
    end
    -- one goal, and a list of two, still work
    assert.are.equal(0, f:distance(0.5, 0.5))
    local both = nav:flow{ { 0.5, 0.5 }, { 7.5, 3.5 } }
    assert.are.same({ 0, 0 }, { both:distance(0.5, 0.5), both:distance(7.5, 3.5) })
  end)

  it("a smoothed path whose clearance no sight line keeps keeps the grid path's turns", function()
    local nav = steer.navgrid{ width = 10, height = 1 }
    local plain = nav:path(0.5, 0.5, 9.5, 0.5)
    local smoothed = nav:path(0.5, 0.5, 9.5, 0.5, { smooth = true, clearance = 0.6 })
    assert.are.equal(2, #plain)
    assert.are.equal(2, #smoothed) -- cell by cell before: 10 waypoints
    -- an L-shaped corridor: its corner stays
    local l = steer.navgrid{ width = 5, height = 5, cost = {
      1, 1, 1, 1, 1,
      0, 0, 0, 0, 1,
      0, 0, 0, 0, 1,
      0, 0, 0, 0, 1,
      0, 0, 0, 0, 1 } }
    local p = l:path(0.5, 0.5, 4.5, 4.5, { smooth = true, clearance = 0.6 })
    assert.are.equal(3, #p)
    assert.are.same({ 4.5, 0.5 }, { p:point(2) })
  end)

  it("steer.formation reads its table raw: no metamethod runs", function()
    local w = steer.world{}
    local ran = {}
    local def = setmetatable({ anchor = w:add{}, shape = "line" }, {
      __index = function(_, k) ran[#ran + 1] = k; return k == "count" and 3 or nil end })
    -- count lives behind __index only: it is not read
    assert.matches("a shape needs count", error_of(steer.formation, def))
    assert.are.same({}, ran)
    rawset(def, "count", 3)
    local f = steer.formation(def)
    assert.is_number(f:slot(3)) -- three slots
    assert.matches("slot 4 out of range 1..3", error_of(f.slot, f, 4))
    assert.are.same({}, ran)
  end)
end)
