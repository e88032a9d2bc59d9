-- orca.settle (docs/API.md 18.1.4): agents sent to one goal come to rest
-- there. Hand cases of the rule, then the crowd of an RTS review's scene.
local steer = require "steer"
local support = require "support"

-- two agents of radius 1, b touching a, both arriving at goal (b's own
-- goal when given), with settle unless told otherwise
local function pair(opts)
  opts = opts or {}
  local world = steer.world{}
  local goal = steer.point(0, 0)
  local function program(target, settle)
    return steer.program{ { "arrive", target = target, weight = 4 }, orca = { settle = settle ~= false } }
  end
  local a = world:add{ x = 0, y = 0, radius = 1, max_speed = 2, max_force = 100 }
  local b = world:add{ x = opts.bx or 2.1, y = 0, radius = 1, max_speed = 2, max_force = 100 }
  a:set_behaviors(program(goal))
  b:set_behaviors(opts.b_program or program(opts.b_goal or goal, opts.b_settle))
  return world, a, b, goal
end

describe("orca settle (18.1.4)", function()
  it("rests an agent on its goal, then one leaning on it, and lets go nearest the new goal first", function()
    local world, a, b, goal = pair()
    assert.is_false(a.settled); assert.is_false(b.settled)
    world:step(0.1)
    assert.is_true(a.settled)      -- on its goal, touching b, which wants it too
    assert.is_false(b.settled)     -- a had not settled as the step began
    assert.are.same({ 0, 0 }, { a.vx, a.vy })
    world:step(0.1)
    assert.is_true(b.settled)      -- leans on a: settled, nearer the goal
    assert.are.same({ 0, 0 }, { b.vx, b.vy })
    local bx = b.x
    for _ = 1, 30 do world:step(0.1) end
    assert.is_true(a.settled and b.settled)
    assert.are.equal(bx, b.x)      -- at rest for good, not creeping in
    goal.x = 30
    world:step(0.1)
    assert.is_true(a.settled); assert.is_false(b.settled)
    world:step(0.1)
    assert.is_false(a.settled); assert.is_false(b.settled)
    assert.is_true(a.vx > 0 and b.vx > 0)
  end)

  it("needs touching bodies that want the same goal, both with settle", function()
    -- b 2.3 from a: beyond 1.1 x the radii's sum
    local world, a, b = pair{ bx = 2.3 }
    world:step(0.1)
    assert.is_false(a.settled)
    -- b's goal 2.5 from a's: farther apart than the two radii
    world, a, b = pair{ b_goal = { 2.5, 0 } }
    for _ = 1, 5 do world:step(0.1) end
    assert.is_false(a.settled); assert.is_false(b.settled)
    -- 1.9 apart: a conflict
    world, a = pair{ b_goal = { 1.9, 0 } }
    world:step(0.1)
    assert.is_true(a.settled)
    -- b's program without settle, or without arrive: neither settles
    world, a, b = pair{ b_settle = false }
    for _ = 1, 5 do world:step(0.1) end
    assert.is_false(a.settled); assert.is_false(b.settled)
    world, a, b = pair{ b_program = steer.program{ { "seek", target = { 0, 0 } }, orca = { settle = true } } }
    for _ = 1, 5 do world:step(0.1) end
    assert.is_false(a.settled); assert.is_false(b.settled)
  end)

  it("aims at an agent's goal where the agent is", function()
    local world = steer.world{}
    local flag = world:add{ x = 0, y = 0, ghost = true }
    local program = steer.program{ { "arrive", target = flag }, orca = { settle = true } }
    local a = world:add{ x = 0.5, y = 0, radius = 1, max_speed = 2, max_force = 100 }
    local b = world:add{ x = 2.6, y = 0, radius = 1, max_speed = 2, max_force = 100 }
    a:set_behaviors(program); b:set_behaviors(program)
    world:step(0.1)
    assert.is_true(a.settled)
    flag.x = 40
    for _ = 1, 3 do world:step(0.1) end
    assert.is_false(a.settled); assert.is_false(b.settled)
  end)

  it("restarts when the program is set, and is off without settle", function()
    local world, a, b = pair()
    world:step(0.1)
    assert.is_true(a.settled)
    a:set_behaviors(a:behaviors())
    assert.is_false(a.settled)
    local plain = steer.world{}
    local c = plain:add{}
    assert.is_false(c.settled)
    c:set_behaviors{ { "arrive", target = { 0, 0 } }, orca = true }
    plain:step(0.1)
    assert.is_false(c.settled)
    assert.is_false(b:behaviors().orca.detour == nil)
    assert.is_true(b:behaviors().orca.settle)
  end)

  it("raises for bad values and writes", function()
    local world = steer.world{}
    local a = world:add{}
    assert.matches("bad argument #1 to 'set_behaviors' %(orca.settle: boolean expected, got number%)",
      support.error_of(a.set_behaviors, a, { orca = { settle = 1 } }))
    assert.matches("unknown field 'orca.setle': did you mean 'orca.settle'%?",
      support.error_of(a.set_behaviors, a, { orca = { setle = true } }))
    assert.matches("field 'settled' of steer.Agent is read%-only",
      support.error_of(function() a.settled = true end))
  end)

  -- the RTS review's "move 60 units to P": radius 7 px, 60-80 px/s
  local function crowd(settle, threads)
    local world = steer.world{ bounds = { 1600, 1000 }, cell_size = 32, seed = 2, threads = threads }
    local units = {}
    local program = steer.program{
      orca = { neighbor_radius = 40, time_horizon = 1, obstacle_time_horizon = 0.5, settle = settle },
      { "arrive", target = { 1100, 500 }, slowing_radius = 60, weight = 4 } }
    for k = 0, 59 do
      units[#units + 1] = world:add{ x = 250 + (k % 8) * 18 + (math.floor(k / 8) % 2) * 9,
        y = 430 + (math.floor(k / 8)) * 18, radius = 7, max_speed = 80 - (k % 4) * 5,
        max_force = 400, program = program }
    end
    return world, units
  end
  local function moving(units)
    local n = 0
    for _, a in ipairs(units) do if a.speed > 5 then n = n + 1 end end
    return n
  end
  local function overlapping(units)
    local n = 0
    for _, a in ipairs(units) do
      for _ in a:neighbors(13) do n = n + 1 end -- centres closer than 14 - 1 px
    end
    return n / 2
  end

  it("brings the crowd at a shared goal to rest, where without it the crowd mills", function()
    local world, units = crowd(true)
    for _ = 1, 20 * 60 do world:step(1 / 60) end
    assert.are.equal(0, moving(units))
    local settled = 0
    for _, a in ipairs(units) do if a.settled then settled = settled + 1 end end
    assert.are.equal(60, settled)
    assert.are.equal(0, overlapping(units))
    local milling, others = crowd(false)
    for _ = 1, 40 * 60 do milling:step(1 / 60) end
    assert.is_true(moving(others) >= 10, moving(others) .. " still moving without settle")
  end)

  it("gives the same bits for any number of threads, and snapshots continue them", function()
    local one, u1 = crowd(true, 1)
    local two = crowd(true, 2)
    for _ = 1, 15 * 60 do one:step(1 / 60); two:step(1 / 60) end
    assert.are.equal(one:snapshot(), two:snapshot())
    local some = 0
    for _, a in ipairs(u1) do if a.settled then some = some + 1 end end
    assert.is_true(some > 0 and some < 60, some .. " settled: the snapshot should catch them settling")
    local copy = steer.restore(one:snapshot())
    local flags = {}
    for a in copy:agents() do flags[#flags + 1] = a.settled end
    local want = {}
    for a in one:agents() do want[#want + 1] = a.settled end
    assert.are.same(want, flags)
    for _ = 1, 120 do one:step(1 / 60); copy:step(1 / 60) end
    assert.are.equal(one:snapshot(), copy:snapshot())
  end)

  it("restores a version 8 snapshot without it", function()
    if not support.fnv then return pending("forging needs 64-bit integers (Lua 5.4, LuaJIT)") end
    local world = pair()
    world:step(0.1)
    local s = support.before_tactics(world:snapshot(), 2) -- as version 9 wrote it
    -- version 9's flags, last: one u32 per program (2), one per agent (2)
    local body = s:sub(1, 8) .. "\8\0\0\0" .. s:sub(13, #s - 8 - 16)
    local old = assert(steer.restore(body .. support.fnv(body)))
    for a in old:agents() do
      assert.is_false(a.settled)
      assert.is_false(a:behaviors().orca.settle)
    end
    -- a settled flag on an agent whose program does not settle is refused
    local bad = s:sub(1, #s - 8 - 4) .. "\2\0\0\0"
    local w, msg = steer.restore(bad .. support.fnv(bad))
    assert.is_nil(w)
    assert.matches("snapshot holds an invalid agent", msg)
  end)
end)
