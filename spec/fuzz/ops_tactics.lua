--- Operations over the group and tactical behaviors (docs/API.md section
-- 17): the methods offset_pursuit, follow_leader, interpose, hide, queue
-- and formation, steer.formation and its methods, and programs with their
-- entries. Forces must be finite and no longer than max_force; a
-- formation's slots must be distinct, its members live agents of its world.
local V = require "fuzz.values"
local M = require "fuzz.model"
local G = require "fuzz.gen"

local T = {}
local O -- ops.lua's helpers, set by T.list

local SHAPES = { "line", "column", "wedge", "circle" }

--- The agent for self: rec, handle, live (as ops_programs' live_self).
local function self_of(F)
  local rec = O.some_world(F)
  if #rec.live == 0 then O.add_agent(F, rec, true) end
  local h = G.self_agent(F, rec)
  local owner = G.owner(F, h)
  if type(owner) == "table" then rec = owner end
  return rec, h, owner ~= nil, owner
end

--- A pose argument (agent, x y, {x, y}): args, n, index of the first bad.
local function pose_arg(F, rec)
  local r = F.rng:float()
  if r < 0.3 then
    local x, y = G.near(F, rec)
    return { { x, y } }, 1, nil
  end
  return G.point(F, rec)
end

local function append(args, n, bad, more, m, mbad)
  for i = 1, m do args[n + i] = more[i] end
  if not bad and mbad then bad = n + mbad end
  return args, n + m, bad
end

--- A tracked formation of rec's world, made on demand (nil if none).
local function some_formation(F, rec)
  F.formations = F.formations or {}
  local list = {}
  for _, f in ipairs(F.formations) do
    if f.rec == rec and not rec.closed then list[#list + 1] = f end
  end
  if #list == 0 or F.rng:chance(0.1) then
    if #rec.live == 0 or rec.closed then return nil end
    local def
    if F.rng:chance(0.5) then
      def = { anchor = F.rng:pick(rec.live), shape = F.rng:pick(SHAPES),
              count = F.rng:int(0, 40), spacing = F.rng:range(0, 4) }
    else
      local slots = {}
      for k = 1, F.rng:int(0, 8) do slots[k] = { F.rng:range(-6, 6), F.rng:range(-6, 6) } end
      def = { anchor = { G.near(F, rec) }, world = rec.w, slots = slots }
    end
    if F.rng:chance(0.5) then def.fit = F.rng:chance(0.5) end
    local ok, r = F:call("steer.formation", F.steer.formation, { def }, 1, true, { name = "formation" })
    if not ok then return nil end
    local f = { f = r[1], rec = rec, anchor = def.anchor, fit = def.fit ~= false }
    if def.slots and F.rng:chance(0.2) then -- a shape's options with slots raise
      local bad = { anchor = def.anchor, world = def.world, slots = def.slots }
      bad[F.rng:pick({ "spacing", "count" })] = F.rng:int(0, 4)
      F:call("steer.formation", F.steer.formation, { bad }, 1, false,
        { pattern = "'formation' %(.*is for a shape" })
    end
    if #F.formations >= 6 then table.remove(F.formations, 1) end
    F.formations[#F.formations + 1] = f
    return f
  end
  return F.rng:pick(list)
end

--- A formation's invariants: distinct slots in range, live members.
local function check_formation(F, f)
  local rec = f.rec
  if rec.closed then return end
  local ok, r = F:call("f:members", f.f.members, { f.f }, 1, true, { name = "members" })
  if not ok then return end
  local used = {}
  for _, h in ipairs(r[1]) do
    if not rec.alive[h] then F:fail("a formation lists a member that is not alive: " .. V.show(h, F.names)) end
    local s = f.f:slot_of(h)
    if s ~= nil then
      if used[s] then F:fail("two members hold slot " .. s) end
      if s < 1 or s > #f.f then F:fail("slot " .. s .. " out of range") end
      used[s] = true
    end
  end
end

local function force_post(F, label, h, res)
  if res and res.n == 2 then G.within(F, label, res[1], res[2], h.max_force) end
end

local function method_op(name, mk)
  return function(F)
    local rec, h, live, owner = self_of(F)
    local args, n, bad = mk(F, rec)
    if owner == "orphan" then bad = -1 end
    local expect
    if not live then expect = false elseif bad == nil then expect = true
    elseif bad == -1 then expect = nil else expect = false end
    local all = { h }
    for i = 1, n do all[i + 1] = args[i] end
    local ok, res = F:call(("%s:%s"):format(V.show(h, F.names), name), F.methods[name], all, n + 1,
      expect, { name = name, argn = (not live) and 0 or (bad ~= -1 and bad or nil), numbers = true })
    if ok and type(owner) == "table" then
      force_post(F, name, h, res)
      F:check(M.check_agent(rec, h))
    end
  end
end

--- A random tactics entry for an agent of rec: entry, verdict.
local function entry(F, rec)
  local rng = F.rng
  local name = rng:pick({ "offset_pursuit", "follow_leader", "formation", "interpose", "hide", "queue" })
  local e, verdict = { name }, "valid"
  local function target()
    if #rec.live > 0 and rng:chance(0.6) then return rng:pick(rec.live) end
    return { G.near(F, rec) }
  end
  if name == "offset_pursuit" then
    e.target, e.offset = target(), { rng:range(-5, 5), rng:range(-5, 5) }
    if rng:chance(0.05) then e.offset, verdict = nil, "unsure" end -- missing 'offset' 
    if rng:chance(0.3) then e.fit = rng:chance(0.5) end
  elseif name == "follow_leader" then
    e.target, e.distance, e.radius = target(), rng:range(0, 4), rng:range(0, 3)
    if rng:chance(0.3) then e.fit = rng:chance(0.5) end
  elseif name == "formation" then
    local f = some_formation(F, rec)
    if not f then return nil end
    e.formation = f.f
  elseif name == "interpose" then
    e.between = { target(), target() }
  elseif name == "hide" then
    e.target, e.distance = target(), rng:range(0, 3)
  else
    e.distance, e.fov = rng:range(0, 6), rng:range(1, 360)
  end
  if rng:chance(0.4) then e.slowing_radius = rng:range(0, 4) end
  if rng:chance(F.bad) then
    local key = rng:pick({ "distance", "fov", "slowing_radius", "offset", "between", "radius", "fit" })
    e[key] = V.any(rng, G.pools(F))
    verdict = "unsure"
  end
  return e, verdict
end

function T.list(F, ops_helpers)
  O = ops_helpers
  local probe = F.steer.world{}:add{}
  for _, name in ipairs({ "offset_pursuit", "follow_leader", "interpose", "hide", "queue", "formation" }) do
    F.methods[name] = probe[name]
  end
  local ops = {}
  local function add(name, weight, run) ops[#ops + 1] = { name = name, weight = weight, run = run } end

  add("a:offset_pursuit", 2, method_op("offset_pursuit", function(F, rec)
    local args, n, bad = pose_arg(F, rec)
    return append(args, n, bad, G.build(F, { "num", "num", "opt_nonneg", "opt_bool" }))
  end))
  add("a:follow_leader", 2, method_op("follow_leader", function(F, rec)
    local args, n, bad = pose_arg(F, rec)
    return append(args, n, bad, G.build(F, { "opt_nonneg", "opt_nonneg", "opt_nonneg", "opt_bool" }))
  end))
  add("a:interpose", 2, method_op("interpose", function(F, rec)
    local args, n, bad = pose_arg(F, rec)
    args, n, bad = append(args, n, bad, pose_arg(F, rec))
    return append(args, n, bad, G.build(F, { "opt_nonneg" }))
  end))
  add("a:hide", 2, method_op("hide", function(F, rec)
    local args, n, bad = pose_arg(F, rec)
    return append(args, n, bad, G.build(F, { "opt_nonneg", "opt_nonneg" }))
  end))
  add("a:queue", 2, method_op("queue", function(F)
    local args, n, bad = G.build(F, { "opt_nonneg" })
    local fov = F.rng:chance(0.5) and F.rng:range(1, 360) or nil
    if F.rng:chance(F.bad) then fov = V.any(F.rng, G.pools(F)) end
    args[2], n = fov, 2
    if fov ~= nil and not bad and not (V.is_pos(fov) and fov <= 360) then bad = 2 end
    return append(args, n, bad, G.build(F, { "opt_nonneg" }))
  end))

  add("a:formation", 1, function(F)
    local rec, h, live, owner = self_of(F)
    if type(owner) ~= "table" then return end
    local f = some_formation(F, owner)
    if not f then return end
    local ok, res = F:call("a:formation", F.methods.formation, { h, f.f }, 2, true,
      { name = "formation", numbers = true })
    if ok then force_post(F, "formation", h, res) end
    check_formation(F, f)
  end)

  add("steer.formation (hostile)", 0.5, function(F)
    local rec = O.some_world(F)
    local def = {}
    for _, k in ipairs({ "anchor", "slots", "shape", "spacing", "count", "world", "fit" }) do
      if F.rng:chance(0.5) then def[k] = V.any(F.rng, G.pools(F)) end
    end
    if F.rng:chance(0.3) then def = V.any(F.rng, G.pools(F)) end
    F:call("steer.formation", F.steer.formation, { def }, 1, nil, { name = "formation" })
  end)

  add("formation methods", 1, function(F)
    local rec = O.some_world(F)
    local f = some_formation(F, rec)
    if not f then return end
    local k = F.rng:pick({ 1, 2, 0, -1, 1.5, 40, 0 / 0 })
    local valid = k == math.floor(k) and k >= 1 and k <= #f.f
    -- nil while the anchor agent is removed (the slot is nowhere)
    local gone = type(f.anchor) == "userdata" and not rec.alive[f.anchor]
    local ok, r = F:call("f:slot_position", f.f.slot_position, { f.f, k }, 2, valid,
      { name = "slot_position", numbers = not gone })
    if ok and gone and (r.n ~= 1 or r[1] ~= nil) then
      F:fail("f:slot_position gave a position while its anchor is removed")
    end
    -- fit: a boolean sets it, anything else raises and changes nothing
    local on
    if F.rng:chance(0.8) then on = F.rng:chance(0.5) else on = V.any(F.rng, G.pools(F)) end
    local is_bool = type(on) == "boolean"
    F:call("f:set_fit", f.f.set_fit, { f.f, on }, 2, is_bool, { name = "set_fit", argn = 1 })
    if is_bool then f.fit = on end
    local fits = f.f:fits()
    if fits ~= f.fit then F:fail(("f:fits() gave %s, expected %s"):format(tostring(fits), tostring(f.fit))) end
    F:call("f:slot_of", f.f.slot_of, { f.f, V.any(F.rng, G.pools(F)) }, 2, nil, { name = "slot_of" })
    F:call("f:reassign", f.f.reassign, { f.f }, 1, true, { name = "reassign" })
    -- a new anchor: a live agent of the world that is no member, or a
    -- point; a member, a removed agent or garbage raises and changes nothing
    if F.rng:chance(0.3) then
      local to, valid
      if F.rng:chance(0.6) and #rec.live > 0 then
        to = F.rng:pick(rec.live)
        valid = true
        for _, m in ipairs(f.f:members()) do if m == to then valid = false end end
      elseif F.rng:chance(0.5) then
        to, valid = { G.near(F, rec) }, true
      else
        to = V.any(F.rng, G.pools(F))
      end
      local before = { f.f:anchor() }
      local ok = F:call("f:set_anchor", f.f.set_anchor, { f.f, to }, 2, valid, { name = "set_anchor", argn = 1 })
      if ok then
        -- (a shared point is no agent: the model keeps a table for it)
        f.anchor = (type(to) == "userdata" and rec.alive[to]) and to or {}
        local now = f.f:anchor()
        if f.anchor == to and now ~= to then F:fail("f:anchor() is not the agent just set") end
        if valid and type(to) == "table" then
          local x, y = f.f:anchor()
          if x ~= to[1] or y ~= to[2] then F:fail("f:anchor() is not the point just set") end
        end
      else
        local after = { f.f:anchor() }
        if after[1] ~= before[1] or after[2] ~= before[2] then F:fail("a refused f:set_anchor changed the anchor") end
      end
    end
    check_formation(F, f)
  end)

  add("tactics program", 2, function(F)
    local rec, h, live, owner = self_of(F)
    if type(owner) ~= "table" then return end
    local prog, verdict = { combine = F.rng:pick({ "weighted", "priority", "prioritized_sum" }) }, "valid"
    for i = 1, F.rng:int(1, 3) do
      local e, v = entry(F, rec)
      if not e then return end
      prog[i] = e
      if v ~= "valid" then verdict = v end
    end
    local ok = F:call("a:set_behaviors", F.methods.set_behaviors, { h, prog }, 2,
      verdict == "valid" or nil, { name = "set_behaviors" })
    if ok then
      F:call("a:steering", F.methods.steering, { h, 0.1 }, 2, true, { name = "steering", numbers = true })
      F:call(rec.name .. ":step", F.wmethods.step, { rec.w, 0.1 }, 2, true, { name = "step" })
      F:check(M.check_world(rec))
      if F.rng:chance(0.3) then
        local t = { G.near(F, rec) }
        local which = prog[1][1]
        local args = { h, 1, t }
        local expect = nil
        if which == "interpose" then -- two ends, each a point table or x, y
          local x1, y1 = G.near(F, rec)
          local x2, y2 = G.near(F, rec)
          args = F.rng:pick({ { h, 1, t, { x2, y2 } }, { h, 1, x1, y1, x2, y2 },
            { h, 1, t, x2, y2 }, { h, 1, x1, y1, { x2, y2 } } })
          expect = true
          if F.rng:chance(0.2) then -- a third end would be dropped: raises
            args[#args + 1] = F.rng:pick({ t, x1, h })
            expect = false
          end
        end
        F:call("a:set_target", F.methods.set_target, args, #args, expect, { name = "set_target" })
      end
    end
    for _, f in ipairs(F.formations or {}) do if f.rec == rec then check_formation(F, f) end end
  end)
  return ops
end

return T
