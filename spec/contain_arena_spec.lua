-- contain: the force (zero or max_force long) and a crowd kept in an arena by
-- { combine = "priority", { "contain", region = ... }, { "wander" } }.
--
-- The force, for an agent at p with velocity v and max_force F:
--   outside the region (even-odd): F toward the nearest boundary point;
--   else, when the feeler from p along v, of length
--   r = max(feeler_length, |v|^2 / F) (twice the distance F stops it in),
--   crosses an edge: F from the feeler's tip toward the nearest point of the
--   first edge crossed; else (0, 0).
local steer = require "steer"
local support = require "support"

local near, all_finite = support.near, support.all_finite
local R2 = math.sqrt(2)

local function agent(def)
  local w = steer.world{}
  return w:add(def), w
end

describe("contain's force", function()
  local box = { 0, 0, 10, 10 }

  it("is max_force along the normal when the feeler leaves a side, whatever the overshoot", function()
    -- the tip (11, 5) is 1 past x = 10 and (12.9, 5) is 2.9 past: the same push
    assert.are.same({ -1, 0 }, { agent{ x = 8, y = 5, vx = 1 }:contain(box) })
    assert.are.same({ -2.5, 0 }, { agent{ x = 8, y = 5, vx = 1, max_force = 2.5 }:contain(box) })
    assert.are.same({ -2.5, 0 }, { agent{ x = 9.9, y = 5, vx = 1, max_force = 2.5 }:contain(box) })
    -- the feeler (3 long) ends at x = 9.5: nothing to do yet
    assert.are.same({ 0, 0 }, { agent{ x = 6.5, y = 5, vx = 1, max_force = 2.5 }:contain(box) })
    -- heading up at (5, 8): the top side, pushed down
    assert.are.same({ 0, -2 }, { agent{ x = 5, y = 8, vy = 1, max_force = 2 }:contain(box) })
    -- heading along a side, or inward, crosses nothing
    assert.are.same({ 0, 0 }, { agent{ x = 5, y = 9.99, vx = 1 }:contain(box, 3) })
    assert.are.same({ 0, 0 }, { agent{ x = 9.99, y = 5, vx = -1 }:contain(box, 3) })
  end)

  it("reaches at least |v|^2 / max_force ahead, twice the stopping distance", function()
    -- at (5, 5) going 4 to the right the side x = 10 is 5 ahead: feeler 3, but
    -- max_force 1 needs 8 to stop, so the feeler reaches 16 and sees it
    assert.are.same({ -1, 0 }, { agent{ x = 5, y = 5, vx = 4, max_speed = 4 }:contain(box, 3) })
    -- max_force 3.1: reach 16 / 3.1 = 5.16 >= 5; max_force 3.3: 4.85 < 5
    assert.are.same({ -3.1, 0 }, { agent{ x = 5, y = 5, vx = 4, max_speed = 4, max_force = 3.1 }:contain(box, 3) })
    assert.are.same({ 0, 0 }, { agent{ x = 5, y = 5, vx = 4, max_speed = 4, max_force = 3.3 }:contain(box, 3) })
    -- a longer feeler_length still counts
    assert.are.same({ -3.3, 0 }, { agent{ x = 5, y = 5, vx = 4, max_speed = 4, max_force = 3.3 }:contain(box, 5) })
  end)

  it("brakes along both sides when the feeler's tip passes a corner", function()
    -- (9, 8) going (3, 4): reach max(3, 25 / 5) = 5, tip (12, 12), first crossing
    -- x = 10 at (10, 9.33); the side's nearest point to the tip is the corner
    -- (10, 10): F (-2, -2) / |(-2, -2)|
    local fx, fy = agent{ x = 9, y = 8, vx = 3, vy = 4, max_speed = 5, max_force = 5 }:contain(box)
    near(fx, -5 / R2, 1e-12, "fx")
    near(fy, -5 / R2, 1e-12, "fy")
    -- (9, 5) going the same way: tip (12, 9), pushed straight back from x = 10
    fx, fy = agent{ x = 9, y = 5, vx = 3, vy = 4, max_speed = 5, max_force = 5 }:contain(box)
    assert.are.same({ -5, 0 }, { fx, fy })
  end)

  it("pulls an agent outside toward the nearest boundary point at max_force, whatever its velocity", function()
    for _, v in ipairs{ { 0, 0 }, { 1, 0 }, { -2, 0 }, { 0, 3 } } do
      local a = agent{ x = 12, y = 5, vx = v[1], vy = v[2], max_speed = 3, max_force = 2 }
      assert.are.same({ -2, 0 }, { a:contain(box) })
    end
    -- beyond the corner (10, 10): along (-3, -4) / 5
    local fx, fy = agent{ x = 13, y = 14, vx = 1, max_force = 5 }:contain(box)
    near(fx, -3, 1e-12, "fx")
    near(fy, -4, 1e-12, "fy")
    -- just outside, riding the side: the old push (the tip's overshoot) was 0.01
    assert.are.same({ 0, -1 }, { agent{ x = 5, y = 10.01, vx = 3, max_speed = 3 }:contain(box) })
  end)

  it("works the same for a polygon and a steer.Path", function()
    local tri = { 0, 0, 10, 0, 0, 10 }
    -- (4, 4) going (1, 1), feeler 4 sqrt 2: tip (8, 8), the hypotenuse's
    -- nearest point (5, 5)
    local a = agent{ x = 4, y = 4, vx = 1, vy = 1, max_force = 2 }
    local fx, fy = a:contain(tri, 4 * R2)
    near(fx, -R2, 1e-12, "fx")
    near(fy, -R2, 1e-12, "fy")
    assert.are.same({ 0, 0 }, { a:contain(tri, 1.4) }) -- crosses at sqrt 2
    local path = steer.path{ { 0, 0 }, { 10, 0 }, { 0, 10 } }
    assert.are.same({ fx, fy }, { a:contain(path, 4 * R2) })
    -- outside, at rest: toward (5, 5)
    fx, fy = agent{ x = 6, y = 6, max_force = 2 }:contain(tri)
    near(fx, -R2, 1e-12, "fx")
    near(fy, -R2, 1e-12, "fy")
  end)

  it("turns back from the side the feeler leaves through, not toward the nearest side to its tip", function()
    -- a U: arms x in [0, 10] and [20, 30] up to y = 10, joined below y = 2
    local u = { 0, 0, 30, 0, 30, 10, 20, 10, 20, 2, 10, 2, 10, 10, 0, 10 }
    -- from (8, 6) to the right, feeler 9: the tip (17, 6) is 3 from the other
    -- arm's side x = 20, but the feeler leaves through x = 10
    assert.are.same({ -1.5, 0 }, { agent{ x = 8, y = 6, vx = 1, max_force = 1.5 }:contain(u, 9) })
    -- in the gap (outside): toward the nearer arm
    assert.are.same({ 1.5, 0 }, { agent{ x = 18, y = 6, vx = 1, max_force = 1.5 }:contain(u) })
  end)

  it("stays finite and at most max_force in degenerate and extreme cases", function()
    local function check(a, region, feeler)
      local fx, fy = a:contain(region, feeler)
      all_finite(fx, fy)
      assert.is_true(math.sqrt(fx * fx + fy * fy) <= a.max_force * (1 + 1e-15))
      return fx, fy
    end
    -- at rest the feeler points along +x
    assert.are.same({ -1, 0 }, { check(agent{ x = 9, y = 5 }, box) })
    -- exactly on a side: not pushed (no side of that edge is the agent's), the
    -- next step outside is
    assert.are.same({ 0, 0 }, { check(agent{ x = 10, y = 5, vx = 1 }, box) })
    assert.are.same({ 0, 0 }, { check(agent{ x = 0, y = 5, vx = -1 }, box) })
    assert.are.same({ 0, 0 }, { check(agent{ x = 10, y = 10, vx = 1, vy = 1 }, box) })
    -- max_force 0: no force
    assert.are.same({ 0, 0 }, { check(agent{ x = 12, y = 5, max_force = 0 }, box) })
    assert.are.same({ 0, 0 }, { check(agent{ x = 9, y = 5, vx = 1, max_force = 0 }, box) })
    -- a region 1e-300 wide keeps its directions
    local tiny = { 0, 0, 1e-300, 1e-300 }
    assert.are.same({ -1, 0 }, { check(agent{ x = 2e-300, y = 5e-301 }, tiny) })
    assert.are.same({ -1, 0 }, { check(agent{ x = 5e-301, y = 5e-301, vx = 1 }, tiny) })
    assert.are.same({ 0, 1 }, { check(agent{ x = 5e-301, y = 5e-301, vy = -1 }, tiny) })
    -- huge coordinates, speeds and forces
    local L = 1e150
    local huge = { -L, -L, L, L }
    for _, d in ipairs{
      { x = L, y = 0, vx = L, max_speed = L, max_force = L },
      { x = L, y = L, vx = -L, vy = L, max_speed = L, max_force = 1e-150 },
      { x = -L, y = 0.5 * L, vx = -L, max_speed = L, max_force = 1e-300 },
      { x = 0, y = 0, vx = L, vy = L, max_speed = L, max_force = 1e-300 },
      { x = 0, y = 0, vx = 1e-300, max_force = 1e150 },
      { x = 0.9 * L, y = -0.9 * L, vx = L, vy = -L, max_speed = L, max_force = 1 },
    } do
      check(agent(d), huge)
      check(agent(d), { -L, -L, L, -L, 0, L })
      check(agent(d), tiny)
      check(agent(d), box, 1e150)
    end
    -- far outside a huge box: toward it at full force
    local fx, fy = check(agent{ x = -L, y = 0, max_force = 3 }, { 0.5 * L, -L, L, L })
    assert.are.same({ 3, 0 }, { fx, fy })
  end)
end)

describe("contain as a program entry", function()
  -- the program's step and a:apply of the method's force move twins to the
  -- same bits
  local function twins(def, region, feeler, dt)
    local w1, w2 = steer.world{}, steer.world{}
    local a, b = w1:add(def), w2:add(def)
    a:set_behaviors{ combine = "priority", { "contain", region = region, feeler_length = feeler } }
    for _ = 1, 40 do
      local fx, fy = b:contain(region, feeler)
      w1:step(dt)
      b:apply(fx, fy, dt)
      assert.are.same({ b.x, b.y, b.vx, b.vy }, { a.x, a.y, a.vx, a.vy })
    end
    return a
  end

  it("gives the method's force", function()
    local box = { 0, 0, 10, 10 }
    local u = { 0, 0, 30, 0, 30, 10, 20, 10, 20, 2, 10, 2, 10, 10, 0, 10 }
    local a = twins({ x = 8, y = 5, vx = 2, max_speed = 2, max_force = 2.5 }, box, nil, 0.1)
    assert.is_true(a.x < 10 and a.vx < 0) -- turned back before the side
    twins({ x = 9, y = 8, vx = 3, vy = 4, max_speed = 5, max_force = 5 }, box, nil, 1 / 30)
    twins({ x = 13, y = 14, vx = 1, max_speed = 3, max_force = 2 }, box, nil, 1 / 30)
    twins({ x = 8, y = 6, vx = 1, vy = 0.3, max_speed = 3, max_force = 1.5 }, u, 9, 1 / 30)
    twins({ x = 6, y = 6, vx = -1, max_force = 2 }, { 0, 0, 10, 0, 0, 10 }, 2, 1 / 60)
  end)

  it("gives the method's force in a region of 600 edges (the entry looks at its nearby edges only)", function()
    local wavy = {}
    for k = 0, 599 do
      local t = 2 * math.pi * k / 600
      local r = 10 + 3 * math.sin(7 * t) + (k % 2) * 0.5 -- a concave, jagged rim
      wavy[#wavy + 1] = 20 + r * math.cos(t)
      wavy[#wavy + 1] = 20 + r * math.sin(t)
    end
    for _, d in ipairs{
      { x = 20, y = 20, vx = 3, vy = 1, max_speed = 4, max_force = 3 },
      { x = 25, y = 22, vx = 0, vy = 4, max_speed = 4, max_force = 3 },
      { x = 28, y = 20, vx = 4, vy = 0, max_speed = 6, max_force = 1 },
      { x = 45, y = 20, vx = 0, vy = 1, max_force = 2 }, -- outside: pulled back
    } do
      local a = twins(d, wavy, nil, 1 / 30)
      if d.x < 40 then -- stayed within the rim's widest reach
        assert.is_true((a.x - 20) ^ 2 + (a.y - 20) ^ 2 < 13.5 ^ 2)
      else
        assert.is_true(a.x < 45 and a.vx < 0)
      end
    end
  end)
end)

-- A wandering crowd with contain first: the share of agent-steps after the
-- first second that end with the centre outside, the deepest, how often
-- contain wins and the mean speed. Agents start at rest-ish (vx = 1) on a
-- grid inside x in [5, 35), y in [y0, y0 + span).
local function crowd(region, depth, max_force, max_speed, steps, count, y0, span)
  local w = steer.world{ seed = 7 }
  local prog = steer.program{ combine = "priority", { "contain", region = region }, { "wander" } }
  local agents = {}
  for k = 1, count do
    local a = w:add{ x = 5 + (k * 7) % 30, y = y0 + (k * 3) % span, vx = 1,
      max_speed = max_speed, max_force = max_force }
    a:set_behaviors(prog)
    agents[k] = a
  end
  local n, out, deepest, speaks, speed = 0, 0, 0, 0, 0
  for step = 1, steps do
    w:step(1 / 30)
    if step > 30 then
      for _, a in ipairs(agents) do
        local d = depth(a.x, a.y)
        n = n + 1
        if d > 0 then out = out + 1 end
        deepest = math.max(deepest, d)
        if a:active_behavior() == 1 then speaks = speaks + 1 end
        speed = speed + a.speed
      end
    end
  end
  return out / n, deepest, speaks / n, speed / n
end

local function box_depth(x, y) return math.max(-x, x - 40, -y, y - 20, 0) end

-- how far outside polygon pts a point is (0 inside)
local function polygon_depth(pts)
  local n = math.floor(#pts / 2)
  return function(x, y)
    local inside, d = false, math.huge
    for i = 0, n - 1 do
      local j = (i + 1) % n
      local ax, ay, bx, by = pts[2 * i + 1], pts[2 * i + 2], pts[2 * j + 1], pts[2 * j + 2]
      if (ay > y) ~= (by > y) and x < ax + (y - ay) / (by - ay) * (bx - ax) then inside = not inside end
      local ex, ey = bx - ax, by - ay
      local t = math.max(0, math.min(1, ((x - ax) * ex + (y - ay) * ey) / (ex * ex + ey * ey)))
      d = math.min(d, math.sqrt((ax + t * ex - x) ^ 2 + (ay + t * ey - y) ^ 2))
    end
    return inside and 0 or d
  end
end

describe("contain first in a priority program", function()
  local dt = 1 / 30
  -- a convex octagon around the start positions, and the 40 x 20 box with a
  -- notch cut down from the top (two concave corners)
  local octagon = { 5, -2, 35, -2, 42, 5, 42, 15, 35, 22, 5, 22, -2, 15, -2, 5 }
  local notched = { 0, 0, 40, 0, 40, 20, 25, 20, 20, 12, 15, 20, 0, 20 }

  -- Along a straight side the feeler reaches twice the stopping distance, so
  -- at full force the agent stops in half of it: a step's delay before the
  -- feeler touches (speed * dt) and wander's push meanwhile fit in the other
  -- half. A convex arena is left by no more than rounding, so the bound is a
  -- tenth of a step's travel.
  for _, F in ipairs{ 1, 6 } do
    for _, S in ipairs{ 3, 10 } do
      it(("keeps a crowd in a box and a convex polygon (max_force %d, max_speed %d)"):format(F, S), function()
        for _, case in ipairs{ { { 0, 0, 40, 20 }, box_depth }, { octagon, polygon_depth(octagon) } } do
          local out, deepest = crowd(case[1], case[2], F, S, 600, 100, 2, 9)
          assert.is_true(out <= 1e-3, ("%.4f of agent-steps outside"):format(out))
          assert.is_true(deepest <= 0.1 * S * dt, ("%.4f deep"):format(deepest))
        end
      end)
    end
  end

  it("keeps the r04 crowd inside and lets wander steer it", function()
    -- review repro r04: 200 wanderers in the 40 x 20 box, max_speed 3, 3000
    -- steps. Before, 59% (max_force 6) and 56% (max_force 1) of agent-steps
    -- ended outside, up to 0.45 and 2.0 deep, and contain won 72% and 61% of
    -- them (riding the edge just outside with pushes of a few hundredths).
    local box = { 0, 0, 40, 20 }
    local out, deepest, speaks, speed = crowd(box, box_depth, 6, 3, 3000, 200, 3, 14)
    assert.are.equal(0, out)
    assert.are.equal(0, deepest)
    assert.is_true(speaks < 0.15, ("contain won %.3f"):format(speaks))
    assert.is_true(speed > 0.85 * 3, ("mean speed %.3f"):format(speed))
    out, deepest, speaks, speed = crowd(box, box_depth, 1, 3, 3000, 200, 3, 14)
    assert.is_true(out <= 1e-4, ("%.6f of agent-steps outside"):format(out))
    assert.is_true(deepest <= 0.1 * 3 * dt, ("%.4f deep"):format(deepest))
    assert.is_true(speaks < 0.45, ("contain won %.3f"):format(speaks))
    assert.is_true(speed > 0.65 * 3, ("mean speed %.3f"):format(speed))
  end)

  it("keeps a crowd in a concave polygon but for cut corners", function()
    -- At a concave corner the feeler can swing across the corner and meet the
    -- far side already within the stopping distance; the agent then brakes at
    -- full force, a few steps' travel inside the notch at most.
    for _, F in ipairs{ 1, 6 } do
      for _, S in ipairs{ 3, 10 } do
        local out, deepest = crowd(notched, polygon_depth(notched), F, S, 600, 100, 2, 9)
        assert.is_true(out <= 1e-3, ("max_force %d, max_speed %d: %.4f of agent-steps outside"):format(F, S, out))
        assert.is_true(deepest <= 3 * S * dt, ("max_force %d, max_speed %d: %.4f deep"):format(F, S, deepest))
      end
    end
  end)

  it("brings agents that start outside back in", function()
    local w = steer.world{ seed = 3 }
    local prog = steer.program{ combine = "priority", { "contain", region = { 0, 0, 40, 20 } }, { "wander" } }
    local agents = {}
    for k = 1, 40 do
      -- on a ring 30 around the centre, heading further out at full speed
      local t = 2 * math.pi * k / 40
      local a = w:add{ x = 20 + 30 * math.cos(t), y = 10 + 30 * math.sin(t),
        vx = 3 * math.cos(t), vy = 3 * math.sin(t), max_speed = 3, max_force = 1 }
      a:set_behaviors(prog)
      agents[k] = a
    end
    -- 30 - 10 = 20 to 30 - 20 = 10 outside: stopping takes 4.5, then at most
    -- 24.5 back at 3 a second, after 3 s accelerating: within 15 s
    for _ = 1, 15 * 30 do w:step(1 / 30) end
    for _, a in ipairs(agents) do
      assert.are.equal(0, box_depth(a.x, a.y))
    end
    -- and they stay in
    for _ = 1, 600 do
      w:step(1 / 30)
      for _, a in ipairs(agents) do assert.is_true(box_depth(a.x, a.y) <= 0.1 * 3 / 30) end
    end
  end)
end)
