-- steer.world{ max_step = s }: a long dt runs as equal steps no longer than s
-- (a game developer's review, session 43: one 0.5 s hitch put a guard inside
-- a wall for good).
local steer = require "steer"
local support = require "support"

-- a small world whose state after a step depends on dt in every way: seeking,
-- flocking and a wall
local function scene(def)
  local w = steer.world(def)
  w:add_wall{ x1 = 6, y1 = -10, x2 = 6, y2 = 10 }
  local program = steer.program{ combine = "prioritized_sum",
    { "avoid_walls", feeler_length = 2, weight = 4 },
    { "separation", radius = 2 }, { "seek", target = { 20, 1 } } }
  local agents = {}
  for k = 0, 4 do
    agents[#agents + 1] = w:add{ x = k * 0.7, y = k % 2, vx = 1, max_speed = 3,
                                 max_force = 6, program = program }
  end
  return w, agents
end

local function state(agents)
  local out = {}
  for _, a in ipairs(agents) do
    for _, v in ipairs{ a.x, a.y, a.vx, a.vy } do out[#out + 1] = v end
  end
  return out
end

describe("steer.world{ max_step }", function()
  it("runs a long dt as ceil(dt / max_step) equal steps, bit for bit", function()
    for _, c in ipairs{ { 0.25, 0.1, 3 }, { 0.5, 1 / 30, 15 }, { 0.3, 0.1, 3 }, { 1, 0.25, 4 } } do
      local dt, most, n = c[1], c[2], c[3]
      local w1, a1 = scene{ max_step = most }
      local w2, a2 = scene{}
      for _ = 1, 3 do
        w1:step(dt)
        for _ = 1, n do w2:step(dt / n) end
      end
      assert.are.same(state(a2), state(a1))
      -- and it is not one step of dt
      local w3, a3 = scene{}
      for _ = 1, 3 do w3:step(dt) end
      assert.are_not.same(state(a3), state(a1))
    end
  end)

  it("takes a dt up to max_step as one step", function()
    for _, dt in ipairs{ 0.05, 0.1 } do
      local w1, a1 = scene{ max_step = 0.1 }
      local w2, a2 = scene{}
      w1:step(dt); w2:step(dt)
      assert.are.same(state(a2), state(a1))
    end
  end)

  it("splits into at most 64 steps", function()
    local w1, a1 = scene{ max_step = 0.001 }
    local w2, a2 = scene{}
    w1:step(1)
    for _ = 1, 64 do w2:step(1 / 64) end
    assert.are.same(state(a2), state(a1))
  end)

  it("keeps a guard out of a tile wall through a 0.5 s hitch", function()
    local function guard_after_hitch(def)
      local world = steer.world(def)
      world:add_walls(steer.walls_from_tiles({ 0, 0, 0, 1, 0, 0, 0 }, 7, 1, 24))
      local a = world:add{ x = 10, y = 12, max_speed = 90, max_force = 400, radius = 8,
        program = { combine = "priority", { "avoid_walls", feeler_length = 40, weight = 8 },
                    { "seek", target = { 160, 12 } } } }
      local hitched = false
      for _ = 1, 300 do
        local dt = 1 / 60
        if not hitched and a.x > 30 then dt, hitched = 0.5, true end
        world:step(dt)
      end
      return a.x
    end
    -- one step of 0.5 s lands the guard inside the wall (x 72..96) for good
    local x = guard_after_hitch{ bounds = { 168, 200 } }
    assert.is_true(x > 72 and x < 96, "inside the wall: " .. x)
    x = guard_after_hitch{ bounds = { 168, 200 }, max_step = 1 / 30 }
    assert.is_true(x < 72 - 8 + 1e-9, "stays before the wall: " .. x)
  end)

  it("is a restore option, and checked", function()
    local w1, a1 = scene{}
    w1:step(0.1)
    local snap = w1:snapshot()
    local r = steer.restore(snap, { max_step = 0.05 })
    local plain = steer.restore(snap)
    r:step(0.2)
    plain:step(0.05); plain:step(0.05); plain:step(0.05); plain:step(0.05)
    local xs, ys = {}, {}
    for a in r:agents() do xs[#xs + 1] = a.x end
    for a in plain:agents() do ys[#ys + 1] = a.x end
    assert.are.same(ys, xs)
    assert.matches("bad argument #1 to 'world' %(field 'max_step': positive number expected, got 0%)",
      support.error_of(steer.world, { max_step = 0 }))
    assert.matches("field 'max_step': number expected, got string",
      support.error_of(steer.world, { max_step = "1" }))
    assert.matches("bad argument #2 to 'restore' %(field 'max_step': positive number expected, got %-1%)",
      support.error_of(steer.restore, snap, { max_step = -1 }))
    assert.matches("did you mean 'max_step'", support.error_of(steer.world, { max_steps = 0.1 }))
    local nan_step = support.error_of(steer.world, { max_step = 0 / 0 })
    assert.matches("max_step", nan_step)
  end)
end)
