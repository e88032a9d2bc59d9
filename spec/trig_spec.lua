-- steer's own sine and cosine (csrc/trig.h), which wander uses on every
-- path (a:wander(), program entries one by one, batches in SIMD lanes):
-- against Lua's math.sin and math.cos (libm), error measured in ulps.
-- An agent at rest with wander_distance 0, wander_radius 1 and
-- wander_jitter 0 returns exactly (cos theta, sin theta) from a:wander():
-- forward (1, 0) * 0 + (cos, sin) * 1, theta moved by r * 0 = 0.
local steer = require "steer"

-- The unit in the last place of x (a double, not 0).
local function ulp(x)
  x = math.abs(x)
  local e = math.floor(math.log(x, 2))
  while 2.0 ^ e > x do e = e - 1 end
  while 2.0 ^ (e + 1) <= x do e = e + 1 end
  if e < -1022 then e = -1022 end -- subnormal: the spacing stays 2^-1074
  return 2.0 ^ (e - 52)
end

-- |got - want| in units of want's last place
local function ulps(got, want)
  if got == want then return 0 end
  return math.abs(got - want) / ulp(want)
end

describe("steer's sine and cosine (wander)", function()
  local w, a
  before_each(function()
    w = steer.world{}
    a = w:add{ wander_distance = 0, wander_radius = 1, wander_jitter = 0 }
  end)
  after_each(function() w:close() end)

  local function sincos(theta)
    a.wander_angle = theta
    local c, s = a:wander()
    return s, c
  end

  it("returns sin and cos through a:wander() exactly at 0", function()
    local s, c = sincos(0)
    assert.are.equal(0, s)
    assert.are.equal(1, c)
    s, c = sincos(-0.0)
    assert.are.equal(0, s)
    assert.are.equal(1, c)
  end)

  it("is within 1.5 ulps of math.sin and math.cos over many angles", function()
    local angles = {}
    -- a sweep of [-100, 100], small angles, large ones up to 65536, and
    -- the doubles nearest the multiples of pi/2 (where the reduction
    -- cancels: sin(pi) is 1.22e-16, not 0)
    for k = 0, 20000 do angles[#angles + 1] = -100 + k * 0.01 end
    for k = 1, 2000 do angles[#angles + 1] = 1e-8 * k * k end
    for k = 1, 2000 do angles[#angles + 1] = k * 32.768 + 1 / k end
    for k = -3000, 3000 do angles[#angles + 1] = k * (math.pi / 2) end
    for k = 1, 500 do angles[#angles + 1] = k * 131 * (math.pi / 2) end
    local worst_s, worst_c, at_s, at_c, over1 = 0, 0, nil, nil, 0
    for _, t in ipairs(angles) do
      for _, theta in ipairs{ t, -t } do
        local s, c = sincos(theta)
        local es, ec = ulps(s, math.sin(theta)), ulps(c, math.cos(theta))
        if es > worst_s then worst_s, at_s = es, theta end
        if ec > worst_c then worst_c, at_c = ec, theta end
        if es > 1 or ec > 1 then over1 = over1 + 1 end
        assert.is_true(s == s and c == c, "NaN at " .. theta)
        assert.is_true(math.abs(s) <= 1 and math.abs(c) <= 1, "beyond 1 at " .. theta)
      end
    end
    assert.is_true(worst_s <= 1.5, ("sin: %.2f ulps at %.17g"):format(worst_s, at_s or 0))
    assert.is_true(worst_c <= 1.5, ("cos: %.2f ulps at %.17g"):format(worst_c, at_c or 0))
    -- libm is within half an ulp, steer within one: rarely a full ulp apart
    assert.is_true(over1 < #angles / 100, over1 .. " angles more than 1 ulp off")
  end)

  it("keeps the sign and symmetries of sin and cos", function()
    for k = 1, 1000 do
      local t = k * 0.0137
      local s1, c1 = sincos(t)
      local s2, c2 = sincos(-t)
      assert.are.equal(s1, -s2)
      assert.are.equal(c1, c2)
    end
  end)

  it("gives libm's values beyond 65536 radians", function()
    for _, theta in ipairs{ 65536.5, 1e6, -1e6 - 0.25, 123456789.125, 1e15, -3e14 } do
      local s, c = sincos(theta)
      assert.are.equal(math.sin(theta), s, "sin " .. theta)
      assert.are.equal(math.cos(theta), c, "cos " .. theta)
    end
  end)

  it("the program entry gives a:wander()'s bits in lanes and alone", function()
    -- agents with the same generator state and angle: one wanders by
    -- method, the others by a program entry, batched (a crowd of one
    -- program) at each SIMD width; every force must be the same bits
    local function forces(width)
      steer.testing.simd(width)
      local world = steer.world{ bounds = { 100, 100 }, wrap = true }
      local prog = steer.program{ { "wander" } }
      local out = {}
      local crowd = {}
      for k = 1, 200 do
        local theta = (k % 9 == 0) and k * 1e3 or (k - 100) * 0.37 -- some beyond 65536
        local b = world:add{ x = k % 50, y = k * 0.3, vx = (k % 5 == 0) and 0 or math.cos(k),
          vy = math.sin(k), max_speed = 5, max_force = 100,
          wander_jitter = k % 3, wander_radius = 1 + k % 4, wander_distance = k % 2 }
        b:set_behaviors(prog)
        b:seed(k)
        b.wander_angle = theta
        crowd[k] = b
      end
      world:step(0.1)
      for k, b in ipairs(crowd) do out[k] = { b.vx, b.vy, b.wander_angle } end
      steer.testing.simd()
      world:close()
      return out
    end
    -- the reference: the same agents wandering by method, one at a time
    local world = steer.world{ bounds = { 100, 100 }, wrap = true }
    local want = {}
    for k = 1, 200 do
      local theta = (k % 9 == 0) and k * 1e3 or (k - 100) * 0.37
      local b = world:add{ x = k % 50, y = k * 0.3, vx = (k % 5 == 0) and 0 or math.cos(k),
        vy = math.sin(k), max_speed = 5, max_force = 100,
        wander_jitter = k % 3, wander_radius = 1 + k % 4, wander_distance = k % 2 }
      b:seed(k)
      b.wander_angle = theta
      local fx, fy = b:wander()
      b:apply(fx, fy, 0.1)
      want[k] = { b.vx, b.vy, b.wander_angle }
    end
    world:close()
    for _, width in ipairs{ 1, 2, 4 } do
      local got = forces(width)
      for k = 1, 200 do
        for f = 1, 3 do
          assert.are.equal(want[k][f], got[k][f], ("width %d agent %d field %d"):format(width, k, f))
        end
      end
    end
  end)
end)
