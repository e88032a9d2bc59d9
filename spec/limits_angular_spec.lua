-- Values the world stores stay within ±steer.limit (a velocity clamped to a
-- max_speed of steer.limit used to round one ulp past it), snapshots of such
-- values load, and an angular entry whose target agent is gone brakes the
-- spin instead of keeping it. Expected values are worked out by hand from
-- docs/API.md (section 1's pipeline, section 19's braking law).
local steer = require "steer"
local support = require "support"

local L = steer.limit
local ULP = 2 ^ 446 -- one ulp of 1e150 (2^498 <= 1e150 < 2^499)

local function near(want, got, rel)
  assert(math.abs(got - want) <= rel * math.abs(want),
    ("%.17g expected, got %.17g"):format(want, got))
end

local function within(want, got, tol)
  assert(math.abs(got - want) <= tol, ("%.17g expected, got %.17g"):format(want, got))
end

describe("values at the limit", function()
  it("the ulp the specs use is the next double after steer.limit", function()
    assert.are.equal(1.0000000000000002e150, L + ULP)
    assert.is_true(L + ULP > L)
  end)

  it("a:apply at max_speed = steer.limit keeps the velocity within the limit", function()
    -- v + f dt = (1.4921563030364727e138, 1.84e150), longer than 1e150: scaled to
    -- length 1e150, so vy is (all but) 1e150 and vx 1.4921563030364727e138 / 1.84
    local w = steer.world{}
    local a = w:add{ vx = 1.4921563030364727e138, vy = L, max_speed = L, max_force = L }
    a:apply(0, L, 0.84)
    assert.are.equal(L, a.vy) -- 1.0000000000000002e150 before
    near(1.4921563030364727e138 / 1.84, a.vx, 1e-12)
    assert.has_no.errors(function() a.vy = a.vy end)
    local copy, msg = steer.restore(w:snapshot())
    assert.is_truthy(copy, msg)
    assert.are.equal(w:snapshot(), copy:snapshot())
  end)

  it("a step's integration keeps the velocity within the limit (plain and turning bodies)", function()
    -- seek (-4.4275442550293478e149, 0) from the origin: desired (-1e150, 0),
    -- f = desired - v (shorter than max_force), v + 3 f about (-1.997e150, 1.61e140),
    -- scaled to length 1e150: vx = -1e150, vy = 1.61e140 / 1.997
    local vx, vy = -5.0222750789570012e149, -8.0486623278253184e139
    local fx, fy = -L - vx, -vy
    local ux, uy = vx + 3 * fx, vy + 3 * fy
    for _, min_speed in ipairs{ 0, 1 } do -- min_speed: the body's integration
      local w = steer.world{}
      local agents = {}
      for k = 1, 3 do -- a pair for the SIMD lanes, and one alone
        local a = w:add{ vx = vx, vy = vy, max_speed = L, max_force = L, min_speed = min_speed }
        a:set_behaviors{ { "seek", target = { -4.4275442550293478e149, 0 } } }
        agents[k] = a
      end
      w:step(3)
      for _, a in ipairs(agents) do
        assert.are.equal(-L, a.vx) -- -1.0000000000000002e150 before
        near(uy * (L / math.sqrt(ux * ux + uy * uy)), a.vy, 1e-12)
        assert.are.equal(-L, a.x) -- x + 3 vx, kept within the limit
      end
      local copy, msg = steer.restore(w:snapshot())
      assert.is_truthy(copy, msg)
    end
  end)

  it("an out-of-range number is shown with the digits that tell it from the limit", function()
    local a = steer.world{}:add{}
    local msg = support.error_of(function() a.vy = L + ULP end)
    assert.matches("number out of range, |1.0000000000000002e+150| > 1e150", msg, 1, true)
    msg = support.error_of(function() a.vy = 1e300 end)
    assert.matches("number out of range, |1e+300| > 1e150", msg, 1, true)
    msg = support.error_of(function() a.vy = -1.2345678901234567e200 end)
    assert.matches("|-1.2345678901234567e+200| > 1e150", msg, 1, true)
  end)
end)

describe("snapshots holding values a few ulps past the limit", function()
  -- the snapshot's checksum (spec/support.lua) and a double's 8 bytes
  local fnv, f64 = support.fnv, nil
  if _VERSION == "Lua 5.4" then
    f64 = function(v) return string.pack("<d", v) end
  elseif jit then
    local ffi = require "ffi"
    f64 = function(v) return ffi.string(ffi.new("double[1]", v), 8) end -- x86: little-endian
  end

  local function first(w)
    for a in w:agents() do return a end
  end

  -- the snapshot of one agent with vy = -steer.limit, those 8 bytes replaced by v's
  local function with_vy(v)
    local w = steer.world{}
    w:add{ x = 1, y = 2, vx = 3, vy = -L, max_speed = 2 }
    local s = w:snapshot()
    local body = s:sub(1, #s - 8)
    local at = body:find(f64(-L), 1, true)
    assert.is_truthy(at)
    assert.is_nil(body:find(f64(-L), at + 1, true)) -- the only one
    body = body:sub(1, at - 1) .. f64(v) .. body:sub(at + 8)
    return steer.restore(body .. fnv(body))
  end

  it("load, up to 5 ulps past it, with the value read as the limit", function()
    if not fnv then return pending("forging needs 64-bit integers (Lua 5.4, LuaJIT)") end
    for k = 1, 5 do
      local w, msg = with_vy(-(L + k * ULP))
      assert.is_truthy(w, msg) -- refused before ("snapshot holds a number out of range")
      local a = first(w)
      assert.are.equal(-L, a.vy)
      assert.are.equal(3, a.vx)
      assert.are.equal(-L, first(steer.restore(w:snapshot())).vy)
    end
  end)

  it("are refused beyond that, as any number out of range", function()
    if not fnv then return pending("forging needs 64-bit integers (Lua 5.4, LuaJIT)") end
    for _, v in ipairs{ -(L + 6 * ULP), -(L + 100 * ULP), -1e151, -1e300, -1 / 0 } do
      local w, msg = with_vy(v)
      assert.is_nil(w)
      assert.are.equal("snapshot holds a number out of range", msg)
    end
  end)
end)

describe("an angular entry whose target agent is removed", function()
  -- the braking law (section 19): the turn toward the agent's own angle,
  -- alpha = clamp((0 - omega) / dt, ±max_angular_acceleration); with omega 2,
  -- max_angular_acceleration 5 and dt 0.1 omega falls by 0.5 a step
  local omegas = { 1.5, 1, 0.5, 0, 0, 0 }
  local angles = { 0.15, 0.25, 0.3, 0.3, 0.3, 0.3 }

  local function brakes(entry)
    local w = steer.world{}
    local target = w:add{ x = 0, y = 10, angle = 1, angular_velocity = 0.5 }
    local a = w:add{ max_angular_acceleration = 5 }
    entry.target = target
    a:set_behaviors{ entry }
    w:remove(target)
    a.angular_velocity = 2
    for k = 1, #omegas do
      w:step(0.1)
      within(omegas[k], a.angular_velocity, 1e-12)
      within(angles[k], a.angle, 1e-12) -- kept spinning at 2 before: 0.2 k
    end
    return a
  end

  it("face brakes the spin", function()
    brakes{ "face" }
  end)

  it("match_orientation brakes the spin", function()
    brakes{ "match_orientation" }
  end)

  it("the turret of the review stops once its target is gone", function()
    local w = steer.world{}
    local turret = w:add{ max_turn_rate = 1 }
    local wolf = w:add{ x = 10, vy = 5, max_speed = 5 }
    turret:set_behaviors{ { "face", target = wolf } }
    for _ = 1, 30 do w:step(0.1) end
    assert.is_true(turret.angular_velocity > 0.1) -- tracking
    w:remove(wolf)
    w:step(0.1) -- unlimited angular acceleration: stops within the step
    assert.are.equal(0, turret.angular_velocity)
    local angle = turret.angle
    for _ = 1, 100 do w:step(0.1) end
    assert.are.equal(angle, turret.angle) -- turned 1.65 rad more before
    assert.are.equal(0, turret.angular_velocity)
  end)

  it("a weight scales the braking like any angular entry's alpha", function()
    -- weight 0.5: alpha -2.5, omega 2 - 0.25 = 1.75 after a step
    local w = steer.world{}
    local target = w:add{ x = 5 }
    local a = w:add{ max_angular_acceleration = 5, angular_velocity = 2 }
    a:set_behaviors{ { "face", target = target, weight = 0.5 } }
    w:remove(target)
    w:step(0.1)
    near(1.75, a.angular_velocity, 1e-12)
  end)

  it("the method forms still raise for a removed agent", function()
    local w = steer.world{}
    local a, b = w:add{}, w:add{ x = 1 }
    w:remove(b)
    assert.matches("agent has been removed", support.error_of(a.face, a, b), 1, true)
    assert.matches("agent has been removed", support.error_of(a.match_orientation, a, b), 1, true)
  end)
end)

describe("turn = 'velocity' beside angular entries (C API)", function()
  it("the entries steer the angle; without them the angle follows the velocity", function()
    support.run_oracle("turn_entries", 20)
  end)
end)
