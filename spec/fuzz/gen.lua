--- Argument generators for the fuzzer: each returns a value and whether the
-- binding must accept it.
local V = require "fuzz.values"
local M = require "fuzz.model"
local K = require "fuzz.known"

local G = {}

local VALID = { num = V.is_num, nonneg = V.is_nonneg, pos = V.is_pos,
  size = V.is_nonneg, integral = V.is_integral, finite = V.finite,
  bool = function(v) return type(v) == "boolean" end }
G.VALID = VALID

--- Steer objects hostile values may be drawn from.
function G.pools(F)
  local rec = #F.worlds > 0 and F.rng:pick(F.worlds) or nil
  local worlds, paths, orphans = {}, {}, {}
  for i, r in ipairs(F.worlds) do worlds[i] = r.w end
  for i, p in ipairs(F.paths) do paths[i] = p.p end
  for i, o in ipairs(F.orphans) do orphans[i] = o.h end
  return { rec and rec.live, rec and rec.removed, worlds, paths, orphans, F.closed }
end

--- A number for a slot of `kind`, usually valid.
function G.value(F, kind)
  local rng = F.rng
  if rng:chance(F.bad) then
    local v
    if rng:chance(0.6) then v = V.bad_number(rng, kind) else v = V.any(rng, G.pools(F)) end
    return v, VALID[kind](v) and true or false
  end
  if kind == "num" then return V.num(rng), true end
  if kind == "bool" then return rng:chance(0.5), true end
  if kind == "finite" then -- any finite number: sometimes beyond the limit
    return rng:chance(0.2) and rng:pick({ 1e200, -1e300, 1.7976931348623157e308 }) or V.num(rng), true
  end
  if kind == "nonneg" then return V.nonneg(rng), true end
  if kind == "pos" then return V.pos(rng), true end
  if kind == "size" then return V.size(rng), true end
  if kind == "integral" then
    return rng:pick({ 0, 1, -1, rng:int(-1e6, 1e6), 2 ^ 32, 2 ^ 53, -(2 ^ 53), 2 ^ 32 + 5 }), true
  end
  error("unknown kind " .. tostring(kind))
end

--- Positional arguments of the given kinds ("opt_" prefix: may be absent).
-- Sometimes drops trailing arguments. Returns args, n and the number of
-- the first argument the binding must refuse (nil when all are fine).
function G.build(F, kinds, offset)
  local args, n = {}, #kinds
  for i, k in ipairs(kinds) do
    local opt = k:sub(1, 4) == "opt_"
    if not (opt and F.rng:chance(0.4)) then
      args[i] = G.value(F, opt and k:sub(5) or k)
    end
  end
  if F.rng:chance(0.02) then
    n = F.rng:int(0, #kinds)
    for i = n + 1, #kinds do args[i] = nil end
  end
  local bad
  for i, k in ipairs(kinds) do
    local opt = k:sub(1, 4) == "opt_"
    local v = args[i]
    local fine
    if v == nil then fine = opt else fine = VALID[opt and k:sub(5) or k](v) end
    if not fine then
      bad = i + (offset or 0)
      break
    end
  end
  return args, n, bad
end

--- Which tracked world a live handle belongs to: the record, "orphan", or
-- nil when it is not a live agent the fuzzer knows.
function G.owner(F, v)
  if type(v) ~= "userdata" then return nil end
  for _, rec in ipairs(F.worlds) do
    if rec.alive[v] then return rec end
  end
  for _, o in ipairs(F.orphans) do
    if o.h == v then return "orphan" end
  end
  return nil
end

--- An agent of `rec` for self: usually live. Returns handle, valid.
function G.self_agent(F, rec)
  local rng = F.rng
  local r = rng:float()
  if #rec.live > 0 and r < 0.92 then return rng:pick(rec.live), true end
  if #rec.removed > 0 and r < 0.97 then return rng:pick(rec.removed), false end
  local v = V.any(rng, G.pools(F))
  return v, G.owner(F, v) ~= nil
end

--- Another agent argument for an agent of `rec`: usually a live agent of the
-- same world; sometimes removed, of another world, orphaned or not an agent
-- at all. numbers = false keeps numbers out (for x, y | agent slots).
function G.peer(F, rec, numbers)
  local rng = F.rng
  local r = rng:float()
  if #rec.live > 0 and r < 0.85 then return rng:pick(rec.live), true end
  if r < 0.9 and #rec.removed > 0 then return rng:pick(rec.removed), false end
  if r < 0.94 then
    local other = rng:pick(F.worlds)
    if other and other ~= rec and #other.live > 0 then return rng:pick(other.live), false end
    if #F.orphans > 0 then return rng:pick(F.orphans).h, false end
  end
  local v
  repeat v = V.any(rng, G.pools(F)) until numbers ~= false or type(v) ~= "number"
  return v, G.owner(F, v) == rec
end

--- A steer.point from the fuzzer's few (entries of several programs and
-- worlds then hold the same one), now and then a new one.
function G.shared_point(F)
  local pool, rng = F.points, F.rng
  if #pool == 0 or (#pool < 3 and rng:chance(0.3)) or rng:chance(0.05) then
    local p = F.steer.point(rng:range(-40, 40), rng:range(-40, 40))
    if #pool >= 3 then table.remove(pool, 1) end
    pool[#pool + 1] = p
    return p
  end
  return rng:pick(pool)
end

--- Is v a steer.SharedPoint?
function G.is_shared_point(F, v)
  G.point_mt = G.point_mt or getmetatable(F.steer.point(0, 0))
  return type(v) == "userdata" and getmetatable(v) == G.point_mt
end

--- A point argument: an agent, a table, a shared point or two numbers.
-- Returns the list of values, the number used, and the index (within it)
-- of the first bad one or nil.
function G.point(F, rec)
  local r = F.rng:float()
  if r < 0.25 then
    local h, ok = G.peer(F, rec, false)
    return { h }, 1, (not ok) and 1 or nil
  end
  if r < 0.4 then -- one table: {x, y} or {x = x, y = y}
    local xy, _, bad = G.build(F, { "num", "num" })
    local t = F.rng:chance(0.5) and { xy[1], xy[2] } or { x = xy[1], y = xy[2] }
    return { t }, 1, bad and 1 or nil
  end
  if r < 0.45 and F.steer.point then -- steer.point: valid wherever it is
    if F.rng:chance(0.5) then return { G.shared_point(F) }, 1, nil end
    local scale = F.rng:pick({ 1, 1e3, 1e150 })
    return { F.steer.point(F.rng:range(-1, 1) * scale, F.rng:range(-1, 1) * scale) }, 1, nil
  end
  local args, n, bad = G.build(F, { "num", "num" })
  -- an agent in the x slot would make it the agent form: keep that apart
  if type(args[1]) == "userdata" then args[1], bad = 0 / 0, 1 end
  return args, 2, bad
end

--- Robust length of (x, y), independent of steer's.
function G.len(x, y)
  local ax, ay = math.abs(x), math.abs(y)
  local m = ax > ay and ax or ay
  if m == 0 then return 0 end
  if m == math.huge then return m end
  local a, b = ax / m, ay / m
  return m * math.sqrt(a * a + b * b)
end

--- fx, fy must not be longer than max (with rounding slack).
function G.within(F, label, fx, fy, max)
  local l = G.len(fx, fy)
  local slack = 1e-9
  -- open finding 05 (fuzz/known.lua): a subnormal max / l, up to 2x
  if max < 1e-5 and K.avoid("clamp_subnormal") then slack = 1 end
  -- open finding 06: prioritized_sum's subnormal room
  if max < 1e-150 and K.avoid("accumulate_subnormal") then slack = 1 end
  if l > max * (1 + slack) + 1e-300 then
    F:fail(("%s: force (%s, %s) of length %s is longer than %s"):format(label,
      V.show(fx), V.show(fy), V.show(l), V.show(max)))
  end
end

--- A position near the agents of `rec` (or anywhere).
function G.near(F, rec)
  local rng = F.rng
  if #rec.live > 0 and rng:chance(0.7) then
    local h = rng:pick(rec.live)
    local s = rng:pick({ 0, 1e-9, 0.5, 3, 20 })
    return V.cap(h.x + rng:range(-s, s)), V.cap(h.y + rng:range(-s, s))
  end
  if rec.kind ~= "free" and rng:chance(0.6) then
    return V.cap(rng:range(-0.1, 1.1) * rec.W), V.cap(rng:range(-0.1, 1.1) * rec.H)
  end
  return V.num(rng), V.num(rng)
end

--- A radius for queries and flocking.
function G.radius(F)
  local rng = F.rng
  if rng:chance(F.bad) then
    local v = rng:chance(0.5) and V.bad_number(rng, "nonneg") or V.any(rng, G.pools(F))
    return v, V.is_nonneg(v)
  end
  local r = rng:float()
  if r < 0.75 then return rng:range(0, 15), true end
  return rng:pick({ 0, 1e-300, 1e-5, 1e3, 1e6, 1e75, 1e150 }), true
end

G.contain = M.contain
return G
