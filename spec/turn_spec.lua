-- issue 14: orientation and turn rates, groups and view cones, ghosts,
-- corridors, separation falloff, shared points. Expected values are worked
-- out by hand in the comments.
local steer = require "steer"
local support = require "support"
local near = support.near
local pi = math.pi

describe("orientation", function()
  it("keeps angle in (-pi, pi], taking the short way round", function()
    local world = steer.world{}
    local a = world:add{}
    assert.are.equal(0, a.angle)                 -- default
    a.angle = 3 * pi / 2
    near(-pi / 2, a.angle, 1e-12)
    a.angle = -pi
    assert.are.equal(pi, a.angle)                -- -pi itself maps to pi
    a.angle = 7
    near(7 - 2 * pi, a.angle, 1e-12)
    a.angle = 1e150                              -- huge: still an angle
    assert.is_true(a.angle > -pi and a.angle <= pi)
    assert.are.equal(steer.limit, a.max_turn_rate)              -- unlimited
    assert.are.equal(steer.limit, a.max_angular_acceleration)
    assert.are.equal(0, a.min_speed)
    assert.are.equal(false, a.turn_velocity)
    local b = world:add{ angle = 4, group = 3, turn_velocity = true, min_speed = 0.2 }
    near(4 - 2 * pi, b.angle, 1e-12)
    assert.are.equal(3, b.group)
    assert.are.equal(true, b.turn_velocity)
    assert.are.equal(0.2, b.min_speed)
  end)

  it("face: unlimited turns reach the target angle in one step", function()
    local world = steer.world{}
    local a = world:add{}
    -- (0, 1) lies at pi/2: wanted omega = (pi/2)/0.1, alpha = omega/0.1
    local alpha = a:face(0, 1, 0.1)
    near(50 * pi, alpha, 1e-9)
    a:apply(0, 0, 0.1, alpha)
    near(5 * pi, a.angular_velocity, 1e-9)
    near(pi / 2, a.angle, 1e-12)
  end)

  it("face: max_turn_rate limits each step to rate * dt", function()
    local world = steer.world{}
    local a = world:add{ max_turn_rate = 1 }
    local alpha = a:face(0, 1, 0.1)           -- (1 - 0) / 0.1
    near(10, alpha, 1e-12)
    a:apply(0, 0, 0.1, alpha)
    near(1, a.angular_velocity, 1e-12)
    near(0.1, a.angle, 1e-12)
    a:apply(0, 0, 0.1, a:face(0, 1, 0.1))     -- already at full rate: alpha 0
    near(0.2, a.angle, 1e-12)
  end)

  it("face: the angle difference takes the short way across pi", function()
    local world = steer.world{}
    -- from 3.0 toward -3.0: the short way is +0.2832 (through pi), not -6
    local a = world:add{ angle = 3, max_turn_rate = 1 }
    local tx, ty = math.cos(-3), math.sin(-3)
    assert.is_true(a:face(tx, ty, 0.1) > 0)
    a:apply(0, 0, 0.1, a:face(tx, ty, 0.1))
    near(3.1, a.angle, 1e-12)
    a:apply(0, 0, 0.1, a:face(tx, ty, 0.1))
    near(3.2 - 2 * pi, a.angle, 1e-12)           -- wrapped past pi
    local b = world:add{ angle = 3 }               -- unlimited: lands on -3
    b:apply(0, 0, 0.1, b:face(tx, ty, 0.1))
    near(-3, b.angle, 1e-9)
  end)

  it("a zero turn rate never turns; a zero velocity brakes look_where_going", function()
    local world = steer.world{}
    local a = world:add{ max_turn_rate = 0 }
    assert.are.equal(0, a:face(0, 1, 0.1))
    for _ = 1, 5 do a:apply(0, 0, 0.1, a:face(0, 1, 0.1)) end
    assert.are.equal(0, a.angle)
    local b = world:add{ angular_velocity = 2 }      -- still, spinning at 2
    near(-20, b:look_where_going(0.1), 1e-12)        -- (0 - 2) / 0.1
    b:apply(0, 0, 0.1, b:look_where_going(0.1))
    assert.are.equal(0, b.angular_velocity)
    local c = world:add{ vx = 0, vy = -1 }           -- moving down: -pi/2
    near(-50 * pi, c:look_where_going(0.1), 1e-9)
    assert.are.equal(0, world:add{}:look_where_going(0.1))  -- still: nothing
  end)

  it("max_angular_acceleration limits alpha and brakes in time", function()
    local world = steer.world{}
    local a = world:add{ max_angular_acceleration = 2 }
    assert.are.equal(2, a:face(0, 1, 0.1))       -- clamped to 2
    -- close to the target: omega = sqrt(2 * 2 * 0.01) = 0.2 at most
    a.angle = pi / 2 - 0.01
    a.angular_velocity = 1
    near((0.2 - 1) / 0.1 < -2 and -2 or (0.2 - 1) / 0.1, a:face(0, 1, 0.1), 1e-12)
  end)

  it("match_orientation turns toward another agent's angle", function()
    local world = steer.world{}
    local a = world:add{ max_turn_rate = 2 }
    local b = world:add{ x = 5, angle = -1 }
    near(-20, a:match_orientation(b, 0.1), 1e-12)    -- (-2 - 0) / 0.1
  end)

  it("a program moves and turns at once (gdx-ai#15: neither cancels the other)", function()
    local world = steer.world{}
    local a = world:add{ max_speed = 1, max_force = 10, max_turn_rate = 1 }
    a:set_behaviors{ { "seek", target = { 10, 0 } }, { "face", target = { 0, 10 } } }
    world:step(0.1)
    -- seek: desired (1, 0), force (1, 0): v = (0.1, 0); face: omega 1
    near(0.1, a.vx, 1e-12)
    assert.are.equal(0, a.vy)
    near(0.1, a.angle, 1e-12)
    -- priority: the face entry does not win over the linear one
    local b = world:add{ max_speed = 1, max_force = 10, max_turn_rate = 1 }
    b:set_behaviors{ combine = "priority", { "face", target = { 0, 10 } },
                     { "seek", target = { 10, 0 } } }
    world:step(0.1)
    near(0.1, b.vx, 1e-12)
    near(0.1, b.angle, 1e-12)
  end)

  it("turn = 'velocity' makes the angle follow the velocity within the limits", function()
    local world = steer.world{}
    local a = world:add{ max_turn_rate = 1 }
    a:set_behaviors{ turn = "velocity", { "seek", target = { 0, 10 } } }
    world:step(0.1)
    -- v = (0, 0.1) points at pi/2; at rate 1 the angle moves 0.1
    near(0.1, a.vy, 1e-12)
    near(0.1, a.angle, 1e-12)
    for _ = 1, 30 do world:step(0.1) end
    near(pi / 2, a.angle, 1e-9)                   -- arrived, and stays
    assert.matches("turn must be 'velocity'",
      support.error_of(a.set_behaviors, a, { turn = "sideways", { "wander" } }))
  end)

  it("turn_velocity: a vehicle's velocity turns at most max_turn_rate * dt", function()
    local world = steer.world{}
    local car = world:add{ vx = 1, max_speed = 1, max_force = 10, max_turn_rate = 1,
                           turn_velocity = true }
    car:apply(0, 10, 0.1)
    -- unlimited, v would be (1, 1) clamped to (0.7071, 0.7071), at pi/4;
    -- limited, it turns 0.1 from the facing 0, keeping speed 1
    near(math.cos(0.1), car.vx, 1e-12)
    near(math.sin(0.1), car.vy, 1e-12)
    near(0.1, car.angle, 1e-12)
    near(1, car.angular_velocity, 1e-12)
    near(0.1 * math.cos(0.1), car.x, 1e-12)
    local stuck = world:add{ vx = 1, max_force = 10, max_turn_rate = 0, turn_velocity = true }
    for _ = 1, 10 do stuck:apply(0, 10, 0.1) end
    assert.are.equal(0, stuck.vy)                 -- rate 0: never turns
    local still = world:add{ max_force = 10, max_turn_rate = 1, turn_velocity = true }
    still:apply(0, 10, 0.1)                       -- from rest, along its angle 0 +- 0.1
    near(0.1, still.angle, 1e-12)
    near(math.cos(0.1) * 1, still.vx / math.sqrt(still.vx ^ 2 + still.vy ^ 2), 1e-12)
  end)

  it("min_speed keeps a moving agent from stalling, not one at rest", function()
    local world = steer.world{}
    local a = world:add{ vx = 0.1, min_speed = 0.5 }
    a:apply(0, 0, 0.1)
    near(0.5, a.vx, 1e-12)
    near(0.05, a.x, 1e-12)
    local b = world:add{ min_speed = 0.5 }
    b:apply(0, 0, 0.1)
    assert.are.equal(0, b.vx)
    local c = world:add{ vx = 0.1, min_speed = 5, max_speed = 2 }
    c:apply(0, 0, 0.1)
    near(2, c.vx, 1e-12)                          -- never past max_speed
  end)

  it("rejects bad values with the field named", function()
    local world = steer.world{}
    local a = world:add{}
    assert.matches("field 'max_turn_rate'.*non%-negative number expected", support.error_of(function() a.max_turn_rate = -1 end))
    assert.matches("field 'group'.*integer 0..31", support.error_of(function() a.group = 32 end))
    assert.matches("field 'ghost'.*boolean expected", support.error_of(function() a.ghost = 1 end))
    assert.matches("field 'angle'", support.error_of(world.add, world, { angle = "x" }))
    assert.matches("bad argument #3 to 'face'", support.error_of(a.face, a, 1, 2, 0))
    assert.matches("bad argument #4 to 'apply'", support.error_of(a.apply, a, 0, 0, 0.1, 0 / 0))
    assert.matches("entry 1 %('match_orientation'%): target must be an agent",
      support.error_of(a.set_behaviors, a, { { "match_orientation", target = { 1, 2 } } }))
  end)

  it("huge numbers give no NaN", function()
    local world = steer.world{}
    local a = world:add{ angular_velocity = 1e150, max_turn_rate = 1e150, max_speed = 1e150,
                         max_force = 1e150, vx = 1e150, min_speed = 1e150, turn_velocity = true }
    for _ = 1, 3 do a:apply(1e150, -1e150, 1e150, 1e150) end
    a:apply(1, 1, 1e-300, a:face(-1e150, 1e150, 1e-300))
    support.all_finite(a.x, a.y, a.vx, a.vy, a.angle, a.angular_velocity)
  end)
end)
