-- f:set_anchor and f:anchor (docs/API.md 17.3): a formation moved onto a new
-- leader when its own dies, and the errors a method-only type gives when a
-- field is assigned (`f.anchor = x`).
local steer = require "steer"

local function near(a, b, what)
  if math.abs(a - b) > 1e-9 then
    error(("%s: expected %.17g, got %.17g"):format(what, b, a), 2)
  end
end

local function slot_at(f, k, x, y)
  local sx, sy = f:slot_position(k)
  near(sx, x, "slot " .. k .. " x")
  near(sy, y, "slot " .. k .. " y")
end

describe("f:set_anchor (17.3)", function()
  it("moves the slots onto a new anchor agent, turned by its angle", function()
    local w = steer.world{}
    local leader = w:add{ x = 0, y = 0 }
    local f = steer.formation{ anchor = leader, slots = { { -2, 0 }, { -2, 1 } } }
    assert.equal(leader, f:anchor())
    slot_at(f, 1, -2, 0)
    local next = w:add{ x = 10, y = 5, angle = math.pi / 2 }  -- facing +y
    f:set_anchor(next)
    assert.equal(next, f:anchor())
    -- (x ahead, y left) in a frame facing +y: ahead (0, 1), left (-1, 0)
    slot_at(f, 1, 10, 3)
    slot_at(f, 2, 9, 3)
  end)

  it("takes a point in every form, and a shared point live", function()
    local w = steer.world{}
    local leader = w:add{ x = 0, y = 0 }
    local f = steer.formation{ anchor = leader, slots = { { -2, 0 } } }
    f:set_anchor(4, 5)
    local x, y = f:anchor()
    assert.are.same({ 4, 5 }, { x, y })
    slot_at(f, 1, 2, 5)                 -- a point faces +x
    f:set_anchor{ 1, 2 }
    slot_at(f, 1, -1, 2)
    f:set_anchor{ x = 3, y = -1 }
    slot_at(f, 1, 1, -1)
    local p = steer.point(7, 7)
    f:set_anchor(p)
    p.x = 8
    x, y = f:anchor()
    assert.are.same({ 8, 7 }, { x, y })
    slot_at(f, 1, 6, 7)
  end)

  it("keeps the members' slots, and the members follow the new leader", function()
    local w = steer.world{}
    local leader = w:add{ x = 0, y = 0 }
    local f = steer.formation{ anchor = leader, slots = { { -2, 1 }, { -2, -1 } } }
    local m = {}
    for k = 1, 2 do
      m[k] = w:add{ x = -2, y = k == 1 and 1 or -1, max_speed = 3, max_force = 6 }
      m[k]:set_behaviors{ { "formation", formation = f } }
    end
    assert.equal(1, f:slot_of(m[1]))
    w:remove(leader)                    -- the leader dies: no slot anywhere
    assert.is_nil(f:slot_position(1))
    local captain = w:add{ x = 20, y = 0 }
    f:set_anchor(captain)
    assert.equal(1, f:slot_of(m[1]))    -- kept
    assert.equal(2, f:slot_of(m[2]))
    for _ = 1, 300 do w:step(0.05) end  -- 15 s: they walk 22 units at most 3
    for k = 1, 2 do
      local sx, sy = f:slot_position(k)
      local d = math.sqrt((m[k].x - sx) ^ 2 + (m[k].y - sy) ^ 2)
      assert.is_true(d < 0.05, ("member %d is %.3f from its slot"):format(k, d))
    end
    assert.equal(2, f:reassign())
  end)

  it("refuses a member, another world's agent, a removed agent and garbage, changing nothing", function()
    local w = steer.world{}
    local leader = w:add{ x = 0, y = 0 }
    local f = steer.formation{ anchor = leader, slots = { { -2, 0 } } }
    local m = w:add{ x = -2, y = 0 }
    m:set_behaviors{ { "formation", formation = f } }
    local function refused(pattern, ...)
      local ok, err = pcall(f.set_anchor, f, ...)
      assert.is_false(ok)
      assert.matches(pattern, err)
      assert.equal(leader, f:anchor())
    end
    refused("bad argument #1 to 'set_anchor' %(the agent is a member of this formation", m)
    local other = steer.world{}:add{ x = 0, y = 0 }
    refused("bad argument #1 to 'set_anchor' %(anchor belongs to another world%)", other)
    local gone = w:add{ x = 1, y = 1 }
    w:remove(gone)
    refused("removed", gone)
    refused("bad argument #1 to 'set_anchor' %(steer.Agent, steer.SharedPoint, {x, y}, {x =, y =} or x, y expected, got string%)", "x")
    refused("bad argument #2 to 'set_anchor' %(number expected, got no value%)", 1)
    refused("bad argument #3 to 'set_anchor' %(no argument expected here", 1, 2, 3)
    refused("out of range", 1e300, 0)
    refused("bad argument #1 to 'set_anchor' %(anchor y: number expected, got nil%)", { 1 })
    refused("bad argument #1 to 'set_anchor' %(.* expected, got nil%)", nil)
  end)
end)

describe("assigning a field of a type of methods only", function()
  it("names the type and the setter when there is one", function()
    local w = steer.world{}
    local a = w:add{ x = 0, y = 0 }
    local f = steer.formation{ anchor = a, slots = {} }
    local ok, err = pcall(function() f.anchor = a end)
    assert.is_false(ok)
    assert.matches("cannot set field 'anchor' of steer.Formation: it has no fields; call :set_anchor%(...%)", err)
    ok, err = pcall(function() f.spacing = 3 end)
    assert.matches("cannot set field 'spacing' of steer.Formation: it has no fields %(its methods", err)
    local nav = steer.navgrid{ width = 2, height = 2, cell_size = 1 }
    for name, o in pairs{ ["steer.World"] = w, ["steer.Path"] = steer.path{ { 0, 0 }, { 1, 0 } },
                          ["steer.NavGrid"] = nav, ["steer.FlowField"] = nav:flow(0.5, 0.5),
                          ["steer.Program"] = steer.program{ { "wander" } } } do
      ok, err = pcall(function() o.cell_size = 1 end)
      assert.is_false(ok)
      assert.matches("cannot set field 'cell_size' of " .. name:gsub("%.", "%%.") .. ": it has no fields", err)
      ok, err = pcall(function() o[1] = 1 end)
      assert.matches("cannot set a number key of " .. name:gsub("%.", "%%."), err)
    end
    -- the hint names a setter only where the type has one
    ok, err = pcall(function() f.fit = false end)
    assert.matches("call :set_fit%(...%)", err)
    ok, err = pcall(function() nav.cost = 0 end)
    assert.matches("call :set_cost%(...%)", err)
  end)
end)
