-- ORCA's push (orca = { push = ... }): after a step's moves, overlapping
-- bodies are pushed apart to within 2% of their radii's sum, at most half a
-- radius per agent and step. Hand-computed cases, the torus seam, ghosts,
-- a jammed crowd against plain ORCA, threads, snapshots, bad fields.
local steer = require "steer"
local support = require "support"
local near = support.near

-- agents that stand still (max_speed 0: ORCA leaves them at rest), so that
-- only the push moves them
local function still(world, x, y, radius, program)
  local a = world:add{ x = x, y = y, radius = radius or 1, max_speed = 0, max_force = 10 }
  if program ~= false then
    a:set_behaviors(program or { { "seek", target = { 0, 0 } }, orca = { push = true } })
  end
  return a
end

describe("orca.push", function()
  it("parts an overlapping pair to 98% of the radii's sum, each taking half", function()
    local world = steer.world{}
    local a, b = still(world, 0, 0), still(world, 1, 0)
    world:step(0.25)
    -- keep = 0.98 * 2 = 1.96: depth 0.96, each moves 0.48
    near(a.x, -0.48, 1e-12, "a.x")
    near(b.x, 1.48, 1e-12, "b.x")
    assert.are.equal(0, a.y)
    assert.are.equal(0, b.y)
    assert.are.equal(0, a.vx) -- positions only
    world:step(0.25) -- now within the slop: left alone
    near(a.x, -0.48, 1e-12, "a.x, again")
    near(b.x, 1.48, 1e-12, "b.x, again")
  end)

  it("leaves overlaps within the slop alone", function()
    local world = steer.world{}
    local a, b = still(world, 0, 0), still(world, 1.97, 0)
    world:step(0.25)
    assert.are.equal(0, a.x)
    assert.are.equal(1.97, b.x)
  end)

  it("moves an agent at most half its radius per step", function()
    local world = steer.world{}
    local a, b = still(world, 0, 0), still(world, 0.2, 0)
    world:step(0.25) -- depth 1.76 would take 0.88 each: 0.5 each
    near(a.x, -0.5, 1e-12, "a.x, step 1")
    near(b.x, 0.7, 1e-12, "b.x, step 1")
    world:step(0.25) -- depth 0.76: 0.38 each
    near(a.x, -0.88, 1e-12, "a.x, step 2")
    near(b.x, 1.08, 1e-12, "b.x, step 2")
  end)

  it("coincident agents part along x", function()
    local world = steer.world{}
    local a, b = still(world, 5, 5), still(world, 5, 5)
    world:step(0.25)
    local lo, hi = math.min(a.x, b.x), math.max(a.x, b.x)
    near(lo, 4.5, 1e-12, "left")
    near(hi, 5.5, 1e-12, "right")
    assert.are.equal(5, a.y)
    assert.are.equal(5, b.y)
  end)

  it("sweeps on past the sweeps asked for while a pair is deeper than 3%, up to four times them", function()
    -- a chain at 1.8 (radius 1: keep 1.96) with push = 1. The first sweep
    -- parts A-B (A -0.08, B 1.88), then B-C (B 1.76, C 3.72), which leaves
    -- A-B 0.16 deep (8% of 2): one sweep would end there. The second sweep
    -- meets A-B 0.12 beyond the slop (more than 1% of 2 = 0.02): A -0.14,
    -- B 1.82; B-C: B 1.79, C 3.75. The third meets A-B 0.03 beyond: A
    -- -0.155, B 1.805; B-C: B 1.7975, C 3.7575. The fourth meets A-B 0.0075
    -- and B-C 0.00375 beyond, neither over 0.02: it is the last
    local world = steer.world{}
    local program = { { "seek", target = { 0, 0 } }, orca = { push = 1 } }
    local a, b, c = still(world, 0, 0, 1, program), still(world, 1.8, 0, 1, program),
      still(world, 3.6, 0, 1, program)
    world:step(0.25)
    near(a.x, -0.15875, 1e-12, "a.x")
    near(b.x, 1.799375, 1e-12, "b.x")
    near(c.x, 3.759375, 1e-12, "c.x")
    -- a chain of 12 needs more than four sweeps: push = 1 stops at four
    -- with a pair still 0.19 deep; push = 64 goes on until the ends are at
    -- their half-radius limit and the sweeps no longer gain (PUSH_GAIN):
    -- the first pair 0.1647 deep, the others 0.103-0.104. (Sweeping on,
    -- as before the stall rule, only moved depth back into the first pair:
    -- 1/6 there, 0.1033 elsewhere.)
    local worst, ends = {}, {}
    for _, push in ipairs{ 1, 64 } do
      local w2 = steer.world{}
      local p2 = { { "seek", target = { 0, 0 } }, orca = { push = push } }
      local agents = {}
      for k = 1, 12 do agents[k] = still(w2, (k - 1) * 1.8, 0, 1, p2) end
      w2:step(0.25)
      worst[push] = 0
      for k = 1, 11 do worst[push] = math.max(worst[push], 2 - (agents[k + 1].x - agents[k].x)) end
      ends[push] = { agents[1].x, agents[12].x - 11 * 1.8 }
    end
    assert.is_true(worst[1] > 0.19, "four sweeps at most: " .. worst[1])
    near(worst[64], 0.16473857760984, 1e-9, "push = 64")
    near(ends[64][1], -0.5, 1e-12, "push = 64: the first end at its limit")
    near(ends[64][2], 0.5, 1e-12, "push = 64: the last end at its limit")
  end)

  it("stops sweeping a crowd that cannot part once the sweeps stop gaining", function()
    -- 36 bodies of radius 1 in a 6 x 6 world (room for about 9): no sweep
    -- parts them, and a step sweeping until push ran out cost 2-3x the
    -- sweeps asked for. Within PUSH_WINDOW (8) sweeps of no gain the push
    -- ends: asking for 16, 64 or 256 sweeps moves every body the same
    local function box(push)
      local w = steer.world{ bounds = { 6, 6 } }
      local program = { { "seek", target = { 0, 0 } }, orca = { push = push } }
      local agents = {}
      for k = 0, 35 do
        agents[#agents + 1] = still(w, 0.5 + k % 6 + 0.01 * k, 0.5 + math.floor(k / 6), 1, program)
      end
      w:step(0.25)
      local xy = {}
      for _, a in ipairs(agents) do xy[#xy + 1] = a.x; xy[#xy + 1] = a.y end
      return xy
    end
    local at16 = box(16)
    for _, push in ipairs{ 64, 256 } do
      local xy = box(push)
      for k = 1, #xy do assert.are.equal(at16[k], xy[k], ("push = %d, coordinate %d"):format(push, k)) end
    end
    -- the sweeps it made still parted what they could: bodies moved, inside
    local moved = 0
    for k = 1, 72, 2 do
      local x0 = 0.5 + ((k - 1) / 2) % 6 + 0.01 * ((k - 1) / 2)
      if math.abs(at16[k] - x0) > 0.1 then moved = moved + 1 end
      assert.is_true(at16[k] >= 0 and at16[k] <= 6 and at16[k + 1] >= 0 and at16[k + 1] <= 6)
    end
    assert.is_true(moved >= 20, "bodies moved along x: " .. moved)
  end)

  it("a pair held deep elsewhere does not stop the sweeps that part a chain", function()
    -- the chain of the test above, and far from it a coincident pair in the
    -- world's corner: A is pushed left against the bound, B right to its
    -- half-radius limit (0.5), where both stay 1.46 deep. The sweeps past
    -- the one asked for go on while the deep pairs' depths shrink in sum:
    -- the held pair adds the same each sweep, the chain less and less
    local world = steer.world{ bounds = { 20, 20 } }
    local program = { { "seek", target = { 0, 0 } }, orca = { push = 1 } }
    local pa, pb = still(world, 0, 10, 1, program), still(world, 0, 10, 1, program)
    local a, b, c = still(world, 5, 2, 1, program), still(world, 6.8, 2, 1, program),
      still(world, 8.6, 2, 1, program)
    world:step(0.25)
    near(a.x, 5 - 0.15875, 1e-12, "a.x")
    near(b.x, 6.8 - 0.000625, 1e-12, "b.x")
    near(c.x, 8.6 + 0.159375, 1e-12, "c.x")
    near(math.abs(pb.x - pa.x), 0.5, 1e-12, "the held pair")
  end)

  it("an agent without the push is pushed against, not moved", function()
    for _, other in ipairs{ false, { { "seek", target = { 0, 0 } }, orca = true } } do
      local world = steer.world{}
      local a, b = still(world, 0, 0), still(world, 1.8, 0, 1, other)
      world:step(0.25)
      near(a.x, -0.16, 1e-12, "a takes all the push")
      assert.are.equal(1.8, b.x)
    end
  end)

  it("never pushes a body deeper into a wall than it was", function()
    -- a body without a program (never moved) presses the pusher towards a wall
    -- at x = 10: the push would take it to 9.55 (0.05 into the wall), so it
    -- goes back along its way to touching
    local world = steer.world{}
    world:add_wall{ x1 = 10, y1 = -5, x2 = 10, y2 = 5 }
    still(world, 9.0, 0, 0.5, false)
    local a = still(world, 9.3, 0, 0.5)
    for _ = 1, 3 do
      world:step(0.1)
      assert.is_true(a.x + 0.5 <= 10, "a's body stays out of the wall: " .. a.x)
      near(a.x, 9.5, 1e-3, "a touches the wall")
    end
    -- a corridor's crowd pressed against its end wall: no centre gets past it
    world = steer.world{ cell_size = 2 }
    world:add_wall{ x1 = 10, y1 = -8, x2 = 10, y2 = 8 }
    world:add_wall{ x1 = 10, y1 = 8, x2 = -30, y2 = 8 }
    world:add_wall{ x1 = 10, y1 = -8, x2 = -30, y2 = -8 }
    local crowd = {}
    for k = 0, 149 do
      local b = world:add{ x = -28 + (k % 15) * 2.3, y = -7 + math.floor(k / 15) * 1.4, radius = 0.5,
                           max_speed = 2, max_force = 1e3 }
      b:set_behaviors{ { "seek", target = { 30, 0 } }, orca = { push = true } }
      crowd[#crowd + 1] = b
    end
    for _ = 1, 150 do world:step(0.1) end
    local deepest = 0
    for _, b in ipairs(crowd) do
      deepest = math.max(deepest, b.x + 0.5 - 10, math.abs(b.y) + 0.5 - 8)
    end
    assert.is_true(deepest < 0.05, "deepest into a wall: " .. deepest)
  end)

  it("pushes a body pinned against a wall not at all, its pair the whole way", function()
    -- A touches the wall at x = 0; B overlaps it by 0.46 beyond the slop.
    -- Half of the push would take A into the wall: A stays, and the sweeps
    -- push B on until the pair is 1.96 apart (B moves 0.46, under its limit
    -- of half a radius)
    local world = steer.world{}
    world:add_wall{ x1 = 0, y1 = -10, x2 = 0, y2 = 10 }
    local a, b = still(world, -1, 0), still(world, -2.5, 0)
    world:step(0.1)
    assert.are.equal(-1, a.x)
    assert.are.equal(0, a.y)
    near(b.x, -2.96, 1e-3, "b takes the whole push")
    -- three bodies in a corner (walls x = 0 and y = 0): A touches both, B
    -- and C press on it from the left and from below; neither pair is left
    -- deeper than the slop, A stays
    world = steer.world{}
    world:add_wall{ x1 = 0, y1 = -10, x2 = 0, y2 = 0 }
    world:add_wall{ x1 = -10, y1 = 0, x2 = 0, y2 = 0 }
    a = still(world, -1, -1)
    b = still(world, -2.7, -1.3)
    local c = still(world, -1.3, -2.7)
    world:step(0.1)
    assert.are.equal(-1, a.x)
    assert.are.equal(-1, a.y)
    for _, o in ipairs{ b, c } do
      local d = math.sqrt((o.x - a.x) ^ 2 + (o.y - a.y) ^ 2)
      assert.is_true(d > 1.96 - 2e-3, "pair 1.96 apart, within the sweeps' stop: " .. d)
    end
  end)

  it("lists every pair two half-radius moves can bring together", function()
    -- B and C start 2.41 apart (1.2 times their radii's sum and more); the
    -- pushes of A on B and of D on C bring them 1.41 apart, which the same
    -- pass then parts
    local world = steer.world{}
    local a, b = still(world, 0, 0), still(world, 0.2, 0)
    local c, d = still(world, 2.61, 0), still(world, 2.81, 0)
    world:step(0.1)
    -- unlisted, B and C would end 1.41 apart; A-B and C-D can part only to
    -- 1.2 (half a radius each), and the pushes balance
    assert.is_true(c.x - b.x > 1.6, "B and C parted: " .. (c.x - b.x))
    assert.is_true(b.x - a.x > 0.9 and d.x - c.x > 0.9)
  end)

  it("pairs bodies of every size: a zero radius, a huge one without the push", function()
    for _, first in ipairs{ true, false } do
      local world = steer.world{}
      local a, b
      if first then a = still(world, 0, 0, 0); b = still(world, 0.5, 0, 1)
      else b = still(world, 0.5, 0, 1); a = still(world, 0, 0, 0) end
      world:step(0.25) -- a cannot move (half of radius 0); b goes to 0.98
      assert.are.equal(0, a.x)
      near(b.x, 0.98, 1e-3, "b, zero-radius pusher added " .. (first and "first" or "second"))
    end
    local world = steer.world{}
    still(world, 0, 0, 50, false) -- a wide body without a program
    local a = still(world, 49.5, 0, 1) -- 0.48 deeper than the slop: all its own
    local far = still(world, 1e6, 0, 1) -- nothing near: not moved
    world:step(0.25)
    near(a.x, 49.98, 1e-12, "pushed out of the wide body")
    assert.are.equal(1e6, far.x)
  end)

  it("ghosts have no body", function()
    local world = steer.world{}
    local a = still(world, 0, 0)
    local g = world:add{ x = 1, y = 0, radius = 1, max_speed = 0, ghost = true }
    g:set_behaviors{ { "seek", target = { 0, 0 } }, orca = { push = true } }
    world:step(0.25)
    assert.are.equal(0, a.x)
    assert.are.equal(1, g.x)
  end)

  it("parts pairs across a torus' seam", function()
    local world = steer.world{ bounds = { 20, 20 }, wrap = true }
    local a, b = still(world, 0.2, 10), still(world, 19.6, 10)
    world:step(0.25) -- 0.6 apart across the seam: depth 1.36, capped at 0.5
    near(a.x, 0.7, 1e-12, "a.x")
    near(b.x, 19.1, 1e-12, "b.x")
  end)

  it("keeps a clamped world's agents inside", function()
    local world = steer.world{ bounds = { 20, 20 } }
    local a, b = still(world, 0, 10), still(world, 0.5, 10)
    world:step(0.25)
    assert.is_true(a.x >= 0 and b.x <= 20)
    near(a.x, 0, 0, "a stays on the edge")
    near(b.x, 1, 1e-12, "b moves its half radius")
  end)

  -- 80 agents on a circle of radius 40 heading for the antipodes through
  -- the centre: a jam where ORCA's 3-D fallback lets bodies press in
  local function jam(push, threads, n)
    n = n or 80
    local R = n == 80 and 40 or 24
    local world = steer.world{ bounds = { 100, 100 }, cell_size = 8, threads = threads }
    local agents = {}
    for k = 1, n do
      local t = 2 * math.pi * k / n + 0.001 * (k % 3)
      local a = world:add{ x = 50 + R * math.cos(t), y = 50 + R * math.sin(t), radius = 1.5,
                           max_speed = 2, max_force = 1e6 }
      a:set_behaviors{ { "arrive", target = { 50 - R * math.cos(t), 50 - R * math.sin(t) },
                         slowing_radius = 0.5, weight = 4 },
                       orca = { time_horizon = 10, neighbor_radius = 15, push = push } }
      agents[k] = a
    end
    return world, agents
  end

  -- the deepest overlap of any pair (the world's grid finds the touching ones)
  local function deepest(agents)
    local most = 0
    for _, a in ipairs(agents) do
      for b in a:neighbors(3) do
        local pen = 3 - math.sqrt((a.x - b.x) ^ 2 + (a.y - b.y) ^ 2)
        if pen > most then most = pen end
      end
    end
    return most
  end

  it("keeps a jammed crowd within 0.1 where plain ORCA presses deeper", function()
    local worst = {}
    for _, push in ipairs{ false, true } do
      local world, agents = jam(push)
      local most = 0
      for _ = 1, 200 do
        world:step(0.25)
        most = math.max(most, deepest(agents))
        for _, a in ipairs(agents) do support.all_finite(a.x, a.y, a.vx, a.vy) end
      end
      worst[push] = most
    end
    assert.is_true(worst[false] > 0.2, "plain ORCA jams: " .. worst[false])
    assert.is_true(worst[true] <= 0.1, "with the push: " .. worst[true])
  end)

  it("is bit-identical for any thread count, and snapshots continue it", function()
    local one = jam(true, 1, 600)
    local two = jam(true, 2, 600) -- 512 or more ORCA agents: the step splits
    for _ = 1, 12 do one:step(0.25); two:step(0.25) end
    assert.are.equal(one:snapshot(), two:snapshot())
    local copy = steer.restore(one:snapshot())
    for _ = 1, 6 do one:step(0.25); copy:step(0.25) end
    assert.are.equal(one:snapshot(), copy:snapshot())
    local first
    for a in copy:agents() do first = first or a end
    assert.are.equal(64, first:behaviors().orca.push)
  end)

  it("takes true, false or a number of sweeps; bad values raise naming the field", function()
    local a = steer.world{}:add{}
    local function push_of(orca)
      a:set_behaviors{ orca = orca }
      return a:behaviors().orca.push
    end
    assert.are.equal(64, push_of{ push = true })
    assert.are.equal(0, push_of{ push = false })
    assert.are.equal(3, push_of{ push = 3 })
    assert.are.equal(0, push_of(true))
    local function err(...) return support.error_of(...) end
    assert.matches("orca.push: true, false or an integer in %[0, 256%] expected, got 257",
      err(steer.program, { orca = { push = 257 } }))
    assert.matches("orca.push: true, false or an integer in %[0, 256%] expected, got 1.5",
      err(steer.program, { orca = { push = 1.5 } }))
    assert.matches("orca.push: true, false or an integer in %[0, 256%] expected, got %-1",
      err(steer.program, { orca = { push = -1 } }))
    assert.matches("orca.push: true, false or an integer in %[0, 256%] expected, got string",
      err(steer.program, { orca = { push = "yes" } }))
  end)

  it("parts a pile spawned on one point over a few steps (csrc/orca_push.c PUSH_PILE)", function()
    -- 300 agents on one spot list about 45,000 pairs: the push sweeps them
    -- once a step (not up to 256 times: seconds a step), and the pile still
    -- parts: every body off every other within a second at 60 Hz
    local w = steer.world{ bounds = { 1600, 1000 } }
    w:add_many({ n = 300, x = 800, y = 500, radius = 7, max_speed = 80, max_force = 400 },
      steer.program{ orca = { neighbor_radius = 30, push = true },
                     { "arrive", target = { 800, 500 }, slowing_radius = 40 } })
    local function deepest()
      local pos, n = w:positions()
      local worst = 0
      for i = 1, n do
        for j = i + 1, n do
          local d = math.sqrt((pos[2 * i - 1] - pos[2 * j - 1]) ^ 2 + (pos[2 * i] - pos[2 * j]) ^ 2)
          worst = math.max(worst, 14 - d)
        end
      end
      return worst
    end
    w:step(1 / 60)
    local first = deepest()
    for _ = 1, 59 do w:step(1 / 60) end
    local later = deepest()
    for a in w:agents() do support.all_finite(a.x, a.y, a.vx, a.vy) end
    assert.is_true(first > 1, "one sweep leaves the pile deep after its first step: " .. first)
    assert.is_true(later < 0.5, "parted within a second (overlap " .. later .. " px of 14)")
  end)

  it("never makes NaN: coincident crowds, huge numbers, zero radii", function()
    local world = steer.world{}
    for _ = 1, 5 do still(world, 1e150, -1e150, 1e150) end
    for _ = 1, 5 do still(world, 3, 3, 0) end
    for _ = 1, 5 do still(world, 3, 3, 1) end
    for _ = 1, 3 do world:step(0.25) end
    for a in world:agents() do support.all_finite(a.x, a.y, a.vx, a.vy) end
  end)
end)
