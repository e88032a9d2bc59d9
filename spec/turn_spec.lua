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
    -- atan2(-0, -1) is -pi: the angle still reads pi (found by the fuzzer)
    local back = world:add{ vx = -1, vy = -0.0, angle = pi, turn_velocity = true }
    back:apply(0, 0, 0.1)
    assert.are.equal(pi, back.angle)
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
    -- a tiny force over a subnormal dt leaves a subnormal velocity, (63, 4)
    -- ulps, whose length rounds to 63 ulps: sped up along v / |v| it came
    -- out 1.002 long (libFuzzer); v is measured again scaled up now
    local d = world:add{ min_speed = 1e18, max_speed = 1, max_force = 1e-5 }
    d:apply(83, 5, 3.1491704740669387e-317)
    local speed = math.sqrt(d.vx ^ 2 + d.vy ^ 2)
    assert.is_true(speed <= 1 and speed > 1 - 1e-12, "speed " .. speed)
    assert.is_true(d.vx > 0.99 and d.vy > 0.05, "along the force")
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

  it("a:steering() with dt 0 plans no step: angular entries store no NaN", function()
    -- found by the libFuzzer harness: dt = 0 made the angular part 0 / 0 for an
    -- agent already facing its target; the world could then not be restored
    local world = steer.world{}
    local facing = world:add{ x = 0, y = 0 }                -- still, angle 0: no turn
    facing:set_behaviors{ { "look_where_going" } }
    local turning = world:add{ x = 5, y = 0, vy = 1 }       -- a quarter turn to go
    turning:set_behaviors{ { "look_where_going" }, { "face", target = { 0, 9 } } }
    local spinning = world:add{ x = 9, y = 0, angular_velocity = 2 }
    spinning:set_behaviors{ { "look_where_going" } }
    for _, a in ipairs{ facing, turning, spinning } do
      local fx, fy = a:steering()
      support.all_finite(fx, fy)
    end
    local copy = assert(steer.restore(world:snapshot()))
    world:step(0.1)
    copy:step(0.1)
    assert.are.equal(world:snapshot(), copy:snapshot())
    for _, a in ipairs{ facing, turning, spinning } do
      support.all_finite(a.angle, a.angular_velocity)
    end
  end)
end)

describe("groups, view cones and ghosts", function()
  -- A at the origin, B at (1, 0) in group 1, C at (0, 1.5) in group 0;
  -- one step of 0.1 with forces far below max_force: v = f * 0.1
  local function trio(entry, opts)
    opts = opts or {}
    local world = steer.world{}
    local a = world:add{ max_speed = 100, max_force = opts.max_force or 100 }
    local b = world:add{ x = opts.bx or 1, y = 0, group = 1, ghost = opts.ghost }
    local c = world:add{ x = 0, y = 1.5 }
    a:set_behaviors{ entry }
    world:step(0.1)
    return a, b, c, world
  end

  it("every group counts by default (the textbook's mean)", function()
    local a = trio{ "separation", radius = 2 }
    -- mean of -(1, 0)/1 and -(0, 1.5)/2.25 = (-0.5, -1/3)
    near(-0.05, a.vx, 1e-12)
    near(-1 / 30, a.vy, 1e-12)
  end)

  it("groups = {...} counts only those groups", function()
    local a = trio{ "separation", radius = 2, groups = { 0 } }
    assert.are.equal(0, a.vx)                    -- B (group 1) left out
    near(-0.1 * 1.5 / 2.25, a.vy, 1e-12)
    local a2 = trio{ "cohesion", radius = 2, groups = { 1, 5 } }
    -- cohesion toward B alone: desired (100, 0), f clamped to 100
    near(10, a2.vx, 1e-12)
    assert.are.equal(0, a2.vy)
  end)

  it("a ghost is nobody's neighbor but can be a target", function()
    local a, b, _, world = trio({ "separation", radius = 2 }, { ghost = true })
    assert.are.equal(0, a.vx)
    near(-0.1 * 1.5 / 2.25, a.vy, 1e-12)
    assert.are.equal(true, b.ghost)
    assert.are.equal(1, b.group)                 -- kept while a ghost
    for other in a:neighbors(5) do assert.are_not.equal(b, other) end
    for other in world:query(0, 0, 5) do assert.are_not.equal(b, other) end
    local d = world:add{ x = 3, max_speed = 1, max_force = 10 }
    d:set_behaviors{ { "seek", target = b } }
    world:step(0.1)
    near(-0.1, d.vx, 1e-12)                      -- seeks the ghost at (1, 0)
    b.ghost = false
    local seen = 0
    for other in a:neighbors(5) do seen = seen + (other == b and 1 or 0) end
    assert.are.equal(1, seen)
  end)

  it("fov: a view cone around the facing (angle)", function()
    -- facing +x, 90 degrees: B at (1, 0) is in, C at (0, 1.5) is out
    local a = trio{ "separation", radius = 2, fov = 90 }
    near(-0.1, a.vx, 1e-12)
    assert.are.equal(0, a.vy)
    local world = steer.world{}
    local me = world:add{ angle = math.pi / 2 }  -- facing +y: C is in
    world:add{ x = 1, y = 0 }
    local up = world:add{ x = 0, y = 1.5 }
    local found = {}
    for other in me:neighbors(5, { fov = 90 }) do found[#found + 1] = other end
    assert.are.same({ up }, found)
  end)

  it("world:query and a:neighbors take groups", function()
    local _, b, c, world = trio{ "separation", radius = 2 }
    local found = {}
    for other in world:query(0, 0, 5, { groups = { 1 } }) do found[#found + 1] = other end
    assert.are.same({ b }, found)
    found = {}
    for other in world:query(0, 0, 5, { groups = { 0 }, fov = 90, angle = math.pi / 2 }) do
      found[#found + 1] = other
    end
    assert.are.same({ c }, found)
    assert.matches("bad argument #4 to 'query' %(field 'groups'%[1%]: integer 0..31",
      support.error_of(world.query, world, 0, 0, 5, { groups = { 32 } }))
    assert.matches("entry 1 %('separation'%): groups%[1%] must be an integer 0..31",
      support.error_of(steer.program, { { "separation", radius = 1, groups = { -1 } } }))
    assert.matches("fov must be in %(0, 360%]",
      support.error_of(steer.program, { { "alignment", radius = 1, fov = 400 } }))
  end)
end)

describe("separation falloff", function()
  it("linear: each neighbor pushes max_force (r - d) / r", function()
    local world = steer.world{}
    local a = world:add{ max_speed = 100, max_force = 10 }
    world:add{ x = 1 }
    a:set_behaviors{ { "separation", radius = 2, falloff = "linear" } }
    world:step(0.1)
    near(-0.5, a.vx, 1e-12)                      -- 10 * (2 - 1) / 2 * 0.1
  end)

  it("inverse_square: the mean of -offset / d^3", function()
    local world = steer.world{}
    local a = world:add{ max_speed = 100, max_force = 10 }
    world:add{ x = 2 }
    a:set_behaviors{ { "separation", radius = 4, falloff = "inverse_square" } }
    world:step(0.1)
    near(-0.025, a.vx, 1e-12)                    -- -(2/8) * 0.1
  end)

  it("linear moves a world scaled by any factor the same way", function()
    local function run(s)
      local world = steer.world{ cell_size = 5 * s }
      local agents = {}
      for k = 1, 12 do
        agents[k] = world:add{ x = s * (k % 4) * 0.7, y = s * math.floor(k / 4) * 0.6,
                               vx = s * 0.1 * math.cos(k), vy = s * 0.1 * math.sin(k),
                               max_speed = 2 * s, max_force = 4 * s }
        agents[k]:set_behaviors{ { "separation", radius = 1.5 * s, falloff = "linear" },
                                 { "alignment", radius = 3 * s }, { "cohesion", radius = 3 * s } }
      end
      for _ = 1, 10 do world:step(0.1) end
      return agents
    end
    local one, big = run(1), run(100)
    for k = 1, #one do
      near(100 * one[k].x, big[k].x, 1e-9 * 100)
      near(100 * one[k].vy, big[k].vy, 1e-9 * 100)
    end
  end)

  it("rejects an unknown falloff", function()
    assert.matches("falloff must be 'inverse', 'linear' or 'inverse_square'",
      support.error_of(steer.program, { { "separation", radius = 1, falloff = "cubic" } }))
    assert.matches("unknown parameter 'falloff'",
      support.error_of(steer.program, { { "cohesion", radius = 1, falloff = "linear" } }))
  end)
end)

describe("path following as a corridor", function()
  local line = steer.path{ { 0, 0 }, { 10, 0 } }

  it("does nothing while the prediction stays inside and advances", function()
    local world = steer.world{}
    local a = world:add{ x = 2, y = 0.5, vx = 1, max_force = 10 }
    local fx, fy = a:follow(line, { path_radius = 1, look_ahead = 1 })
    assert.are.equal(0, fx)
    assert.are.equal(0, fy)
  end)

  it("seeks max_speed * look_ahead further along once the prediction leaves", function()
    local world = steer.world{}
    local a = world:add{ x = 2, y = 3, vx = 1, max_force = 10 }
    -- prediction (3, 3) is 3 from the path: seek (2, 0) + 1 along = (3, 0)
    local fx, fy = a:follow(line, { path_radius = 1, look_ahead = 1 })
    near(1 / math.sqrt(10) - 1, fx, 1e-12)
    near(-3 / math.sqrt(10), fy, 1e-12)
  end)

  it("arrives at the end of an open path and keeps inside the corridor", function()
    local world = steer.world{}
    local route = steer.path{ { 0, 0 }, { 20, 0 }, { 20, 20 } }
    local a = world:add{ x = 0, y = 1, max_speed = 2, max_force = 4 }
    a:set_behaviors{ { "follow", path = route, path_radius = 1.5, look_ahead = 0.5 } }
    local worst = 0
    for _ = 1, 800 do
      world:step(0.05)
      -- distance to the path: to segment (0,0)-(20,0) or (20,0)-(20,20)
      local d1 = math.abs(a.y) + math.max(0, a.x - 20, -a.x)
      local d2 = math.abs(a.x - 20) + math.max(0, -a.y, a.y - 20)
      worst = math.max(worst, math.min(d1, d2))
    end
    near(20, a.x, 0.1)
    near(20, a.y, 0.1)
    assert.is_true(worst < 2.5, "stayed near the corridor: " .. worst)
    assert.are.equal(3, a:path_index())
  end)

  -- 'nearest' heads for the end of the segment nearest the agent (session 43:
  -- the nearest waypoint sent an agent beside a replanned path back behind it)
  it("start = 'nearest' picks the end of the nearest segment", function()
    local open = steer.path{ { 0, 0 }, { 10, 0 }, { 10, 10 } }
    local loop = steer.path{ { 0, 0 }, { 10, 0 }, { 10, 10 }, { 0, 10 }, loop = true }
    local one = steer.path{ { 5, 5 } }
    local function start_of(path, x, y, wrap)
      local world = steer.world(wrap and { bounds = { 20, 20 }, wrap = true } or {})
      local a = world:add{ x = x, y = y }
      a:set_behaviors{ { "follow", path = path, start = "nearest" } }
      return a:path_index()
    end
    assert.are.equal(1, start_of(open, -3, 1))    -- before the start of an open path
    assert.are.equal(1, start_of(open, 0, 0))      -- on the start itself
    assert.are.equal(2, start_of(open, 1, 0.5))    -- just past the start, beside segment 1
    assert.are.equal(2, start_of(open, 9, -1))     -- nearest waypoint 2, still segment 1
    assert.are.equal(3, start_of(open, 11, 1))     -- beside segment 2
    assert.are.equal(3, start_of(open, 12, 30))    -- beyond the end
    assert.are.equal(1, start_of(loop, -1, 5))     -- beside the closing segment 4 -> 1
    assert.are.equal(2, start_of(loop, 0.5, -1))   -- a loop has no start: on along segment 1
    assert.are.equal(1, start_of(one, 9, 9))
    -- on a torus 20 wide, (19, 5) is 1 from the closing segment x = 0
    assert.are.equal(1, start_of(loop, 19, 5, true))
    -- the agent then seeks the end of its segment, not the waypoint behind it
    local world = steer.world{}
    local a = world:add{ x = 9.5, y = 2, max_speed = 1, max_force = 10 }
    a:set_behaviors{ { "follow", path = open, start = "nearest" } }
    world:step(0.1)
    near(16, a.vy / a.vx, 1e-9)                    -- toward (10, 10), not back to (10, 0)
  end)

  it("start = k, start = 'nearest' and a:set_path_index choose the waypoint", function()
    local world = steer.world{}
    local square = steer.path{ { 0, 0 }, { 10, 0 }, { 10, 10 }, { 0, 10 }, loop = true }
    local a = world:add{ x = 9, y = 11 }
    a:set_behaviors{ { "follow", path = square, start = 2 } }
    assert.are.equal(2, a:path_index())
    a:set_behaviors{ { "follow", path = square, start = "nearest" } }
    assert.are.equal(4, a:path_index())          -- beside (10, 10) -> (0, 10): on to its end
    a:set_path_index(4)
    assert.are.equal(4, a:path_index())
    world:step(0.1)
    near(0, a.vx / math.abs(a.vx) + 1, 1e-12)    -- heads for (0, 10): left
    assert.matches("waypoint out of range 1..4, got 5", support.error_of(a.set_path_index, a, 5))
    assert.matches("agent follows no path", support.error_of(world:add{}.set_path_index, world:add{}, 1))
    assert.matches("start must be a waypoint number in %[1, 2%^26%] or 'nearest'",
      support.error_of(steer.program, { { "follow", path = square, start = 0 } }))
    local b = world:add{}
    b:follow(square)
    b:set_path_index(3)
    assert.are.equal(3, b:path_index())
  end)
end)

describe("issue 14 in the step", function()
  -- a mixed crowd: groups, view cones, falloffs, ghosts, turning programs
  local function crowd(threads, width)
    steer.testing.simd(width)
    local n, side = 4500, 268
    local world = steer.world{ bounds = { side, side }, wrap = true, seed = 7, threads = threads }
    local sheep = steer.program{ turn = "velocity",
      { "separation", radius = 1.5, weight = 1.5, falloff = "linear" },
      { "alignment", radius = 4, groups = { 0 }, fov = 270 },
      { "cohesion", radius = 4, groups = { 0 } } }
    local wolves = steer.program{ { "separation", radius = 2, groups = { 1 } },
      { "cohesion", radius = 4, fov = 120 }, { "look_where_going" } }
    local grouped = steer.program{ { "separation", radius = 1.5, groups = { 0, 1 } },
      { "alignment", radius = 4, groups = { 0 } }, { "cohesion", radius = 3, groups = { 1 } } }
    local plain = steer.program{ { "separation", radius = 1.5 }, { "alignment", radius = 4 },
      { "cohesion", radius = 4 } }
    for k = 1, n do
      local wolf = k % 9 == 0
      local a = world:add{ x = (k * 7.31) % side, y = (k * 3.77) % side, vx = math.cos(k),
        vy = math.sin(k), max_speed = 2.5, max_force = 4, group = wolf and 1 or 0,
        ghost = k % 97 == 0, max_turn_rate = k % 2 == 0 and 2 or nil, min_speed = k % 5 == 0 and 0.3 or nil,
        turn_velocity = k % 13 == 0 }
      a:set_behaviors(wolf and wolves or k % 4 == 0 and plain or k % 4 == 1 and grouped or sheep)
    end
    for _ = 1, 10 do world:step(0.1) end
    steer.testing.simd()
    return world:snapshot()
  end

  it("is bit-identical across thread counts and SIMD widths", function()
    local base = crowd(1, 1)
    assert.are.equal(base, crowd(2, 0))
    assert.are.equal(base, crowd(1, 2))
    assert.are.equal(base, crowd(3, 4))
  end)

  it("snapshots keep orientation, groups, ghosts and the new entry fields", function()
    local world = steer.world{ seed = 2 }
    local a = world:add{ angle = 1, max_turn_rate = 2, group = 4, ghost = true, min_speed = 0.1 }
    a:set_behaviors{ turn = "velocity", { "wander" }, { "separation", radius = 2, groups = { 4 }, fov = 200,
      falloff = "linear" } }
    local b = world:add{ x = 3, turn_velocity = true, max_turn_rate = 1 }
    b:set_behaviors{ { "follow", path = steer.path{ { 0, 0 }, { 5, 5 }, { 9, 0 } }, path_radius = 1, start = 2 },
      { "face", target = a } }
    for _ = 1, 5 do world:step(0.1) end
    local copy = assert(steer.restore(world:snapshot()))
    for _ = 1, 20 do world:step(0.1); copy:step(0.1) end
    assert.are.equal(world:snapshot(), copy:snapshot())
    local a2 = copy:get(a.id)
    assert.are.equal(4, a2.group)
    assert.are.equal(true, a2.ghost)
    assert.are.equal(2, a2.max_turn_rate)
  end)
end)

describe("steer.point", function()
  it("is one target many programs hold: moving it moves them all", function()
    local world = steer.world{}
    local mouse = steer.point(10, 0)
    local shared = steer.program{ { "seek", target = mouse } }
    local a = world:add{ x = 0, y = 0, max_force = 10 }
    local b = world:add{ x = 0, y = 5, max_force = 10 }
    a:set_behaviors(shared)
    b:set_behaviors{ { "arrive", target = mouse, slowing_radius = 0.1 } }
    world:step(0.1)
    near(0.1, a.vx, 1e-12)                         -- toward (10, 0)
    mouse.x, mouse.y = 0, -10
    assert.are.equal(0, mouse.x)
    assert.are.equal(-10, mouse.y)
    local vx, vy = a.vx, a.vy
    world:step(0.1)
    -- now toward (0, -10): desired (0, -1) - v, clamped to 10, times 0.1
    local dx, dy = 0 - a.x, -10 - a.y
    assert.is_true(a.vy < vy and b.vy < 0, "both turned to the moved point")
    assert.is_true(vx > 0 and dx < 0 and dy < 0)
    assert.matches("steer.SharedPoint %(0.000, %-10.000%)", tostring(mouse))
  end)

  it("validates, survives snapshots and set_target", function()
    local p = steer.point(0, 0)
    assert.are.equal(0, p.x)
    assert.matches("cannot set field 'x' of steer.SharedPoint: number expected",
      support.error_of(function() p.x = "a" end))
    assert.matches("has only the fields x and y", support.error_of(function() p.z = 1 end))
    assert.matches("bad argument #1 to 'point'", support.error_of(steer.point, 0 / 0))
    local world = steer.world{}
    local a = world:add{ max_force = 3 }
    a:set_behaviors{ { "seek", target = { 1, 1 }, tag = "goal" } }
    a:set_target("goal", p)
    p.x, p.y = 4, 0
    local copy = assert(steer.restore(world:snapshot()))
    world:step(0.1); copy:step(0.1)
    assert.are.equal(world:snapshot(), copy:snapshot())
    near(0.1, a.vx, 1e-12)
  end)
end)

describe("issue 14 with main's binding", function()
  it("takes a shared point wherever a point is taken", function()
    local world = steer.world{}
    local p = steer.point(3, 4)
    local a = world:add{ max_speed = 5, max_force = 10 }
    -- seek (3, 4) from rest at max_speed 5: desired velocity (3, 4)
    local fx, fy = a:seek(p)
    assert.are.same({ 3, 4 }, { fx, fy })
    -- the optional radius follows the point as after a table: argument 2
    fx, fy = a:arrive(p, 10)
    assert.are.same({ 1.5, 2 }, { fx, fy })        -- d = 5 of 10: speed 2.5
    -- face: unlimited, it lands on atan2(4, 3) in one step of 0.5 from rest
    near((math.atan2 or math.atan)(4, 3) / 0.5 / 0.5, a:face(p, 0.5), 1e-9)
    assert.matches("number, steer.Agent, steer.SharedPoint, {x, y} or {x =, y =} expected, got boolean",
      support.error_of(a.seek, a, true))
    assert.matches("target must be an agent, a path, a steer.SharedPoint, {x, y} or {x =, y =}, got string",
      support.error_of(a.set_behaviors, a, { { "seek", target = "p" } }))
  end)

  it("knows the new fields: no typo alarm for them, one for their misspellings", function()
    local world = steer.world{}
    -- min_speed is one letter from max_speed, yet a field of its own
    local a = world:add{ min_speed = 1, max_turn_rate = 2, group = 3, ghost = true }
    assert.are.equal(1, a.min_speed)
    a.min_speed = 0.5
    assert.are.equal(0.5, a.min_speed)
    assert.matches("field 'max_turnrate': did you mean 'max_turn_rate'%?",
      support.error_of(world.add, world, { max_turnrate = 1 }))
    assert.matches("field 'minSpeed': did you mean 'min_speed'%?",
      support.error_of(world.add, world, { minSpeed = 1 }))
    assert.matches("cannot set field 'turnVelocity' of steer.Agent: did you mean 'turn_velocity'%?",
      support.error_of(function() a.turnVelocity = true end))
    assert.matches("field 'gruop': did you mean 'group'%?",
      support.error_of(world.add_many, world, { n = 1, gruop = 1 }))
  end)

  it("takes the body fields as add_many columns: one value for all, or an array", function()
    local world = steer.world{}
    assert.are.equal(3, world:add_many{ x = { 1, 2, 3 }, group = { 4, 5, 4 }, angle = 0.5,
      ghost = { true, false, true }, turn_velocity = true, max_turn_rate = { 1, 2, 3 },
      min_speed = 0.25, angular_velocity = -1, max_angular_acceleration = 7 })
    local got = {}
    for a in world:agents() do
      got[#got + 1] = { a.x, a.group, a.angle, a.ghost, a.turn_velocity, a.max_turn_rate,
        a.min_speed, a.angular_velocity, a.max_angular_acceleration }
    end
    table.sort(got, function(p, q) return p[1] < q[1] end)
    assert.are.same({ { 1, 4, 0.5, true, true, 1, 0.25, -1, 7 },
                      { 2, 5, 0.5, false, true, 2, 0.25, -1, 7 },
                      { 3, 4, 0.5, true, true, 3, 0.25, -1, 7 } }, got)
    -- the same as world:add gives each: a ghost is no one's neighbor, a group filters
    local function count(groups)
      local k = 0
      for _ in world:query(2, 0, 5, { groups = groups }) do k = k + 1 end
      return k
    end
    assert.are.equal(0, count{ 4 }) -- agents 1 and 3 are ghosts of group 4
    assert.are.equal(1, count{ 5 })
    -- bad values raise naming the column (and the element), adding nobody
    local n = #world
    assert.matches("field 'group': integer 0..31 expected",
      support.error_of(world.add_many, world, { n = 2, group = 32 }))
    assert.matches("field 'group'%[2%]: integer 0..31 expected",
      support.error_of(world.add_many, world, { x = { 1, 2 }, group = { 1, 1.5 } }))
    assert.matches("field 'ghost'%[1%]: boolean expected, got string",
      support.error_of(world.add_many, world, { x = { 1 }, ghost = { "yes" } }))
    assert.matches("field 'max_turn_rate'%[2%]: non%-negative number expected, got %-1",
      support.error_of(world.add_many, world, { x = { 1, 2 }, max_turn_rate = { 1, -1 } }))
    assert.matches("field 'angle': 1 values, expected 2",
      support.error_of(world.add_many, world, { x = { 1, 2 }, angle = { 1 } }))
    assert.are.equal(n, #world)
  end)

  it("keeps the behaviors after flow: face is 13 in snapshots, targets round-trip", function()
    local world = steer.world{}
    local a = world:add{ x = 1 }
    local b = world:add{ x = 5, angle = 1 }
    a:set_behaviors{ { "face", target = b }, { "match_orientation", target = b },
      { "look_where_going" } }
    local copy = assert(steer.restore(world:snapshot()))
    local names = {}
    for k, e in ipairs(copy:get(a.id):behaviors()) do names[k] = e[1] end
    assert.are.same({ "face", "match_orientation", "look_where_going" }, names)
    world:step(0.1); copy:step(0.1)
    assert.are.equal(world:snapshot(), copy:snapshot())
  end)
end)
