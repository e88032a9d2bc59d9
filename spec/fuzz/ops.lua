--- The fuzzer's operations over the API: stateless forces, worlds, agents,
-- paths and queries here, programs and whole-world calls in ops_programs.lua.
-- Each op makes one or a few checked calls; weights say how often it is
-- picked.
local V = require "fuzz.values"
local M = require "fuzz.model"
local G = require "fuzz.gen"
local K = require "fuzz.known"

local O = {}
local MAX_WORLDS, MAX_AGENTS, MAX_PATHS = 4, 40, 6

local function tof(v) return v * 1.0 end

-- ---- helpers -------------------------------------------------------------

--- A world record to work on, creating a plain one when there is none.
local function some_world(F)
  if #F.worlds == 0 then O.new_world(F, true) end
  return F.rng:pick(F.worlds)
end

--- A live agent of some world (adding one if need be).
local function some_agent(F)
  local rec = some_world(F)
  if #rec.live == 0 then O.add_agent(F, rec, true) end
  return rec, rec.live[1] and F.rng:pick(rec.live)
end

local function track_world(F, w, kind, W, H)
  F.world_count = F.world_count + 1
  local rec = M.new_record(w, "w" .. F.world_count, kind, W, H)
  F:name(w, rec.name)
  F.rec_of[w] = rec
  F.worlds[#F.worlds + 1] = rec
  return rec
end
O.track_world = track_world

local function track_agent(F, rec, h)
  M.add_live(rec, h)
  F:name(h, rec.name .. ".a" .. tostring(h.id))
end
O.track_agent = track_agent

-- ---- module functions -----------------------------------------------------

local function stateless(F, name, kinds, check)
  local args, n, bad = G.build(F, kinds)
  -- an argument past the last one taken raises, naming it
  if bad == nil and n == #kinds and F.rng:chance(0.03) then
    n = n + 1
    args[n] = F.rng:pick({ 1, "x", {}, true })
    bad = n
  end
  local ok, r = F:call("steer." .. name, F.steer[name], args, n, bad == nil,
    { name = name, argn = bad, numbers = true })
  if ok then check(args, r) end
end

local function op_clamp(F)
  stateless(F, "clamp", { "finite", "finite", "nonneg" }, function(a, r)
    G.within(F, "clamp", r[1], r[2], a[3])
    -- (+ 0.0: a Lua 5.4 integer argument comes back as a float)
    if G.len(a[1], a[2]) <= a[3] * (1 - 1e-12) and (r[1] ~= a[1] + 0.0 or r[2] ~= a[2] + 0.0) then
      F:fail("clamp changed a vector shorter than max")
    end
  end)
end

local function op_normalize(F)
  stateless(F, "normalize", { "finite", "finite" }, function(a, r)
    local l, rl = G.len(a[1], a[2]), G.len(r[1], r[2])
    if l > 1e-5 * (1 + 1e-9) and math.abs(rl - 1) > 1e-12 then
      F:fail("normalize of a vector longer than 1e-5 has length " .. V.show(rl))
    elseif l < 1e-5 * (1 - 1e-9) and (r[1] ~= 0 or r[2] ~= 0) then
      F:fail("normalize of a vector shorter than 1e-5 is not zero")
    end
  end)
end

local function op_length(F)
  stateless(F, "length", { "num", "num" }, function(a, r)
    local l = G.len(a[1], a[2])
    if math.abs(r[1] - l) > 1e-12 * l then
      F:fail(("length(%s, %s) = %s, expected %s"):format(V.show(a[1]), V.show(a[2]),
        V.show(r[1]), V.show(l)))
    end
  end)
end

local function op_lerp(F)
  stateless(F, "lerp", { "num", "num", "num", "num", "num" }, function(a, r)
    local ax, ay, bx, by, t = tof(a[1]), tof(a[2]), tof(a[3]), tof(a[4]), tof(a[5])
    local ex, ey = ax + (bx - ax) * t, ay + (by - ay) * t
    if r[1] ~= ex or r[2] ~= ey then F:fail("lerp differs from a + (b - a) * t") end
  end)
end

local function force_fn(name, kinds, mf_index)
  return function(F)
    stateless(F, name, kinds, function(a, r)
      G.within(F, name, r[1], r[2], a[mf_index])
      -- flee and evade: beyond the panic radius from t (now), no force
      local panic = (name == "flee" or name == "evade") and a[mf_index + 1]
      if panic then
        local dx, dy = tof(a[5]) - tof(a[1]), tof(a[6]) - tof(a[2])
        if dx * dx + dy * dy > tof(panic) * tof(panic) and (r[1] ~= 0 or r[2] ~= 0) then
          F:fail(("steer.%s beyond the panic radius is not zero"):format(name))
        end
      end
    end)
  end
end

local N6 = { "num", "num", "num", "num", "num", "num" }
local function kinds_of(base, ...)
  local t = {}
  for i, k in ipairs(base) do t[i] = k end
  for _, k in ipairs({ ... }) do t[#t + 1] = k end
  return t
end
local SEEK_KINDS = kinds_of(N6, "nonneg", "nonneg")
local FLEE_KINDS = kinds_of(N6, "nonneg", "nonneg", "opt_nonneg")
local ARRIVE_KINDS = kinds_of(N6, "nonneg", "nonneg", "nonneg")
local PURSUE_KINDS = kinds_of(N6, "num", "num", "nonneg", "nonneg")
local EVADE_KINDS = kinds_of(PURSUE_KINDS, "opt_nonneg")

--- weighted(mf, fx, fy, w, ...) / priority and prioritized_sum(mf, fx, fy, ...)
local function combination(name, stride)
  return function(F)
    local groups = F.rng:int(0, 5)
    local kinds = { "nonneg" }
    for _ = 1, groups * stride do kinds[#kinds + 1] = "num" end
    local args, n, bad = G.build(F, kinds)
    if F.rng:chance(0.05) then n = n + F.rng:int(1, stride - 1) end -- a torn group
    -- every slot of every started group must be a valid number
    local need = 1 + stride * math.ceil((n - 1) / stride)
    if n < 1 then need = 1 end
    bad = nil
    for i = 1, need do
      local ok = (i == 1) and V.is_nonneg(args[i]) or (i > 1 and V.is_num(args[i]))
      if not ok then bad = i break end
    end
    local ok, r = F:call("steer." .. name, F.steer[name], args, n, bad == nil,
      { name = name, argn = bad, numbers = true })
    if ok then G.within(F, name, r[1], r[2], args[1]) end
  end
end

-- ---- worlds ------------------------------------------------------------------

--- steer.world{...}: mostly valid definitions of the three kinds.
function O.new_world(F, valid_only)
  local rng = F.rng
  local def, kind, W, H = {}, "free", nil, nil
  local r = rng:float()
  local function extent()
    if rng:chance(0.85) then return rng:range(1, 200) end
    return rng:pick({ 1e-300, 5e-324, 1e150, 0.5, 1e6, 3 })
  end
  if r < 0.4 then
    kind, W, H = "wrap", extent(), extent()
    def.bounds, def.wrap = { W, H }, true
  elseif r < 0.65 then
    kind, W, H = "clamp", extent(), extent()
    def.bounds = { W, H }
  end
  if rng:chance(0.5) then
    def.cell_size = rng:chance(0.8) and rng:range(0.5, 10)
      or rng:pick({ 5e-324, 1e-300, 1e-5, 1e150, 1e3 })
  end
  if rng:chance(0.3) then def.seed = rng:pick({ 0, 1, -1, 2 ^ 32, 2 ^ 53, rng:int(0, 1e9) }) end
  if rng:chance(0.2) then def.max_step = rng:pick({ 1 / 60, 0.05, 1e-3, 5e-324, 1e150, rng:range(0.01, 1) }) end
  local valid = true
  local arg = def
  if not valid_only and rng:chance(0.15) then
    local which = rng:pick({ "cell_size", "seed", "bounds", "b1", "b2", "wrap", "max_step", "arg" })
    local v = V.any(rng, G.pools(F))
    if which == "cell_size" then def.cell_size = v; valid = v == nil or V.is_pos(v)
    elseif which == "max_step" then def.max_step = v; valid = v == nil or V.is_pos(v)
    elseif which == "seed" then
      def.seed = v
      valid = v == nil or (V.is_num(v) and V.is_integral(v))
      -- open finding 07: a seed beyond 2^63 is an undefined cast
      if K.avoid("seed_cast") and type(v) == "number" and math.abs(v) >= 2 ^ 63 then
        def.seed, valid = 1.5, false
      end
    elseif which == "bounds" then
      def.bounds = v
      valid = v == nil and not def.wrap
      if v == nil then kind = "free" end
    elseif which == "b1" or which == "b2" then
      if not def.bounds then def.bounds = { 10, 10 }; kind, W, H = "clamp", 10, 10 end
      def.bounds[which == "b1" and 1 or 2] = v
      valid = V.is_pos(v)
    elseif which == "wrap" then
      def.wrap = v
      -- a boolean (or nil); true needs bounds
      valid = v == nil or v == false or (v == true and def.bounds ~= nil)
      if def.bounds then kind = v == true and "wrap" or "clamp" end
    else
      arg = v
      valid = v == nil or type(v) == "table" -- {} is all defaults
      kind = "free"
    end
  end
  if type(arg) == "table" and not getmetatable(arg) and (K.avoid("thin_cells") or K.avoid("torus_offsets")) then
    -- open findings 02/03 (fuzz/known.lua): no cells or tori thinner than 1e-150
    local function thick(v) return (type(v) == "number" and v > 0 and v < 1e-150) and 1 or v end
    arg.cell_size = thick(arg.cell_size)
    if type(arg.bounds) == "table" and not getmetatable(arg.bounds) then
      arg.bounds[1], arg.bounds[2] = thick(arg.bounds[1]), thick(arg.bounds[2])
    end
  end
  local ok, r2 = F:call("steer.world", F.steer.world, { arg }, 1,
    valid_only and true or valid, { name = "world", argn = (not valid) and 1 or nil })
  if not ok then return nil end
  local w = r2[1]
  if kind ~= "free" then
    W, H = def.bounds[1], def.bounds[2]
  end
  if #F.worlds >= MAX_WORLDS then
    -- the new world is dropped at once: its collection is tested too
    F:name(w, "dropped")
    return nil
  end
  return track_world(F, w, kind, W, H)
end

local AGENT_FIELDS = { { "x", "num" }, { "y", "num" }, { "vx", "num" }, { "vy", "num" },
  { "max_speed", "size" }, { "max_force", "size" }, { "radius", "size" },
  { "wander_radius", "size" }, { "wander_distance", "size" }, { "wander_jitter", "size" } }

--- world:add{...}; valid_only: no hostile fields.
function O.add_agent(F, rec, valid_only)
  local rng = F.rng
  if #rec.live >= MAX_AGENTS then return O.remove_agent(F, rec) end
  local def, valid = {}, true
  local bad_prob = valid_only and 0 or F.bad
  for _, f in ipairs(AGENT_FIELDS) do
    if rng:chance(0.6) then
      local v
      if rng:chance(bad_prob) then
        v = rng:chance(0.5) and V.bad_number(rng, f[2]) or V.any(rng, G.pools(F))
        if v ~= nil and not G.VALID[f[2]](v) then valid = false end
      elseif (f[1] == "x" or f[1] == "y") and rng:chance(0.8) then
        local ext = f[1] == "x" and rec.W or rec.H
        v = ext and V.cap(rng:range(-0.05, 1.05) * ext) or rng:range(-30, 30)
      elseif f[2] == "size" then v = V.size(rng)
      else v = rng:chance(0.8) and rng:range(-3, 3) or V.num(rng) end
      def[f[1]] = v
    end
  end
  if rng:chance(0.2) then def.name = "guard" end
  if rng:chance(0.05) then def[1] = "positional" end
  if not valid_only and rng:chance(0.02) then -- a misspelt field raises
    def[rng:pick({ "maxSpeed", "max_sped", "Radius", "wander_jiter" })] = 1
    valid = false
  end
  local arg = def
  if not valid_only and rng:chance(0.03) then
    arg = V.any(rng, G.pools(F))
    valid = arg == nil or type(arg) == "table" -- {} is all defaults
  end
  local self_w, self_ok = rec.w, true
  if not valid_only and rng:chance(0.02) then
    repeat self_w = V.any(rng, G.pools(F)) until not F.rec_of[self_w]
    self_ok = false
  end
  local ok, r = F:call(rec.name .. ":add", F.wmethods.add, { self_w, arg }, 2,
    valid and self_ok, { name = "add", argn = (not self_ok) and 0 or ((not valid) and 1 or nil) })
  if not ok then return end
  local h = r[1]
  if arg ~= def then def = {} end
  track_agent(F, rec, h)
  -- what was written reads back (positions as the world contains them)
  local ex, ey = M.contain(rec, tof(def.x or 0), tof(def.y or 0))
  if h.x ~= ex or h.y ~= ey then
    F:fail(("add{x = %s, y = %s} reads back (%s, %s), expected (%s, %s)"):format(
      V.show(def.x), V.show(def.y), V.show(h.x), V.show(h.y), V.show(ex), V.show(ey)))
  end
  for _, f in ipairs(AGENT_FIELDS) do
    if f[1] ~= "x" and f[1] ~= "y" and def[f[1]] ~= nil and h[f[1]] ~= tof(def[f[1]]) then
      F:fail(("add{%s = %s} reads back %s"):format(f[1], V.show(def[f[1]]), V.show(h[f[1]])))
    end
  end
  if def.name and h.name ~= "guard" then F:fail("add{name = ...}: the agent's own data is lost") end
  if rec.w:get(h.id) ~= h then F:fail("world:get(a.id) is not the handle add returned") end
  F:check(M.check_agent(rec, h))
end

--- world:remove(a) with a live, removed, foreign or hostile argument.
function O.remove_agent(F, rec)
  local h, ok_h = G.self_agent(F, rec)
  if ok_h and G.owner(F, h) ~= rec then ok_h = false end
  local ok = F:call(rec.name .. ":remove", F.wmethods.remove, { rec.w, h }, 2, ok_h,
    { name = "remove", argn = (not ok_h) and 1 or nil })
  if not ok then return end
  M.mark_removed(rec, h)
  if h.alive ~= false then F:fail("a removed agent reads alive ~= false") end
  local ok2, msg = pcall(function() return h.x end)
  if ok2 or not tostring(msg):find("agent has been removed", 1, true) then
    F:fail("reading a removed agent's x did not raise 'agent has been removed': " .. tostring(msg))
  end
  if rec.w:get(h.id) ~= nil then F:fail("world:get(id) of a removed agent is not nil") end
end

local function op_get(F)
  local rec = some_world(F)
  local rng = F.rng
  local id, valid
  local r = rng:float()
  if r < 0.5 and #rec.live > 0 then id, valid = rng:pick(rec.live).id, true
  elseif r < 0.7 and #rec.removed > 0 then id, valid = rng:pick(rec.removed).id, true
  elseif r < 0.8 then id, valid = rng:pick({ 0, -1, 1, 2, 67108865, 2 ^ 53, -(2 ^ 53) }), true
  else id, valid = G.value(F, "integral") if rng:chance(0.5) then
      id = V.any(rng, G.pools(F)); valid = V.is_integral(id) end
  end
  local ok, res = F:call(rec.name .. ":get", F.wmethods.get, { rec.w, id }, 2, valid,
    { name = "get", argn = (not valid) and 1 or nil })
  if not ok then return end
  local want
  for _, h in ipairs(rec.live) do if h.id == id then want = h end end
  if res[1] ~= want then
    F:fail(("%s:get(%s) returned %s, expected %s"):format(rec.name, V.show(id),
      V.show(res[1], F.names), V.show(want, F.names)))
  end
end

--- for a in world:agents() with removals (and additions) along the way: it
-- visits the agents present when it started, those still live when reached.
local function op_iterate(F)
  local rec = some_world(F)
  local rng = F.rng
  local before = {}
  for _, h in ipairs(rec.live) do before[h] = true end
  local touched, seen, p_remove, p_other, p_add = {}, {}, rng:float() * 0.5, rng:float() * 0.3, rng:float() * 0.2
  F.call_index = F.call_index + 1
  F:log(rec.name .. ":agents() loop with removals")
  local ok, err = pcall(function()
    for a in rec.w:agents() do
      if seen[a] then F:fail("world:agents() yields an agent twice") end
      seen[a] = true
      if not rec.alive[a] then F:fail("world:agents() yields a removed or unknown agent") end
      if not before[a] then F:fail("world:agents() yields an agent added in the loop") end
      if rng:chance(p_remove) then
        rec.w:remove(a)
        M.mark_removed(rec, a)
        touched[a] = true
      end
      if rng:chance(p_other) and #rec.live > 0 then
        local b = rng:pick(rec.live)
        rec.w:remove(b)
        M.mark_removed(rec, b)
        touched[b] = true
      end
      if rng:chance(p_add) and #rec.live < MAX_AGENTS then
        track_agent(F, rec, rec.w:add{ x = rng:range(-10, 10), y = rng:range(-10, 10) })
      end
    end
  end)
  if not ok then
    if type(err) == "table" then error(err, 0) end
    F:fail("removing agents while iterating world:agents() raised: " .. tostring(err))
  end
  for h in pairs(before) do
    if not touched[h] and not seen[h] then
      F:fail("world:agents() skipped an agent that stayed alive during the loop")
    end
  end
  F:check(M.check_world(rec))
end

--- world:query(x, y, r) against brute force; sometimes keep the iterator.
local function op_query(F)
  local rec = some_world(F)
  if F.rng:chance(0.15) then
    -- the centre as one value: a live agent of this world, itself included
    local a = #rec.live > 0 and F.rng:pick(rec.live)
    if a then
      local r, okr = G.radius(F)
      local ok, res = F:call(rec.name .. ":query", F.wmethods.query, { rec.w, a, r }, 3,
        okr, { name = "query", argn = not okr and 2 or nil })
      if not ok then return end
      local want, n = M.brute_query(rec, a.x, a.y, r)
      local got = 0
      for b in res[1] do
        if not want[b] then F:fail("query(agent, r) yields an agent brute force does not") end
        got = got + 1
      end
      if got ~= n then F:fail(("query(agent, r) yields %d agents, brute force %d"):format(got, n)) end
      return
    end
  end
  local x, y = G.near(F, rec)
  local okx, oky = true, true
  if F.rng:chance(F.bad) then
    x = V.any(F.rng, G.pools(F))
    -- a table or userdata may be a point (the centre as one value): not
    -- what this bad first argument is for
    if type(x) == "table" or type(x) == "userdata" then x = "1" end
    okx = V.is_num(x)
  end
  if F.rng:chance(F.bad) then y = V.any(F.rng, G.pools(F)); oky = V.is_num(y) end
  local r, okr = G.radius(F)
  local bad = (not okx and 1) or (not oky and 2) or (not okr and 3) or nil
  local ok, res = F:call(rec.name .. ":query", F.wmethods.query, { rec.w, x, y, r }, 4,
    bad == nil, { name = "query", argn = bad })
  if not ok then return end
  local it = res[1]
  local want, n = M.brute_query(rec, x, y, r)
  if F.rng:chance(0.1) and #F.iters < 4 then
    F.iters[#F.iters + 1] = { it = it, set = want, rec = rec, seen = {} }
    return
  end
  local got = 0
  local seen = {}
  for a in it do
    if seen[a] then F:fail("query yields an agent twice") end
    seen[a] = true
    if not want[a] then
      F:fail(("%s:query(%s, %s, %s) yields agent %s at (%s, %s), brute force does not"):format(
        rec.name, V.show(x), V.show(y), V.show(r), tostring(a.id), V.show(a.x), V.show(a.y)))
    end
    got = got + 1
  end
  if got ~= n then
    for h in pairs(want) do
      if not seen[h] then
        F:fail(("%s:query(%s, %s, %s) misses agent %s at (%s, %s) (%s world)"):format(
          rec.name, V.show(x), V.show(y), V.show(r), tostring(h.id), V.show(h.x), V.show(h.y), rec.kind))
      end
    end
  end
end

--- world:nearest(centre, r) against brute force: an agent of the query's
-- set (the centre agent left out) that none of the set is nearer than.
local function op_nearest(F)
  local rec = some_world(F)
  local a = #rec.live > 0 and F.rng:chance(0.5) and F.rng:pick(rec.live) or nil
  local x, y = G.near(F, rec)
  local r, okr = G.radius(F)
  local args = a and { rec.w, a, r } or { rec.w, x, y, r }
  -- visible: only agents the centre sees (world:line_of_sight)
  local visible = okr and F.rng:chance(0.3)
  if visible then args[#args + 1] = { visible = true } end
  local ok, res = F:call(rec.name .. ":nearest", F.wmethods.nearest, args, #args,
    okr, { name = "nearest", argn = not okr and (a and 2 or 3) or nil })
  if not ok then return end
  if a then x, y = a.x, a.y end
  local want, n = M.brute_query(rec, x, y, r, a)
  if visible then
    local seen = {}
    n = 0
    for h in pairs(want) do
      if rec.w:line_of_sight(x, y, h) then seen[h], n = true, n + 1 end
    end
    want = seen
  end
  local got, d = res[1], res[2]
  if got == nil then
    if n > 0 then F:fail(("nearest finds none of the %d agents within %s"):format(n, V.show(r))) end
    return
  end
  if not want[got] then F:fail("nearest gives an agent brute force does not find") end
  local cx, cy = x * 1.0, y * 1.0
  if rec.kind == "wrap" then cx, cy = M.contain(rec, cx, cy) end
  local function dist(h)
    local dx, dy = M.offset(rec, cx, cy, h.x, h.y)
    return math.sqrt(dx * dx + dy * dy)
  end
  -- the core wraps the centre near the origin, the model into [0, W):
  -- offsets round apart by a few ulps of the numbers they came from
  local function tol(h)
    return 1e-12 * (1 + math.abs(cx) + math.abs(cy) + math.abs(h.x) + math.abs(h.y) +
      (rec.W or 0) + (rec.H or 0))
  end
  local mine = dist(got)
  if not (math.abs(d - mine) <= tol(got)) then
    F:fail(("nearest's distance %s, the agent is %s away"):format(V.show(d), V.show(mine)))
  end
  for h in pairs(want) do
    if dist(h) < mine - tol(h) - tol(got) then
      F:fail(("nearest gives an agent %s away; agent %s is %s away"):format(V.show(mine),
        tostring(h.id), V.show(dist(h))))
    end
  end
end

--- Advances an iterator kept from an earlier query, after whatever happened
-- since (removals, a dropped world, collections).
local function op_old_iterator(F)
  if #F.iters == 0 then return op_query(F) end
  local k = F.rng:int(1, #F.iters)
  local held = table.remove(F.iters, k)
  F.call_index = F.call_index + 1
  F:log("advancing a kept query iterator of " .. held.rec.name)
  local ok, err = pcall(function()
    for a in held.it do
      if held.seen[a] then F:fail("kept query iterator yields an agent twice") end
      held.seen[a] = true
      if not held.set[a] then F:fail("kept query iterator yields an agent the query did not find") end
      if a.alive ~= true then F:fail("kept query iterator yields a removed agent") end
      if F.rng:chance(0.2) then break end
    end
  end)
  if not ok then
    if type(err) == "table" then error(err, 0) end
    -- a closed world may refuse, naming the iterator's function
    if not (held.rec.closed and tostring(err):find("closed", 1, true)) then
      F:fail("advancing a kept query iterator raised: " .. tostring(err))
    end
  end
end

--- A world method called on something that is not a live world.
local function op_bad_world_self(F)
  local names = { "add", "remove", "get", "agents", "query", "add_obstacle", "add_wall",
    "obstacles", "walls", "clear_obstacles", "clear_walls" }
  local name = F.rng:pick(names)
  local v
  repeat v = V.any(F.rng, G.pools(F)) until not F.rec_of[v]
  F:call("World." .. name .. "(bad self)", F.wmethods[name], { v, 1, 2, 3 }, 4, false,
    { name = name, argn = 0 })
end

local function op_tostring(F)
  local rec, h = some_agent(F)
  local objs = { rec.w, h, F.paths[1] and F.paths[1].p }
  if #rec.removed > 0 then objs[#objs + 1] = rec.removed[1] end
  for _, o in ipairs(objs) do
    local ok, r = F:call("tostring", tostring, { o }, 1, true)
    if ok and type(r[1]) ~= "string" then F:fail("tostring did not give a string") end
  end
end

-- ---- paths -----------------------------------------------------------------

local function is_path(v)
  return type(v) == "userdata" and tostring(v):find("^steer%.Path") ~= nil
end

-- The points steer.path makes of pts (legs spliced in, a shared joint and a
-- loop's closing point once, nav:path's length and cost after a last leg
-- skipped), or nil when an element is no point.
local function path_points(pts, n)
  local last = n
  if n >= 3 and is_path(pts[n - 2]) and type(pts[n - 1]) == "number"
      and type(pts[n]) == "number" then last = n - 2 end
  local out = {}
  for i = 1, last do
    local e = pts[i]
    if is_path(e) then
      for j = 1, #e do
        local x, y = e:point(j)
        local prev = out[#out]
        if not (j == 1 and prev and prev[1] == x and prev[2] == y) then out[#out + 1] = { x, y } end
      end
    elseif type(e) == "table" and V.is_num(rawget(e, 1)) and V.is_num(rawget(e, 2)) then
      -- raw reads, as the binding's (a trap table's __index must not run)
      out[#out + 1] = { tof(rawget(e, 1)), tof(rawget(e, 2)) }
    else
      return nil
    end
  end
  if pts.loop and #out > 1 and is_path(pts[last]) and out[#out][1] == out[1][1]
      and out[#out][2] == out[1][2] then out[#out] = nil end
  return out
end

local function op_new_path(F)
  local rng = F.rng
  local pts, valid = {}, true
  local n = rng:chance(0.05) and 0 or rng:int(1, 10)
  local shape = rng:float()
  for i = 1, n do
    local p
    if shape < 0.1 then p = { 3, 3 } -- every point the same
    elseif shape < 0.2 then p = { (i % 2) * 5, (i % 3) * 5 } -- crossing zig-zag
    elseif shape < 0.25 then p = { rng:pick({ 1e150, -1e150, 1e-300, 0 }), rng:pick({ 1e150, -1e150, 0 }) }
    elseif shape < 0.35 and #F.paths > 0 then p = rng:pick(F.paths).p -- a leg
    else p = { rng:range(-30, 30), rng:range(-30, 30) } end
    if rng:chance(F.bad) and not is_path(p) then
      local which = rng:int(1, 3)
      if which == 3 then
        p = V.any(rng, G.pools(F))
        -- a nil point is a hole: the length of the list is then any border
        if p == nil then valid = nil elseif valid and not is_path(p) then valid = false end
      else
        p[which] = V.any(rng, G.pools(F))
        if valid and not V.is_num(p[which]) then valid = false end
      end
    end
    pts[i] = p
  end
  if n == 0 then valid = false end
  local holes = valid == nil
  pts.loop = rng:chance(0.4)
  -- a nav:path call last in the table: its length and cost follow the leg
  if not holes and n > 0 and is_path(pts[n]) and rng:chance(0.3) then
    pts[n + 1], pts[n + 2] = rng:range(0, 50), rng:range(0, 50)
    n = n + 2
  end
  local want = (not holes and n > 0) and path_points(pts, n) or nil
  if valid ~= nil then valid = want ~= nil end
  local arg = pts
  if rng:chance(0.02) then arg = V.any(rng, G.pools(F)); valid = false end
  local ok, r = F:call("steer.path", F.steer.path, { arg }, 1, valid,
    { name = "path", argn = (not valid) and 1 or nil })
  if not ok then return end
  local p = r[1]
  if holes then return end
  n = #want
  if #p ~= n then F:fail("#path is " .. tostring(#p) .. ", expected " .. n) end
  if p:loops() ~= pts.loop then F:fail("path:loops() differs from loop") end
  for i = 1, n do
    local x, y = p:point(i)
    if x ~= want[i][1] or y ~= want[i][2] then F:fail("path:point(" .. i .. ") differs") end
  end
  F:name(p, "path" .. n)
  if #F.paths >= MAX_PATHS then table.remove(F.paths, 1) end
  F.paths[#F.paths + 1] = { p = p, n = n, loop = pts.loop }
end

local function op_path_point(F)
  if #F.paths == 0 then return op_new_path(F) end
  local info = F.rng:pick(F.paths)
  local i, valid = F.rng:int(-1, info.n + 1), nil
  if F.rng:chance(0.1) then i = V.any(F.rng, G.pools(F)) end
  if F.rng:chance(0.05) then i = F.rng:pick({ 2 ^ 31, -(2 ^ 31), 2 ^ 40, 2 ^ 53 }) end
  -- open finding 08: an out-of-range index beyond 2^31 is an undefined cast
  if K.avoid("point_cast") and V.is_integral(i) and math.abs(i * 1.0) >= 2 ^ 31 then i = -1 end
  valid = V.is_integral(i) and i >= 1 and i <= info.n
  F:call("path:point", info.p.point, { info.p, i }, 2, valid,
    { name = "point", argn = (not valid) and 1 or nil, numbers = true })
end

-- ---- agents: fields ----------------------------------------------------------

local WRITABLE = { x = "num", y = "num", vx = "num", vy = "num", wander_angle = "num",
  max_speed = "nonneg", max_force = "nonneg", radius = "nonneg",
  wander_radius = "nonneg", wander_distance = "nonneg", wander_jitter = "nonneg" }
local READONLY = { "id", "speed", "heading", "alive" }
-- what a removed agent no longer reads (its own keys, id and alive it does)
local SIMULATION_FIELD = { speed = true, heading = true }
for k in pairs(WRITABLE) do SIMULATION_FIELD[k] = true end
local WRITE_KEYS = { "x", "y", "vx", "vy", "wander_angle", "max_speed", "max_force",
  "radius", "wander_radius", "wander_distance", "wander_jitter" }

local function get_field(h, k) return h[k] end
local function set_field(h, k, v) h[k] = v end

local function op_read_field(F)
  local rec = some_world(F)
  local h = G.self_agent(F, rec)
  if type(h) ~= "userdata" then return end -- indexing a non-agent is Lua's business
  local rng = F.rng
  local key = rng:pick({ "x", "y", "vx", "speed", "heading", "radius", "wander_angle",
    "id", "alive", "name", "nothing", 1, true })
  local owner = G.owner(F, h)
  local expect = nil
  if owner then expect = true
  elseif F.names[h] and tostring(h):find("steer.Agent", 1, true) then
    -- a removed agent: id, alive and the game's own keys still read
    expect = not SIMULATION_FIELD[key]
  end
  local ok, r = F:call("a." .. tostring(key), get_field, { h, key }, 2, expect,
    { pattern = "of steer%.Agent" })
  if ok and owner and WRITABLE[key] and not V.finite(r[1]) then
    F:fail("field " .. key .. " reads " .. V.show(r[1]))
  end
end

local function op_write_field(F)
  local rec = some_world(F)
  local rng = F.rng
  if #rec.live == 0 then O.add_agent(F, rec, true) end
  local h = rec.live[1] and rng:pick(rec.live)
  if (rng:chance(0.1) or not h) and #rec.removed > 0 then h = rng:pick(rec.removed) end
  if not h then return end
  local r = rng:float()
  local key, v, valid
  if r < 0.8 then
    key = rng:pick(WRITE_KEYS)
    local kind = WRITABLE[key] == "num" and "num" or "size"
    if (key == "x" or key == "y") and rng:chance(0.7) then
      local ext = key == "x" and rec.W or rec.H
      v, valid = ext and V.cap(rng:range(-0.1, 1.1) * ext) or rng:range(-40, 40), true
      if rng:chance(F.bad) then v, valid = G.value(F, "num") end
    else
      v, valid = G.value(F, kind)
    end
    valid = valid and (WRITABLE[key] == "num" and V.is_num(v) or V.is_nonneg(v))
  elseif r < 0.87 then
    key, v, valid = rng:pick(READONLY), 1, false
  elseif r < 0.9 then
    key, v, valid = rng:pick({ "seek", "apply", "neighbors" }), 1, false
  elseif r < 0.91 then -- a misspelt field raises
    key, v, valid = rng:pick({ "maxSpeed", "max_sped", "VX", "wander_jiter" }), 1, false
  else
    key = rng:pick({ "name", "hp", 7, true, "NIL", "NAN" })
    if key == "NIL" then key = nil elseif key == "NAN" then key = 0 / 0 end
    v = rng:pick({ "guard", 3, false, {} })
    valid = true
  end
  local owner = G.owner(F, h)
  local expect = valid and owner ~= nil
  local ok = F:call("a." .. tostring(key) .. " = ", set_field, { h, key, v }, 3, expect,
    { pattern = { "of steer%.Agent", "'__newindex'" } })
  if not ok or not owner then return end
  if WRITABLE[key] then
    local want = tof(v)
    if key == "x" then want = M.contain(rec, want, 0)
    elseif key == "y" then local _; _, want = M.contain(rec, 0, want) end
    if owner ~= "orphan" and h[key] ~= want then
      F:fail(("a.%s = %s reads back %s, expected %s"):format(key, V.show(v), V.show(h[key]), V.show(want)))
    end
  elseif type(key) == "string" and h[key] ~= v then
    F:fail("agent data a." .. key .. " does not read back")
  end
  if owner ~= "orphan" then F:check(M.check_agent(owner, h)) end
end

-- ---- agents: behaviors ---------------------------------------------------------

--- Calls method `name` of a (usually live) agent of some world with args
-- made by mk(F, rec, self) -> args, n, bad; checks the result with
-- post(F, rec, self, args, res) when the call succeeds. full: mk's n
-- arguments fill every slot the method takes, so that one more must raise.
local function agent_method(name, mk, post, numbers, removed_ok, full)
  return function(F)
    local rec = some_world(F)
    if #rec.live == 0 then O.add_agent(F, rec, true) end
    local h = G.self_agent(F, rec)
    local owner = G.owner(F, h)
    if type(owner) == "table" then rec = owner end
    local live = owner ~= nil
    if removed_ok and not live then
      live = F.names[h] ~= nil and tostring(h):find("steer.Agent", 1, true) ~= nil
    end
    local args, n, bad = mk(F, rec, h)
    if full and bad == nil and F.rng:chance(0.03) then
      -- one argument too many; when an optional one was left out it lands
      -- in that slot instead, so it must be wrong there too (a 1 made a
      -- fine feeler length for avoid_obstacles(), a {} a fine filter)
      n = n + 1
      args[n] = F.rng:pick({ "x", true })
      bad = n
    end
    if owner == "orphan" then bad = -1 end -- a world the fuzzer let go: either way
    local all = { h }
    for i = 1, n do all[i + 1] = args[i] end
    local expect
    if not live then expect = false elseif bad == nil then expect = true
    elseif bad == -1 then expect = nil else expect = false end
    local argn = (not live) and 0 or (bad ~= -1 and bad or nil)
    local ok, res = F:call(("%s:%s"):format(V.show(h, F.names), name), F.methods[name], all,
      n + 1, expect, { name = name, argn = argn, numbers = numbers ~= false })
    if ok and post and type(owner) == "table" then post(F, rec, h, args, res) end
    if ok then
      F.last_force = res
      if type(owner) == "table" then F:check(M.check_agent(rec, h)) end
    end
  end
end

local function point_then(kinds)
  return function(F, rec)
    local args, used, bad = G.point(F, rec)
    local more, m, mbad = G.build(F, kinds)
    for i = 1, m do args[used + i] = more[i] end
    if not bad and mbad then bad = used + mbad end
    return args, used + m, bad
  end
end

local function peer_arg(F, rec)
  local b, ok = G.peer(F, rec, true)
  return { b }, 1, (not ok) and 1 or nil
end

--- evade's peer and optional panic radius
local function evade_args(F, rec)
  local b, ok = G.peer(F, rec, true)
  local more, _, mbad = G.build(F, { "opt_nonneg" })
  local bad = (not ok) and 1 or (mbad and 2) or nil
  return { b, more[1] }, 2, bad
end

--- evade: zero when the pursuer is farther than the panic radius now
local function evade_post(F, rec, h, args, res)
  G.within(F, "evade", res[1], res[2], h.max_force)
  local b, panic = args[1], args[2]
  if panic == nil then return end
  local dx, dy = M.offset(rec, h.x, h.y, b.x, b.y)
  panic = tof(panic)
  if dx * dx + dy * dy > panic * panic and (res[1] ~= 0 or res[2] ~= 0) then
    F:fail("evade beyond the panic radius is not zero")
  end
end

local function bound_by_max_force(label)
  return function(F, rec, h, args, res) G.within(F, label, res[1], res[2], h.max_force) end
end

--- flee: zero outside the panic radius (computed as the core does).
local function flee_post(F, rec, h, args, res)
  G.within(F, "flee", res[1], res[2], h.max_force)
  local tx, ty, panic
  if type(args[1]) == "userdata" then tx, ty, panic = args[1].x, args[1].y, args[2]
  elseif type(args[1]) == "table" then
    tx, ty, panic = args[1][1] or args[1].x, args[1][2] or args[1].y, args[2]
  else tx, ty, panic = args[1], args[2], args[3] end
  if panic == nil then return end
  tx, ty, panic = tof(tx), tof(ty), tof(panic)
  if rec.kind == "wrap" and K.avoid("torus_offsets")
    and (math.abs(tx) > 1e6 * rec.W or math.abs(ty) > 1e6 * rec.H) then
    return -- open finding 03: far targets on a torus
  end
  local px, py = h.x, h.y
  local ox, oy = M.offset(rec, px, py, tx, ty)
  local dx, dy = (px + ox) - px, (py + oy) - py
  if dx * dx + dy * dy > panic * panic and (res[1] ~= 0 or res[2] ~= 0) then
    F:fail("flee outside the panic radius is not zero")
  end
end

local function avoid_post(which)
  return function(F, rec, h, args, res)
    local count = which == "obstacles" and rec.obstacles or rec.walls
    if count == 0 and (res[1] ~= 0 or res[2] ~= 0) then
      F:fail("avoid_" .. which .. " without any is not zero")
    end
    local max = which == "obstacles" and h.max_force or (args[1] or 3)
    G.within(F, "avoid_" .. which, res[1], res[2], max)
  end
end

--- a:avoid_walls([feeler_length [, whiskers]]): the whiskers' slot counted
-- whenever the feeler's is (a left-out one passed as nil), so that the
-- extra argument agent_method may add goes past it (a true there would be
-- fine whiskers).
local function avoid_walls_args(F)
  local args, n, bad = G.build(F, { "opt_nonneg", "opt_bool" })
  return args, n > 0 and 2 or 0, bad
end

--- With whiskers: within the feeler's length as without, and never
-- shorter than the feeler ahead alone (the deepest of three pushes).
local function avoid_walls_post(F, rec, h, args, res)
  avoid_post("walls")(F, rec, h, args, res)
  if args[2] ~= true then return end
  local plain = { h:avoid_walls(args[1]) }
  local lw, lp = G.len(res[1], res[2]), G.len(plain[1], plain[2])
  if not (lw >= lp * (1 - 1e-12)) then
    F:fail(("avoid_walls with whiskers %s shorter than without %s"):format(V.show(lw), V.show(lp)))
  end
end

local function follow_args(F, rec)
  local rng = F.rng
  local path, ok
  if #F.paths > 0 and rng:chance(0.9) then path, ok = rng:pick(F.paths).p, true
  else path = V.any(rng, G.pools(F)); ok = false
    for _, p in ipairs(F.paths) do if p.p == path then ok = true end end
  end
  if not ok then return { path }, 1, 1 end
  if rng:chance(0.5) then return { path }, 1, nil end
  local opts, valid = {}, true
  if rng:chance(0.6) then opts.arrival_radius = rng:range(0, 3) end
  if rng:chance(0.6) then opts.slowing_radius = rng:range(0, 5) end
  if rng:chance(F.bad * 4) then
    local key = rng:pick({ "arrival_radius", "slowing_radius" })
    opts[key] = rng:chance(0.5) and V.bad_number(rng, "nonneg") or V.any(rng, G.pools(F))
    valid = opts[key] == nil or V.is_nonneg(opts[key])
  end
  local arg = opts
  if rng:chance(0.03) then
    arg = V.any(rng, G.pools(F))
    valid = arg == nil or type(arg) == "table"
  end
  return { path, arg }, 2, (not valid) and 2 or nil
end

local function follow_post(F, rec, h, args, res)
  G.within(F, "follow", res[1], res[2], h.max_force)
  local k = h:path_index()
  local info
  for _, p in ipairs(F.paths) do if p.p == args[1] then info = p end end
  if type(k) ~= "number" or k < 1 or k > info.n or h:path_index(args[1]) ~= k then
    F:fail("path_index after follow is " .. V.show(k))
  end
end

local function path_index_args(F)
  if F.rng:chance(0.5) then return {}, 0, nil end
  if #F.paths > 0 and F.rng:chance(0.8) then return { F.rng:pick(F.paths).p }, 1, nil end
  local v = V.any(F.rng, G.pools(F))
  for _, p in ipairs(F.paths) do if p.p == v then return { v }, 1, nil end end
  return { v }, 1, (v ~= nil) and 1 or nil
end

--- flocking against brute force sums (approximate: summation order differs)
local function flock_post(kind)
  return function(F, rec, h, args, res)
    local filter = args[2]
    if filter and filter.fov then -- a cone: the program spec compares those
      G.within(F, kind, res[1], res[2], math.huge)
      return
    end
    local only
    if filter and filter.groups then
      only = {}
      for _, g in ipairs(filter.groups) do only[g] = true end
    end
    local r = tof(args[1])
    local px, py = h.x, h.y
    local r2 = r * r
    local sx, sy, cnt, scale = 0, 0, 0, 0
    local vsx, vsy, vscale = 0, 0, 0
    for _, b in ipairs(rec.live) do
      if b ~= h and (not only or only[b.group]) then
        local dx, dy = M.offset(rec, px, py, b.x, b.y)
        local d2 = dx * dx + dy * dy
        if kind == "separation" then
          if d2 < r2 then
            local dist = math.sqrt(d2)
            if dist > 1e-5 then
              local k = -1.0 / (dist * dist)
              sx, sy = sx + dx * k, sy + dy * k
              scale = scale + math.abs(dx * k) + math.abs(dy * k)
              cnt = cnt + 1
            end
          end
        elseif d2 <= r2 then
          sx, sy = sx + dx, sy + dy
          scale = scale + math.abs(dx) + math.abs(dy)
          vsx, vsy = vsx + b.vx, vsy + b.vy
          vscale = vscale + math.abs(b.vx) + math.abs(b.vy)
          cnt = cnt + 1
        end
      end
    end
    local ex, ey, tol
    local vx, vy = h.vx, h.vy
    if cnt == 0 then
      ex, ey, tol = 0, 0, 0
    elseif kind == "separation" then
      ex, ey, tol = sx / cnt, sy / cnt, 1e-9 * scale / cnt
    elseif kind == "alignment" then
      ex, ey = vsx / cnt - vx, vsy / cnt - vy
      tol = 1e-9 * (vscale / cnt + math.abs(vx) + math.abs(vy))
    else
      local cx, cy = sx / cnt, sy / cnt
      local cl = G.len(cx, cy)
      -- too close to the 1e-5 cut or too much cancellation: direction unreliable
      if math.abs(cl - 1e-5) < 1e-9 or cl < 1e-6 * (scale / cnt) then return end
      local nx, ny = 0, 0
      if cl > 1e-5 then nx, ny = cx / cl, cy / cl end
      ex, ey = nx * h.max_speed - vx, ny * h.max_speed - vy
      tol = 1e-8 * (h.max_speed + math.abs(vx) + math.abs(vy))
    end
    if math.abs(res[1] - ex) > tol + 1e-300 or math.abs(res[2] - ey) > tol + 1e-300 then
      F:fail(("%s(%s) = (%s, %s), brute force (%s, %s) over %d neighbors"):format(kind,
        V.show(r), V.show(res[1]), V.show(res[2]), V.show(ex), V.show(ey), cnt))
    end
  end
end

local function neighbors_post(F, rec, h, args, res)
  local want, n = M.brute_query(rec, h.x, h.y, args[1], h)
  local got = 0
  for a in res[1] do
    if not want[a] then F:fail(("neighbors(%s) yields agent %s, brute force does not"):format(
      V.show(args[1]), tostring(a.id))) end
    got = got + 1
  end
  if got ~= n then F:fail(("neighbors(%s) yields %d agents, brute force %d"):format(
    V.show(args[1]), got, n)) end
end

--- apply: the pipeline of docs/API.md section 1, recomputed (approximately: the
-- core picks sqrt or hypot by range).
local function apply_args(F, rec, h)
  local rng = F.rng
  local fx, fy
  local lf = F.last_force
  if lf and rng:chance(0.3) and type(lf[1]) == "number" then fx, fy = lf[1], lf[2]
  else fx, fy = G.value(F, "finite"), G.value(F, "finite") end
  local dt = rng:chance(0.8) and rng:pick({ 1 / 60, 0.1, 1, 0.5 }) or G.value(F, "pos")
  if rng:chance(F.bad) then dt = V.any(rng, G.pools(F)) end
  local args = { fx, fy, dt }
  local bad = (not V.finite(fx) and 1) or (not V.finite(fy) and 2) or (not V.is_pos(dt) and 3) or nil
  F.before = type(G.owner(F, h)) == "table" and { x = h.x, y = h.y, vx = h.vx, vy = h.vy } or nil
  return args, 3, bad
end

local function clamp2(x, y, m)
  local l = G.len(x, y)
  if l <= m then return x, y end
  if l == math.huge then -- too long for a double: half of it is not
    x, y = x / 2, y / 2
    l = G.len(x, y)
  end
  return x / l * m, y / l * m -- divide first: m / l may underflow
end

local function apply_post(F, rec, h, args, res)
  local b = F.before
  if not b or not V.finite(b.x) then return end
  -- open finding 05: a clamp by a bound under ~3e-8 may scale by a
  -- subnormal ratio, off by up to 2x
  if K.avoid("clamp_subnormal") and (h.max_force < 1e-5 or h.max_speed < 1e-5) then return end
  local fx, fy = clamp2(tof(args[1]), tof(args[2]), h.max_force)
  local dt = args[3]
  local vx, vy = clamp2(b.vx + fx * dt, b.vy + fy * dt, h.max_speed)
  local px, py = b.x + vx * dt, b.y + vy * dt
  if rec.kind == "clamp" then
    if px < 0 or px > rec.W then vx = 0 end
    if py < 0 or py > rec.H then vy = 0 end
  end
  local ex, ey = M.contain(rec, px, py)
  local vtol = 1e-12 * (G.len(b.vx, b.vy) + G.len(fx, fy) * dt + h.max_speed) + 1e-300
  -- the velocity's own rounding moves the position too: 1 - 0.999999994
  -- (a unit force against a unit velocity) keeps the error of its terms
  local ptol = 1e-12 * (G.len(b.x, b.y) + G.len(vx, vy) * dt) + vtol * dt + 1e-300
  local dx, dy = M.offset(rec, ex, ey, h.x, h.y)
  local near_edge = rec.kind == "clamp" and (math.abs(px) < ptol * 2 or math.abs(px - rec.W) < ptol * 2
    or math.abs(py) < ptol * 2 or math.abs(py - rec.H) < ptol * 2)
  if math.abs(dx) > ptol or math.abs(dy) > ptol then
    F:fail(("apply(%s, %s, %s): position (%s, %s), expected (%s, %s)"):format(V.show(args[1]),
      V.show(args[2]), V.show(dt), V.show(h.x), V.show(h.y), V.show(ex), V.show(ey)))
  end
  if not near_edge and (math.abs(h.vx - vx) > vtol or math.abs(h.vy - vy) > vtol) then
    F:fail(("apply(%s, %s, %s): velocity (%s, %s), expected (%s, %s)"):format(V.show(args[1]),
      V.show(args[2]), V.show(dt), V.show(h.vx), V.show(h.vy), V.show(vx), V.show(vy)))
  end
end

local function seed_args(F)
  local v, ok = G.value(F, "integral")
  return { v }, 1, (not ok) and 1 or nil
end

local function no_args() return {}, 0, nil end

local function position_post(F, rec, h, args, res)
  if res[1] ~= h.x or res[2] ~= h.y then F:fail("a:position() differs from a.x, a.y") end
end
local function velocity_post(F, rec, h, args, res)
  if res[1] ~= h.vx or res[2] ~= h.vy then F:fail("a:velocity() differs from a.vx, a.vy") end
end
local function world_post(F, rec, h, args, res)
  if res[1] ~= rec.w then F:fail("a:world() is not the agent's world") end
end

local function radius_arg(F)
  local r, ok = G.radius(F)
  return { r }, 1, (not ok) and 1 or nil
end

--- a flocking method's radius and optional filter (the entry's groups, fov)
local function flock_args(F)
  local rng = F.rng
  local r, ok = G.radius(F)
  local filter, fine = nil, true
  local x = rng:int(1, 10)
  if x <= 2 then
    filter = { groups = {} }
    for g = 0, 2 do if rng:chance(0.5) then filter.groups[#filter.groups + 1] = g end end
  elseif x == 3 then
    filter = { fov = rng:range(1, 360), groups = rng:chance(0.5) and { 0 } or nil }
  elseif x == 4 and rng:chance(F.bad * 10) then
    filter, fine = rng:pick({ { grups = { 1 } }, { groups = { 32 } }, { fov = 0 }, { angle = 1 },
      { falloff = "linear" }, 7 }), false
  end
  local bad = (not ok) and 1 or ((not fine) and 2) or nil
  return { r, filter }, 2, bad
end

--- a:orca_velocity(vx, vy [, opts]): finite, never faster than max_speed.
local function orca_args(F)
  local args, n, bad = G.build(F, { "num", "num" })
  if F.rng:chance(0.5) then
    args[3] = { time_horizon = V.pos(F.rng),
                neighbor_radius = F.rng:chance(0.2) and "auto" or V.nonneg(F.rng),
                max_neighbors = F.rng:int(0, 64), dt = V.pos(F.rng),
                margin = F.rng:chance(0.5) and F.rng:range(0, 1) or nil,
                push = F.rng:chance(0.3) and F.rng:int(0, 256) or nil }
    if F.rng:chance(0.3) then args[3].detour = F.rng:chance(0.5) end
    if F.rng:chance(0.3) then args[3].settle = F.rng:chance(0.5) end
    if F.rng:chance(F.bad) then
      if F.rng:chance(0.5) then args[3].max_neighbors = 65 else args[3].margin = 2 end
      bad = bad or 3
    end
    n = 3
  end
  return args, n, bad
end
local function orca_post(F, rec, h, args, res)
  local speed = G.len(res[1], res[2])
  if not (speed <= h.max_speed * (1 + 1e-9)) then
    F:fail(("orca_velocity %s faster than max_speed %s"):format(V.show(speed), V.show(h.max_speed)))
  end
end

--- An agent method called on something that is not a live agent.
local function op_bad_agent_self(F)
  local names = { "seek", "flee", "arrive", "pursue", "evade", "wander", "avoid_obstacles",
    "avoid_walls", "follow", "path_index", "separation", "alignment", "cohesion", "apply",
    "neighbors", "seed", "position", "velocity" }
  local name = F.rng:pick(names)
  local v
  repeat v = V.any(F.rng, G.pools(F)) until not G.owner(F, v)
  F:call("Agent." .. name .. "(bad self)", F.methods[name], { v, 1, 2, 3 }, 4, false,
    { name = name, argn = 0 })
end

-- ---- lifetime ----------------------------------------------------------------

--- The fuzzer lets go of a world while keeping some of its handles, then
-- collects: the handles must keep the world alive and working.
local function op_drop_world(F)
  if #F.worlds == 0 then return end
  local k = F.rng:int(1, #F.worlds)
  local rec = table.remove(F.worlds, k)
  F.call_index = F.call_index + 1
  F:log("dropping " .. rec.name .. " and collecting")
  local keep = {}
  for i = 1, math.min(#rec.live, F.rng:int(0, 3)) do keep[i] = rec.live[F.rng:int(1, #rec.live)] end
  for _, h in ipairs(keep) do
    if #F.orphans >= 6 then table.remove(F.orphans, 1) end
    F.orphans[#F.orphans + 1] = { h = h, count = #rec.live }
  end
  -- forget everything else about it (records must not pin the world)
  for i, held in ipairs(F.iters) do if held.rec == rec then F.iters[i].rec = { name = rec.name } end end
  rec.w, rec.live, rec.alive, rec.removed = nil, {}, {}, {}
  collectgarbage("collect")
  collectgarbage("collect")
  for _, o in ipairs(F.orphans) do
    if o.h.alive ~= true then F:fail("a handle whose world was dropped is no longer alive") end
    local w = o.h:world()
    if #w ~= o.count then F:fail("the world of a kept handle lost agents: " .. #w .. " ~= " .. o.count) end
    if not V.finite(o.h.x) or not V.finite(o.h.vy) then F:fail("kept handle reads non-finite fields") end
    local n = 0
    for b in o.h:neighbors(1e150) do
      n = n + 1
      if b.alive ~= true or b == o.h then F:fail("neighbors in a dropped world yields a bad agent") end
    end
    if n > o.count - 1 then F:fail("neighbors in a dropped world: " .. n .. " > " .. (o.count - 1)) end
  end
end

local function op_forget_orphans(F)
  F.call_index = F.call_index + 1
  F:log("forgetting kept handles and collecting")
  F.orphans = {}
  if F.rng:chance(0.5) then F.iters = {} end
  collectgarbage("collect")
end

-- ---- the list ----------------------------------------------------------------

function O.list(F)
  -- method tables, taken once from real objects
  local w = F.steer.world{}
  F.wmethods = getmetatable(w).__index
  local a = w:add{}
  F.methods = {}
  for _, name in ipairs({ "seek", "flee", "arrive", "pursue", "evade", "wander",
    "avoid_obstacles", "avoid_walls", "follow", "path_index", "separation", "alignment",
    "cohesion", "apply", "neighbors", "seed", "position", "velocity", "world",
    "set_behaviors", "set_target", "set_weight", "steering", "active_behavior",
    "orca_velocity", "avoid_agents" }) do
    F.methods[name] = a[name]
  end
  local list = {
    { name = "clamp", weight = 2, run = op_clamp },
    { name = "normalize", weight = 2, run = op_normalize },
    { name = "length", weight = 1, run = op_length },
    { name = "lerp", weight = 1, run = op_lerp },
    { name = "seek", weight = 1, run = force_fn("seek", SEEK_KINDS, 8) },
    { name = "flee", weight = 1, run = force_fn("flee", FLEE_KINDS, 8) },
    { name = "arrive", weight = 1, run = force_fn("arrive", ARRIVE_KINDS, 8) },
    { name = "pursue", weight = 1, run = force_fn("pursue", PURSUE_KINDS, 10) },
    { name = "evade", weight = 1, run = force_fn("evade", EVADE_KINDS, 10) },
    { name = "weighted", weight = 1, run = combination("weighted", 3) },
    { name = "priority", weight = 1, run = combination("priority", 2) },
    { name = "prioritized_sum", weight = 1, run = combination("prioritized_sum", 2) },
    { name = "world", weight = 1, run = function(F) O.new_world(F, false) end },
    { name = "path", weight = 1, run = op_new_path },
    { name = "path:point", weight = 1, run = op_path_point },
    { name = "add", weight = 8, run = function(F) O.add_agent(F, some_world(F), false) end },
    { name = "remove", weight = 3, run = function(F) O.remove_agent(F, some_world(F)) end },
    { name = "get", weight = 2, run = op_get },
    { name = "agents", weight = 1, run = op_iterate },
    { name = "query", weight = 6, run = op_query },
    { name = "nearest", weight = 2, run = op_nearest },
    { name = "old iterator", weight = 1, run = op_old_iterator },
    { name = "bad world self", weight = 0.5, run = op_bad_world_self },
    { name = "tostring", weight = 0.3, run = op_tostring },
    { name = "read field", weight = 4, run = op_read_field },
    { name = "write field", weight = 6, run = op_write_field },
    { name = "a:seek", weight = 2, run = agent_method("seek", point_then({}), bound_by_max_force("seek"),
      nil, nil, true) },
    { name = "a:flee", weight = 2, run = agent_method("flee", point_then({ "opt_nonneg" }), flee_post,
      nil, nil, true) },
    { name = "a:arrive", weight = 2, run = agent_method("arrive", point_then({ "opt_nonneg" }),
      bound_by_max_force("arrive"), nil, nil, true) },
    { name = "a:pursue", weight = 2, run = agent_method("pursue", peer_arg, bound_by_max_force("pursue"),
      nil, nil, true) },
    { name = "a:evade", weight = 2, run = agent_method("evade", evade_args, evade_post, nil, nil, true) },
    { name = "a:wander", weight = 2, run = agent_method("wander", no_args, nil, nil, nil, true) },
    { name = "a:avoid_obstacles", weight = 2, run = agent_method("avoid_obstacles",
      function(F) return G.build(F, { "opt_nonneg" }) end, avoid_post("obstacles"), nil, nil, true) },
    { name = "a:avoid_walls", weight = 2, run = agent_method("avoid_walls", avoid_walls_args,
      avoid_walls_post, nil, nil, true) },
    { name = "a:follow", weight = 2, run = agent_method("follow", follow_args, follow_post) },
    { name = "a:path_index", weight = 0.5, run = agent_method("path_index", path_index_args, nil, false) },
    { name = "a:separation", weight = 2, run = agent_method("separation", flock_args, flock_post("separation"),
      nil, nil, true) },
    { name = "a:alignment", weight = 2, run = agent_method("alignment", flock_args, flock_post("alignment"),
      nil, nil, true) },
    { name = "a:cohesion", weight = 2, run = agent_method("cohesion", flock_args, flock_post("cohesion"),
      nil, nil, true) },
    { name = "a:neighbors", weight = 3, run = agent_method("neighbors", radius_arg, neighbors_post, false) },
    { name = "a:apply", weight = 6, run = agent_method("apply", apply_args, apply_post) },
    { name = "a:seed", weight = 0.5, run = agent_method("seed", seed_args, nil, nil, nil, true) },
    { name = "a:position", weight = 0.5, run = agent_method("position", no_args, position_post, nil, nil, true) },
    { name = "a:velocity", weight = 0.5, run = agent_method("velocity", no_args, velocity_post, nil, nil, true) },
    { name = "a:world", weight = 0.3, run = agent_method("world", no_args, world_post, false, true) },
    { name = "a:orca_velocity", weight = 2, run = agent_method("orca_velocity", orca_args, orca_post) },
    { name = "a:avoid_agents", weight = 2, run = agent_method("avoid_agents",
      function(F)
        -- all three slots counted (a left-out one passed as nil), so that the
        -- extra argument agent_method may add goes past the last one
        local args, _, bad = G.build(F, { "opt_pos", "opt_nonneg", "opt_nonneg" })
        return args, 3, bad
      end, nil, nil, nil, true) },
    { name = "bad agent self", weight = 0.5, run = op_bad_agent_self },
    { name = "drop world", weight = 0.3, run = op_drop_world },
    { name = "forget kept handles", weight = 0.1, run = op_forget_orphans },
    { name = "collect", weight = 0.2, run = function(F)
      F.call_index = F.call_index + 1
      F:log("collectgarbage()")
      collectgarbage("collect")
    end },
  }
  for _, op in ipairs(require("fuzz.ops_programs").list(F, O)) do list[#list + 1] = op end
  for _, op in ipairs(require("fuzz.nav_ops").list(F)) do list[#list + 1] = op end
  for _, op in ipairs(require("fuzz.ops_turn").list(F, O)) do list[#list + 1] = op end
  for _, op in ipairs(require("fuzz.ops_tactics").list(F, O)) do list[#list + 1] = op end
  for _, op in ipairs(require("fuzz.ops_hostile").list()) do list[#list + 1] = op end
  for _, op in ipairs(require("fuzz.ops_levels").list(F, O)) do list[#list + 1] = op end
  for _, op in ipairs(require("fuzz.ops_extreme").list()) do list[#list + 1] = op end
  return list
end

O.some_world, O.some_agent = some_world, some_agent
return O
