-- Geometry edge cases of every behavior (docs/API.md sections 1-3): the exact
-- value the documented formula gives, worked out by hand in the comments,
-- and never NaN or infinity at the limits (1e150, 1e-300, zeros).
local steer = require "steer"
local support = require "support"
local vec_near, rel_near, close = support.vec_near, support.rel_near, support.close
local all_finite = support.all_finite

local BIG, TINY = 1e150, 1e-300
local R = math.sqrt(0.5)          -- the components of a unit diagonal
local S2 = math.sqrt(2)
local TOL = 1e-12

-- f(...) must return exactly two numbers close to (ex, ey)
local function eq(what, ex, ey, fx, fy, extra)
  assert.is_nil(extra, what .. ": more than two results")
  vec_near(fx, fy, ex, ey, TOL, what)
end

-- the same, relative per component (for values near 1e150 or 1e-300);
-- a zero component must come out exactly zero
local function req(what, ex, ey, fx, fy)
  rel_near(fx, ex, 1e-12, what .. " x")
  rel_near(fy, ey, 1e-12, what .. " y")
end

local function new_world(opts) return steer.world(opts or {}) end

-- ===================================================================== --
describe("steer.clamp", function()
  it("leaves short vectors and the exact boundary alone", function()
    eq("shorter", 3, 4, steer.clamp(3, 4, 10))
    -- |v|^2 = 25 is not > 5^2: unchanged, bit for bit
    local x, y = steer.clamp(3, 4, 5)
    assert.are.equal(3, x); assert.are.equal(4, y)
    eq("zero vector", 0, 0, steer.clamp(0, 0, 5))
  end)

  it("scales longer vectors to max", function()
    eq("6,8 -> 5", 3, 4, steer.clamp(6, 8, 5))
    eq("max 0", 0, 0, steer.clamp(3, 4, 0))
    eq("0 with max 0", 0, 0, steer.clamp(0, 0, 0))
  end)

  it("is exact at the limits", function()
    req("big", R * BIG, R * BIG, steer.clamp(BIG, BIG, BIG))
    req("big negative", -R * BIG, -R * BIG, steer.clamp(-BIG, -BIG, BIG))
    req("big to tiny", TINY, 0, steer.clamp(BIG, 0, TINY))
    req("tiny kept", TINY, TINY, steer.clamp(TINY, TINY, 1))
    -- |(3, 4)e-300| = 5e-300 > 1e-300: scaled by 1/5
    req("tiny scaled", 0.6e-300, 0.8e-300, steer.clamp(3e-300, 4e-300, 1e-300))
    eq("tiny, max 0", 0, 0, steer.clamp(TINY, 0, 0))
  end)
end)

describe("steer.normalize and steer.length", function()
  it("give unit vectors and lengths, zero below 1e-5", function()
    eq("3,4", 0.6, 0.8, steer.normalize(3, 4))
    eq("short", 0, 0, steer.normalize(1e-6, 0))
    eq("zero", 0, 0, steer.normalize(0, 0))
    eq("2e-5", 1, 0, steer.normalize(2e-5, 0))
    eq("big", R, R, steer.normalize(BIG, BIG))
    eq("tiny", 0, 0, steer.normalize(TINY, TINY))
    close(steer.length(3, 4), 5, 0, "length 3,4")
    rel_near(steer.length(BIG, BIG), S2 * BIG, 1e-12, "length big")
    rel_near(steer.length(-BIG, BIG), S2 * BIG, 1e-12, "length big mixed")
    rel_near(steer.length(TINY, TINY), S2 * TINY, 1e-12, "length tiny")
    rel_near(steer.length(3e-300, 4e-300), 5e-300, 1e-12, "length 3,4 tiny")
  end)
end)

describe("steer.seek", function()
  it("gives desired - v, clamped", function()
    -- desired = (3,4)/5 * 2 = (1.2, 1.6)
    eq("basic", 1.2, 1.6, steer.seek(0, 0, 0, 0, 3, 4, 2, 10))
    eq("force clamp", 0.6, 0.8, steer.seek(0, 0, 0, 0, 3, 4, 2, 1))
    -- desired (0, 2) - v (1, 0)
    eq("with velocity", -1, 2, steer.seek(0, 0, 1, 0, 0, 5, 2, 10))
  end)

  it("target at the agent's own position: desired is zero", function()
    eq("v = (2,0)", -2, 0, steer.seek(1, 1, 2, 0, 1, 1, 5, 10))
    eq("clamped", -1, 0, steer.seek(1, 1, 2, 0, 1, 1, 5, 1))
    eq("at rest", 0, 0, steer.seek(1, 1, 0, 0, 1, 1, 5, 10))
    eq("1e-6 away", -2, 0, steer.seek(0, 0, 2, 0, 1e-6, 0, 5, 10))
    eq("2e-5 away", 5, 0, steer.seek(0, 0, 0, 0, 2e-5, 0, 5, 10))
  end)

  it("zero max_speed and max_force", function()
    eq("max_speed 0", -1, 0, steer.seek(0, 0, 1, 0, 5, 0, 0, 10))
    eq("max_force 0", 0, 0, steer.seek(0, 0, 1, 0, 5, 0, 3, 0))
    eq("all zero", 0, 0, steer.seek(0, 0, 0, 0, 0, 0, 0, 0))
  end)

  it("huge values", function()
    req("axis", BIG, 0, steer.seek(-BIG, 0, 0, 0, BIG, 0, BIG, BIG))
    -- desired (R, R) BIG - v (BIG, BIG)
    req("diagonal", (R - 1) * BIG, (R - 1) * BIG,
      steer.seek(-BIG, -BIG, BIG, BIG, BIG, BIG, BIG, BIG))
    -- desired - v = (R + 1)(BIG, BIG), longer than BIG: clamped
    req("clamped", R * BIG, R * BIG,
      steer.seek(0, 0, -BIG, -BIG, BIG, BIG, BIG, BIG))
  end)

  it("tiny values", function()
    eq("target 1e-300 away", 0, 0, steer.seek(0, 0, 0, 0, TINY, 0, 1, 1))
    req("max_speed 1e-300", TINY, 0, steer.seek(0, 0, 0, 0, 1, 0, TINY, 1))
    req("max_force 1e-300", TINY, 0, steer.seek(0, 0, 0, 0, 1, 0, 1, TINY))
    req("velocity 1e-300", -TINY, -TINY, steer.seek(0, 0, TINY, TINY, 0, 0, 1, 1))
  end)
end)

describe("steer.flee", function()
  it("gives desired away from the target", function()
    eq("basic", -1.2, -1.6, steer.flee(0, 0, 0, 0, 3, 4, 2, 10))
    -- away from (0, -5) is +y: (0, 2) - (1, 0)
    eq("with velocity", -1, 2, steer.flee(0, 0, 1, 0, 0, -5, 2, 10))
  end)

  it("target at own position, zero speeds", function()
    eq("own position", -2, 0, steer.flee(1, 1, 2, 0, 1, 1, 5, 10))
    eq("at rest on the target", 0, 0, steer.flee(1, 1, 0, 0, 1, 1, 5, 10))
    eq("max_speed 0", -1, 0, steer.flee(0, 0, 1, 0, 5, 0, 0, 10))
    eq("max_force 0", 0, 0, steer.flee(0, 0, 1, 0, 5, 0, 3, 0))
  end)

  it("limits", function()
    req("huge", BIG, 0, steer.flee(BIG, 0, 0, 0, -BIG, 0, BIG, BIG))
    eq("tiny offset", 0, 0, steer.flee(0, 0, 0, 0, TINY, 0, 1, 1))
    req("tiny max_speed", TINY, 0, steer.flee(0, 0, 0, 0, -1, 0, TINY, 1))
  end)
end)

describe("steer.arrive", function()
  it("ramps the desired speed down inside slowing_radius", function()
    -- d = 1 < 2: speed = 4 * 1/2
    eq("inside", 2, 0, steer.arrive(0, 0, 0, 0, 1, 0, 4, 10, 2))
    eq("outside", 4, 0, steer.arrive(0, 0, 0, 0, 3, 0, 4, 10, 2))
    -- d = 2 is not < 2: full speed
    eq("on the boundary", 4, 0, steer.arrive(0, 0, 0, 0, 2, 0, 4, 10, 2))
    eq("with velocity", -1, 2, steer.arrive(0, 0, 1, 0, 0, 1, 4, 10, 2))
  end)

  it("target at own position, zero radius and speeds", function()
    eq("own position", -2, 0, steer.arrive(1, 1, 2, 0, 1, 1, 4, 10, 2))
    eq("slowing_radius 0", 4, 0, steer.arrive(0, 0, 0, 0, 1, 0, 4, 10, 0))
    eq("slowing 0 on target", 0, 0, steer.arrive(1, 1, 0, 0, 1, 1, 4, 10, 0))
    eq("max_speed 0", -1, 0, steer.arrive(0, 0, 1, 0, 5, 0, 0, 10, 2))
    eq("max_force 0", 0, 0, steer.arrive(0, 0, 1, 0, 5, 0, 3, 0, 2))
  end)

  it("limits", function()
    req("huge distance", BIG, 0, steer.arrive(0, 0, 0, 0, BIG, 0, BIG, BIG, BIG))
    -- d = 1 inside slowing radius 1e150: speed = 1e150 * 1e-150 = 1
    req("huge radius", 1, 0, steer.arrive(0, 0, 0, 0, 1, 0, BIG, BIG, BIG))
    req("2e150 away", 1, 0, steer.arrive(-BIG, 0, 0, 0, BIG, 0, 1, 1, BIG))
    req("tiny radius", 1, 0, steer.arrive(0, 0, 0, 0, 1, 0, 1, 1, TINY))
    eq("tiny offset", 0, 0, steer.arrive(0, 0, 0, 0, TINY, 0, 1, 1, 2))
    req("tiny max_speed", TINY / 2, 0, steer.arrive(0, 0, 0, 0, 1, 0, TINY, 1, 2))
  end)
end)

describe("steer.pursue and steer.evade", function()
  it("aim at t + tv * |t - p| / max_speed", function()
    -- T = 4/2 = 2: predicted (4, 4); desired (R, R) * 2
    eq("pursue", S2, S2, steer.pursue(0, 0, 0, 0, 4, 0, 0, 2, 2, 10))
    eq("evade", -S2, -S2, steer.evade(0, 0, 0, 0, 4, 0, 0, 2, 2, 10))
    eq("still target", 2, 0, steer.pursue(0, 0, 0, 0, 4, 0, 0, 0, 2, 10))
  end)

  it("coincident agents: T = 0, the target is the agent's own position", function()
    eq("pursue", -1, 0, steer.pursue(1, 1, 1, 0, 1, 1, 5, 5, 2, 10))
    eq("evade", -1, 0, steer.evade(1, 1, 1, 0, 1, 1, 5, 5, 2, 10))
    eq("pursue at rest", 0, 0, steer.pursue(1, 1, 0, 0, 1, 1, 5, 5, 2, 10))
  end)

  it("max_speed 0: desired is zero whatever the prediction", function()
    eq("pursue", -1, 0, steer.pursue(0, 0, 1, 0, 4, 0, 0, 2, 0, 10))
    eq("evade", -1, 0, steer.evade(0, 0, 1, 0, 4, 0, 0, 2, 0, 10))
    eq("max_force 0", 0, 0, steer.pursue(0, 0, 1, 0, 4, 0, 0, 2, 3, 0))
  end)

  it("limits", function()
    -- T = 2e150 / 1e150 = 2: predicted (BIG, 2 BIG); offset (2, 2) BIG
    req("pursue huge", R * BIG, R * BIG,
      steer.pursue(-BIG, 0, 0, 0, BIG, 0, 0, BIG, BIG, BIG))
    req("evade huge", -R * BIG, -R * BIG,
      steer.evade(-BIG, 0, 0, 0, BIG, 0, 0, BIG, BIG, BIG))
    -- T = 2e150: the prediction is ~(1e150, 2e300), straight up from p
    eq("huge lookahead", 0, 1, steer.pursue(-BIG, 0, 0, 0, BIG, 0, 0, BIG, 1, 1))
    eq("huge lookahead evade", 0, -1, steer.evade(-BIG, 0, 0, 0, BIG, 0, 0, BIG, 1, 1))
    -- T = 1e300: prediction (1, 1e300), direction (1e-300, 1), desired * 1e-300
    req("tiny max_speed", 0, TINY, steer.pursue(0, 0, 0, 0, 1, 0, 0, 1, TINY, 1))
    req("tiny max_speed evade", 0, -TINY, steer.evade(0, 0, 0, 0, 1, 0, 0, 1, TINY, 1))
  end)
end)

describe("steer.weighted", function()
  it("clamps the weighted sum", function()
    eq("sum", 2, 3, steer.weighted(10, 1, 0, 2, 0, 1, 3))
    eq("clamped", 0.6, 0.8, steer.weighted(1, 3, 0, 1, 0, 4, 1))
    eq("negative weight", -1, -1, steer.weighted(10, 1, 1, -1))
    eq("zero weight", 0, 0, steer.weighted(10, 1, 1, 0))
    eq("cancelling", 0, 0, steer.weighted(10, 3, 4, 1, -3, -4, 1))
    eq("max_force 0", 0, 0, steer.weighted(0, 5, 5, 1))
    eq("no forces", 0, 0, steer.weighted(5))
  end)

  it("limits", function()
    -- sum (1e300, 1e300), clamped to length 1e150
    req("huge", R * BIG, R * BIG, steer.weighted(BIG, BIG, 0, BIG, 0, BIG, BIG))
    req("tiny max_force", TINY, 0, steer.weighted(TINY, 1, 0, 1))
    req("tiny force", TINY, 0, steer.weighted(1, TINY, 0, 1))
    eq("tiny force and weight", 0, 0, steer.weighted(1, TINY, 0, TINY))
  end)
end)

describe("steer.priority", function()
  it("returns the first force with squared length > 1e-4, clamped", function()
    eq("skips small ones", 3, 4, steer.priority(5, 0, 0, 0.001, 0, 3, 4))
    eq("first wins", 3, 4, steer.priority(5, 3, 4, 1, 0))
    eq("clamped", 1.2, 1.6, steer.priority(2, 0, 0, 6, 8))
    -- 0.0099^2 < 1e-4 < 0.0101^2
    eq("threshold", 0.0101, 0, steer.priority(1, 0.0099, 0, 0.0101, 0))
    eq("none", 0, 0, steer.priority(5, 0.001, 0.001))
    eq("no forces", 0, 0, steer.priority(5))
    eq("max_force 0", 0, 0, steer.priority(0, 3, 4))
  end)

  it("limits", function()
    req("huge", R * BIG, R * BIG, steer.priority(BIG, BIG, BIG))
    req("tiny skipped", -BIG, 0, steer.priority(BIG, TINY, 0, -BIG, 0))
    req("tiny max_force", TINY, 0, steer.priority(TINY, 1, 0))
    eq("tiny force", 0, 0, steer.priority(1, TINY, TINY))
  end)
end)

describe("steer.prioritized_sum", function()
  it("adds forces in order until the total's length reaches max_force", function()
    -- (3, 0) fits; (0, 10) is cut to (0, 4) so that |(3, 4)| = 5
    eq("cut to fit", 3, 4, steer.prioritized_sum(5, 3, 0, 0, 10))
    eq("colinear", 5, 0, steer.prioritized_sum(5, 3, 0, 10, 0))
    eq("all fit", 4, 6, steer.prioritized_sum(10, 1, 2, 3, 4))
    eq("first one cut, rest ignored", 3, 4, steer.prioritized_sum(5, 6, 8, 1, 0))
    eq("budget used exactly", 3, 4, steer.prioritized_sum(5, 3, 4, 1, 0))
    eq("a force pointing back", 2, 0, steer.prioritized_sum(5, 3, 0, -1, 0))
    eq("zero forces", 0, 0, steer.prioritized_sum(5, 0, 0, 0, 0))
    eq("max_force 0", 0, 0, steer.prioritized_sum(0, 3, 4))
    eq("no forces", 0, 0, steer.prioritized_sum(5))
  end)

  it("huge values", function()
    req("axis", BIG, 0, steer.prioritized_sum(BIG, BIG, 0, 0, BIG))
    req("diagonal", R * BIG, R * BIG, steer.prioritized_sum(BIG, BIG, BIG))
  end)

  it("tiny values", function()
    req("tiny parts fit", TINY, TINY, steer.prioritized_sum(1, TINY, 0, 0, TINY))
    -- (1, 0) is cut to length 1e-300
    req("tiny max_force", TINY, 0, steer.prioritized_sum(TINY, 1, 0))
    -- (1e-300, 0) fills the budget exactly; (0, 1e-300) no longer fits
    req("tiny budget filled", TINY, 0, steer.prioritized_sum(TINY, TINY, 0, 0, TINY))
  end)
end)

describe("steer.lerp", function()
  it("is a + (b - a) t", function()
    eq("quarter", 2.5, 5, steer.lerp(0, 0, 10, 20, 0.25))
    eq("t = 0", 1, 2, steer.lerp(1, 2, 3, 4, 0))
    eq("t = 1", 3, 4, steer.lerp(1, 2, 3, 4, 1))
    eq("extrapolate", 2, 2, steer.lerp(0, 0, 1, 1, 2))
    eq("backwards", -1, -1, steer.lerp(0, 0, 1, 1, -1))
    eq("a == b", 5, 5, steer.lerp(5, 5, 5, 5, 0.3))
  end)

  it("limits", function()
    eq("huge halves", 0, 0, steer.lerp(-BIG, 0, BIG, 0, 0.5))
    req("huge t", 2e300, 2e300, steer.lerp(-BIG, -BIG, BIG, BIG, BIG))
    req("tiny", 0.5e-300, 0, steer.lerp(0, 0, TINY, 0, 0.5))
    req("tiny t", TINY, TINY, steer.lerp(0, 0, 1, 1, TINY))
  end)
end)

-- ===================================================================== --
-- Agent methods

-- Every behavior returns a force and changes nothing but its bookkeeping.
local function unchanged(a, x, y, vx, vy, what)
  assert.are.equal(x, a.x, what .. ": x changed")
  assert.are.equal(y, a.y, what .. ": y changed")
  assert.are.equal(vx, a.vx, what .. ": vx changed")
  assert.are.equal(vy, a.vy, what .. ": vy changed")
end

describe("a:seek", function()
  it("seeks a point or an agent", function()
    local w = new_world()
    local a = w:add{ max_speed = 2, max_force = 10 }
    local b = w:add{ x = 3, y = 4 }
    eq("point", 1.2, 1.6, a:seek(3, 4))
    eq("agent", 1.2, 1.6, a:seek(b))
    unchanged(a, 0, 0, 0, 0, "seek")
  end)

  it("coincident agents and itself", function()
    local w = new_world()
    local a = w:add{ vx = 1, max_speed = 2, max_force = 10 }
    local c = w:add{ x = 0, y = 0, vx = 5, vy = 5 }
    eq("coincident", -1, 0, a:seek(c))
    eq("itself", -1, 0, a:seek(a))
    eq("own position", -1, 0, a:seek(0, 0))
    a.vx = 0
    eq("at rest", 0, 0, a:seek(a))
  end)

  it("zero max_speed / max_force", function()
    local w = new_world()
    local a = w:add{ vx = 1, max_speed = 0, max_force = 10 }
    eq("max_speed 0", -1, 0, a:seek(5, 0))
    a.max_force = 0
    eq("max_force 0", 0, 0, a:seek(5, 0))
  end)

  it("limits", function()
    local w = new_world()
    local a = w:add{ x = -BIG, max_speed = BIG, max_force = BIG }
    req("huge", BIG, 0, a:seek(BIG, 0))
    local t = w:add{ max_speed = TINY }
    req("tiny max_speed", TINY, 0, t:seek(1, 0))
    eq("tiny offset", 0, 0, t:seek(TINY, 0))
  end)

  it("uses the shortest wrapped offset on a torus", function()
    local w = new_world{ bounds = { 100, 80 }, wrap = true }
    local a = w:add{ x = 99, y = 10, max_speed = 1, max_force = 10 }
    local b = w:add{ x = 1, y = 10 }
    eq("across the seam", 1, 0, a:seek(1, 10))
    eq("agent across the seam", 1, 0, a:seek(b))
    eq("across y", 0, -1, a:seek(99, 79))
  end)

  it("on a thin torus, a target far along the thin side is (nearly) here", function()
    -- 1e150 and -0.5 wrap within 1e-200 of y = 0; 10 wraps to x = 1
    local w = new_world{ bounds = { 3, 1e-200 }, wrap = true }
    local a = w:add{ x = 1, max_speed = 2, max_force = 10 }
    eq("far up", 0, 0, a:seek(1, BIG))
    eq("arrive", 0, 0, a:arrive(10, -0.5, 10))
    eq("along x", -2, 0, a:seek(0, BIG))
  end)
end)

describe("a:flee", function()
  it("flees a point or an agent", function()
    local w = new_world()
    local a = w:add{ max_speed = 2, max_force = 10 }
    local b = w:add{ x = 3, y = 4 }
    eq("point", -1.2, -1.6, a:flee(3, 4))
    eq("agent", -1.2, -1.6, a:flee(b))
    eq("itself", 0, 0, a:flee(a))
    unchanged(a, 0, 0, 0, 0, "flee")
  end)

  it("panic radius: inside, on the boundary, outside", function()
    local w = new_world()
    local a = w:add{ max_speed = 2, max_force = 10 }
    local b = w:add{ x = 3, y = 4 }
    -- |(3, 4)| = 5 exactly
    eq("inside", -1.2, -1.6, a:flee(3, 4, 5.1))
    eq("on the boundary", -1.2, -1.6, a:flee(3, 4, 5))
    eq("outside", 0, 0, a:flee(3, 4, 4.9))
    eq("agent inside", -1.2, -1.6, a:flee(b, 5))
    eq("agent outside", 0, 0, a:flee(b, 4.9))
    eq("radius 0, elsewhere", 0, 0, a:flee(3, 4, 0))
    a.vx = 1
    -- d = 0 <= 0: inside, but no direction: desired 0, force -v
    eq("radius 0, on the target", -1, 0, a:flee(0, 0, 0))
  end)

  it("panic radius at the limits", function()
    local w = new_world()
    local a = w:add{ max_speed = 2, max_force = 10 }
    eq("huge radius, on its boundary", -2, 0, a:flee(BIG, 0, BIG))
    eq("huge distance outside", 0, 0, a:flee(BIG, 0, 1))
    eq("tiny radius, tiny offset", 0, 0, a:flee(TINY, 0, TINY))
  end)

  it("panic radius uses the wrapped distance on a torus", function()
    local w = new_world{ bounds = { 100, 80 }, wrap = true }
    local a = w:add{ x = 1, y = 50, max_speed = 1, max_force = 10 }
    -- the threat at x = 99 is 2 away through the seam: flee towards +x
    eq("inside", 1, 0, a:flee(99, 50, 2.5))
    eq("outside", 0, 0, a:flee(99, 50, 1.5))
  end)
end)

describe("a:arrive", function()
  it("uses slowing_radius 2 by default", function()
    local w = new_world()
    local a = w:add{ max_speed = 4, max_force = 10 }
    local b = w:add{ x = 3 }
    eq("default radius", 2, 0, a:arrive(1, 0))
    eq("radius 4", 1, 0, a:arrive(1, 0, 4))
    eq("radius 0", 4, 0, a:arrive(1, 0, 0))
    eq("agent", 4, 0, a:arrive(b))
    eq("agent with radius", 2, 0, a:arrive(b, 6))
    unchanged(a, 0, 0, 0, 0, "arrive")
  end)

  it("own position, coincident agent, limits", function()
    local w = new_world()
    local a = w:add{ vx = 2, max_speed = 4, max_force = 10 }
    local c = w:add{}
    eq("itself", -2, 0, a:arrive(a))
    eq("coincident", -2, 0, a:arrive(c))
    eq("own position, radius 0", -2, 0, a:arrive(0, 0, 0))
    local h = w:add{ max_speed = BIG, max_force = BIG }
    req("huge radius", 1, 0, h:arrive(1, 0, BIG))
    req("huge distance", BIG, 0, h:arrive(BIG, 0, BIG))
  end)
end)

describe("a:pursue and a:evade", function()
  it("predict with T = distance / a.max_speed", function()
    local w = new_world()
    local a = w:add{ max_speed = 2, max_force = 10 }
    local b = w:add{ x = 4, vy = 2 }
    eq("pursue", S2, S2, a:pursue(b))
    eq("evade", -S2, -S2, a:evade(b))
    unchanged(a, 0, 0, 0, 0, "pursue/evade")
  end)

  it("itself, coincident agents, zero max_speed", function()
    local w = new_world()
    local a = w:add{ vx = 1, max_speed = 2, max_force = 10 }
    local c = w:add{ vx = 5, vy = 5 }
    eq("pursue itself", -1, 0, a:pursue(a))
    eq("evade itself", -1, 0, a:evade(a))
    eq("pursue coincident", -1, 0, a:pursue(c))
    eq("evade coincident", -1, 0, a:evade(c))
    a.max_speed = 0
    local b = w:add{ x = 4, vy = 2 }
    eq("max_speed 0", -1, 0, a:pursue(b))
    eq("max_speed 0 evade", -1, 0, a:evade(b))
  end)

  it("limits", function()
    local w = new_world()
    local a = w:add{ x = -BIG, max_speed = BIG, max_force = BIG }
    local b = w:add{ x = BIG, vy = BIG }
    req("pursue", R * BIG, R * BIG, a:pursue(b))
    req("evade", -R * BIG, -R * BIG, a:evade(b))
    local t = w:add{ max_speed = TINY }
    local u = w:add{ x = 1, vy = 1 }
    req("tiny max_speed", 0, TINY, t:pursue(u))
  end)

  it("predict across the seam of a torus", function()
    local w = new_world{ bounds = { 100, 80 }, wrap = true }
    local a = w:add{ x = 98, y = 10, max_speed = 1, max_force = 10 }
    local b = w:add{ x = 2, y = 10, vy = 0.5 }
    -- wrapped offset (4, 0): T = 4, predicted offset (4, 2)
    local n = math.sqrt(20)
    eq("pursue", 4 / n, 2 / n, a:pursue(b))
    eq("evade", -4 / n, -2 / n, a:evade(b))
  end)
end)

-- ===================================================================== --
describe("a:apply: the pipeline and its clamp order", function()
  it("clamps the force to max_force first", function()
    local a = new_world():add{ max_speed = 10, max_force = 5 }
    a:apply(6, 8, 0.5)                   -- force (3, 4); v = (1.5, 2)
    eq("velocity", 1.5, 2, a:velocity())
    eq("position", 0.75, 1, a:position())
  end)

  it("clamps the new velocity to max_speed", function()
    local a = new_world():add{ vx = 6, vy = 8, max_speed = 5, max_force = 1 }
    a:apply(0, 0, 2)                     -- v = (3, 4); p = v * 2
    eq("velocity", 3, 4, a:velocity())
    eq("position", 6, 8, a:position())
  end)

  it("fires both clamps, in order", function()
    local a = new_world():add{ x = 10, y = -2, vx = 3, max_speed = 2.5, max_force = 4 }
    -- force (0, 8) -> (0, 4); v + f dt = (3, 4), |.| = 5 -> (1.5, 2);
    -- p = (10, -2) + (1.5, 2). (Speed clamp first would give another v.)
    a:apply(0, 8, 1)
    eq("velocity", 1.5, 2, a:velocity())
    eq("position", 11.5, 0, a:position())
    close(a.speed, 2.5, TOL, "speed")
    close(a.heading, math.atan(2 / 1.5), TOL, "heading")
  end)

  it("moves with the new velocity (semi-implicit Euler)", function()
    local a = new_world():add{ vx = 1, max_speed = 10, max_force = 10 }
    a:apply(2, 0, 1)
    eq("velocity", 3, 0, a:velocity())
    eq("position", 3, 0, a:position())
  end)

  it("zero max_speed / max_force", function()
    local w = new_world()
    local a = w:add{ x = 1, y = 1, vx = 3, vy = 4, max_speed = 0, max_force = 10 }
    a:apply(5, 5, 1)
    eq("max_speed 0 velocity", 0, 0, a:velocity())
    eq("max_speed 0 position", 1, 1, a:position())
    local b = w:add{ vx = 1, max_speed = 10, max_force = 0 }
    b:apply(100, 100, 1)
    eq("max_force 0 velocity", 1, 0, b:velocity())
    eq("max_force 0 position", 1, 0, b:position())
  end)

  it("huge values stay finite and inside the limit", function()
    local a = new_world():add{ max_speed = BIG, max_force = BIG }
    a:apply(BIG, BIG, BIG)
    req("velocity", R * BIG, R * BIG, a:velocity())
    all_finite(a.x, a.y)
    -- a position read back must be a valid input again
    assert.is_true(math.abs(a.x) <= steer.limit and math.abs(a.y) <= steer.limit)
    a.x, a.y = a.x, a.y
    local b = new_world():add{ x = -BIG, vx = -BIG, max_speed = BIG, max_force = BIG }
    b:apply(-BIG, 0, BIG)
    all_finite(b.x, b.y, b.vx, b.vy)
    assert.is_true(math.abs(b.x) <= steer.limit)
  end)

  it("tiny values", function()
    local w = new_world()
    local a = w:add{}
    a:apply(1, 0, TINY)                  -- v = 1e-300; p = 1e-600 -> 0
    req("tiny dt velocity", TINY, 0, a:velocity())
    eq("tiny dt position", 0, 0, a:position())
    local b = w:add{ max_force = TINY }
    b:apply(1, 0, 1)
    req("tiny max_force velocity", TINY, 0, b:velocity())
    req("tiny max_force position", TINY, 0, b:position())
    local c = w:add{ max_speed = TINY }
    c:apply(1, 1, 1)
    req("tiny max_speed", R * TINY, R * TINY, c:velocity())
  end)
end)

-- ===================================================================== --
describe("a:wander", function()
  local lcg, signed = support.lcg_next, support.lcg_signed

  it("the spec's LCG helper is exact (hand-checked states)", function()
    -- 1 * 1103515245 + 12345; then 1103527590 * 1103515245 + 12345 mod 2^32
    assert.are.equal(1103527590, lcg(1))
    assert.are.equal(2524885223, lcg(1103527590))
    assert.are.equal(12345, lcg(0))
    assert.are.equal(3191464396, lcg(4294967295))
  end)

  it("gives the hand-computed first values after a:seed(n)", function()
    local a = new_world():add{}      -- at rest: forward = (1, 0)
    a:seed(1)
    -- s1 = 1103527590, r1 = -1 + 2 s1 / 4294967295 = -0.48612992174134817
    -- theta1 = 0.5 r1; force = (2 + 1.2 cos, 1.2 sin)
    local fx, fy = a:wander()
    vec_near(fx, fy, 3.1647258372561899, -0.28881434179740362, 1e-12, "call 1")
    close(a.wander_angle, -0.24306496087067408, 1e-15, "theta 1")
    fx, fy = a:wander()                  -- s2 = 2524885223
    vec_near(fx, fy, 3.1855778175955396, -0.18548649122078262, 1e-12, "call 2")
    close(a.wander_angle, -0.15519430911056564, 1e-15, "theta 2")
    fx, fy = a:wander()                  -- s3 = 662824084
    vec_near(fx, fy, 3.0525989904938937, -0.57622509942837097, 1e-12, "call 3")
    a:seed(0)                            -- s1 = 12345: r = -0.99999425...
    a.wander_angle = 0
    fx, fy = a:wander()
    vec_near(fx, fy, 3.0531007278762066, -0.57530761940600428, 1e-12, "seed 0")
  end)

  it("follows the velocity and its own parameters", function()
    local a = new_world():add{ vy = 3, wander_jitter = 2, wander_radius = 0.5,
      wander_distance = 4 }
    a:seed(7)
    -- s1 = 3429651764, theta = 2 r1; forward (0, 1)
    eq("call 1", 0.18391959195771462, 4.4649447103625413, a:wander())
    eq("call 2", 0.48928910277067511, 3.8970622814034246, a:wander())
    unchanged(a, 0, 0, 0, 3, "wander")
  end)

  it("matches the LCG formula over many calls (Lua model)", function()
    local w = new_world()
    local a = w:add{ vx = 0.3, vy = -0.4, wander_radius = 2.5,
      wander_distance = 0.7, wander_jitter = 1.3 }
    local s, theta = 123456789, 0
    a:seed(s)
    for k = 1, 50 do
      s = lcg(s)
      theta = theta + signed(s) * 1.3
      local ex = 0.6 * 0.7 + math.cos(theta) * 2.5
      local ey = -0.8 * 0.7 + math.sin(theta) * 2.5
      local fx, fy = a:wander()
      vec_near(fx, fy, ex, ey, 1e-9, "call " .. k)
    end
  end)

  it("uses forward (1, 0) when |v|^2 <= 1e-4", function()
    local w = new_world()
    -- jitter 0 keeps theta at 0: force = forward * 2 + (1.2, 0)
    local a = w:add{ vy = -0.01, wander_jitter = 0 }
    eq("|v|^2 = 1e-4", 3.2, 0, a:wander())
    local b = w:add{ vy = -0.011, wander_jitter = 0 }
    eq("|v|^2 > 1e-4", 1.2, -2, b:wander())
    local c = w:add{ vx = TINY, vy = TINY, wander_jitter = 0 }
    eq("tiny v", 3.2, 0, c:wander())
    local d = w:add{ vx = BIG, vy = BIG, wander_jitter = 0 }
    eq("huge v", 2 * R + 1.2, 2 * R, d:wander())
    local z = w:add{ wander_radius = 0, wander_distance = 0 }
    eq("zero radius and distance", 0, 0, z:wander())
  end)

  it("stays finite with huge parameters", function()
    local a = new_world():add{ vx = -BIG, wander_radius = BIG,
      wander_distance = BIG, wander_jitter = BIG }
    for _ = 1, 3 do
      local fx, fy = a:wander()
      all_finite(fx, fy, a.wander_angle)
      -- |forward * distance + (cos, sin) * radius| <= 2e150 (not clamped)
      assert.is_true(math.abs(fx) <= 2 * BIG and math.abs(fy) <= 2 * BIG)
    end
  end)

  it("replays: same seed, same sequence; different agents differ", function()
    local w = new_world()
    local a, b = w:add{}, w:add{}
    local x1 = { a:wander() }
    local y1 = { b:wander() }
    assert.are_not.same(x1, y1)       -- two agents, two generators
    a:seed(99); b:seed(99)
    a.wander_angle, b.wander_angle = 0, 0
    for k = 1, 10 do
      assert.are.same({ a:wander() }, { b:wander() }, "call " .. k)
    end
  end)

  it("replays a world from its seed", function()
    local function run(seed)
      local w = steer.world(seed and { seed = seed } or {})
      local out = {}
      local agents = { w:add{}, w:add{ vx = 1 }, w:add{ vy = -2 } }
      for _ = 1, 4 do
        for _, a in ipairs(agents) do
          local fx, fy = a:wander()
          out[#out + 1] = fx
          out[#out + 1] = fy
        end
      end
      return out
    end
    assert.are.same(run(9), run(9))
    assert.are_not.same(run(9), run(10))
    assert.are.same(run(nil), run(1))   -- the default seed is 1
  end)
end)

-- ===================================================================== --
describe("a:avoid_obstacles", function()
  local function setup(agent, obstacles, opts)
    local w = new_world(opts)
    for _, o in ipairs(obstacles) do w:add_obstacle(o) end
    return w:add(agent), w
  end

  it("pushes away from the obstacle the feeler tip is inside", function()
    -- tip (3, 0); centre (3, 1): |tip - c| = 1 < 1 + 0.5
    local a = setup({ vx = 1, max_force = 2 }, { { x = 3, y = 1, radius = 1 } })
    eq("push", 0, -2, a:avoid_obstacles())
    eq("short feeler misses", 0, 0, a:avoid_obstacles(1))
    unchanged(a, 0, 0, 1, 0, "avoid_obstacles")
  end)

  it("counts the agent's radius; the boundary is outside", function()
    local obstacle = { { x = 3, y = 1.2, radius = 1 } }
    local a = setup({ vx = 1, max_force = 2, radius = 0.5 }, obstacle)
    eq("1.2 < 1.5", 0, -2, a:avoid_obstacles())
    local b = setup({ vx = 1, max_force = 2, radius = 0 }, obstacle)
    eq("1.2 > 1", 0, 0, b:avoid_obstacles())
    local c = setup({ vx = 1, max_force = 2 }, { { x = 3, y = 1.5, radius = 1 } })
    eq("1.5 is not < 1.5", 0, 0, c:avoid_obstacles())
    local z = setup({ vx = 1, max_force = 2, radius = 0 },
      { { x = 3, y = 0.5, radius = 0 } })
    eq("zero radii", 0, 0, z:avoid_obstacles())
  end)

  it("chooses the nearest obstacle, whatever the order", function()
    local near_o = { x = 3, y = 1, radius = 1 }          -- 3.16 from the agent
    local far_o = { x = 4.5, y = -0.5, radius = 1.5 }    -- 4.53 away
    local a = setup({ vx = 1, max_force = 2 }, { near_o, far_o })
    eq("near first", 0, -2, a:avoid_obstacles())
    local b = setup({ vx = 1, max_force = 2 }, { far_o, near_o })
    eq("near last", 0, -2, b:avoid_obstacles())
    local c = setup({ vx = 1, max_force = 2 }, { far_o })
    -- alone, the far one pushes along (tip - c) = (-1.5, 0.5)
    local n = math.sqrt(2.5)
    eq("far alone", -1.5 / n * 2, 0.5 / n * 2, c:avoid_obstacles())
  end)

  it("zero velocity feels along (1, 0); |v|^2 <= 1e-4 too", function()
    local obstacle = { { x = 3, y = 1, radius = 1 } }
    local a = setup({ max_force = 2 }, obstacle)
    eq("at rest", 0, -2, a:avoid_obstacles())
    local b = setup({ vy = 0.01, max_force = 2 }, obstacle)
    eq("slow", 0, -2, b:avoid_obstacles())
    local c = setup({ vy = 1, max_force = 2 }, obstacle)
    eq("moving up: tip (0, 3), 3 from the centre", 0, 0, c:avoid_obstacles())
  end)

  it("feeler length 0, zero max_force", function()
    local a = setup({ vx = 1, max_force = 2 }, { { x = 0.5, y = 0, radius = 1 } })
    -- the centre on the feeler's line: left (section 3.6), not back
    eq("feeler 0: tip on the agent, centre ahead", 0, 2, a:avoid_obstacles(0))
    local b = setup({ vx = 1, max_force = 2 }, { { x = 0.5, y = 0.5, radius = 1 } })
    eq("feeler 0: tip on the agent", -math.sqrt(2), -math.sqrt(2), b:avoid_obstacles(0))
    a.max_force = 0
    eq("max_force 0", 0, 0, a:avoid_obstacles())
  end)

  it("tip exactly on the centre: the agent turns left (docs/API.md section 3.6)", function()
    local a = setup({ vx = 1, max_force = 2 }, { { x = 3, y = 0, radius = 1 } })
    eq("left of (1, 0)", 0, 2, a:avoid_obstacles())
    local b = setup({ vy = -1, max_force = 2 }, { { x = 0, y = -3, radius = 1 } })
    eq("left of (0, -1)", 2, 0, b:avoid_obstacles())
  end)

  it("heading straight at the centre: the agent turns left, not back (docs/API.md section 3.6)", function()
    -- tip (3, 0), centre (4, 0): tip - centre = (-1, 0) would only brake
    local a = setup({ vx = 1, max_force = 2 }, { { x = 4, y = 0, radius = 1 } })
    eq("dead-on, tip before the centre", 0, 2, a:avoid_obstacles())
    -- the tip past the centre on the line: (1, 0) would pull it on
    local b = setup({ vx = 1, max_force = 2 }, { { x = 2, y = 0, radius = 2 } })
    eq("dead-on, tip past the centre", 0, 2, b:avoid_obstacles())
    -- along the diagonal: left of (1, 1) / sqrt 2
    local c = setup({ vx = 1, vy = 1, max_force = 2 }, { { x = 2.5, y = 2.5, radius = 1 } })
    local fx, fy = c:avoid_obstacles()
    assert.is_near(-math.sqrt(2), fx, 1e-12)
    assert.is_near(math.sqrt(2), fy, 1e-12)
    -- off the line by a hair: tip - centre as ever
    local d = setup({ vx = 1, max_force = 2 }, { { x = 4, y = 1e-3, radius = 1 } })
    fx, fy = d:avoid_obstacles()
    local n = math.sqrt(1 + 1e-6)
    assert.is_near(-2 / n, fx, 1e-12)
    assert.is_near(-2e-3 / n, fy, 1e-12)
  end)

  it("tests the whole feeler: a centre beside it pushes straight across (docs/API.md section 3.6)", function()
    -- feeler (0, 0) -> (3, 0); centre (1.5, 1): its nearest feeler point is
    -- (1.5, 0), 1 < 1 + 0.5 away (the tip, (3, 0), is 1.8 away: untouched)
    local a = setup({ vx = 1, max_force = 2 }, { { x = 1.5, y = 1, radius = 1 } })
    eq("beside the feeler", 0, -2, a:avoid_obstacles())
    -- centre (2.5, 1): the tip is 1.12 away, but the push is across (the
    -- tip's push, (0.5, -1), would pull the agent on past the rock)
    local b = setup({ vx = 1, max_force = 2 }, { { x = 2.5, y = -1, radius = 1 } })
    eq("beside, near the tip", 0, 2, b:avoid_obstacles())
    -- heading (0.6, 0.8); centre 2 along and 1 to the right of it
    local c = setup({ vx = 0.6, vy = 0.8, max_force = 5 },
      { { x = 2 * 0.6 + 0.8, y = 2 * 0.8 - 0.6, radius = 1 } })
    local fx, fy = c:avoid_obstacles()
    assert.is_near(-0.8 * 5, fx, 1e-12)   -- to the left, (-0.8, 0.6)
    assert.is_near(0.6 * 5, fy, 1e-12)
    -- the boundary is outside: 1.5 from the feeler is not < 1 + 0.5
    local d = setup({ vx = 1, max_force = 2 }, { { x = 1.5, y = 1.5, radius = 1 } })
    eq("1.5 from the feeler", 0, 0, d:avoid_obstacles())
  end)

  it("pushes a body out of an obstacle it overlaps behind it", function()
    -- centre (-1, 0.5) behind the agent: p - c = (1, -0.5), 1.118 < 1.5
    local a = setup({ vx = 1, max_force = 2 }, { { x = -1, y = 0.5, radius = 1 } })
    local n = math.sqrt(1.25)
    eq("behind", 2 / n, -1 / n, a:avoid_obstacles())
    local b = setup({ vx = 1, max_force = 2 }, { { x = -1.2, y = 1, radius = 1 } })
    eq("behind, bodies apart (1.56)", 0, 0, b:avoid_obstacles())
  end)

  it("matches a scan written out in Lua over random rocks", function()
    -- the rule of docs/API.md section 3.6, independently: the nearest point
    -- of the feeler p -> p + ahead * L to each centre; of the touched
    -- obstacles the one whose centre is nearest the agent; the push from
    -- the centre to that point, or left when the centre is on the line
    local seed = 99
    local function rand()
      seed = (seed * 1103515245 + 12345) % 4294967296
      return seed / 4294967296
    end
    local function rule(ax, ay, vx, vy, r, L, mf, rocks)
      local l = math.sqrt(vx * vx + vy * vy)
      local hx, hy = vx / l, vy / l
      local best, gx, gy
      for _, o in ipairs(rocks) do
        local dx, dy = o.x - ax, o.y - ay
        local t = dx * hx + dy * hy
        local qx, qy -- the nearest feeler point less the centre
        if t <= 0 then qx, qy = -dx, -dy
        elseif t >= L then qx, qy = hx * L - dx, hy * L - dy
        else
          local across = hx * dy - hy * dx
          qx, qy = across * hy, -across * hx
        end
        local reach = o.radius + r
        local d2 = dx * dx + dy * dy
        if qx * qx + qy * qy < reach * reach and (not best or d2 < best) then
          best, gx, gy = d2, qx, qy
        end
      end
      if not best then return 0, 0 end
      if hx * gy - hy * gx == 0 then return -hy * mf, hx * mf end
      local g = math.sqrt(gx * gx + gy * gy)
      return gx / g * mf, gy / g * mf
    end
    local touched = 0
    for _ = 1, 300 do
      local w = new_world()
      local rocks = {}
      for k = 1, 6 do
        rocks[k] = { x = rand() * 10 - 5, y = rand() * 10 - 5, radius = rand() * 1.5 }
        w:add_obstacle(rocks[k])
      end
      local vx, vy = rand() * 4 - 2, rand() * 4 - 2
      local r, L = rand(), rand() * 6
      local a = w:add{ vx = vx, vy = vy, radius = r, max_force = 3 }
      local ex, ey = rule(0, 0, vx, vy, r, L, 3, rocks)
      local fx, fy = a:avoid_obstacles(L)
      assert.is_near(ex, fx, 1e-12)
      assert.is_near(ey, fy, 1e-12)
      if ex ~= 0 or ey ~= 0 then touched = touched + 1 end
    end
    assert.is_true(touched > 100, touched .. " of 300 cases touched a rock")
  end)

  it("limits", function()
    local a = setup({ vx = BIG, max_force = BIG },
      { { x = BIG, y = 1, radius = BIG } })
    req("huge", 0, -BIG, a:avoid_obstacles(BIG))
    local b = setup({ x = -BIG, y = -BIG, vx = BIG, vy = BIG, max_force = BIG,
      radius = BIG }, { { x = BIG, y = BIG, radius = BIG } })
    all_finite(b:avoid_obstacles(BIG))
    local c = setup({ vx = 1, radius = 0 }, { { x = 3, y = TINY, radius = TINY } })
    eq("tiny", 0, 0, c:avoid_obstacles())
  end)

  it("uses wrapped offsets on a torus", function()
    -- tip (101, 10) is (1, 10) on the torus; the centre is 0.5 above it
    local a = setup({ x = 98, y = 10, vx = 1, max_force = 2 },
      { { x = 1, y = 10.5, radius = 1 } }, { bounds = { 100, 80 }, wrap = true })
    eq("across the seam", 0, -2, a:avoid_obstacles())
  end)
end)

describe("a:avoid_walls", function()
  local function setup(agent, walls, opts)
    local w = new_world(opts)
    for _, s in ipairs(walls) do w:add_wall(s) end
    return w:add(agent), w
  end
  local wall_x2 = { x1 = 2, y1 = -5, x2 = 2, y2 = 5 }
  local wall_x2_rev = { x1 = 2, y1 = 5, x2 = 2, y2 = -5 }

  it("pushes along the normal, facing the agent, by the overshoot", function()
    -- feeler (0,0) -> (3,0) crosses x = 2: overshoot 1, push to -x
    local a = setup({ vx = 1, max_force = 100 }, { wall_x2 })
    eq("from the left", -1, 0, a:avoid_walls())
    local b = setup({ x = 4, vx = -1 }, { wall_x2 })
    eq("from the right", 1, 0, b:avoid_walls())
    local c = setup({ vx = 1 }, { wall_x2_rev })
    eq("reversed wall, left", -1, 0, c:avoid_walls())
    local d = setup({ x = 4, vx = -1 }, { wall_x2_rev })
    eq("reversed wall, right", 1, 0, d:avoid_walls())
    eq("longer feeler", -3, 0, a:avoid_walls(5))
    unchanged(a, 0, 0, 1, 0, "avoid_walls")
  end)

  it("the overshoot is the part of the feeler beyond the wall", function()
    -- feeler (0,0) -> (3,3) crosses x = 2 at (2,2): |(3,3) - (2,2)| = sqrt 2
    local a = setup({ vx = 1, vy = 1 }, { wall_x2 })
    eq("oblique", -S2, 0, a:avoid_walls(3 * S2))
  end)

  it("feelers that do not cross give zero", function()
    local a = setup({ vx = 1 }, { wall_x2 })
    eq("too short", 0, 0, a:avoid_walls(1.5))
    eq("tip on the wall: overshoot 0", 0, 0, a:avoid_walls(2))
    eq("feeler 0", 0, 0, a:avoid_walls(0))
    local b = setup({ vx = 1 }, { { x1 = 2, y1 = 0.1, x2 = 2, y2 = 5 } })
    eq("passes the end", 0, 0, b:avoid_walls())
    local c = setup({ vx = 1 }, { { x1 = 2, y1 = 0, x2 = 2, y2 = 5 } })
    eq("touches the end", -1, 0, c:avoid_walls())
    local d = setup({ vx = 1 }, { { x1 = 1, y1 = 0, x2 = 5, y2 = 0 } })
    eq("parallel, on the wall", 0, 0, d:avoid_walls())
    local e = setup({ x = -4, vx = -1 }, { wall_x2 })
    eq("moving away", 0, 0, e:avoid_walls())
  end)

  it("the nearest crossing wins, whatever the order", function()
    local far_w = { x1 = 2.5, y1 = -5, x2 = 2.5, y2 = 5 }
    local a = setup({ vx = 1 }, { wall_x2, far_w })
    eq("near first", -1, 0, a:avoid_walls())
    local b = setup({ vx = 1 }, { far_w, wall_x2 })
    eq("near last", -1, 0, b:avoid_walls())
  end)

  it("zero velocity feels along (1, 0)", function()
    local a = setup({}, { wall_x2 })
    eq("at rest", -1, 0, a:avoid_walls())
  end)

  it("limits", function()
    local a = setup({ x = 1e149, vx = BIG },
      { { x1 = BIG, y1 = -BIG, x2 = BIG, y2 = BIG } })
    -- tip at 1.1e150: overshoot 1e149
    req("huge", -1e149, 0, a:avoid_walls(BIG))
    -- the wall at x = 1e-300: overshoot 3 - 1e-300 = 3
    local b = setup({ vx = 1 }, { { x1 = TINY, y1 = -1, x2 = TINY, y2 = 1 } })
    eq("tiny offset", -3, 0, b:avoid_walls())
    -- a wall 2e-300 (or 1e-6) long still has a normal: (-1, 0) here
    local c = setup({ vx = 1 }, { { x1 = 2, y1 = -TINY, x2 = 2, y2 = TINY } })
    eq("tiny wall", -1, 0, c:avoid_walls())
    local d = setup({ vx = 1 }, { { x1 = 2, y1 = -5e-7, x2 = 2, y2 = 5e-7 } })
    eq("1e-6 wall", -1, 0, d:avoid_walls())
  end)

  it("uses wrapped offsets on a torus", function()
    local a = setup({ x = 99, y = 10, vx = 1 },
      { { x1 = 1, y1 = 0, x2 = 1, y2 = 20 } }, { bounds = { 100, 80 }, wrap = true })
    -- feeler 99 -> 102 crosses x = 101 = 1: overshoot 1
    eq("across the seam", -1, 0, a:avoid_walls())
  end)
end)

-- ===================================================================== --
describe("flocking: separation, alignment, cohesion", function()
  -- a at the origin moving +x; b 1 to the right, c 2 above
  local function trio()
    local w = new_world()
    local a = w:add{ vx = 1, max_speed = 2, max_force = 10 }
    w:add{ x = 1, vy = 2 }
    w:add{ y = 2, vx = 2, vy = 2 }
    return a, w
  end

  it("separation: mean of normalize(p - q) / d over 1e-5 < d < r", function()
    local a = trio()
    -- (-1, 0)/1 + (0, -1)/2, halved
    eq("both", -0.5, -0.25, a:separation(3))
    eq("d = r excluded", -1, 0, a:separation(2))
    eq("d = 1 = r excluded", 0, 0, a:separation(1))
    eq("radius 0", 0, 0, a:separation(0))
    unchanged(a, 0, 0, 1, 0, "separation")
  end)

  it("alignment: mean neighbor velocity - v, d <= r", function()
    local a = trio()
    eq("both", 0, 2, a:alignment(3))
    eq("d = 2 = r included", 0, 2, a:alignment(2))
    eq("only b", -1, 2, a:alignment(1))
    eq("none", 0, 0, a:alignment(0.5))
    eq("radius 0", 0, 0, a:alignment(0))
  end)

  it("cohesion: normalize(centre - p) * max_speed - v", function()
    local a = trio()
    -- centre (0.5, 1): direction (1, 2)/sqrt 5
    local n = math.sqrt(5)
    eq("both", 2 / n - 1, 4 / n, a:cohesion(3))
    eq("only b", 1, 0, a:cohesion(1))
    eq("none", 0, 0, a:cohesion(0.5))
  end)

  it("coincident neighbors", function()
    local w = new_world()
    local a = w:add{ vx = 1, max_speed = 2 }
    w:add{ vx = 3 }                      -- on top of a
    eq("separation skips d <= 1e-5", 0, 0, a:separation(1))
    eq("alignment counts it (d = 0 <= 0)", 2, 0, a:alignment(0))
    eq("cohesion towards its own position", -1, 0, a:cohesion(0))
    w:add{ x = 0.5 }
    -- only the one 0.5 away counts, and only it is in the mean
    eq("separation with one coincident", -2, 0, a:separation(1))
  end)

  it("cohesion on a symmetric flock is -v", function()
    local w = new_world()
    local a = w:add{ vx = 1, vy = 1, max_speed = 2 }
    w:add{ x = -1 }; w:add{ x = 1 }
    eq("centre = p", -1, -1, a:cohesion(2))
  end)

  it("separation just above 1e-5", function()
    local w = new_world()
    local a = w:add{}
    w:add{ x = 2e-5 }
    req("1 / 2e-5", -1 / 2e-5, 0, a:separation(1))
    local w2 = new_world()
    local b = w2:add{}
    w2:add{ x = 0.9e-5 }
    eq("0.9e-5 skipped", 0, 0, b:separation(1))
  end)

  it("zero max_speed", function()
    local a = trio()
    a.max_speed = 0
    eq("cohesion", -1, 0, a:cohesion(3))
  end)

  it("limits", function()
    local w = new_world()
    local a = w:add{ max_speed = BIG }
    w:add{ x = BIG, vx = BIG }
    -- d^2 = 1e300 = r^2: within radius for alignment and cohesion
    req("alignment huge", BIG, 0, a:alignment(BIG))
    req("cohesion huge", BIG, 0, a:cohesion(BIG))
    eq("separation: d = r excluded", 0, 0, a:separation(BIG))
    local w2 = new_world()
    local b = w2:add{}
    w2:add{ x = 5e149 }
    req("separation huge", -2e-150, 0, b:separation(BIG))
    local w3 = new_world()
    local c = w3:add{ x = -BIG, y = -BIG, vx = -BIG, vy = BIG, max_speed = BIG }
    w3:add{ x = BIG, y = BIG, vx = BIG, vy = -BIG }
    all_finite(c:separation(BIG), c:alignment(BIG), c:cohesion(BIG))
    local w4 = new_world()
    local d = w4:add{ vx = 1 }
    w4:add{ x = TINY, vx = 3 }
    eq("tiny offset, separation", 0, 0, d:separation(1))
    eq("tiny offset, alignment", 2, 0, d:alignment(1))
    eq("tiny offset, cohesion", -1, 0, d:cohesion(1))
    all_finite(d:separation(TINY), d:alignment(TINY), d:cohesion(TINY))
  end)

  it("uses wrapped offsets on a torus", function()
    local w = new_world{ bounds = { 100, 80 }, wrap = true }
    local a = w:add{ x = 99.5, y = 40, max_speed = 1 }
    w:add{ x = 0.5, y = 40, vy = 2 }
    eq("separation", -1, 0, a:separation(2))
    eq("alignment", 0, 2, a:alignment(2))
    eq("cohesion", 1, 0, a:cohesion(2))
  end)
end)

-- ===================================================================== --
describe("no behavior ever produces NaN or infinity", function()
  local worlds = {
    { name = "unbounded" },
    { name = "torus", bounds = { 100, 80 }, wrap = true },
    { name = "clamped", bounds = { 100, 80 } },
    { name = "huge torus", bounds = { BIG, BIG }, wrap = true },
    { name = "tiny clamped", bounds = { TINY, TINY } },
    { name = "tiny torus", bounds = { TINY, TINY }, wrap = true },
    { name = "thin torus", bounds = { 3, 1e-200 }, wrap = true },
  }
  local configs = {
    zero = { pos = 0, vel = 0, speed = 0, force = 0, radius = 0, feeler = 0 },
    huge = { pos = BIG, vel = BIG, speed = BIG, force = BIG, radius = BIG, feeler = BIG },
    tiny = { pos = TINY, vel = TINY, speed = TINY, force = TINY, radius = TINY, feeler = TINY },
    mixed = { pos = -BIG, vel = TINY, speed = BIG, force = TINY, radius = 0, feeler = BIG },
  }

  for _, wo in ipairs(worlds) do
    for cname, c in pairs(configs) do
      it(wo.name .. " world, " .. cname .. " values", function()
        local w = steer.world{ bounds = wo.bounds, wrap = wo.wrap }
        local spec = { x = c.pos, y = -c.pos, vx = c.vel, vy = -c.vel,
          max_speed = c.speed, max_force = c.force, radius = c.radius }
        local a = w:add(spec)
        local b = w:add(spec)                         -- coincident
        local o = w:add{ x = -c.pos, y = c.pos, vx = -c.vel, vy = c.vel }
        w:add_obstacle{ x = c.pos, y = -c.pos, radius = c.radius }
        w:add_obstacle{ x = -c.pos, y = c.pos, radius = c.radius }
        -- a torus refuses walls longer than itself on an axis (docs/API.md)
        local function add_wall(x1, y1, x2, y2)
          local wall = { x1 = x1, y1 = y1, x2 = x2, y2 = y2 }
          if wo.wrap and (math.abs(x2 - x1) > wo.bounds[1] or math.abs(y2 - y1) > wo.bounds[2]) then
            local ok, err = pcall(w.add_wall, w, wall)
            assert.is_false(ok)
            assert.is_truthy(tostring(err):find("wall is longer than the wrapped world", 1, true))
          else
            w:add_wall(wall)
          end
        end
        if c.pos ~= 0 then add_wall(-c.pos, -c.pos, c.pos, c.pos) end
        add_wall(0, -1, 0, 1)
        if wo.wrap then add_wall(0, 0, wo.bounds[1] / 2, wo.bounds[2]) end
        local path = steer.path{ { c.pos, -c.pos }, { -c.pos, c.pos }, { 0, 0 } }
        local r = c.radius
        local results = {
          { a:seek(b) }, { a:seek(o) }, { a:seek(c.pos, c.pos) },
          { a:flee(b) }, { a:flee(o, r) }, { a:flee(-c.pos, -c.pos, r) },
          { a:arrive(b) }, { a:arrive(o, r) }, { a:arrive(0, 0, r) },
          { a:pursue(b) }, { a:pursue(o) }, { a:evade(b) }, { a:evade(o) },
          { a:wander() }, { a:wander() },
          { a:avoid_obstacles() }, { a:avoid_obstacles(c.feeler) },
          { a:avoid_walls() }, { a:avoid_walls(c.feeler) },
          { a:follow(path) }, { a:follow(path, { arrival_radius = r, slowing_radius = r }) },
          { a:separation(r) }, { a:alignment(r) }, { a:cohesion(r) },
          { a:separation(BIG) }, { a:alignment(BIG) }, { a:cohesion(BIG) },
        }
        for k, res in ipairs(results) do
          assert.are.equal(2, #res, "call " .. k .. " result count")
          local ok, err = pcall(all_finite, res[1], res[2])
          assert(ok, "call " .. k .. ": " .. tostring(err))
        end
        for _, dt in ipairs({ TINY, 1, BIG }) do
          for _, f in ipairs({ { 0, 0 }, { c.force, -c.force }, { BIG, BIG } }) do
            a:apply(f[1], f[2], dt)
            all_finite(a.x, a.y, a.vx, a.vy, a.speed, a.heading)
            assert.is_true(math.abs(a.x) <= steer.limit and math.abs(a.y) <= steer.limit)
            assert.is_true(math.abs(a.vx) <= steer.limit and math.abs(a.vy) <= steer.limit)
          end
        end
      end)
    end
  end
end)
