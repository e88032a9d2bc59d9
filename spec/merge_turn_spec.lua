-- Where issue 14 (facing, groups, ghosts, steer.point) meets issues 13 and
-- 15: avoid_agents takes an entry's groups and view cone, ORCA and
-- avoid_agents never count ghosts, tactics accept a steer.point wherever
-- they accept a point (a formation retains its anchor point).
local steer = require "steer"
local support = require "support"
local vec_near = support.vec_near

local SQRT96 = math.sqrt(96)

local function eq(what, ex, ey, fx, fy) vec_near(fx, fy, ex, ey, 1e-12, what) end

describe("avoidance and issue 14's neighbor rules", function()
  -- A at the origin moving (1, 0), B at (10, 0) moving (-1, 0), radii 1
  local function head_on(b_def)
    local world = steer.world{}
    local a = world:add{ x = 0, y = 0, vx = 1, radius = 1, max_speed = 2, max_force = 100 }
    local def = { x = 10, y = 0, vx = -1, radius = 1, max_speed = 2, max_force = 100 }
    for k, v in pairs(b_def or {}) do def[k] = v end
    return world, a, world:add(def)
  end

  it("orca ignores a ghost: the velocity is the preferred one", function()
    local _, a = head_on{ ghost = true }
    -- without B nothing constrains (1, 0) (orca_spec's leg case: with B
    -- the velocity turns onto the leg, (0.92, -0.04 sqrt 96))
    local vx, vy = a:orca_velocity(1, 0, { time_horizon = 5 })
    assert.are.equal(1, vx); assert.are.equal(0, vy)
    local _, a2 = head_on()
    vx, vy = a2:orca_velocity(1, 0, { time_horizon = 5, margin = 0 })
    eq("not a ghost", 0.92, -0.04 * SQRT96, vx, vy)
  end)

  it("avoid_agents ignores ghosts, and its entry filters by groups and fov", function()
    local _, a, b = head_on()
    local fx, fy = a:avoid_agents(3, 20)
    assert.is_true(fx < 0)                      -- B pushes A back
    assert.is_true(fy < 0)                      -- and to its right (head-on)
    a:set_behaviors{ { "avoid_agents", time_horizon = 3, radius = 20 } }
    eq("entry = method", fx, fy, a:steering())
    b.ghost = true
    assert.are.same({ 0, 0 }, { a:avoid_agents(3, 20) })
    assert.are.same({ 0, 0 }, { a:steering() })
    b.ghost = false
    b.group = 1
    a:set_behaviors{ { "avoid_agents", time_horizon = 3, radius = 20, groups = { 0 } } }
    assert.are.same({ 0, 0 }, { a:steering() })        -- B is in group 1
    a:set_behaviors{ { "avoid_agents", time_horizon = 3, radius = 20, groups = { 1 } } }
    eq("group 1 counts", fx, fy, a:steering())
    -- a 90 degree cone around the facing: B ahead counts, behind it does not
    a:set_behaviors{ { "avoid_agents", time_horizon = 3, radius = 20, fov = 90 } }
    eq("ahead", fx, fy, a:steering())
    a.angle = math.pi
    assert.are.same({ 0, 0 }, { a:steering() })
  end)
end)

describe("tactics and steer.point", function()
  it("offset_pursuit: a shared point leader, as method and entry", function()
    local w = steer.world{}
    local p = steer.point(1, 1)
    local e = w:add{ x = 2, y = 5, max_speed = 2, max_force = 10 }
    -- W = (1, 1) + (1, 0) = (2, 1): e = (0, -4): desired (0, -2)
    eq("method", 0, -2, e:offset_pursuit(p, 1, 0))
    e:set_behaviors{ { "offset_pursuit", target = p, offset = { 1, 0 } } }
    eq("entry", 0, -2, e:steering())
    p.x, p.y = 1, 9                               -- W = (2, 9): e = (0, 4)
    eq("moved", 0, 2, e:steering())
    local t = e:behaviors()[1].target               -- a handle of the same point
    assert.is_truthy(tostring(t):find("SharedPoint", 1, true))
    p.x = 3
    assert.are.same({ 3, 9 }, { t.x, t.y })
  end)

  it("interpose between an agent and a shared point", function()
    local w = steer.world{}
    local p = steer.point(4, 0)
    local a = w:add{ x = 0, y = 0 }
    local g = w:add{ x = 2, y = 3, max_speed = 2, max_force = 10 }
    g:set_behaviors{ { "interpose", between = { a, p } } }
    local mx, my = g:interpose(a, p)
    eq("entry = method", mx, my, g:steering())
    -- both at rest: the midpoint (2, 0); e = (0, -3), |e| >= 2: desired (0, -2)
    eq("toward the midpoint", 0, -2, g:steering())
    local between = g:behaviors()[1].between
    assert.are.equal(a, between[1])
    p.y = 0.5                                     -- between[2] is p itself
    assert.are.same({ 4, 0.5 }, { between[2].x, between[2].y })
    p.y = 0
    g:set_target(1, p, a)
    eq("retargeted", 0, -2, g:steering())
  end)

  it("a formation anchored at a shared point follows it and keeps it alive", function()
    local w = steer.world{}
    local p = steer.point(10, 0)
    local f = steer.formation{ anchor = p, world = w, shape = "line", count = 3, spacing = 2 }
    eq("slot 1 at (10, 0) - (2, -2)", 8, 2, f:slot_position(1))
    p.x = 20
    eq("moved with the point", 18, 2, f:slot_position(1))
    p = nil
    collectgarbage("collect"); collectgarbage("collect")
    eq("retained", 18, 2, f:slot_position(1))
  end)
end)
