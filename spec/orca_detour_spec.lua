-- ORCA's detour (orca = { detour = true }, the default): an agent that other
-- agents hold still for 2 s turns its preferred velocity 60 degrees right
-- for 4 s, then goes its way again for a rest before it can turn again.
-- Checked step by step against a:orca_velocity (the stateless solver) for
-- the preferred velocity the step must have used; standstills that end
-- only with it; agents it must leave alone; snapshots, threads, bad fields.
local steer = require "steer"
local support = require "support"
local near = support.near

local DT, SPEED = 0.25, 2
local COS, SIN = 0.5, math.sqrt(3) / 2 -- 60 degrees

-- seek's preferred velocity for agent a (max_force never binds here):
-- clamp(v + (desired - v) * dt, max_speed)
local function preferred(a, tx, ty)
  local dx, dy = tx - a.x, ty - a.y
  local d = math.sqrt(dx * dx + dy * dy)
  local fx, fy = dx / d * SPEED - a.vx, dy / d * SPEED - a.vy
  local px, py = a.vx + fx * DT, a.vy + fy * DT
  local len = math.sqrt(px * px + py * py)
  if len > SPEED then px, py = px / len * SPEED, py / len * SPEED end
  return px, py
end

-- agent a (orca) heads east for a far target; b, ahead and touching-close,
-- stands still and avoids nothing: a gets almost nowhere
local TX, TY = 1000, 0
local function blocked(detour, threads)
  local world = steer.world{ threads = threads }
  local a = world:add{ x = 0, y = 0, radius = 1, max_speed = SPEED, max_force = 1e6 }
  world:add{ x = 2.1, y = 0, radius = 1, max_speed = 0 }
  local program = steer.program{ { "seek", target = { TX, TY } }, orca = { detour = detour } }
  a:set_behaviors(program)
  return world, a, program
end

-- steps the world once and checks that a's new velocity is the ORCA velocity
-- for its preferred velocity, turned right when `turned`
local function step_checked(world, a, turned, what)
  local px, py = preferred(a, TX, TY)
  if turned then px, py = COS * px + SIN * py, COS * py - SIN * px end
  local ox, oy = a:orca_velocity(px, py, { dt = DT })
  world:step(DT)
  near(a.vx, ox, 1e-9, what .. ": vx")
  near(a.vy, oy, 1e-9, what .. ": vy")
end

describe("orca.detour", function()
  it("turns a held agent 60 degrees right after 2 s, for 4 s, then lets it go its way", function()
    local world, a = blocked(nil) -- the default: on
    -- held from the first step: it wants 0.5 (then v + (2 - v) / 4) and
    -- makes about 0.01 of it; 2 s = 8 steps of 0.25
    for s = 1, 8 do
      step_checked(world, a, false, "held, step " .. s)
      assert.is_true(a.vx < 0.1 * 0.5 and a.vy == 0, "held, step " .. s)
    end
    -- 4 s = 16 steps turned right (south, for an agent heading east)
    for s = 9, 24 do step_checked(world, a, true, "detour, step " .. s) end
    assert.is_true(a.y < -1, "went round to its right")
    -- then its own way again, held or not
    for s = 25, 40 do step_checked(world, a, false, "rest, step " .. s) end
  end)

  it("= false leaves the agent held for good", function()
    local world, a = blocked(false)
    for s = 1, 80 do step_checked(world, a, false, "step " .. s) end
    assert.are.equal(0, a.y)
    assert.is_true(a.x < 0.1)
  end)

  it("starts counting afresh when the agent's program is set again", function()
    local world, a, program = blocked(true)
    for s = 1, 5 do step_checked(world, a, false, "held, step " .. s) end
    a:set_behaviors(program)
    for s = 6, 13 do step_checked(world, a, false, "held again, step " .. s) end
    for s = 14, 20 do step_checked(world, a, true, "detour, step " .. s) end
  end)

  -- two agents head-on along a wall, each heading for a point beside it
  -- past the other: without the detour one shoves the other back for good
  local function corridor(detour, dy)
    local world = steer.world{}
    world:add_wall{ x1 = -20, y1 = 0, x2 = 20, y2 = 0 }
    local a = world:add{ x = -10, y = 1.2, radius = 1, max_speed = 2, max_force = 1e6 }
    local b = world:add{ x = 10, y = 1.2 + dy, radius = 1, max_speed = 2, max_force = 1e6 }
    local function program(tx)
      return { { "arrive", target = { tx, 0.5 }, slowing_radius = 0.5, weight = 4 },
               orca = { time_horizon = 10, neighbor_radius = 15, detour = detour } }
    end
    a:set_behaviors(program(10))
    b:set_behaviors(program(-10))
    for s = 1, 400 do
      world:step(DT)
      if a.x > 9 and b.x < -9 then return s end
    end
  end

  it("ends a standstill of two head-on beside a wall", function()
    for _, dy in ipairs{ 0, 0.01 } do
      assert.is_nil(corridor(false, dy), "without the detour, dy " .. dy)
      local steps = corridor(true, dy)
      assert.is_truthy(steps, "with the detour, dy " .. dy)
      assert.is_true(steps < 200, "with the detour, dy " .. dy)
    end
  end)

  -- a leaves a and b agree step for step
  local function same_paths(wa, a, wb, b, steps)
    for s = 1, steps do
      wa:step(DT); wb:step(DT)
      assert.are.equal(a.x, b.x, "x at step " .. s)
      assert.are.equal(a.y, b.y, "y at step " .. s)
    end
  end

  it("leaves alone an agent that slides slowly along a wall it wants to go through", function()
    -- seek at weight 1 / dt asks for its desired velocity itself: 14.5
    -- degrees off the wall's normal, so it slides at a quarter of its speed,
    -- a sixteenth of its wish along its way (under the tenth that counts as
    -- held); the wall alone holds it so, not the agent nearby
    local function slide(detour)
      local world = steer.world{}
      world:add_wall{ x1 = -50, y1 = 0, x2 = 50, y2 = 0 }
      local a = world:add{ x = 0, y = 1.2, radius = 1, max_speed = 2, max_force = 1e6 }
      world:add{ x = -6, y = 1.2, radius = 1, max_speed = 0 } -- within 10
      a:set_behaviors{ { "seek", target = { 8.06, -30 }, weight = 1 / DT }, orca = { detour = detour } }
      return world, a
    end
    local wa, a = slide(true)
    local wb, b = slide(false)
    same_paths(wa, a, wb, b, 120)
    assert.is_true(a.x > 1, "it slid")
  end)

  it("ends a standstill of two sliding into a block's corner from its two faces", function()
    -- the square (-40..-10) x (10..40); a slides north along its west face
    -- towards (55, 65), b west along its top face towards (-65, -85): each
    -- wants to go through the square, slides at a fraction of its wish, and
    -- they meet at the corner (-40, 40), where each stops the other
    local function corner(detour)
      local world = steer.world{}
      local sq = { { -40, 10 }, { -10, 10 }, { -10, 40 }, { -40, 40 } }
      for k = 1, 4 do
        local p, q = sq[k], sq[k % 4 + 1]
        world:add_wall{ x1 = p[1], y1 = p[2], x2 = q[1], y2 = q[2] }
      end
      local o = { time_horizon = 10, obstacle_time_horizon = 10, neighbor_radius = 15, detour = detour }
      local a = world:add{ x = -41.5, y = 36, radius = 1.5, max_speed = SPEED, max_force = 1e6 }
      a:set_behaviors{ { "arrive", target = { 55, 65 }, slowing_radius = 0.5, weight = 4 }, orca = o }
      local b = world:add{ x = -36, y = 41.5, radius = 1.5, max_speed = SPEED, max_force = 1e6 }
      b:set_behaviors{ { "arrive", target = { -65, -85 }, slowing_radius = 0.5, weight = 4 }, orca = o }
      for _ = 1, 400 do world:step(DT) end
      return a, b
    end
    local a, b = corner(false)
    -- without the detour both stand at the corner for good, touching
    assert.is_true(a.x < -41.4 and a.y > 39 and a.y < 40, "a at the corner")
    assert.is_true(b.y > 41.4 and b.x > -40 and b.x < -39, "b at the corner")
    assert.is_true(math.abs(a.vx) + math.abs(a.vy) < 1e-2, "a stands")
    a, b = corner(true)
    near(a.x, 55, 1e-6, "a arrives: x")
    near(a.y, 65, 1e-6, "a arrives: y")
    near(b.x, -65, 1e-6, "b arrives: x")
    near(b.y, -85, 1e-6, "b arrives: y")
  end)

  it("leaves alone an agent that gets round on its own", function()
    local function round(detour)
      local world = steer.world{}
      local a = world:add{ x = 0, y = 0, radius = 1, max_speed = 2, max_force = 1e6 }
      world:add{ x = 6, y = 0.8, radius = 1, max_speed = 0 }
      a:set_behaviors{ { "seek", target = { 30, 0 } }, orca = { detour = detour } }
      return world, a
    end
    local wa, a = round(true)
    local wb, b = round(false)
    same_paths(wa, a, wb, b, 60)
    assert.is_true(a.x > 10)
  end)

  it("continues from a snapshot taken while held, on a detour or resting", function()
    for _, at in ipairs{ 5, 12, 30 } do
      local world = blocked(true)
      for _ = 1, at do world:step(DT) end
      local copy = steer.restore(world:snapshot())
      for _ = 1, 30 do world:step(DT); copy:step(DT) end
      assert.are.equal(world:snapshot(), copy:snapshot(), "snapshot after step " .. at)
    end
  end)

  it("gives the same steps for threads 1 and 2", function()
    -- 48 agents cross a square past a wall through its middle, and 500 more
    -- stand beside it: a step runs ORCA on two threads from 512 agents on
    local function crowd(threads, detour)
      local world = steer.world{ bounds = { 200, 80 }, cell_size = 8, threads = threads }
      world:add_wall{ x1 = 40, y1 = 30, x2 = 40, y2 = 50 }
      local orca = { time_horizon = 10, neighbor_radius = 15, detour = detour }
      for k = 0, 47 do
        local t = 2 * math.pi * k / 48 + 0.01 * (k % 3)
        local a = world:add{ x = 40 + 30 * math.cos(t), y = 40 + 30 * math.sin(t), radius = 1.5,
                             max_speed = 2, max_force = 1e6 }
        a:set_behaviors{ { "arrive", target = { 40 - 30 * math.cos(t), 40 - 30 * math.sin(t) },
                           slowing_radius = 0.5, weight = 4 }, orca = orca }
      end
      for k = 0, 499 do
        local x, y = 100 + k % 25 * 4, 2 + math.floor(k / 25) * 4
        world:add{ x = x, y = y, radius = 1, max_speed = 2 }:set_behaviors{
          { "arrive", target = { x, y } }, orca = orca }
      end
      for _ = 1, 150 do world:step(DT) end
      return world:snapshot()
    end
    local one = crowd(1)
    assert.are.equal(one, crowd(2))
    assert.are_not.equal(one, crowd(1, false), "some agent took a detour")
  end)

  it("starts after 2 s held at 60 steps a second too", function()
    -- a's preferred velocity is v + f dt: it creeps with v at small steps;
    -- held is judged against what its program asks for over 0.25 s
    for _, dt in ipairs{ 1 / 60, 1 / 240 } do
      local world = steer.world{}
      local a = world:add{ x = 0, y = 0, radius = 1, max_speed = SPEED, max_force = 4 }
      world:add{ x = 2.1, y = 0, radius = 1, max_speed = 0 }
      a:set_behaviors{ { "seek", target = { TX, TY } }, orca = true }
      local t, turned = 0, nil
      while t < 15 and a.x < 5 do
        world:step(dt)
        t = t + dt
        if not turned and a.y < 0 then turned = t end
      end
      assert.is_truthy(turned, "turned, dt " .. dt)
      assert.is_true(turned > 1.9 and turned < 2.2, ("turned at %.3f s, dt %g"):format(turned, dt))
      assert.is_true(a.x >= 5, "got past b, dt " .. dt)
    end
  end)

  it("reads back, and refuses anything but a boolean", function()
    local world = steer.world{}
    local a = world:add{}
    a:set_behaviors{ orca = true }
    assert.is_true(a:behaviors().orca.detour)
    a:set_behaviors{ orca = { detour = false } }
    assert.is_false(a:behaviors().orca.detour)
    assert.has_error(function() steer.program{ orca = { detour = 1 } } end,
      "bad argument #1 to 'program' (orca.detour: boolean expected, got number)")
    assert.has_error(function() a:orca_velocity(1, 0, { detour = "yes" }) end,
      "bad argument #3 to 'orca_velocity' (opts.detour: boolean expected, got string)")
    local vx, vy = a:orca_velocity(1, 0, { detour = false })
    assert.are.equal(1, vx)
    assert.are.equal(0, vy)
  end)

  it("never gives NaN, even for huge numbers or steps", function()
    for _, case in ipairs{ { 1e150, 0.25 }, { 2, 1e150 }, { 2, 1e-300 } } do
      local speed, dt = case[1], case[2]
      local world = steer.world{}
      local a = world:add{ x = 0, y = 0, vx = speed / 4, radius = 1, max_speed = speed, max_force = 1e150 }
      world:add{ x = 2.1, y = 0, radius = 1, max_speed = 0 }
      a:set_behaviors{ { "seek", target = { 1e150, 0 } }, orca = true }
      for s = 1, 40 do
        world:step(dt)
        assert.is_true(a.x == a.x and a.y == a.y and a.vx == a.vx and a.vy == a.vy,
          ("NaN at step %d, speed %g, dt %g"):format(s, speed, dt))
      end
    end
  end)
end)
