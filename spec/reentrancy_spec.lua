-- Lua code that runs inside a steer call (issue 11): an __index metamethod of
-- an argument table, or a __gc finalizer of any object fired by the call's
-- first allocation, closes the world, removes the agent, grows the world by
-- 1,000 agents, or answers differently on a second read. Every call either
-- completes correctly or raises a clear error; never a crash, a NaN, or a
-- change landing on another agent.
local steer = require "steer"

local gc_tricks = require "fuzz.gc_tricks"
local hair_trigger, drop_finalizer = gc_tricks.hair_trigger, gc_tricks.drop_finalizer

-- ---- the garbage collector on a hair trigger --------------------------------

-- Calls fn(...) with a finalizer armed to fire at its first allocation.
-- Returns pcall's results and whether the finalizer ran during the call.
local function with_finalizer(action, fn, ...)
  local fired = false
  hair_trigger(true)
  collectgarbage("collect")
  drop_finalizer(function()
    if not fired then
      fired = true
      action()
    end
  end)
  local results = table.pack and table.pack(pcall(fn, ...)) or { pcall(fn, ...) }
  local during = fired
  hair_trigger(false)
  collectgarbage("collect")
  return results[1], results[2], during
end

-- ---- a world to disturb ----------------------------------------------------------

local path = steer.path{ { 0, 0 }, { 10, 0 }, { 10, 10 } }

local function make_world()
  local w = steer.world{ seed = 5, bounds = { 200, 200 } }
  for k = 1, 8 do
    local a = w:add{ x = k * 9, y = k * 4, vx = k % 3, vy = 1, max_speed = 2 + k, name = "a" .. k }
    if k == 1 then -- the subject of agent methods
      a:set_behaviors{ { "seek", target = { 1, 2 }, tag = "go" }, { "follow", path = path } }
    elseif k % 2 == 0 then
      a:set_behaviors{ { "seek", target = { k, k }, tag = "go" }, { "wander", weight = 0.5 } }
    end
  end
  w:add_obstacle{ x = 30, y = 30, radius = 3 }
  w:add_wall{ x1 = 0, y1 = 50, x2 = 50, y2 = 50 }
  return w
end

local function describe_program(a)
  local p = a:behaviors()
  if not p then return "none" end
  local parts = { p.combine }
  for _, e in ipairs(p) do
    local t = e.target
    local where = type(t) == "table" and (t[1] .. "," .. t[2]) or tostring(t and t.id or t)
    parts[#parts + 1] = e[1] .. ":" .. e.weight .. ":" .. where
  end
  return table.concat(parts, " ")
end

-- Everything observable about every agent, by id.
local function state_of(w)
  local s = {}
  for a in w:agents() do
    s[a.id] = table.concat({ a.x, a.y, a.vx, a.vy, a.max_speed, a.max_force,
      a.radius, tostring(a.name), describe_program(a) }, "|")
  end
  return s
end

local function assert_finite_world(w)
  local pos, n = w:positions()
  local vel = w:velocities()
  for i = 1, 2 * n do
    assert(pos[i] == pos[i] and math.abs(pos[i]) < math.huge, "position NaN or inf")
    assert(vel[i] == vel[i] and math.abs(vel[i]) < math.huge, "velocity NaN or inf")
  end
end

local CLEAR = { "world is closed", "agent has been removed", "bad argument" }

local function clear_error(err)
  for _, fragment in ipairs(CLEAR) do
    if tostring(err):find(fragment, 1, true) then return true end
  end
  return false
end

-- What Lua code inside the call does to the world; `subject` is the agent
-- the call works on (agent 1 for world methods).
local actions = {
  close = function(w) w:close() end,
  remove = function(w, subject) if subject.alive then w:remove(subject) end end,
  grow = function(w) w:add_many{ n = 1000, x = 150, y = 150, vx = 1 } end,
}
-- for an __index only: a valid value at the first read, NaN after
local reads = 0
local function flip()
  reads = reads + 1
  if reads > 1 then return 0 / 0 end
end

-- After the call: either it raised a clear error or it succeeded, and in
-- both cases every agent it did not target is as it was.
local function check_outcome(name, w, subject, before, ok, err, check)
  assert(ok or clear_error(err), name .. ": unclear error: " .. tostring(err))
  if not pcall(function() return #w end) then return end -- closed
  assert_finite_world(w)
  local after = state_of(w)
  for id, s in pairs(before) do
    if id ~= subject.id and after[id] then
      assert.are.equal(s, after[id], name .. ": agent " .. id .. " changed")
    end
  end
  if ok and check then check(w, subject) end
end

-- ---- the calls --------------------------------------------------------------------

-- A table whose fields are only reachable through __index, which runs `hook`
-- on every read (the binding reads arguments raw, so it never does).
local function proxy(fields, hook)
  return setmetatable({}, { __index = function(_, k)
    local v = hook()
    if v ~= nil then return v end
    return fields[k]
  end, __newindex = function() hook() end })
end

-- A table with its fields in place and an __index that runs `hook` for
-- anything missing.
local function hooked(fields, hook)
  return setmetatable(fields, { __index = function() return hook() end,
    __newindex = function(t, k, v) hook(); rawset(t, k, v) end })
end

-- Each call: fn(w, subject, hook) -> results; `hook` is the Lua code to run
-- from inside (an __index here; nil when a finalizer does it).
local calls = {
  ["world:add"] = function(w, _, h)
    return w:add(hooked({ x = 1, y = 2, team = "red" }, h))
  end,
  ["world:add (proxy)"] = function(w, _, h) return w:add(proxy({ x = 1, y = 2 }, h)) end,
  ["world:add_many"] = function(w, _, h)
    return w:add_many(hooked({ x = hooked({ 1, 2, 3 }, h), y = 4 }, h),
      hooked({ hooked({ "seek", target = hooked({ 1, 1 }, h) }, h) }, h))
  end,
  ["world:add_obstacle"] = function(w, _, h)
    return w:add_obstacle(hooked({ x = 1, y = 1, radius = 1 }, h))
  end,
  ["world:add_obstacle (proxy)"] = function(w, _, h)
    return w:add_obstacle(proxy({ x = 1, y = 1, radius = 1 }, h))
  end,
  ["world:add_wall"] = function(w, _, h)
    return w:add_wall(hooked({ x1 = 0, y1 = 0, x2 = 5, y2 = 0 }, h))
  end,
  ["world:add_wall (proxy)"] = function(w, _, h)
    return w:add_wall(proxy({ x1 = 0, y1 = 0, x2 = 5, y2 = 0 }, h))
  end,
  ["world:query"] = function(w)
    local n = 0
    for a in w:query(40, 20, 60) do
      n = n + 1
      assert(a.x == a.x)
    end
    return n
  end,
  ["a:neighbors"] = function(_, a)
    local n = 0
    for b in a:neighbors(80) do
      n = n + 1
      assert(b.x == b.x)
    end
    return n
  end,
  ["world:positions"] = function(w, _, h) return w:positions(h and hooked({}, h)) end,
  ["world:velocities"] = function(w, _, h) return w:velocities(h and hooked({}, h)) end,
  ["world:ids"] = function(w, _, h) return w:ids(h and hooked({}, h)) end,
  ["world:obstacles"] = function(w) return w:obstacles() end,
  -- the level calls (binding/level.c)
  ["world:add_polygon"] = function(w, _, h)
    return w:add_polygon(hooked({ 0, 0, 5, 0, 5, 5, zone = "pit" }, h))
  end,
  ["world:add_walls"] = function(w, _, h)
    return w:add_walls(hooked({ hooked({ x1 = 0, y1 = 0, x2 = 5, y2 = 0 }, h) }, h))
  end,
  ["world:raycast"] = function(w, _, h)
    return w:raycast(0, 0, 60, 60, hooked({ agents = true }, h))
  end,
  ["world:line_of_sight (proxy)"] = function(w, _, h)
    return w:line_of_sight(hooked({ 0, 0 }, h), proxy({ x = 60, y = 60 }, h))
  end,
  ["world:query_box"] = function(w) return w:query_box(0, 0, 100, 100) end,
  ["world:segments"] = function(w) return w:segments() end,
  ["world:clear_walls"] = function(w) return w:clear_walls() end,
  ["steer.walls_from_tiles"] = function(_, _, h)
    return steer.walls_from_tiles(hooked({ 1, 0, 0, 1 }, h), 2, 2, 1)
  end,
  ["world:walls"] = function(w) return w:walls() end,
  ["world:stats"] = function(w) return w:stats() end,
  ["world:snapshot"] = function(w) return w:snapshot() end,
  ["world:get"] = function(w) return w:get(2) end,
  ["world:agents"] = function(w)
    local n = 0
    for _ in w:agents() do n = n + 1 end
    return n
  end,
  ["tostring(world)"] = function(w) return tostring(w) end,
  ["a:set_behaviors"] = function(_, a, h)
    return a:set_behaviors(hooked({ combine = "weighted",
      hooked({ "seek", target = hooked({ 3, 4 }, h), weight = 2 }, h),
      hooked({ "flee", target = proxy({ x = 1, y = 1 }, h) }, h) }, h))
  end,
  ["a:set_target"] = function(_, a, h)
    return a:set_target("go", hooked({ 7, 8 }, h))
  end,
  ["a:set_target (proxy point)"] = function(_, a, h)
    return a:set_target("go", proxy({ x = 7, y = 8 }, h))
  end,
  ["a:follow"] = function(_, a, h)
    return a:follow(path, hooked({ arrival_radius = 1 }, h))
  end,
  -- agent methods reading a table point (or region, or options): reading
  -- it may run a finalizer, after which the agent is looked up again
  ["a:seek (table point)"] = function(_, a, h) return a:seek(hooked({ x = 3, y = 4 }, h)) end,
  ["a:flee (table point)"] = function(_, a, h) return a:flee(hooked({ 3, 4 }, h)) end,
  ["a:arrive (table point)"] = function(_, a, h) return a:arrive(hooked({ x = 3, y = 4 }, h), 2) end,
  ["a:face (table point)"] = function(_, a, h) return a:face(hooked({ x = 3, y = 4 }, h)) end,
  ["a:offset_pursuit (table offset)"] = function(w, a, h)
    return a:offset_pursuit(w:get(2), hooked({ x = -1, y = 0 }, h))
  end,
  ["a:follow_leader (table point)"] = function(_, a, h) return a:follow_leader(hooked({ x = 3, y = 4 }, h)) end,
  ["a:interpose (table points)"] = function(_, a, h)
    return a:interpose(hooked({ x = 3, y = 4 }, h), hooked({ 9, 9 }, h))
  end,
  ["a:hide (table point)"] = function(_, a, h) return a:hide(hooked({ x = 3, y = 4 }, h)) end,
  ["a:contain (region)"] = function(_, a, h) return a:contain(hooked({ 0, 0, 90, 90 }, h)) end,
  ["a:orca_velocity (options)"] = function(_, a, h) return a:orca_velocity(1, 1, hooked({ dt = 0.1 }, h)) end,
  ["a:behaviors"] = function(_, a)
    local p = a:behaviors()
    assert.are.same({ 1, 2 }, p[1].target)
    assert.are.same({ 10, 10 }, { p[2].path:point(3) })
    return p
  end,
  ["steer.world"] = function(_, _, h)
    return steer.world(hooked({ bounds = hooked({ 10, 10 }, h), seed = 3 }, h))
  end,
  ["steer.path"] = function(_, _, h)
    return steer.path(hooked({ hooked({ 0, 0 }, h), hooked({ 1, 1 }, h) }, h))
  end,
  ["steer.program"] = function(_, _, h)
    return steer.program(hooked({ hooked({ "seek", target = hooked({ 1, 1 }, h) }, h) }, h))
  end,
  ["steer.restore"] = function(w) return steer.restore(w:snapshot()) end,
  -- the subject has own data: removing it moves that table (an allocation)
  ["world:remove"] = function(w, a) return w:remove(a) end,
  ["steer.navgrid"] = function(_, _, h)
    return steer.navgrid(hooked({ width = 4, height = 3, cost = hooked({ 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1 }, h) }, h))
  end,
}

-- checks of what a successful call did to its own subject
local effects = {}
-- a force or velocity for an agent removed during the call would be another
-- agent's (or read from freed memory): such a call must raise
for _, name in ipairs{ "a:seek (table point)", "a:flee (table point)", "a:arrive (table point)",
  "a:face (table point)", "a:offset_pursuit (table offset)", "a:follow_leader (table point)",
  "a:interpose (table points)", "a:hide (table point)", "a:contain (region)",
  "a:orca_velocity (options)" } do
  effects[name] = function(_, a) assert.is_true(a.alive, name .. " answered for a removed agent") end
end
for name, check in pairs{
  ["a:set_behaviors"] = function(_, a)
    if a.alive then assert.are.equal(2, #a:behaviors()) end
  end,
  ["a:set_target"] = function(_, a)
    if a.alive then assert.are.same({ 7, 8 }, a:behaviors()[1].target) end
  end,
  ["world:remove"] = function(_, a) assert.is_false(a.alive) end,
  ["world:positions"] = function(w)
    local p, n = w:positions()
    assert.are.equal(#w, n)
    assert.are.equal(2 * n, #p)
  end,
} do effects[name] = check end

local function names_of(t)
  local names = {}
  for name in pairs(t) do names[#names + 1] = name end
  table.sort(names)
  return names
end

describe("Lua code running inside a steer call", function()
  after_each(function()
    hair_trigger(false)
    collectgarbage("collect")
  end)

  for _, call_name in ipairs(names_of(calls)) do
    it(call_name .. ": an argument's __index answers differently on a second read", function()
      local w = make_world()
      local subject = w:get(1)
      local before = state_of(w)
      reads = 0
      local ok, err = pcall(calls[call_name], w, subject, flip)
      check_outcome(call_name, w, subject, before, ok, err, effects[call_name])
    end)

    for _, action_name in ipairs(names_of(actions)) do
      it(call_name .. ": an argument's __index does " .. action_name, function()
        local w = make_world()
        local subject = w:get(1)
        local before = state_of(w)
        local hook = function() actions[action_name](w, subject) end
        local ok, err = pcall(calls[call_name], w, subject, hook)
        check_outcome(call_name, w, subject, before, ok, err, effects[call_name])
      end)

      it(call_name .. ": a finalizer at its first allocation does " .. action_name, function()
        local w = make_world()
        local subject = w:get(1)
        local before = state_of(w)
        local ok, err, fired = with_finalizer(function()
          actions[action_name](w, subject)
        end, calls[call_name], w, subject, nil)
        check_outcome(call_name, w, subject, before, ok, err, effects[call_name])
        -- every one of these calls allocates: the finalizer ran inside it
        assert.is_true(fired, "the finalizer did not run during the call")
      end)
    end
  end

  it("the hair trigger does fire a finalizer at a call's first allocation", function()
    local w = make_world()
    local ok, err, fired = with_finalizer(function() w:close() end, w.positions, w)
    assert.is_true(fired)
    assert.is_false(ok)
    assert.matches("world is closed", err)
  end)

  it("a finalizer closing the world during a query raises 'world is closed'", function()
    local w = make_world()
    local ok, err, fired = with_finalizer(function() w:close() end, function()
      for _ in w:query(0, 0, 500) do end
    end)
    assert.is_true(fired)
    assert.is_false(ok)
    assert.matches("world is closed", err)
  end)

  it("set_behaviors on an agent removed meanwhile lands on no other agent", function()
    local w = make_world()
    local a = w:get(1)
    local before = state_of(w)
    local ok, err, fired = with_finalizer(function() w:remove(a) end,
      a.set_behaviors, a, { { "seek", target = { 99, 99 } } })
    assert.is_true(fired)
    assert.is_false(ok)
    assert.matches("agent has been removed", err)
    local after = state_of(w)
    before[a.id] = nil
    assert.are.same(before, after)
  end)

  it("set_target and follow on a removed agent change no other agent", function()
    for _, call in ipairs{
      function(a, h) a:set_target("go", hooked({ x = 5, y = 5 }, h)) end,
      function(a, h) a:follow(path, hooked({ slowing_radius = 1 }, h)) end,
    } do
      local w = make_world()
      local a = w:get(2) -- has a program with entry "go"
      local before = state_of(w)
      local ok, err = pcall(call, a, function() if a.alive then w:remove(a) end end)
      -- raw reads never call __index: the call completes on the agent
      assert.is_true(ok, err)
      if ok then
        -- now a finalizer removes it
        w = make_world()
        a = w:get(2)
        before = state_of(w)
        ok, err = with_finalizer(function() w:remove(a) end, call, a, function() end)
        assert.is_false(ok)
        assert.matches("agent has been removed", err)
      end
      local after = state_of(w)
      before[a.id] = nil
      assert.are.same(before, after)
    end
  end)

  it("add_many reads each column once: a column answering NaN later adds no NaN", function()
    local w = steer.world{ bounds = { 50, 50 } }
    local reads = 0
    local spec = setmetatable({ n = 3 }, { __index = function(_, k)
      reads = reads + 1
      if k == "x" then return reads == 1 and { 1, 2, 3 } or { 0 / 0, 0 / 0, 0 / 0 } end
    end })
    w:add_many(spec)
    assert.are.equal(0, reads) -- raw access only
    assert.are.equal(3, #w)
    assert_finite_world(w)
    -- a column whose entries answer differently is read once, raw
    local col = setmetatable({ 1, 2 }, { __index = function() return 0 / 0 end })
    local ok, err = pcall(w.add_many, w, { n = 3, x = col })
    assert.is_false(ok)
    assert.matches("2 values, expected 3", err)
    w:add_many{ x = col, y = col }
    assert.are.equal(5, #w)
    assert_finite_world(w)
  end)

  it("per-agent calls (the LuaJIT FFI path too) survive a finalizer at their n-th allocation", function()
    -- a chain of finalizers: each arms the next, the last closes the world,
    -- so the world closes at the call's 1st, 2nd, ... 5th allocation
    local calls_of = {
      function(a) return a.x end,
      function(a) return a:seek(3, 4) end,
      function(a) a.vx = 2 end,
      function(a) return a:position() end,
      function(a) return a:separation(5) end,
      function(a) return a:world():columns() end,
    }
    for k, call in ipairs(calls_of) do
      for depth = 1, 5 do
        if call ~= calls_of[6] or (steer.ffi and steer.ffi.enabled) then
          local w = make_world()
          local a = w:get(1)
          local function arm(d)
            drop_finalizer(function() if d <= 1 then w:close() else arm(d - 1) end end)
          end
          hair_trigger(true)
          collectgarbage("collect")
          arm(depth)
          local ok, r = pcall(call, a)
          hair_trigger(false)
          collectgarbage("collect")
          if ok then
            assert(r == nil or r == r, "call " .. k .. ": NaN")
          else
            assert(clear_error(r) or r:find("world is closed", 1, true), r)
          end
        end
      end
    end
  end)

  it("agent methods reading a table point raise when a finalizer inside removes the agent or closes the world", function()
    -- the argument tables made before the finalizers are armed, so that the
    -- first allocations the finalizers meet are the call's own (reading the
    -- point pushes its keys' names)
    local methods = {
      seek = function(a, p) return a:seek(p) end,
      flee = function(a, p) return a:flee(p) end,
      arrive = function(a, p) return a:arrive(p) end,
      face = function(a, p) return a:face(p) end,
      offset_pursuit = function(a, p, b) return a:offset_pursuit(b, p) end,
      follow_leader = function(a, p) return a:follow_leader(p) end,
      interpose = function(a, p, _, q) return a:interpose(p, q) end,
      hide = function(a, p) return a:hide(p) end,
      contain = function(a, _, _, _, region) return a:contain(region) end,
      orca_velocity = function(a, _, _, _, _, opts) return a:orca_velocity(1, 1, opts) end,
    }
    local raised = 0
    for _, name in ipairs(names_of(methods)) do
      for _, action in ipairs{ "remove", "close" } do
        for depth = 1, 4 do
          local w = make_world()
          local a, b = w:get(1), w:get(2)
          local p, q, region, opts = { x = 3, y = 4 }, { x = 9, y = 9 }, { 0, 0, 90, 90 }, { dt = 0.1 }
          local in_call, during = false, false
          local function arm(d)
            drop_finalizer(function()
              if d > 1 then return arm(d - 1) end
              during = in_call
              if action == "close" then w:close() elseif a.alive then w:remove(a) end
            end)
          end
          hair_trigger(true)
          collectgarbage("collect")
          arm(depth)
          in_call = true
          local ok, err = pcall(methods[name], a, p, b, q, region, opts)
          in_call = false
          hair_trigger(false)
          collectgarbage("collect")
          if during then
            assert.is_false(ok, ("%s, %s at allocation %d: answered for a %s"):format(name, action, depth,
              action == "close" and "closed world" or "removed agent"))
            assert.matches(action == "close" and "world is closed" or "agent has been removed", err)
            raised = raised + 1
          end
        end
      end
    end
    assert.is_true(raised >= 20, "the finalizers ran inside the calls " .. raised .. " times")
  end)

  it("f:members() lists the members of one moment when a finalizer changes them", function()
    for _, action in ipairs{ "leave", "remove", "close" } do
      local w = steer.world{}
      local f = steer.formation{ anchor = w:add{}, shape = "line", count = 12 }
      for k = 1, 12 do w:add{ x = k }:set_behaviors{ { "formation", formation = f } } end
      local ok, list, fired = with_finalizer(function()
        for a in w:agents() do
          if action == "leave" then a:set_behaviors{ { "wander" } }
          elseif action == "remove" and a ~= f:anchor() then w:remove(a) end
        end
        if action == "close" then w:close() end
      end, f.members, f)
      assert.is_true(fired)
      if action == "close" then
        assert.is_false(ok)
        assert.matches("world is closed", list)
      else
        -- the finalizer ran at the call's first allocation: before the
        -- members were read, so there are none
        assert.is_true(ok, tostring(list))
        assert.are.same({}, list)
        assert.are.same({}, f:members())
      end
    end
  end)

  it("an error raised by a finalizer mid-add_many frees what the call made", function()
    -- the column copy and the compiled program are owned by Lua: run it many
    -- times and the C memory of the state does not grow
    local w = steer.world{}
    local xs = {}
    for k = 1, 1000 do xs[k] = k end
    for _ = 1, 50 do
      with_finalizer(function() error("finalizer error") end, w.add_many, w,
        { x = xs }, { { "wander" } })
    end
    assert_finite_world(w)
  end)
end)
