-- The LuaJIT FFI fast path (lua/steer/ffi.lua) gives exactly the classic
-- binding's results and errors; world:positions/ids/columns read in bulk.
local steer = require "steer"
local support = require "support"

local function scene()
  local world = steer.world{ seed = 2, bounds = { 50, 50 }, wrap = true }
  world:add_obstacle{ x = 10, y = 10, radius = 2 }
  world:add_wall{ x1 = 0, y1 = 20, x2 = 30, y2 = 20 }
  local agents = {}
  for k = 1, 30 do
    agents[k] = world:add{ x = (k * 7.7) % 50, y = (k * 3.1) % 50, vx = math.cos(k),
                           vy = math.sin(k), max_speed = 2, max_force = 3, radius = 0.4 }
  end
  return world, agents
end

-- every accelerated call, with its arguments, on agent a of `agents`
local function calls(a, agents)
  local b = agents[#agents]
  return {
    { "seek", a, 3, 4 }, { "seek", a, b }, { "flee", a, 1, 2 }, { "flee", a, 1, 2, 30 },
    { "arrive", a, 5, 5 }, { "arrive", a, 5, 5, 4 }, { "pursue", a, b }, { "evade", a, b },
    { "wander", a }, { "separation", a, 3 }, { "alignment", a, 6 }, { "cohesion", a, 6 },
    { "avoid_obstacles", a }, { "avoid_obstacles", a, 10 }, { "avoid_walls", a, 30 },
    { "position", a }, { "velocity", a },
  }
end

local function run_all(enable)
  if steer.ffi then steer.ffi.enable(enable) end
  local world, agents = scene()
  local results = {}
  for step = 1, 3 do
    for k, a in ipairs(agents) do
      for _, c in ipairs(calls(a, agents)) do
        results[#results + 1] = { a[c[1]](select(2, unpack(c))) }
      end
      local fx, fy = a:seek(25, 25)
      a:apply(fx, fy, 0.1)
      a.wander_jitter = 0.1 * k
      results[#results + 1] = { a.x, a.y, a.vx, a.vy, a.speed, a.heading, a.wander_angle }
    end
    world:step(0.1)
  end
  if steer.ffi then steer.ffi.enable(true) end
  return results
end

unpack = unpack or table.unpack

describe("the FFI fast path", function()
  it("is active under LuaJIT with the JIT on, and absent elsewhere", function()
    if jit and jit.status() then
      assert.is_table(steer.ffi)
      assert.is_true(steer.ffi.enabled)
    else
      assert.is_false(steer.ffi)
    end
  end)

  it("gives exactly the classic binding's results", function()
    if not steer.ffi then return pending("LuaJIT only") end
    local fast, classic = run_all(true), run_all(false)
    assert.are.equal(#classic, #fast)
    for k = 1, #classic do assert.are.same(classic[k], fast[k]) end
  end)

  it("raises the classic binding's errors", function()
    if not steer.ffi then return pending("LuaJIT only") end
    local function message(enable, fn)
      steer.ffi.enable(enable)
      local ok, err = pcall(fn)
      steer.ffi.enable(true)
      assert.is_false(ok)
      return err
    end
    local world = steer.world{}
    local a, gone = world:add{}, world:add{}
    world:remove(gone)
    local other = steer.world{}:add{}
    local cases = {
      function() return a:seek(1) end,
      function() return a:seek(1, 0 / 0) end,
      function() return a:seek(1e300, 0) end,
      function() return a:flee(1, 2, -1) end,
      function() return a:arrive(1, 2, "x") end,
      function() return a:pursue(other) end,
      function() return a:separation() end,
      function() return a:avoid_walls(-2) end,
      function() return a:apply(1, 2, 0) end,
      function() return a.seek(5, 1, 2) end,
      function() return gone:seek(1, 2) end,
      function() return gone.x end,
      function() gone.x = 3 end,
      function() a.max_speed = -1 end,
      function() a.x = 1 / 0 end,
      function() a.id = 5 end,
    }
    for k, fn in ipairs(cases) do
      assert.are.equal(message(false, fn), message(true, fn), "case " .. k)
    end
  end)

  it("keeps custom data and the classic methods working", function()
    local world = steer.world{}
    local a = world:add{ name = "guard" }
    a.mood = "calm"
    assert.are.equal("guard", a.name)
    assert.are.equal("calm", a.mood)
    assert.is_nil(a.nothing)
    a:set_behaviors{ { "wander" } }
    assert.are.equal("wander", a:behaviors()[1][1])
    assert.are.equal(1, a.id)
    assert.is_true(a.alive)
  end)
end)

describe("bulk reads", function()
  it("world:positions() and world:ids() list every agent in one order", function()
    local world, agents = scene()
    world:step(0.1)
    local pos, n = world:positions()
    local ids = world:ids()
    assert.are.equal(30, n)
    assert.are.equal(60, #pos)
    assert.are.equal(30, #ids)
    for k = 1, n do
      local a = world:get(ids[k])
      assert.are.equal(a.x, pos[2 * k - 1])
      assert.are.equal(a.y, pos[2 * k])
    end
    -- reusing a longer table drops what is left over
    world:remove(agents[1])
    local again, m = world:positions(pos)
    assert.are.equal(pos, again)
    assert.are.equal(29, m)
    assert.are.equal(58, #again)
    assert.is_nil(again[59])
    assert.matches("bad argument #1 to 'positions' %(table expected, got string%)",
      support.error_of(world.positions, world, "x"))
  end)

  it("world:columns() views the arrays without copying (LuaJIT)", function()
    if not steer.ffi then return pending("LuaJIT only") end
    local world = scene()
    world:step(0.1)
    local x, y, vx, vy, n = world:columns()
    local pos = world:positions()
    assert.are.equal(30, n)
    for k = 0, n - 1 do
      assert.are.equal(pos[2 * k + 1], x[k])
      assert.are.equal(pos[2 * k + 2], y[k])
    end
    local first = world:get(world:ids()[1])
    assert.are.equal(first.vx, vx[0])
    assert.are.equal(first.vy, vy[0])
    world:close()
    assert.matches("world is closed", support.error_of(world.columns, world))
    assert.are.equal("calling 'columns' on bad self (steer.World expected, got steer.Agent)",
      support.error_of(world.columns, first):gsub("^.-: ", ""))
  end)

  it("world:columns()'s pointers keep a dropped world alive, and only them (LuaJIT)", function()
    if not steer.ffi then return pending("LuaJIT only") end
    collectgarbage(); collectgarbage()
    local before = steer.testing.memory()
    local function taken()
      local w = steer.world{}
      w:add_many{ n = 1000, x = 7, y = 8 }
      return w:columns() -- only the pointers leave
    end
    local x, y, vx, vy, n = taken()
    collectgarbage(); collectgarbage()
    assert.is_true(steer.testing.memory() > before) -- still there
    assert.are.same({ 1000, 7, 8, 0, 0 }, { n, x[n - 1], y[0], vx[0], vy[n - 1] })
    x, y, vx, vy = nil, nil, nil, nil
    for _ = 1, 4 do collectgarbage() end
    assert.are.equal(before, steer.testing.memory()) -- then freed
  end)
end)

describe("what steer.core tells the fast path (core._ffi)", function()
  local codes = require("steer.core")._ffi

  it("is internal: not copied into the steer table", function()
    assert.is_nil(steer._ffi)
  end)

  it("gives every writable number field once, sized where writes must be >= 0", function()
    local names = {}
    for name, code in pairs(codes.fields) do names[code + 1] = name end
    -- group (an integer), ghost and turn_velocity (booleans) stay classic
    assert.are.same({ "x", "y", "vx", "vy", "max_speed", "max_force", "radius", "wander_radius",
      "wander_distance", "wander_jitter", "wander_angle", "angle", "angular_velocity",
      "max_turn_rate", "max_angular_acceleration", "min_speed" }, names)
    for _, name in ipairs(names) do
      local must_be_size = not (name == "x" or name == "y" or name == "vx" or name == "vy"
        or name == "wander_angle" or name == "angle" or name == "angular_velocity")
      assert.are.equal(must_be_size, codes.sized[name], name)
    end
  end)

  it("gives the classic methods, metatables and codes the flat API takes", function()
    local world = steer.world{}
    local a = world:add{ vx = 3, vy = 4 }
    assert.are.equal(getmetatable(a), codes.agent_mt)
    assert.are.equal(getmetatable(world), codes.world_mt)
    assert.are.same({ 3, 4 }, { codes.methods.velocity(a) })
    assert.is_nil(codes.methods.x)
    -- flat pseudo fields lie beyond the field codes, all distinct; the
    -- rules' values are checked by the fast path's results above
    local seen = {}
    for _, code in pairs(codes.fields) do seen[code] = true end
    for _, name in ipairs({ "speed", "heading", "position", "velocity" }) do
      local code = codes.flat[name]
      assert.is_true(type(code) == "number" and not seen[code], name)
      seen[code] = true
    end
    assert.are.equal(3, #{ codes.rules.separation, codes.rules.alignment, codes.rules.cohesion })
  end)
end)
