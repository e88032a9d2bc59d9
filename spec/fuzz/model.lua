--- What the fuzzer knows about its worlds, and the invariant checks that
-- compare steer's answers with it. A world record:
--   { w = world, name = "w3", kind = "free" | "wrap" | "clamp", W =, H =,
--     live = {handles in order}, alive = {[handle] = true},
--     removed = {a few removed handles}, obstacles = n, walls = n }
local V = require "fuzz.values"

local M = {}

local FIELDS = { "x", "y", "vx", "vy", "max_speed", "max_force", "radius",
  "wander_radius", "wander_distance", "wander_jitter", "wander_angle",
  "speed", "heading" }
M.FIELDS = FIELDS

function M.new_record(w, name, kind, W, H)
  -- as doubles: Lua 5.4 integers compare unequal to their rounded doubles
  W, H = W and W * 1.0, H and H * 1.0
  return { w = w, name = name, kind = kind, W = W, H = H, live = {},
    alive = {}, removed = {}, obstacles = 0, walls = 0 }
end

function M.add_live(rec, h)
  rec.live[#rec.live + 1] = h
  rec.alive[h] = true
end

function M.mark_removed(rec, h)
  rec.alive[h] = nil
  for i = 1, #rec.live do
    if rec.live[i] == h then
      table.remove(rec.live, i)
      break
    end
  end
  if #rec.removed >= 8 then table.remove(rec.removed, 1) end
  rec.removed[#rec.removed + 1] = h
end

-- ---- geometry, written as the C core computes it (same operations in the
-- same order, so that the comparisons can be exact) ----

local fmod = math.fmod

local function wrap_coord(v, extent)
  v = fmod(v * 1.0, extent * 1.0)
  if v < 0 then v = v + extent end
  if v < extent then return v end
  return 0
end

local function clamp(v, lo, hi)
  if v < lo then return lo end
  if v > hi then return hi end
  return v
end

--- The position steer stores for a written (x, y).
function M.contain(rec, x, y)
  if rec.kind == "wrap" then
    return wrap_coord(x, rec.W), wrap_coord(y, rec.H)
  elseif rec.kind == "clamp" then
    return clamp(x, 0, rec.W), clamp(y, 0, rec.H)
  end
  return clamp(x, -V.LIMIT, V.LIMIT), clamp(y, -V.LIMIT, V.LIMIT)
end

-- As proposed in notes/patches/03 (exact fmod); for offsets between two
-- wrapped positions it equals the old d - extent * floor(d / extent + 0.5)
-- bit for bit, which is all the exact comparisons rely on.
local function wrap_delta(d, extent)
  local half = extent * 0.5
  if d > half or d < -half then
    d = fmod(d * 1.0, extent * 1.0)
    if d > half then d = d - extent elseif d < -half then d = d + extent end
  end
  return d
end

--- The shortest offset from a to b.
function M.offset(rec, ax, ay, bx, by)
  local dx, dy = bx - ax, by - ay
  if rec.kind == "wrap" then
    dx, dy = wrap_delta(dx, rec.W), wrap_delta(dy, rec.H)
  end
  return dx, dy
end

--- Brute force: the live agents within r of (x, y), except `exclude`, as a
-- set {[handle] = true} and a count.
function M.brute_query(rec, x, y, r, exclude)
  x, y, r = x * 1.0, y * 1.0, r * 1.0 -- Lua 5.4 integers would wrap in r * r
  if rec.kind == "wrap" then x, y = M.contain(rec, x, y) end
  local r2, set, n = r * r, {}, 0
  for _, h in ipairs(rec.live) do
    if h ~= exclude then
      local dx, dy = M.offset(rec, x, y, h.x, h.y)
      if dx * dx + dy * dy <= r2 then
        set[h] = true
        n = n + 1
      end
    end
  end
  return set, n
end

-- ---- checks: each returns nil or a message ----

--- Every field of a live agent is a finite number and its position lies
-- inside the world.
function M.check_agent(rec, h)
  for _, f in ipairs(FIELDS) do
    local ok, v = pcall(function() return h[f] end)
    if not ok then return ("reading %s.%s raised: %s"):format(rec.name, f, tostring(v)) end
    if not V.finite(v) then
      return ("agent %s field %s is %s"):format(tostring(h.id), f, V.show(v))
    end
    -- every stored number stays within the limit (speed, |v|, may be up to
    -- sqrt(2) times it): a velocity clamped to max_speed = steer.limit too
    if f ~= "speed" and not V.is_num(v) then
      return ("agent %s field %s is %.17g, beyond steer.limit"):format(tostring(h.id), f, v)
    end
  end
  local x, y = h.x, h.y
  local inside
  if rec.kind == "wrap" then
    inside = x >= 0 and x < rec.W and y >= 0 and y < rec.H
  elseif rec.kind == "clamp" then
    inside = x >= 0 and x <= rec.W and y >= 0 and y <= rec.H
  else
    inside = math.abs(x) <= V.LIMIT and math.abs(y) <= V.LIMIT
  end
  if not inside then
    return ("agent %s at (%s, %s) is outside %s world %s"):format(
      tostring(h.id), V.show(x), V.show(y), rec.kind, rec.name)
  end
  if h.alive ~= true then return "live agent reads alive ~= true" end
  if type(h.settled) ~= "boolean" then return "settled is not a boolean" end
  if h.settled then -- only an agent whose program settles rests
    local orca = h:behaviors() and h:behaviors().orca
    if not (orca and orca.settle) then return "an agent settled without orca.settle" end
  end
  return nil
end

--- #world equals the number of agents the fuzzer tracks.
function M.check_count(rec)
  local ok, n = pcall(function() return #rec.w end)
  if not ok then return "#world raised: " .. tostring(n) end
  if n ~= #rec.live then
    return ("#%s is %s, the fuzzer tracks %d live agents"):format(
      rec.name, tostring(n), #rec.live)
  end
end

--- Everything about one world: count, iteration, ids, every agent's fields,
-- removed handles.
function M.check_world(rec)
  local msg = M.check_count(rec)
  if msg then return msg end
  local seen, n = {}, 0
  local ok, err = pcall(function()
    for a in rec.w:agents() do
      if seen[a] then error("world:agents() yields an agent twice") end
      if not rec.alive[a] then error("world:agents() yields an untracked or removed agent") end
      seen[a] = true
      n = n + 1
    end
  end)
  if not ok then return rec.name .. ":agents(): " .. tostring(err) end
  if n ~= #rec.live then
    return ("%s:agents() yields %d agents, %d are live"):format(rec.name, n, #rec.live)
  end
  for _, h in ipairs(rec.live) do
    if rec.w:get(h.id) ~= h then
      return ("%s:get(%s) is not the handle add returned"):format(rec.name, tostring(h.id))
    end
    msg = M.check_agent(rec, h)
    if msg then return msg end
  end
  for _, h in ipairs(rec.removed) do
    if h.alive ~= false then return "removed agent reads alive ~= false" end
    if rec.w:get(h.id) ~= nil then return "world:get(id of a removed agent) is not nil" end
  end
  return nil
end

return M
