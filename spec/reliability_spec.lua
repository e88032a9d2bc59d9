-- Out of memory never crashes nor half-updates a world; closed worlds raise.
local steer = require "steer"
local support = require "support"
local error_of = support.error_of
local fail_after = steer.testing.fail_allocations

-- A world with some of everything, the state an operation starts from.
local function busy_world()
  local world = steer.world{ seed = 4, bounds = { 100, 100 }, wrap = true }
  world:add_obstacle{ x = 50, y = 50, radius = 5 }
  for k = 1, 16 do -- exactly the first capacity: the next add must grow
    local a = world:add{ x = k * 6, y = k * 3, vx = 1, max_speed = 2, max_force = 3 }
    if k % 2 == 0 then a:set_behaviors{ { "separation", radius = 2 }, { "cohesion", radius = 5 } } end
  end
  return world
end

-- Runs op(world) with the n-th allocation failing, for n = 0, 1, 2, ...
-- until it succeeds. Every failure must raise "not enough memory" and leave
-- the world exactly as it was (its snapshot unchanged). Returns how many
-- failures were injected.
local function exhaust(setup, op)
  for n = 0, 200 do
    local world, extra = setup()
    local before = world:snapshot()
    fail_after(n)
    local ok, err = pcall(op, world, extra)
    fail_after(nil)
    if ok then
      assert.is_true(n > 0, "the operation should allocate")
      return n
    end
    assert.matches("not enough memory", tostring(err))
    assert.are.equal(before, world:snapshot(), "failure #" .. n .. " changed the world")
  end
  error("never succeeded")
end

describe("allocation failure", function()
  local path = steer.path{ { 0, 0 }, { 10, 0 } }

  -- each: the operation, and optionally what to do to the world first
  local function shared_seek(w)
    w:get(1):set_behaviors{ { "seek", target = { 1, 1 } } }
    w:get(3):set_behaviors{ { "seek", target = { 1, 1 } } } -- share the program
  end
  local function full_of_obstacles(w)
    for k = 2, 16 do w:add_obstacle{ x = k, y = k, radius = 1 } end
  end

  local ops = {
    ["world:add (growing every array)"] = { function(w) w:add{ x = 1, name = "new" } end },
    ["world:add with wander parameters"] = { function(w) w:add{ wander_jitter = 2 } end },
    ["a.wander_radius ="] = { function(w) w:get(1).wander_radius = 3 end },
    ["a:wander()"] = { function(w) w:get(1):wander() end },
    ["a:follow(path)"] = { function(w) w:get(1):follow(path) end },
    ["a:seed(n)"] = { function(w) w:get(1):seed(7) end },
    ["a:set_behaviors (state and cold state)"] = { function(w)
      w:get(1):set_behaviors{ combine = "priority", smoothing = 0.5,
        { "follow", path = path }, { "wander" } }
    end },
    ["a:set_target that needs bookkeeping"] = { function(w) w:get(1):set_target(1, path) end,
      shared_seek },
    ["a:set_weight of a shared program"] = { function(w) w:get(2):set_weight(1, 5) end },
    ["world:step (first step)"] = { function(w) w:step(0.1) end },
    ["world:add_obstacle"] = { function(w) w:add_obstacle{ x = 1, y = 1, radius = 1 } end,
      full_of_obstacles },
    ["world:add_wall"] = { function(w) w:add_wall{ x1 = 0, y1 = 0, x2 = 1, y2 = 1 } end },
    -- 40 walls at once, two of them into removed walls' slots: all or none,
    -- and a failed call leaves the handles to come as they were
    ["world:add_walls"] = { function(w)
      local list = {}
      for k = 1, 40 do list[k] = { x1 = k, y1 = k % 7, x2 = k + 3, y2 = k % 5 + 1 } end
      w:add_walls(list)
    end, function(w)
      local gone = { w:add_wall{ x1 = 0, y1 = 0, x2 = 1, y2 = 0 }, w:add_wall{ x1 = 0, y1 = 2, x2 = 1, y2 = 2 } }
      w:add_wall{ x1 = 0, y1 = 4, x2 = 1, y2 = 4 }
      for _, h in ipairs(gone) do h:remove() end
    end },
    ["world:add_polygon"] = { function(w) w:add_polygon{ 10, 10, 20, 10, 20, 20, 10, 20, closed = true } end },
    ["world:query with many results"] = { function(w)
      local n = 0
      for _ in w:query(50, 50, 200) do n = n + 1 end
      assert(n == 16)
    end },
    ["world:snapshot"] = { function(w) w:snapshot() end },
  }

  for name, case in pairs(ops) do
    it(name .. " raises and changes nothing", function()
      local injected = exhaust(function()
        local w = busy_world()
        if case[2] then case[2](w) end
        return w
      end, case[1])
      assert.is_true(injected >= 1)
    end)
  end

  it("in constructors raises cleanly", function()
    for _, make in ipairs{
      function() return steer.world{} end,
      function() return steer.path{ { 0, 0 }, { 1, 1 } } end,
      function() return steer.program{ { "wander" } } end,
      function() return steer.restore(busy_world():snapshot()) end,
    } do
      local snap = busy_world():snapshot()
      local failures = 0
      for n = 0, 100 do
        fail_after(n)
        local ok, result, msg = pcall(make)
        fail_after(nil)
        if ok and result then break end
        failures = failures + 1
        assert.matches("not enough memory", tostring(ok and msg or result))
      end
      assert.is_true(failures >= 1)
      assert.is_string(snap)
    end
  end)

  it("is lifted by fail_allocations(nil)", function()
    fail_after(0)
    assert.are.equal(0, fail_after(nil))
    assert.is_nil(fail_after(nil))
    assert.is_not_nil(steer.world{}:add{})
  end)
end)

describe("world:close()", function()
  it("frees the world; later use raises 'world is closed'", function()
    local world = steer.world{}
    local a = world:add{ x = 1 }
    local it = world:query(0, 0, 5)
    world:close()
    world:close() -- idempotent
    assert.matches("world is closed", error_of(world.add, world, {}))
    assert.matches("world is closed", error_of(function() return #world end))
    assert.matches("world is closed", error_of(world.step, world, 0.1))
    assert.matches("world is closed", error_of(a.seek, a, 1, 1))
    assert.matches("world is closed", error_of(function() return a.x end))
    assert.matches("world is closed", error_of(function() a.x = 2 end))
    assert.matches("world is closed", error_of(it))
    assert.is_false(a.alive)
    assert.are.equal(1, a.id)
    assert.matches("closed", tostring(world))
    assert.matches("world closed", tostring(a))
  end)

  it("runs on <close> under Lua 5.4", function()
    if _VERSION ~= "Lua 5.4" then return pending("to-be-closed variables are Lua 5.4") end
    local code = assert(load([[
      local steer = ...
      local outer
      do
        local world <close> = steer.world{}
        outer = world:add{}
      end
      return outer
    ]]))
    local a = code(steer)
    assert.matches("world is closed", error_of(a.seek, a, 0, 0))
  end)
end)
