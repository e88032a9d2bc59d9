--- Fuzzer operations for issue 14: orientation fields and angular methods,
-- groups, ghosts and view cones, corridors and start waypoints, separation
-- falloff, shared points. Valid calls must succeed; every agent must stay
-- finite, its angle within (-pi, pi].
local V = require "fuzz.values"
local M = require "fuzz.model"
local G = require "fuzz.gen"

local T = {}
local PI = math.pi

-- These ops run on worlds of their own (not in F.worlds): the other ops'
-- oracles know nothing of ghosts, turn limits and minimum speeds.
local function private_world(F)
  local rng = F.rng
  F.turn_recs = F.turn_recs or {}
  if #F.turn_recs == 0 or (rng:chance(0.03) and #F.turn_recs < 3) then
    local def, kind, W, H = {}, "free", nil, nil
    local r = rng:float()
    if r < 0.4 then
      kind, W, H = "wrap", rng:range(5, 100), rng:range(5, 100)
      def.bounds, def.wrap = { W, H }, true
    elseif r < 0.6 then
      kind, W, H = "clamp", rng:range(5, 100), rng:range(5, 100)
      def.bounds = { W, H }
    end
    def.cell_size = rng:range(1, 10)
    local rec = M.new_record(F.steer.world(def), "t" .. (#F.turn_recs + 1), kind, W, H)
    F.turn_recs[#F.turn_recs + 1] = rec
  end
  local rec = rng:pick(F.turn_recs)
  if #rec.live < 6 or rng:chance(0.05) then
    local ext = rec.W or 40
    local h = rec.w:add{ x = rng:range(0, ext), y = rng:range(0, rec.H or 40),
      vx = rng:range(-3, 3), vy = rng:range(-3, 3), max_speed = rng:range(0, 4),
      max_force = rng:range(0, 8), angle = rng:range(-10, 10),
      angular_velocity = rng:chance(0.3) and rng:range(-5, 5) or nil,
      max_turn_rate = rng:chance(0.5) and rng:range(0, 4) or nil,
      max_angular_acceleration = rng:chance(0.3) and rng:range(0, 20) or nil,
      min_speed = rng:chance(0.3) and rng:range(0, 2) or nil,
      turn_velocity = rng:chance(0.3), group = rng:int(0, 31), ghost = rng:chance(0.15) }
    M.add_live(rec, h)
    F:name(h, rec.name .. ".a" .. tostring(h.id))
  end
  if #rec.live > 10 and rng:chance(0.1) then
    local h = table.remove(rec.live, 1)
    rec.w:remove(h)
    M.mark_removed(rec, h)
  end
  return rec
end

--- A (usually live) agent of a private world: rec, handle, live.
local function live_self(F)
  local rec = private_world(F)
  if #rec.removed > 0 and F.rng:chance(0.05) then return rec, F.rng:pick(rec.removed), false end
  return rec, F.rng:pick(rec.live), true
end

local function check_body(F, rec, h)
  F:check(M.check_agent(rec, h))
  local a, w = h.angle, h.angular_velocity
  if not (V.finite(a) and a > -PI and a <= PI) then F:fail("angle out of (-pi, pi]: " .. V.show(a)) end
  if not V.finite(w) then F:fail("angular_velocity is " .. V.show(w)) end
end

--- an optional dt: valid, absent or bad
local function dt_arg(F)
  local rng = F.rng
  local r = rng:float()
  if r < 0.3 then return nil, true end
  if r < 1 - F.bad then return rng:pick({ 1 / 60, 0.1, 1, 1e-300, 1e150 }), true end
  local v = V.bad_number(rng, "pos")
  return v, v == nil or V.is_pos(v)
end

--- a filter table for queries and a:neighbors: value, valid
local function filter_arg(F)
  local rng = F.rng
  if rng:chance(0.4) then return nil, true end
  local f, ok = {}, true
  if rng:chance(0.6) then
    f.groups = {}
    for k = 1, rng:int(0, 3) do f.groups[k] = rng:int(0, 31) end
    if rng:chance(F.bad) then f.groups[1] = rng:pick({ 32, -1, 1.5, "x" }); ok = false end
  end
  if rng:chance(0.5) then f.fov = rng:pick({ 360, 90, 1, rng:range(0.001, 360) }) end
  if rng:chance(F.bad) then f.fov = rng:pick({ 0, -5, 361, 0 / 0, "wide" }); ok = false end
  if rng:chance(0.3) then f.angle = rng:range(-10, 10) end
  return f, ok
end

function T.list(F, O)
  local ops = {}
  local function add(name, weight, run) ops[#ops + 1] = { name = name, weight = weight, run = run } end
  local a = F.steer.world{}:add{}
  for _, name in ipairs({ "face", "look_where_going", "match_orientation", "set_path_index" }) do
    F.methods[name] = a[name]
  end
  if not F.methods.face then return ops end

  add("a:face", 2, function(F)
    local rec, h, live = live_self(F)
    local pt, used, bad = G.point(F, rec)
    local dt, dt_ok = dt_arg(F)
    local args = { h }
    for i = 1, used do args[i + 1] = pt[i] end
    args[used + 2] = dt
    local ok = F:call("a:face", F.methods.face, args, used + 2,
      live and not bad and dt_ok or (not live or bad) and false or nil, { name = "face", numbers = true })
    if ok and live and F.rng:chance(0.7) then
      local _, r = F:call("a:face", F.methods.face, args, used + 2, true, { name = "face", numbers = true })
      F:call("a:apply", F.methods.apply, { h, 0, 0, 0.1, r and r[1] or 0 }, 5, true, { name = "apply" })
      check_body(F, rec, h)
    end
  end)
  add("a:look_where_going", 1, function(F)
    local rec, h, live = live_self(F)
    local dt, dt_ok = dt_arg(F)
    F:call("a:look_where_going", F.methods.look_where_going, { h, dt }, 2,
      live and dt_ok or (not live) and false or nil, { name = "look_where_going", numbers = true })
    if live then check_body(F, rec, h) end
  end)
  add("a:match_orientation", 1, function(F)
    local rec, h, live = live_self(F)
    local b, b_ok = G.peer(F, rec, true)
    F:call("a:match_orientation", F.methods.match_orientation, { h, b, 1 / 60 }, 3,
      live and b_ok or (not live or not b_ok) and false or nil,
      { name = "match_orientation", numbers = true })
  end)
  add("a:apply(angular)", 2, function(F)
    local rec, h, live = live_self(F)
    local rng = F.rng
    local angular, ok = rng:pick({ 0, 1, -50, 1e150, -1e300, rng:range(-100, 100) }), true
    if rng:chance(F.bad) then angular = rng:pick({ 0 / 0, 1 / 0, "spin" }); ok = false end
    F:call("a:apply", F.methods.apply, { h, rng:range(-5, 5), rng:range(-5, 5), 0.1, angular }, 5,
      live and ok or (not live) and false or nil, { name = "apply" })
    if live then check_body(F, rec, h) end
  end)
  add("write body field", 3, function(F)
    local rec, h, live = live_self(F)
    local rng = F.rng
    local key = rng:pick({ "angle", "angular_velocity", "max_turn_rate", "max_angular_acceleration",
      "min_speed", "group", "ghost", "turn_velocity" })
    local v, ok
    if key == "group" then
      v = rng:pick({ 0, 1, 31, rng:int(0, 31) }); ok = true
      if rng:chance(F.bad * 2) then v = rng:pick({ 32, -1, 2.5, true }); ok = false end
    elseif key == "ghost" or key == "turn_velocity" then
      v = rng:chance(0.5); ok = true
      if rng:chance(F.bad * 2) then v = rng:pick({ 1, "yes" }); ok = false end
    elseif key == "angle" or key == "angular_velocity" then
      v, ok = G.value(F, "num")
      ok = ok and V.is_num(v)
    else
      v, ok = G.value(F, "size")
      ok = ok and V.is_nonneg(v)
    end
    F:call("a." .. key .. " = ", function(a, k, x) a[k] = x end, { h, key, v }, 3,
      live and ok or (not live) and false or nil, { pattern = "of steer%.Agent" })
    if live then check_body(F, rec, h) end
  end)
  add("a:neighbors(filter)", 2, function(F)
    local rec, h, live = live_self(F)
    local f, ok = filter_arg(F)
    local okc, r = F:call("a:neighbors", F.methods.neighbors, { h, F.rng:range(0, 10), f }, 3,
      live and ok or (not live) and false or nil, { name = "neighbors" })
    if okc then for other in r[1] do if other.ghost then F:fail("a ghost was found by a:neighbors") end end end
  end)
  add("world:query(filter)", 2, function(F)
    local rec = private_world(F)
    local f, ok = filter_arg(F)
    local okc, r = F:call(rec.name .. ":query", F.wmethods.query, { rec.w, 0, 0, F.rng:range(0, 50), f }, 5,
      ok and true or false, { name = "query" })
    if okc then for other in r[1] do if other.ghost then F:fail("a ghost was found by world:query") end end end
  end)
  add("world:add_many(body columns)", 1, function(F)
    local rec = private_world(F)
    local rng = F.rng
    local n = rng:int(1, 4)
    local cols, valid = { n = n, x = {}, y = rng:range(0, rec.H or 40) }, true
    for k = 1, n do cols.x[k] = rng:range(0, rec.W or 40) end
    -- each body column: absent, one value or an array; now and then a bad value
    local function value(kind)
      if rng:float() < F.bad then
        valid = false
        if kind == "boolean" then return rng:pick({ 1, "yes", 0 }) end
        if kind == "group" then return rng:pick({ 32, -1, 1.5, "1" }) end
        if kind == "nonneg" then return rng:pick({ -1, 0 / 0, "2" }) end
        return rng:pick({ 0 / 0, 1 / 0, "x" })
      end
      if kind == "boolean" then return rng:chance(0.5) end
      if kind == "group" then return rng:int(0, 31) end
      if kind == "nonneg" then return rng:range(0, 5) end
      return rng:range(-10, 10)
    end
    local kinds = { angle = "any", angular_velocity = "any", max_turn_rate = "nonneg",
      max_angular_acceleration = "nonneg", min_speed = "nonneg", group = "group",
      ghost = "boolean", turn_velocity = "boolean" }
    for name, kind in pairs(kinds) do
      local r = rng:float()
      if r < 0.3 then
        cols[name] = value(kind)
      elseif r < 0.6 then
        cols[name] = {}
        for k = 1, n do cols[name][k] = value(kind) end
      end
    end
    if rng:chance(0.3) then cols.spread = value("nonneg") end -- a disc, not one point
    local before = {}
    for _, id in ipairs(rec.w:ids()) do before[id] = true end
    local ok = F:call(rec.name .. ":add_many", F.wmethods.add_many, { rec.w, cols }, 2, valid,
      { name = "add_many" })
    local added = 0
    for _, id in ipairs(rec.w:ids()) do
      if not before[id] then
        added = added + 1
        local h = rec.w:get(id)
        M.add_live(rec, h)
        F:name(h, rec.name .. ".a" .. tostring(id))
        check_body(F, rec, h)
      end
    end
    if added ~= (ok and n or 0) then F:fail(("add_many added %d agents, expected %d"):format(added, ok and n or 0)) end
  end)
  add("a:set_path_index", 1, function(F)
    local _, h = live_self(F)
    if #F.paths > 0 and F.rng:chance(0.5) then pcall(h.follow, h, F.rng:pick(F.paths).p) end
    F:call("a:set_path_index", F.methods.set_path_index, { h, F.rng:pick({ 1, 2, 3, 0, 9, 1.5 }) }, 2, nil,
      { name = "set_path_index" })
  end)
  add("issue 14 program", 2, function(F)
    local rec, h, live = live_self(F)
    local rng = F.rng
    local mouse = rng:chance(0.5) and G.shared_point(F) or F.steer.point(rng:range(-20, 20), rng:range(-20, 20))
    -- turn = "velocity" goes with programs without angular entries; a few
    -- combine them, which must raise naming the entry
    local turn = rng:chance(0.5)
    local angular = not turn or rng:chance(0.1)
    local valid = not (turn and angular)
    local prog = { turn = turn and "velocity" or nil,
      { "separation", radius = rng:range(0, 3), falloff = rng:pick({ "inverse", "linear", "inverse_square" }),
        groups = rng:chance(0.5) and { rng:int(0, 31), 0 } or nil, fov = rng:chance(0.5) and rng:range(1, 360) or nil },
      { "alignment", radius = rng:range(0, 5), fov = rng:chance(0.5) and rng:range(1, 360) or nil },
      { "cohesion", radius = rng:range(0, 5), groups = rng:chance(0.5) and { 0 } or nil },
      { rng:pick(angular and { "seek", "arrive", "face" } or { "seek", "arrive" }), target = mouse },
      angular and (rng:chance(0.5) and { "look_where_going" } or { "match_orientation", target = h })
        or { "wander" } }
    if #F.paths > 0 and rng:chance(0.5) then
      -- look_ahead must be > 0 (0 would never steer); now and then a 0
      local zero = rng:chance(0.05)
      prog[#prog + 1] = { "follow", path = rng:pick(F.paths).p, path_radius = rng:chance(0.5) and rng:range(0, 3) or nil,
        look_ahead = zero and 0 or rng:range(0.01, 2), start = rng:pick({ 1, 2, "nearest", 40 }) }
      valid = valid and not zero
    end
    local ok, r = F:call("a:set_behaviors", F.methods.set_behaviors, { h, prog }, 2,
      (live and valid) or false, { name = "set_behaviors" })
    if live and not valid and not ok and type(r) == "string"
        and not (r:find("turn = 'velocity'", 1, true) or r:find("look_ahead: positive", 1, true)) then
      F:fail("set_behaviors refused a program for another reason: " .. r)
    end
    if not ok then return end
    mouse.x, mouse.y = rng:range(-1e3, 1e3), rng:range(-1e3, 1e3)
    F:call(rec.name .. ":step", F.wmethods.step, { rec.w, rng:pick({ 0.1, 1 / 60, 1e-300 }) }, 2, true,
      { name = "step" })
    for _, a in ipairs(rec.live) do check_body(F, rec, a) end
  end)
  return ops
end

return T
