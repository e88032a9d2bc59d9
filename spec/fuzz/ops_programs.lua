--- Operations over behavior programs and the whole-world calls: set_behaviors,
-- steer.program, set_target, set_weight, steering, active_behavior,
-- world:step/stats/positions/snapshot/close and steer.restore (docs/API.md).
-- Programs are drawn at random, valid or not (P.program says which); a call
-- must succeed where the contract is plain and fail on removed agents,
-- non-finite numbers and unknown names; where a verdict is not plain
-- ("unsure") the call may go either way, but must not crash, must raise
-- string messages naming a function and must leave every agent finite.
local V = require "fuzz.values"
local M = require "fuzz.model"
local G = require "fuzz.gen"

local P = {}

local BEHAVIORS = { "seek", "flee", "arrive", "pursue", "evade", "wander",
  "avoid_obstacles", "avoid_walls", "follow", "separation", "alignment", "cohesion",
  "avoid_agents" }
local COMBINES = { "weighted", "priority", "prioritized_sum", "dither" }
local NEEDS_AGENT = { pursue = true, evade = true }
local NEEDS_POINT = { seek = true, flee = true, arrive = true }
local RADIUS = { separation = true, alignment = true, cohesion = true }

--- A random target for entry `name`: returns value, plainly-valid.
local function target_for(F, rec, name)
  local rng = F.rng
  local r = rng:float()
  if NEEDS_AGENT[name] or r < 0.35 then
    local b, ok = G.peer(F, rec, true)
    return b, ok
  end
  if r < 0.5 then -- one of the fuzzer's shared points (several entries hold each)
    return G.shared_point(F), NEEDS_POINT[name] or false
  end
  if r < 0.8 then
    local x, y = G.near(F, rec)
    return { x, y }, NEEDS_POINT[name] or false
  end
  if r < 0.9 and #F.paths > 0 then return rng:pick(F.paths).p, false end
  return V.any(rng, G.pools(F)), false
end

--- A random behavior program for an agent of rec. Returns the table and
-- "valid" (must be accepted), "invalid" (must be refused) or "unsure".
function P.program(F, rec)
  local rng = F.rng
  local prog, verdict = {}, "valid"
  local function worse(v)
    if v == "invalid" or verdict == "invalid" then verdict = "invalid"
    elseif v == "unsure" then verdict = "unsure" end
  end
  if rng:chance(0.8) then prog.combine = rng:pick(COMBINES) end
  if rng:chance(0.03) then prog.combine = rng:pick({ "sum", "", "PRIORITY" }); worse("invalid") end
  if rng:chance(0.3) then prog.smoothing = 1 - rng:range(0, 1) end -- (0, 1]
  if rng:chance(0.2) then prog.hold = rng:range(0, 2) end
  if rng:chance(0.2) then -- ORCA: true, a table, or a bad field
    prog.orca = rng:chance(0.3) or { time_horizon = rng:range(0.1, 8),
      obstacle_time_horizon = rng:range(0.1, 4), neighbor_radius = rng:chance(0.2) and "auto" or rng:range(0, 12),
      max_neighbors = rng:int(0, 64), margin = rng:chance(0.5) and rng:range(0, 1) or nil,
      push = rng:chance(0.4) and (rng:chance(0.5) or rng:int(0, 256)) or nil }
    if type(prog.orca) == "table" and rng:chance(0.3) then prog.orca.detour = rng:chance(0.5) end
    if type(prog.orca) == "table" and rng:chance(0.3) then prog.orca.settle = rng:chance(0.7) end
    if rng:chance(F.bad) then
      prog.orca = rng:pick({ { max_neighbors = 65 }, { time_horizon = 0 }, { horizon = 1 }, 3,
        { margin = -0.1 }, { margin = 1.5 }, { margin = 0 / 0 }, { push = 257 }, { push = 1.5 },
        { push = -1 }, { push = "yes" }, { detour = 1 }, { detour = "no" }, { settle = 1 },
        { settle = "yes" } })
      worse("invalid")
    end
  end
  if rng:chance(0.2) then -- walls stop bodies: a boolean, or a bad value
    prog.collide = rng:chance(0.8)
    if rng:chance(F.bad) then prog.collide = rng:pick({ 1, "yes", {} }); worse("invalid") end
  end
  if rng:chance(F.bad) then
    local key = rng:pick({ "smoothing", "hold" })
    prog[key] = V.bad_number(rng)
    -- 0 would keep the first force for good: refused
    if key == "smoothing" and rng:chance(0.3) then prog[key] = rng:pick({ 0, -0.0, 1.5 }) end
    if prog[key] ~= nil then worse("invalid") end -- nil is the same as absent
  end
  local tagged = {} -- two entries cannot share a tag
  for i = 1, rng:int(0, 5) do
    -- this entry's own verdict: a later hostile replacement supersedes it
    local outer, entry = verdict, "valid"
    local function worse(v)
      if v == "invalid" or entry == "invalid" then entry = "invalid"
      elseif v == "unsure" then entry = "unsure" end
    end
    local name = rng:pick(BEHAVIORS)
    local e = { name }
    if NEEDS_POINT[name] or NEEDS_AGENT[name] then
      local t, ok = target_for(F, rec, name)
      e.target = t
      if not ok then worse("unsure") end
    end
    if name == "follow" then
      if #F.paths > 0 then e.path = rng:pick(F.paths).p else worse("unsure") end
    end
    if RADIUS[name] then e.radius = rng:range(0, 6) end
    if name == "avoid_agents" and rng:chance(0.5) then e.time_horizon = rng:range(0.05, 5) end
    if name == "avoid_agents" and rng:chance(0.3) then e.personal_space = rng:range(0, 2) end
    if name == "avoid_agents" and rng:chance(0.3) then -- issue 14's filter
      e.groups, e.fov = { rng:int(0, 31) }, rng:range(1, 360)
    end
    if (name == "avoid_obstacles" or name == "avoid_walls") and rng:chance(0.5) then e.feeler_length = rng:range(0, 5) end
    if name == "avoid_obstacles" and rng:chance(0.3) then e.hysteresis = rng:range(0, 1) end
    if name == "avoid_walls" and rng:chance(0.3) then e.whiskers = rng:chance(0.5) end
    if name == "avoid_walls" and rng:chance(F.bad) then -- whiskers: a boolean, or absent
      e.whiskers = rng:pick({ 1, 0, "yes", {} })
      worse("invalid")
    end
    if name == "arrive" and rng:chance(0.5) then e.slowing_radius = rng:range(0, 4) end
    if (name == "flee" or name == "evade") and rng:chance(0.3) then e.panic_radius = rng:range(0, 10) end
    if rng:chance(0.5) then e.weight = rng:range(0, 3) end
    if prog.combine == "dither" then e.probability = rng:range(0, 1) end
    if rng:chance(0.2) then e.tag = rng:pick({ "chase", "flock", "avoid" }) end
    if rng:chance(F.bad) then e.tag = rng:pick({ 7, 1, true }); worse("invalid") end
    if rng:chance(F.bad) then
      local key = rng:pick({ "weight", "radius", "feeler_length", "slowing_radius", "probability" })
      e[key] = V.bad_number(rng)
      -- nil is the same as absent; a negative weight within the limit is
      -- allowed (it flips the force)
      if e[key] ~= nil then
        worse((key == "weight" and V.is_num(e[key])) and "valid" or "invalid")
      end
    end
    if rng:chance(F.bad) then
      e[1] = rng:pick({ "teleport", "", "Seek" })
      worse("invalid")
    end
    if rng:chance(F.bad) then
      e = V.any(rng, G.pools(F))
      entry = "unsure"
    end
    local tag = type(e) == "table" and rawget(e, "tag") -- raw: V.any's traps
    if type(tag) == "string" then
      if tagged[tag] then worse("invalid") end
      tagged[tag] = true
    end
    verdict = outer
    if entry == "invalid" then verdict = "invalid"
    elseif entry == "unsure" and verdict == "valid" then verdict = "unsure" end
    prog[i] = e
  end
  -- a game level's program begins avoid_walls, avoid_obstacles: the batch
  -- takes that pair in one pass (geometry_avoid_walls_obstacles_many),
  -- unless avoid_walls has whiskers (then one agent at a time)
  if rng:chance(0.1) then
    table.insert(prog, 1, { "avoid_obstacles", feeler_length = rng:chance(0.5) and rng:range(0, 5) or nil })
    table.insert(prog, 1, { "avoid_walls", feeler_length = rng:chance(0.5) and rng:range(0, 5) or nil,
      whiskers = rng:chance(0.3) or nil })
  end
  return prog, verdict
end

local function live_self(F)
  local rec = require("fuzz.ops").some_world(F)
  if #rec.live == 0 then require("fuzz.ops").add_agent(F, rec, true) end
  local h = G.self_agent(F, rec)
  local owner = G.owner(F, h)
  if type(owner) == "table" then rec = owner end
  -- an orphan (its world dropped, pinned by the handle) is live too
  local known, alive = pcall(function() return h.alive end)
  return rec, h, owner ~= nil or (known and alive == true)
end

--- Agent targets must share the agent's world; where that is not plain,
-- the program may go either way.
local function same_world_targets(F, h, prog, verdict)
  if verdict ~= "valid" or type(prog) ~= "table" then return verdict end
  local okh, wh = pcall(function() return h:world() end)
  for _, e in ipairs(prog) do
    local t = type(e) == "table" and e.target
    if type(t) == "userdata" and not G.is_shared_point(F, t) then
      local okt, wt = pcall(function() return t:world() end)
      if not (okh and okt and rawequal(wh, wt)) then return "unsure" end
    end
  end
  return verdict
end

local function expect_of(live, verdict)
  if not live or verdict == "invalid" then return false end
  if verdict == "valid" then return true end
  return nil
end

local function checked_world(F, rec)
  if rec and rec.w then F:check(M.check_world(rec)) end
end

local function dt_arg(F)
  local rng = F.rng
  if rng:chance(F.bad * 2) then
    local v = rng:chance(0.5) and V.bad_number(rng, "pos") or V.any(rng, G.pools(F))
    return v, V.is_pos(v)
  end
  return rng:pick({ 1 / 60, 0.1, 0.5, 1, rng:range(1e-6, 2) }), true
end

--- Entries that shared a steer.point in rec's world share one point of w2,
-- its restored copy, a new one where the saved one is; entries that did
-- not, do not.
function P.check_shared_points(F, rec, w2)
  local to, from = {}, {}
  for _, h in ipairs(rec.live) do
    local b1 = h:behaviors()
    local b2 = b1 and w2:get(h.id):behaviors()
    if b1 and not b2 then F:fail("restore(snapshot()): agent " .. tostring(h.id) .. " lost its behaviors") end
    for k, e in ipairs(b1 or {}) do
      -- the target, and interpose's two ends (kept since snapshot version 10)
      local ends = { { e.target, b2[k].target } }
      if type(e.between) == "table" and type(b2[k].between) == "table" then
        ends[2] = { e.between[1], b2[k].between[1] }
        ends[3] = { e.between[2], b2[k].between[2] }
      end
      -- a formation (kept since snapshot version 11): the restored one has
      -- the same members in the same order in the same slots
      if e[1] == "formation" then
        local m1, m2 = e.formation:members(), b2[k].formation:members()
        local same = #m1 == #m2 and not rawequal(e.formation, b2[k].formation)
        for j = 1, same and #m1 or 0 do
          same = same and m1[j].id == m2[j].id and
            e.formation:slot_of(m1[j]) == b2[k].formation:slot_of(m2[j])
        end
        if not same then
          F:fail(("restore(snapshot()): agent %s entry %d's formation restored with other members or slots"):format(
            tostring(h.id), k))
        end
      end
      for _, pair in ipairs(ends) do
        local t, t2 = pair[1], pair[2]
        if G.is_shared_point(F, t) then
          if not G.is_shared_point(F, t2) or rawequal(t, t2) or t2.x ~= t.x or t2.y ~= t.y then
            F:fail(("restore(snapshot()): agent %s entry %d's shared point is %s, saved %s"):format(
              tostring(h.id), k, tostring(t2), tostring(t)))
          end
          if (to[t] or t2) ~= t2 or (from[t2] or t) ~= t then
            F:fail(("restore(snapshot()): agent %s entry %d: shared points restored apart or joined"):format(
              tostring(h.id), k))
          end
          to[t], from[t2] = t2, t
        end
      end
    end
  end
end

function P.list(F, O)
  local ops = {}
  local function add(name, weight, run) ops[#ops + 1] = { name = name, weight = weight, run = run } end

  add("a:set_behaviors", 3, function(F)
    local rec, h, live = live_self(F)
    local prog, verdict = P.program(F, rec)
    verdict = same_world_targets(F, h, prog, verdict)
    if F.rng:chance(0.1) then prog, verdict = nil, "valid" end
    F:call("a:set_behaviors", F.methods.set_behaviors, { h, prog }, 2, expect_of(live, verdict),
      { name = "set_behaviors", argn = (not live) and 0 or nil })
  end)
  add("world:add{program = ...}", 1, function(F)
    local rec, h, live = live_self(F)
    if not (live and type(rec) == "table" and rec.w) then return end
    local prog, verdict = P.program(F, rec)
    verdict = same_world_targets(F, h, prog, verdict)
    if prog == nil then verdict = "valid" end -- no program: a plain add
    local ok, r = F:call(rec.name .. ":add{program}", F.wmethods.add,
      { rec.w, { x = F.rng:range(-5, 5), y = 1, program = prog } }, 2,
      expect_of(true, verdict), { name = "add", argn = 1 })
    if ok then
      O.track_agent(F, rec, r[1])
      if r[1].program ~= nil then
        F:fail("world:add{program = ...}: the program became the agent's own data")
      end
    end
    checked_world(F, rec)
  end)
  add("program with a removed target", 0.5, function(F)
    local rec = O.some_world(F)
    for _ = 1, 2 do O.add_agent(F, rec, true) end
    if #rec.live < 2 then return end
    local a, b = rec.live[1], rec.live[#rec.live]
    local name = F.rng:pick({ "pursue", "evade", "seek", "arrive" })
    F:call("a:set_behaviors", F.methods.set_behaviors,
      { a, { combine = "weighted", { name, target = b } } }, 2, true, { name = "set_behaviors" })
    F:call(rec.name .. ":remove", F.wmethods.remove, { rec.w, b }, 2, true, { name = "remove" })
    M.mark_removed(rec, b)
    F:call(rec.name .. ":step", F.wmethods.step, { rec.w, 0.1 }, 2, nil, {})
    if a.alive then
      F:call("a:steering", F.methods.steering, { a, 0.1 }, 2, nil, { numbers = true })
    end
    checked_world(F, rec)
  end)

  add("program methods refuse an extra argument", 0.3, function(F)
    local rec = O.some_world(F)
    O.add_agent(F, rec, true)
    if #rec.live == 0 then return end
    local a = rec.live[#rec.live]
    F:call("a:set_behaviors", F.methods.set_behaviors,
      { a, { { "seek", target = { 1, 2 }, tag = "go" } } }, 2, true, { name = "set_behaviors" })
    local extra = F.rng:pick({ 1, "x", {}, true })
    local calls = {
      { "set_behaviors", { a, { { "wander" } }, extra }, 2 },
      { "set_target", { a, "go", 3, 4, extra }, 4 },
      { "set_target", { a, 1, { 3, 4 }, extra }, 3 },
      { "set_weight", { a, "go", 2, extra }, 3 },
      { "steering", { a, 0.1, extra }, 2 },
      { "active_behavior", { a, extra }, 1 },
      { "behaviors", { a, extra }, 1 },
    }
    local c = F.rng:pick(calls)
    local method = function(h, ...) return h[c[1]](h, ...) end
    F:call("a:" .. c[1], method, c[2], #c[2], false, { name = c[1], argn = c[3] })
    F:call("steer.program", F.steer.program, { { { "wander" } }, extra }, 2, false,
      { name = "program", argn = 2 })
  end)

  -- nav:path's three values (or its nil, reason) straight into set_target
  add("a:set_target(tag, nav:path(...))", 0.2, function(F)
    local rec = O.some_world(F)
    O.add_agent(F, rec, true)
    if #rec.live == 0 then return end
    local a = rec.live[#rec.live]
    F:call("a:set_behaviors", F.methods.set_behaviors,
      { a, { { "follow", path = F.steer.path{ { 0, 0 } }, tag = "chase" } } }, 2, true,
      { name = "set_behaviors" })
    local nav = F.steer.navgrid{ width = 6, height = 3, cell_size = F.rng:range(0.5, 4) }
    local gx, gy = F.rng:range(-5, 30), F.rng:range(-5, 15)
    local r = { nav:path(1, 1, gx, gy) }
    local args = { a, "chase", r[1], r[2], r[3] }
    if r[1] == nil then
      F:call("a:set_target", F.methods.set_target, args, 5, false, { name = "set_target", argn = 2 })
    else
      F:call("a:set_target", F.methods.set_target, args, 5, true, { name = "set_target" })
      if F.rng:chance(0.5) then
        args[6] = F.rng:pick({ 1, "x", {}, true })
        F:call("a:set_target", F.methods.set_target, args, 6, false, { name = "set_target", argn = 5 })
      end
    end
  end)

  add("steer.program", 1, function(F)
    local rec, h, live = live_self(F)
    local prog, verdict = P.program(F, rec)
    local ok, r = F:call("steer.program", F.steer.program, { prog }, 1,
      verdict == "invalid" and false or (verdict == "valid" or nil), { name = "program" })
    if ok then
      F:call("a:set_behaviors(program)", F.methods.set_behaviors, { h, r[1] }, 2,
        (not live) and false or nil, { name = "set_behaviors" })
    end
  end)

  add("a:set_target", 1, function(F)
    local rec, h, live = live_self(F)
    local which = F.rng:pick({ 1, 2, 0, -1, 1.5, "chase", "seek", "pursue", "nothing" })
    local t = target_for(F, rec, "seek")
    F:call("a:set_target", F.methods.set_target, { h, which, t }, 3, (not live) and false or nil,
      { name = "set_target", argn = (not live) and 0 or nil })
  end)

  add("a:set_weight", 1, function(F)
    local rec, h, live = live_self(F)
    local which = F.rng:pick({ 1, 2, 0, -1, "chase", "separation", "nothing" })
    local w, ok = G.value(F, "nonneg")
    F:call("a:set_weight", F.methods.set_weight, { h, which, w }, 3,
      (not live or not V.is_num(w)) and false or nil,
      { name = "set_weight", argn = (not live) and 0 or nil })
  end)

  add("a:steering", 2, function(F)
    local rec, h, live = live_self(F)
    local dt, ok = dt_arg(F)
    F:call("a:steering", F.methods.steering, { h, dt }, 2, (not live or not ok) and false or nil,
      { name = "steering", argn = (not live) and 0 or ((not ok) and 1 or nil), numbers = true })
    if live and type(G.owner(F, h)) == "table" then F:check(M.check_agent(rec, h)) end
  end)

  add("a:active_behavior", 0.5, function(F)
    local rec, h, live = live_self(F)
    local ok, r = F:call("a:active_behavior", F.methods.active_behavior, { h }, 1,
      (not live) and false or nil, { name = "active_behavior", argn = (not live) and 0 or nil })
    if ok and r[1] ~= nil and type(r[1]) ~= "string" and type(r[1]) ~= "number" then
      F:fail("active_behavior returned a " .. type(r[1]))
    end
  end)

  add("agents share a point", 0.5, function(F)
    -- several agents' own behaviors aim at one point, for snapshots to keep
    local rec = O.some_world(F)
    local p = G.shared_point(F)
    for _ = 1, F.rng:int(2, 3) do
      if #rec.live == 0 then return end
      local h = F.rng:pick(rec.live)
      local name = F.rng:pick({ "seek", "arrive", "flee" })
      F:call("a:set_behaviors", F.methods.set_behaviors,
        { h, { { name, target = p }, { "wander", weight = F.rng:range(0, 1) } } }, 2, true,
        { name = "set_behaviors" })
    end
  end)

  add("move a shared point", 0.5, function(F)
    local p = G.shared_point(F)
    local key = F.rng:pick({ "x", "y" })
    local v, ok = G.value(F, "num")
    local set = function(pt, k, val) pt[k] = val end
    F:call("SharedPoint." .. key, set, { p, key, v }, 3, ok, { name = key })
    if ok and p[key] ~= v * 1.0 then F:fail("SharedPoint." .. key .. " reads " .. V.show(p[key])) end
  end)

  add("world:step", 3, function(F)
    local rec = O.some_world(F)
    local dt, ok = dt_arg(F)
    F:call(rec.name .. ":step", F.wmethods.step, { rec.w, dt }, 2, ok,
      { name = "step", argn = (not ok) and 1 or nil })
    checked_world(F, rec)
  end)

  add("world:stats", 0.3, function(F)
    local rec = O.some_world(F)
    local ok, r = F:call(rec.name .. ":stats", F.wmethods.stats, { rec.w }, 1, true, { name = "stats" })
    if ok and type(r[1]) == "table" then
      for k, v in pairs(r[1]) do
        if type(v) == "number" and not V.finite(v) then
          F:fail("world:stats()." .. tostring(k) .. " is " .. V.show(v))
        end
      end
    end
  end)

  add("world:positions", 1, function(F)
    local rec = O.some_world(F)
    local t = F.rng:chance(0.3) and { 1, 2, 3, 4, 5, 6, 7, 8, 9 } or nil
    local ok, r = F:call(rec.name .. ":positions", F.wmethods.positions, { rec.w, t }, 2, true,
      { name = "positions" })
    if not ok then return end
    local flat = r[1]
    if type(flat) ~= "table" then F:fail("world:positions() returned a " .. type(flat)) end
    local n = #rec.live
    if #flat ~= 2 * n then F:fail(("world:positions() has %d numbers for %d agents"):format(#flat, n)) end
    local want = {}
    for _, h in ipairs(rec.live) do
      local k = V.show(h.x) .. "," .. V.show(h.y)
      want[k] = (want[k] or 0) + 1
    end
    for i = 1, 2 * n, 2 do
      local k = V.show(flat[i]) .. "," .. V.show(flat[i + 1])
      if not want[k] or want[k] == 0 then F:fail("world:positions() lists a position no agent has: " .. k) end
      want[k] = want[k] - 1
    end
  end)

  add("snapshot/restore", 0.5, function(F)
    local rec = O.some_world(F)
    local ok, r = F:call(rec.name .. ":snapshot", F.wmethods.snapshot, { rec.w }, 1,
      true, { name = "snapshot" })
    if not ok then return end
    local snap = r[1]
    local corrupt = false
    if type(snap) == "table" and F.rng:chance(0.3) then
      -- hostile edits: restore must refuse or still build a finite world
      local keys = {}
      for k in pairs(snap) do keys[#keys + 1] = k end
      table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
      if #keys > 0 then
        snap[F.rng:pick(keys)] = V.any(F.rng, G.pools(F))
        corrupt = true
      end
    end
    -- the options: none, a valid thread count, or a bad one (which raises)
    local opts, valid_opts = nil, true
    local pick = F.rng:int(1, 4)
    if pick == 2 then
      opts = { threads = F.rng:int(1, 3), max_step = F.rng:chance(0.5) and F.rng:range(0.01, 0.5) or nil }
    elseif pick == 3 then
      opts, valid_opts = F.rng:pick{ { threads = 0 }, { threads = 1.5 }, { threads = 65 },
        { thread = 2 }, { threads = "2" }, { max_step = 0 }, { max_step = -1 },
        { max_step = "1" }, { max_stp = 1 }, 7 }, false
    end
    local expect = (not corrupt) and valid_opts or nil
    if not valid_opts and type(snap) == "string" then expect = false end
    local ok2, r2 = F:call("steer.restore", F.steer.restore, { snap, opts }, 2,
      expect, { name = "restore", argn = expect == false and 2 or nil })
    if not ok2 then return end
    local w2 = r2[1]
    if not corrupt then P.check_shared_points(F, rec, w2) end
    if #F.worlds >= 4 then return end
    local rec2 = O.track_world(F, w2, rec.kind, rec.W, rec.H)
    -- a restored world starts with the obstacles and walls it was saved with
    require("fuzz.ops_levels").recount(rec2)
    for a in w2:agents() do O.track_agent(F, rec2, a) end
    F:check(M.check_world(rec2))
    if not corrupt then
      if #rec2.live ~= #rec.live then F:fail("restore(snapshot()) has a different agent count") end
      for _, h in ipairs(rec.live) do
        local h2 = w2:get(h.id)
        if not h2 then F:fail("restore(snapshot()) lost agent " .. tostring(h.id)) end
        for _, f in ipairs(M.FIELDS) do
          if h2[f] ~= h[f] then
            F:fail(("restore(snapshot()): agent %s field %s %s ~= %s"):format(tostring(h.id), f,
              V.show(h2[f]), V.show(h[f])))
          end
        end
      end
    end
  end)
  add("steer.restore(garbage)", 0.2, function(F)
    local v = V.any(F.rng, G.pools(F))
    -- any string is a snapshot to judge (nil, message); anything else raises
    local ok, r = F:call("steer.restore", F.steer.restore, { v }, 1, type(v) == "string",
      { name = "restore", argn = 1 })
    if ok and type(v) == "string" and (r[1] ~= nil or type(r[2]) ~= "string") then
      F:fail("steer.restore(" .. V.show(v) .. ") did not refuse it with a message")
    end
  end)

  add("world:close", 0.1, function(F)
    if #F.worlds == 0 then return end
    local k = F.rng:int(1, #F.worlds)
    local rec = F.worlds[k]
    F:call(rec.name .. ":close", F.wmethods.close, { rec.w }, 1, true, { name = "close" })
    table.remove(F.worlds, k)
    rec.closed = true
    if #F.closed >= 3 then table.remove(F.closed, 1) end
    F.closed[#F.closed + 1] = rec.w
    -- everything about it now refuses, naming the function
    F:call(rec.name .. ":add", F.wmethods.add, { rec.w, {} }, 2, false, { name = "add", argn = 0 })
    F:call(rec.name .. ":query", F.wmethods.query, { rec.w, 0, 0, 1 }, 4, false, { name = "query", argn = 0 })
    local h = rec.live[1]
    if h then
      if h.alive ~= false then F:fail("an agent of a closed world reads alive ~= false") end
      F:call("a:seek", F.methods.seek, { h, 1, 2 }, 3, false, { name = "seek", argn = 0 })
    end
    F:call(rec.name .. ":close again", F.wmethods.close, { rec.w }, 1, nil, { name = "close" })
    rec.live, rec.alive, rec.removed = {}, {}, {}
    collectgarbage("collect")
  end)
  return ops
end

return P
