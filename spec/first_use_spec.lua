-- What tripped a new user: world:agents() while the loop adds agents, stats()
-- counts, one set of point forms, misspelt fields, a removed agent's own data,
-- printing large ids.
local steer = require "steer"
local support = require "support"
local error_of = support.error_of

local function raises(fragment, fn, ...)
  local msg = error_of(fn, ...)
  assert(msg, "expected an error containing " .. fragment)
  assert(msg:find(fragment, 1, true), ("%q lacks %q"):format(msg, fragment))
end

local function ids(list)
  local out = {}
  for k, a in ipairs(list) do out[k] = a.id end
  table.sort(out)
  return out
end

describe("world:agents() iterates the agents present when the loop starts", function()
  it("ends when the body adds agents, and visits only the first ones", function()
    local w = steer.world{}
    local first = {}
    for k = 1, 5 do first[k] = w:add{ x = k } end
    local visited = {}
    for a in w:agents() do
      visited[#visited + 1] = a
      w:add{ x = -a.x }
      w:add{}
    end
    assert.are.same(ids(first), ids(visited))
    assert.are.equal(15, #w)
  end)

  it("skips agents removed inside the loop, the current one included", function()
    local w = steer.world{}
    local list = {}
    for k = 1, 8 do list[k] = w:add{ x = k } end
    local visited = {}
    for a in w:agents() do
      local x = a.x
      visited[#visited + 1] = x
      w:remove(a)
      if x == 2 then w:remove(list[5]); w:remove(list[7]) end
    end
    assert.are.same({ 1, 2, 3, 4, 6, 8 }, visited)
    assert.are.equal(0, #w)
  end)

  it("an empty world gives an empty loop; a closed world raises in the loop", function()
    local n = 0
    for _ in steer.world{}:agents() do n = n + 1 end
    assert.are.equal(0, n)
    local w = steer.world{}
    w:add{}
    w:add{}
    local ok, err = pcall(function()
      for _ in w:agents() do w:close() end
    end)
    assert.is_false(ok)
    assert.truthy(tostring(err):find("world is closed", 1, true))
  end)
end)

describe("world:stats()", function()
  local function is_integer(v)
    if math.type then return math.type(v) == "integer" end
    return type(v) == "number" and v == math.floor(v)
  end

  it("counts live agents and programs now, integers", function()
    local w = steer.world{ cell_size = 10 }
    local a = w:add{ x = 0 }
    local b = w:add{ x = 3 }
    local s = w:stats()
    assert.are.equal(2, s.agents)
    assert.are.equal(0, s.programs)
    assert.are.equal(0, s.stepped)      -- no step yet
    assert.are.equal(0, s.neighbors)
    a:set_behaviors{ { "alignment", radius = 5 } }
    assert.are.equal(1, w:stats().programs)
    w:step(0.1)
    s = w:stats()
    assert.are.equal(2, s.stepped)
    assert.are.equal(1, s.candidates)   -- a tests b, the one other agent of its cell
    assert.are.equal(1, s.neighbors)    -- b is 3 away, within 5
    for _, key in ipairs({ "agents", "programs", "stepped", "candidates", "neighbors", "memory" }) do
      assert.is_true(is_integer(s[key]), key .. " is an integer")
    end
    assert.are.equal("1", tostring(s.neighbors))
    w:remove(b)
    w:add{}
    w:add{}
    a:set_behaviors(nil)
    s = w:stats()
    assert.are.equal(3, s.agents)
    assert.are.equal(0, s.programs)
    assert.are.equal(2, s.stepped)      -- still the last step's
    assert.is_true(s.memory > 0)
  end)
end)

describe("points take the same forms everywhere", function()
  -- an agent at the origin at rest and a point (3, 4) to aim at
  local function setup()
    local w = steer.world{}
    local a = w:add{ x = 0, y = 0, max_speed = 5, max_force = 100 }
    local mark = w:add{ x = 3, y = 4 }
    return w, a, mark
  end
  local function forms(mark)
    return {
      ["x, y"] = { 3, 4 }, ["agent"] = { mark }, ["{x, y}"] = { { 3, 4 } },
      ["{x =, y =}"] = { { x = 3, y = 4 } },
    }
  end
  local unpack = table.unpack or unpack

  it("in seek, flee and arrive, with their optional radius after the point", function()
    local _, a, mark = setup()
    -- hand-computed: seek (3, 4) at max_speed 5 = (3, 4); flee = (-3, -4);
    -- arrive with slowing radius 10 at distance 5: half speed, (1.5, 2)
    for name, point in pairs(forms(mark)) do
      local fx, fy = a:seek(unpack(point))
      assert.are.same({ 3, 4 }, { fx, fy }, "seek " .. name)
      local args = { unpack(point) }
      args[#args + 1] = 10
      fx, fy = a:flee(unpack(args))
      assert.are.same({ -3, -4 }, { fx, fy }, "flee " .. name)
      fx, fy = a:arrive(unpack(args))
      assert.are.same({ 1.5, 2 }, { fx, fy }, "arrive " .. name)
      args[#args] = 4                   -- the panic radius: 5 away is out of it
      fx, fy = a:flee(unpack(args))
      assert.are.same({ 0, 0 }, { fx, fy }, "flee out of panic radius " .. name)
    end
  end)

  it("as program targets and in set_target", function()
    local _, a, mark = setup()
    local want = { seek = { 3, 4 }, flee = { -3, -4 }, arrive = { 1.5, 2 } }
    for name, point in pairs(forms(mark)) do
      for behavior, force in pairs(want) do
        local entry = { behavior, slowing_radius = behavior == "arrive" and 10 or nil }
        if #point == 1 then
          entry.target = point[1]
          a:set_behaviors{ entry }
          assert.are.same(force, { a:steering() }, behavior .. " target = " .. name)
        end
        entry.target = { 100, 100 }
        a:set_behaviors{ entry }
        a:set_target(1, unpack(point))
        assert.are.same(force, { a:steering() }, behavior .. " set_target " .. name)
      end
    end
  end)

  it("pursue and evade take agents, follow takes paths, everywhere", function()
    local _, a, mark = setup()
    raises("steer.Agent expected, got table", a.pursue, a, { 3, 4 })
    raises("target must be an agent", a.set_behaviors, a, { { "pursue", target = { 3, 4 } } })
    raises("target must be an agent", a.set_behaviors, a, { { "evade", target = { x = 3, y = 4 } } })
    a:set_behaviors{ { "pursue", target = mark } }
    raises("target must be an agent", a.set_target, a, 1, { x = 3, y = 4 })
    raises("target must be an agent", a.set_target, a, 1, 3, 4)
    raises("needs a path", a.set_behaviors, a, { { "follow", path = { 3, 4 } } })
  end)

  it("rejects the same things everywhere, naming the coordinate", function()
    local _, a = setup()
    local bad = {
      { { 3 }, "y: number expected, got nil" },
      { { x = 3 }, "y: number expected, got nil" },
      { {}, "x: number expected, got nil" },
      { { 3, "4" }, "y: number expected, got string" },
      { { x = 0 / 0, y = 1 }, "x: finite number expected, got nan" },
      { { 1, 1e200 }, "y: number out of range" },
    }
    a:set_behaviors{ { "seek", target = { 0, 0 } } }
    for _, case in ipairs(bad) do
      local point, problem = case[1], case[2]
      raises("bad argument #1 to 'seek' (point " .. problem, a.seek, a, point)
      raises("bad argument #1 to 'arrive' (point " .. problem, a.arrive, a, point, 2)
      raises("(entry 1 ('flee'): target " .. problem, a.set_behaviors, a,
        { { "flee", target = point } })
      raises("(entry 1 ('seek'): target " .. problem, a.set_target, a, 1, point)
      raises("point 1: " .. problem, steer.path, { point })
    end
    raises("number, steer.Agent, steer.SharedPoint, {x, y} or {x =, y =} expected, got boolean", a.seek, a, true)
    raises("target must be an agent, a path, a steer.SharedPoint, {x, y} or {x =, y =}, got boolean",
      a.set_behaviors, a, { { "seek", target = true } })
    assert.are.same({ 0, 0 }, { a:steering() })   -- the program did not change
  end)

  it("path points take {x, y} and {x =, y =}", function()
    local path = steer.path{ { 0, 0 }, { x = 10, y = 2 } }
    assert.are.same({ 10, 2 }, { path:point(2) })
  end)

  it("the debug view draws a target given as {x =, y =}", function()
    local _, a = setup()
    local lines = {}
    local view = require("steer.debug").new{
      line = function(x1, y1, x2, y2, kind)
        if kind == "target" then lines[#lines + 1] = { x1, y1, x2, y2 } end
      end,
      circle = function() end,
    }
    view:watch(a, { target = { x = 3, y = 4 } })
    view:draw(a:world())
    assert.are.same({ { 0, 0, 3, 4 } }, lines)
  end)
end)

describe("a misspelt field", function()
  it("in world:add raises 'did you mean', leaving the world as it was", function()
    local w = steer.world{}
    local cases = {
      max_sped = "max_speed", maxSpeed = "max_speed", MaxSpeed = "max_speed",
      maxspeed = "max_speed", MAX_FORCE = "max_force", raduis = "radius",
      Radius = "radius", radiuss = "radius", wander_jiter = "wander_jitter",
      wanderRadius = "wander_radius", X = "x", VY = "vy",
    }
    for key, meant in pairs(cases) do
      raises(("bad argument #1 to 'add' (field '%s': did you mean '%s'?)"):format(key, meant),
        w.add, w, { [key] = 3 })
    end
    assert.are.equal(0, #w)
  end)

  it("other unknown keys stay the game's own data", function()
    local w = steer.world{}
    local def = { name = "guard", hp = 3, team = "red", mood = "calm", vz = 1, rad = 2,
      max_hp = 10, max_spread = 0.5, speedy = true, state = "idle", target = "door" }
    local a = w:add(def)
    for key, value in pairs(def) do assert.are.equal(value, a[key], key) end
    assert.are.equal(1, a.max_speed)    -- the default: nothing was taken for it
  end)

  it("in world:add_many raises too; any other key is refused", function()
    local w = steer.world{}
    raises("bad argument #1 to 'add_many' (field 'maxSpeed': did you mean 'max_speed'?)",
      w.add_many, w, { n = 3, maxSpeed = 2 })
    raises("bad argument #1 to 'add_many' (unknown field 'name'", w.add_many, w,
      { x = { 1, 2 }, name = { "a", "b" } })
    assert.are.equal(0, #w)
    assert.are.equal(2, w:add_many{ x = { 1, 2 }, max_speed = 3 })
  end)

  it("assigned to an agent raises instead of becoming own data", function()
    local w = steer.world{}
    local a = w:add{}
    raises("cannot set field 'maxSpeed' of steer.Agent: did you mean 'max_speed'?",
      function() a.maxSpeed = 5 end)
    raises("cannot set field 'wander_angel' of steer.Agent: did you mean 'wander_angle'?",
      function() a.wander_angel = 1 end)
    assert.is_nil(a.maxSpeed)
    a.mood = "grumpy"
    a.mood = "calm"
    assert.are.equal("calm", a.mood)
    a.maxSpeed = nil                    -- clearing an absent key is harmless
  end)
end)

describe("a removed agent's own data", function()
  it("stays readable; simulation fields and writes raise", function()
    local w = steer.world{}
    local b = w:add{ x = 4, name = "guard", loot = { "key" } }
    w:remove(b)
    assert.are.equal("guard", b.name)
    assert.are.same({ "key" }, b.loot)
    assert.is_nil(b.nothing)
    assert.is_false(b.alive)
    raises("cannot access field 'x' of steer.Agent: agent has been removed",
      function() return b.x end)
    raises("cannot access field 'speed' of steer.Agent: agent has been removed",
      function() return b.speed end)
    raises("cannot access field 'name' of steer.Agent: agent has been removed",
      function() b.name = "ghost" end)
    assert.are.equal("guard", b.name)
  end)

  it("is kept only while the game holds the handle", function()
    local getuv = debug.getuservalue or debug.getfenv
    local w = steer.world{}
    w:add{ name = "dropped" }          -- handle not kept
    local kept = w:add{ name = "kept" }
    -- in a function of its own, so no stale register holds a handle
    local function remove_all() for a in w:agents() do w:remove(a) end end
    remove_all()
    collectgarbage()
    collectgarbage()
    local removed = getuv(w)[4]         -- env[ENV_REMOVED]: handle -> own data
    local left = {}
    for handle, data in pairs(removed) do left[#left + 1] = data.name; assert.are.equal(kept, handle) end
    assert.are.same({ "kept" }, left)
    assert.are.equal("kept", kept.name)
  end)

  it("and a closed world's agents' own data stay readable", function()
    local w = steer.world{}
    local a = w:add{ name = "a" }
    w:close()
    assert.are.equal("a", a.name)
    raises("world is closed", function() return a.x end)
    -- the length operator says what the user wrote, not '__len'
    local err = select(2, pcall(function() return #w end))
    assert.matches("attempt to get the length of a closed world %(world is closed%)", err)
    assert.is_nil(err:find("__len", 1, true))
  end)
end)

describe("tostring of an agent", function()
  it("prints ids beyond 2^31 in full, removed or not", function()
    local w = steer.world{}
    local a
    for _ = 1, 40 do                    -- one slot, 40 generations: id 39 * 2^26 + 1
      a = w:add{}
      if a.id < 39 * 2 ^ 26 then w:remove(a) end
    end
    assert.are.equal(39 * 2 ^ 26 + 1, a.id)
    assert.are.equal("steer.Agent 2617245697 (0.000, 0.000)", tostring(a))
    w:remove(a)
    assert.are.equal("steer.Agent 2617245697 (removed)", tostring(a))
  end)

  it("says an agent's world is closed as its fields do, not that it was removed", function()
    local w = steer.world{}
    local a = w:add{}
    w:close()
    assert.are.equal("steer.Agent 1 (world closed)", tostring(a))
  end)
end)

describe("a program argument that is neither form", function()
  it("names both forms a program takes", function()
    local w = steer.world{}
    local a = w:add{}
    assert.matches("bad argument #1 to 'set_behaviors' %(steer.Program or table expected, got number%)",
      support.error_of(a.set_behaviors, a, 5))
    assert.matches("bad argument #2 to 'add_many' %(steer.Program or table expected, got boolean%)",
      support.error_of(w.add_many, w, { n = 1 }, false))
    assert.are.equal(1, #w)
  end)
end)

describe("make demo (examples/chase.lua)", function()
  it("prints each change of the pursuer's behavior: the dodge around the rock shows", function()
    local ok, out = support.run_child('dofile("examples/chase.lua")')
    assert(ok, out)
    local states = {}
    for line in out:gmatch("[^\n]+") do
      local t, to_rock, doing = line:match("^%s*([%d.]+)  %b()  %b()%s+[%d.]+%s+([%d.]+)  ([%w ]+)$")
      if t then states[#states + 1] = doing end
      if doing == "dodge rock" then
        assert.is_true(tonumber(to_rock) < 3.5, "dodging " .. to_rock .. " from the rock at t = " .. t)
      end
    end
    assert.are.same({ "nothing yet", "chase", "dodge rock", "chase" }, states)
    assert.truthy(out:find("caught the wanderer at t = ", 1, true))
  end)
end)
