--- Hostile operations (issue 11): Lua code running inside a steer call.
-- An argument table's __index, or a __gc finalizer armed to fire at the
-- call's first allocation, closes the world, removes the agent, grows the
-- world, raises, or answers differently on a second read. The call must
-- complete or raise a clear error; afterwards every agent of the world is
-- finite and every agent the call did not target is as it was.
-- These ops work on worlds of their own, which the model does not track.
local H = {}

local LUAJIT = type(jit) == "table"
local gc_tricks = require "fuzz.gc_tricks"
local hair_trigger, drop_finalizer = gc_tricks.hair_trigger, gc_tricks.drop_finalizer
local steer_module, a_path -- set by the first hostile op

local FIRST_PER_AGENT, RAISES = 22, 4 -- indices in calls and the actions

local CLEAR = { "world is closed", "agent has been removed", "bad argument",
  "hostile", "not enough memory", "error in __gc", "agent has no behaviors" }

local function state_of(w)
  local s = {}
  for a in w:agents() do
    local p = a:behaviors()
    s[a.id] = table.concat({ a.x, a.y, a.vx, a.vy, a.max_speed, a.radius,
      p and #p or 0, p and p[1] and tostring(p[1].weight) or "" }, "|")
  end
  return s
end

local function make_world(F)
  local rng = F.rng
  local w = F.steer.world(rng:chance(0.5) and { bounds = { 100, 100 }, wrap = rng:chance(0.5) } or {})
  for k = 1, rng:int(1, 12) do
    local a = w:add{ x = rng:range(0, 100), y = rng:range(0, 100), vx = rng:range(-2, 2), name = k }
    if rng:chance(0.5) then
      a:set_behaviors{ { "seek", target = { rng:range(0, 9), 1 }, tag = "go" }, { "wander" } }
    end
  end
  if rng:chance(0.5) then w:add_obstacle{ x = 5, y = 5, radius = 1 } end
  if rng:chance(0.5) then w:add_wall{ x1 = 0, y1 = 0, x2 = 9, y2 = 9 } end
  return w
end

local function hostile_actions(w, subject, rng)
  -- drawn now: whether an action runs depends on the collector, and the
  -- fuzzer's random sequence must not (a seed replays identically)
  local x = rng:range(0, 50)
  return {
    function() w:close() end,
    function() if subject.alive then w:remove(subject) end end,
    function() w:add_many{ n = 1000, x = x, y = 3 } end,
    function() error("hostile") end,
    function() w:add{ x = 1 } end,
    function() for _ in w:query(0, 0, 1e3) do end end,
  }
end

-- Each call, prepared: returns the function and its arguments (built
-- before a finalizer is armed); t(fields) wraps an argument table so that
-- reading it runs Lua.
local function count_query(w) local n = 0; for b in w:query(50, 50, 80) do n = n + b.x * 0 + 1 end; return n end
local function count_neighbors(a) local n = 0; for b in a:neighbors(80) do n = n + b.x * 0 + 1 end; return n end
local function restore_of(w) return steer_module.restore(w:snapshot()) end
local calls = {
  function(w, a, t) return w.add, w, t{ x = 1, y = 2, team = "red" } end,
  function(w, a, t) return w.add_many, w, t{ x = t{ 1, 2, 3 }, y = 4 }, t{ t{ "seek", target = t{ 1, 1 } } } end,
  function(w, a, t) return w.add_obstacle, w, t{ x = 1, y = 1, radius = 1 } end,
  function(w, a, t) return w.add_wall, w, t{ x1 = 0, y1 = 0, x2 = 5, y2 = 0 } end,
  function(w) return count_query, w end,
  function(w, a) return count_neighbors, a end,
  function(w, a, t) return w.positions, w, t{} end,
  function(w, a, t) return w.velocities, w, t{} end,
  function(w, a, t) return w.ids, w, t{} end,
  function(w) return w.obstacles, w end,
  function(w) return w.walls, w end,
  function(w) return w.stats, w end,
  function(w) return w.snapshot, w end,
  function(w) return w.get, w, 1 end,
  function(w, a, t) return a.set_behaviors, a, t{ t{ "seek", target = t{ 3, 4 }, weight = 2 } } end,
  function(w, a, t) return a.set_target, a, "go", t{ 7, 8 } end,
  function(w, a, t) return a.follow, a, a_path, t{ arrival_radius = 1 } end,
  function(w, a) return a.behaviors, a end,
  function(w, a, t) return steer_module.world, t{ bounds = t{ 10, 10 } } end,
  function(w, a, t) return steer_module.program, t{ t{ "seek", target = t{ 1, 1 } } } end,
  function(w) return restore_of, w end,
  -- per-agent calls (the LuaJIT FFI path where it is on): from FIRST_PER_AGENT
  function(w, a) return function(b) return b.x end, a end,
  function(w, a) return a.seek, a, 3, 4 end,
  function(w, a) return function(b) b.vx = 1 end, a end,
  function(w, a) return a.position, a end,
}

local function op_hostile(F)
  local rng = F.rng
  steer_module = F.steer
  a_path = a_path or F.steer.path{ { 0, 0 }, { 5, 5 } }
  local w = make_world(F)
  local subject = w:get(1)
  local before = state_of(w)
  local actions = hostile_actions(w, subject, rng)
  local action_number = rng:int(1, #actions)
  local action = actions[action_number]
  local k = rng:int(1, #calls)
  local by_finalizer = rng:chance(0.5)
  local depth = rng:int(1, 4)
  -- open finding: under LuaJIT with the JIT on, a finalizer that raises
  -- during a per-agent FFI-path call crashes inside LuaJIT (seed 6, call
  -- #25); kept out until it is understood (-joff or the FFI path off: fine)
  if LUAJIT and k >= FIRST_PER_AGENT and action_number == RAISES then
    action_number = 1
    action = actions[1]
  end
  local reads = 0
  local wrap = function(fields)
    if by_finalizer then return fields end
    return setmetatable(fields, { __index = function()
      reads = reads + 1
      if reads == 2 then action() end
      if reads > 2 then return 0 / 0 end -- a different answer each time
    end })
  end
  -- the method is fetched before the action may remove the subject
  local prepared = { calls[k](w, subject, wrap) }
  local fn = table.remove(prepared, 1)
  local nargs = #prepared
  if by_finalizer then
    local inner = fn
    local armed = true
    local function finish(ok, ...) -- no table before the call: it would allocate
      if not os.getenv("HOSTILE_LATE") then armed = false end -- a finalizer the call did not fire stays quiet later
      hair_trigger(false)
      if not ok then error((...), 0) end
      return ...
    end
    fn = function(...)
      hair_trigger(true)
      collectgarbage("collect")
      -- a chain: the finalizer fires at the call's depth-th allocation
      local function arm(d)
        drop_finalizer(function()
          if not armed then return end
          if d > 1 then return arm(d - 1) end
          armed = false
          action()
        end)
      end
      arm(depth)
      return finish(pcall(inner, ...))
    end
  end
  local ok = F:call(("hostile call #%d (%s, action %d, depth %d)"):format(k,
    by_finalizer and "finalizer" or "__index", action_number, depth),
    fn, prepared, nargs, nil, { pattern = CLEAR })
  hair_trigger(false)
  if not pcall(function() return #w end) then return end -- closed
  local pos, n = w:positions()
  for i = 1, 2 * n do
    if not (pos[i] == pos[i] and math.abs(pos[i]) < math.huge) then
      F:fail("hostile call #" .. k .. " left a non-finite position")
    end
  end
  local after = state_of(w)
  for id, s in pairs(before) do
    if id ~= subject.id and after[id] and after[id] ~= s then
      F:fail(("hostile call #%d changed agent %d: %s -> %s"):format(k, id, s, after[id]))
    end
  end
  w:close()
  return ok
end

-- steer.testing.memory: this state's world bytes, now and at most
local function op_memory(F)
  local ok, r = F:call("steer.testing.memory", F.steer.testing.memory, {}, 0, true,
    { numbers = true })
  if ok and not (r[1] >= 0 and r[2] >= r[1]) then
    F:fail(("steer.testing.memory: live %s, peak %s"):format(tostring(r[1]), tostring(r[2])))
  end
end

function H.list()
  return { { name = "hostile", weight = 0.3, run = op_hostile },
    { name = "testing.memory", weight = 0.1, run = op_memory } }
end

return H
