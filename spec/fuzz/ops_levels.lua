--- The fuzzer's operations on level geometry (issue 12): obstacle, wall and
-- polygon handles (fields, own data, remove, iteration), add_walls,
-- steer.walls_from_tiles, world:raycast / line_of_sight / query_box,
-- world:segments and a:contain. Each checks what can be known without the
-- C core's arithmetic (the C oracle checks the rest bit for bit).
local V = require "fuzz.values"
local G = require "fuzz.gen"

local L = {}

local function tof(v) return v * 1.0 end

--- The world's counts as the fuzzer's avoid checks use them.
local function recount(rec)
  if rec.closed then return end
  local n = 0
  for _ in rec.w:obstacles() do n = n + 1 end
  local _, segs = rec.w:segments()
  rec.obstacles, rec.walls = n, segs
end
L.recount = recount

local function live_world(F)
  local rec = F.ops.some_world(F)
  if rec.closed then return nil end
  return rec
end

--- A handle of the world's shapes (or a removed one, or a random value).
local function some_shape(F, rec)
  local rng = F.rng
  rec.shapes = rec.shapes or {}
  if #rec.shapes == 0 or rng:chance(0.05) then return nil end
  return rng:pick(rec.shapes)
end

local function keep_shape(rec, s)
  rec.shapes = rec.shapes or {}
  if #rec.shapes >= 24 then table.remove(rec.shapes, 1) end
  rec.shapes[#rec.shapes + 1] = s
end

local function inside_torus(rec, x, y)
  return x >= 0 and x < rec.W and y >= 0 and y < rec.H
end

--- Whether a wall from (x1, y1) to (x2, y2) fits the world: on a torus a
-- wall spans at most the world on each axis.
local function fits(rec, x1, y1, x2, y2)
  return rec.kind ~= "wrap" or (math.abs(x2 - x1) <= rec.W and math.abs(y2 - y1) <= rec.H)
end

local function op_add_obstacle(F)
  local rec = live_world(F)
  if not rec then return end
  local rng = F.rng
  local t, valid = {}, true
  t.x, t.y = G.near(F, rec)
  t.radius = rng:chance(0.9) and rng:range(0, 5) or V.size(rng)
  if rng:chance(0.3) then t.name = "rock" end
  if rng:chance(F.bad * 3) then
    local key = rng:pick({ "x", "y", "radius" })
    t[key] = rng:chance(0.5) and V.bad_number(rng, key == "radius" and "nonneg" or nil)
      or V.any(rng, G.pools(F))
    valid = (key == "radius" and V.is_nonneg or V.is_num)(t[key])
  end
  local ok, r = F:call(rec.name .. ":add_obstacle", rec.w.add_obstacle, { rec.w, t }, 2,
    valid, { name = "add_obstacle", argn = (not valid) and 1 or nil })
  if not ok then return end
  local o = r[1]
  keep_shape(rec, o)
  if o.kind ~= "obstacle" or o.alive ~= true or o.radius ~= tof(t.radius) or o.name ~= t.name then
    F:fail("add_obstacle's handle does not read back its definition")
  end
  if rec.kind == "wrap" then
    if not inside_torus(rec, o.x, o.y) then F:fail("obstacle centre outside the torus") end
  elseif o.x ~= tof(t.x) or o.y ~= tof(t.y) then
    F:fail("add_obstacle's handle moved the obstacle")
  end
  recount(rec)
end

local function op_add_wall(F)
  local rec = live_world(F)
  if not rec then return end
  local rng = F.rng
  local t = {}
  t.x1, t.y1 = G.near(F, rec)
  if rng:chance(0.05) then t.x2, t.y2 = t.x1, t.y1
  else t.x2, t.y2 = V.cap(t.x1 + rng:range(-10, 10)), V.cap(t.y1 + rng:range(-10, 10)) end
  local valid = true
  if rng:chance(F.bad * 3) then
    local key = rng:pick({ "x1", "y1", "x2", "y2" })
    t[key] = rng:chance(0.5) and V.bad_number(rng) or V.any(rng, G.pools(F))
    valid = V.is_num(t[key])
  end
  if valid and t.x1 == t.x2 and t.y1 == t.y2 then valid = false end
  if valid and not fits(rec, t.x1, t.y1, t.x2, t.y2) then valid = false end
  local ok, r = F:call(rec.name .. ":add_wall", rec.w.add_wall, { rec.w, t }, 2, valid,
    { name = "add_wall", argn = (not valid) and 1 or nil })
  if not ok then return end
  local s = r[1]
  keep_shape(rec, s)
  if s.kind ~= "wall" then F:fail("add_wall did not return a wall") end
  if rec.kind ~= "wrap" and (s.x1 ~= tof(t.x1) or s.y1 ~= tof(t.y1) or s.x2 ~= tof(t.x2)
      or s.y2 ~= tof(t.y2)) then
    F:fail("add_wall's handle does not read back its ends")
  end
  recount(rec)
end

--- The points of flat array t (n points) as a list of points in the forms
-- steer takes ({x, y}, {x =, y =}, a shared point); other keys kept.
local function as_points(F, t, n)
  local rng, out = F.rng, { closed = t.closed }
  for i = 1, n do
    local x, y = t[2 * i - 1], t[2 * i]
    local form = rng:int(1, 3)
    if form == 3 and V.is_num(x) and V.is_num(y) and V.finite(x) and V.finite(y)
        and math.abs(x) <= 1e150 and math.abs(y) <= 1e150 then
      out[i] = F.steer.point(x, y)
    elseif form == 2 then
      out[i] = { x = x, y = y }
    else
      out[i] = { x, y }
    end
  end
  return out
end

local function op_add_polygon(F)
  local rec = live_world(F)
  if not rec then return end
  local rng = F.rng
  local n = rng:int(0, 6)
  local t, valid = {}, n >= 2
  local x, y = G.near(F, rec)
  for i = 1, n do
    t[2 * i - 1] = V.cap(x + rng:range(-8, 8))
    t[2 * i] = V.cap(y + rng:range(-8, 8))
  end
  if rng:chance(0.3) then t.closed = rng:chance(0.5) end
  if rng:chance(F.bad * 3) and n > 0 then
    local k = rng:int(1, 2 * n)
    t[k] = rng:chance(0.5) and V.bad_number(rng) or V.any(rng, G.pools(F))
    valid = valid and V.is_num(t[k])
  end
  if rng:chance(F.bad) then t.closed = "yes"; valid = false end
  if valid then
    local closed, some_length = t.closed ~= false, false
    for k = 1, n do
      local j = k % n + 1
      if (k < n or closed) and not fits(rec, t[2 * k - 1], t[2 * k], t[2 * j - 1], t[2 * j]) then
        valid = false
      end
      if (k < n or closed) and (t[2 * k - 1] ~= t[2 * j - 1] or t[2 * k] ~= t[2 * j]) then
        some_length = true
      end
    end
    -- points that all coincide make no edge: refused
    valid = valid and some_length
  end
  -- the same points as a list of points (an empty list is still flat)
  if n > 0 and rng:chance(0.3) then t = as_points(F, t, n) end
  local ok, r = F:call(rec.name .. ":add_polygon", rec.w.add_polygon, { rec.w, t }, 2, valid,
    { name = "add_polygon", argn = (not valid) and 1 or nil })
  if not ok then return end
  keep_shape(rec, r[1])
  local edges = t.closed == false and n - 1 or (n > 2 and n or n - 1)
  if r[1].kind ~= "polygon" or r[1].edges > edges then
    F:fail("add_polygon's handle has more edges than its points make")
  end
  recount(rec)
end

local function random_tiles(F)
  local rng = F.rng
  local w, h = rng:int(1, 6), rng:int(1, 6)
  local t = {}
  for i = 1, w * h do t[i] = rng:chance(0.4) and rng:pick({ 1, 2, true }) or rng:pick({ 0, false }) end
  return t, w, h
end

local function op_walls_from_tiles(F)
  local rng = F.rng
  local tiles, w, h = random_tiles(F)
  local cell = rng:chance(0.9) and rng:range(0.5, 4) or V.size(rng)
  local args, valid = { tiles, w, h, cell }, cell > 0 -- a size of 0 is refused
  if rng:chance(0.5) then args[5], args[6] = rng:range(-50, 50), rng:range(-50, 50) end
  -- the far corner must stay within the limit too (a huge cell size)
  local ox, oy = args[5] or 0, args[6] or 0
  local far = math.abs(ox + w * cell) > V.LIMIT or math.abs(oy + h * cell) > V.LIMIT
  if far then valid = false end
  if rng:chance(F.bad * 3) then
    local k = rng:int(1, 6)
    args[k] = V.any(rng, G.pools(F))
    valid = nil
  end
  local ok, r = F:call("steer.walls_from_tiles", F.steer.walls_from_tiles, args, 6, valid,
    { name = "walls_from_tiles", argn = far and valid == false and 4 or nil })
  if not ok then return nil end
  if valid == nil then return r[1] end
  -- every segment is axis-aligned and the unit edges add up to the boundary
  local units, boundary = 0, 0
  for _, s in ipairs(r[1]) do
    if s.x1 ~= s.x2 and s.y1 ~= s.y2 then F:fail("walls_from_tiles made a diagonal segment") end
    units = units + (math.abs(s.x2 - s.x1) + math.abs(s.y2 - s.y1)) / cell
  end
  local function solid(c, row)
    if c < 0 or row < 0 or c >= w or row >= h then return false end
    local v = tiles[row * w + c + 1]
    return v ~= 0 and v ~= false
  end
  for row = 0, h do
    for c = 0, w do
      if c < w and solid(c, row) ~= solid(c, row - 1) then boundary = boundary + 1 end
      if row < h and solid(c, row) ~= solid(c - 1, row) then boundary = boundary + 1 end
    end
  end
  -- (a cell too small to tell apart at the origin's magnitude rounds its
  -- segments away: only then may the lengths not add up)
  local scale = math.max(math.abs(args[5] or 0), math.abs(args[6] or 0))
  if cell > 1e-9 * scale and math.abs(units - boundary) > 1e-6 * boundary then
    F:fail(("walls_from_tiles: %s unit edges, the boundary has %d"):format(V.show(units), boundary))
  end
  return r[1]
end

local function op_add_walls(F)
  local rec = live_world(F)
  if not rec then return end
  local rng = F.rng
  local list = op_walls_from_tiles(F)
  if type(list) ~= "table" then list = {} end
  local valid = true
  for _, w in ipairs(list) do
    if not fits(rec, w.x1, w.y1, w.x2, w.y2) then valid = false end
    -- tiles far smaller than their origin's ulp give walls of zero length
    if w.x1 == w.x2 and w.y1 == w.y2 then valid = false end
  end
  -- one-sided (walls_from_tiles' solid = "left") or two-sided, or a bad side
  for _, w in ipairs(list) do if rng:chance(0.3) then w.solid = nil end end
  if #list > 0 and rng:chance(F.bad) then
    list[rng:int(1, #list)].solid = rng:pick({ "right", true, 1 })
    valid = false
  end
  if rng:chance(F.bad * 3) then
    if #list > 0 and rng:chance(0.5) then
      list[rng:int(1, #list)].y2 = V.any(rng, G.pools(F))
    else
      list[#list + 1] = V.any(rng, G.pools(F))
    end
    valid = nil
  end
  local ok, r = F:call(rec.name .. ":add_walls", rec.w.add_walls, { rec.w, list }, 2, valid,
    { name = "add_walls" })
  if ok and r[1] ~= #list then F:fail("add_walls did not count the walls it added") end
  recount(rec)
end

local function op_shape_field(F)
  local rec = live_world(F)
  if not rec then return end
  local s = some_shape(F, rec)
  if not s then return end
  local rng = F.rng
  local key = rng:pick({ "x", "y", "radius", "x1", "y1", "x2", "y2", "edges", "kind", "id",
    "alive", "name", "team" })
  local alive = s.alive
  local write = rng:chance(0.5) and key ~= "alive"
  if not write then
    local ok, r = F:call("shape." .. key, function() return s[key] end, {}, 0,
      (alive or key == "alive" or key == "id") and true or false,
      { pattern = "has been removed" })
    -- name and team, and another kind's field names (a wall's radius), are
    -- the game's own keys: they hold whatever it stored
    local kind = alive and s.kind -- (a removed shape raises)
    local own = key == "name" or key == "team"
      or (kind == "obstacle" and (key == "x1" or key == "y1" or key == "x2" or key == "y2"))
      or (kind ~= "obstacle" and (key == "x" or key == "y" or key == "radius"))
      or (kind == "polygon" and (key == "x1" or key == "y1" or key == "x2" or key == "y2"))
    if ok and alive and type(r[1]) == "number" and not V.finite(r[1]) and not own then
      F:fail("a shape field read is not finite")
    end
    return
  end
  local v = rng:chance(0.8) and rng:range(-20, 20) or V.any(rng, G.pools(F))
  local kind = alive and s.kind
  local geometric = (kind == "obstacle" and (key == "x" or key == "y" or key == "radius"))
    or (kind == "wall" and (key == "x1" or key == "y1" or key == "x2" or key == "y2"))
  -- another kind's field names are the game's own data here
  local readonly = key == "edges" or key == "kind" or key == "id"
  local expect
  if not alive or readonly then expect = false
  elseif geometric then expect = nil -- zero-length walls and bad numbers refuse
  else expect = true end
  local ok = F:call("shape." .. key .. " = ", function() s[key] = v end, {}, 0, expect,
    { pattern = { "has been removed", "cannot set field", "is read%-only" } })
  if ok and geometric and s[key] ~= tof(v) and rec.kind ~= "wrap" then
    F:fail("a shape field does not read back what was written")
  end
  if ok and not geometric and s[key] ~= v and v == v then -- (NaN is never equal)
    F:fail("a shape's own data is lost")
  end
  recount(rec)
end

local function op_shape_remove(F)
  local rec = live_world(F)
  if not rec then return end
  local s = some_shape(F, rec)
  if not s then return end
  local alive = s.alive
  local ok = F:call("shape:remove", s.remove, { s }, 1, alive, { name = "remove", argn = 0 })
  if ok and s.alive then F:fail("a removed shape is still alive") end
  recount(rec)
end

local function op_iterate_shapes(F)
  local rec = live_world(F)
  if not rec then return end
  local which = F.rng:pick({ "obstacles", "walls" })
  local adds = F.rng:chance(0.3) -- a loop that adds shapes visits only the ones there before
  local ok, err = pcall(function()
    F:log(rec.name .. ":" .. which .. "() loop" .. (adds and ", adding" or ""))
    local before, visited = 0, 0
    for _ in rec.w[which](rec.w) do before = before + 1 end
    for s in rec.w[which](rec.w) do
      if not s.alive then F:fail(which .. "() yields a removed shape") end
      visited = visited + 1
      if visited > before then F:fail(which .. "() visits a shape added during the loop") end
      if F.rng:chance(0.1) then s:remove() end
      if adds then
        local x, y = G.near(F, rec)
        local x2 = x ~= 0 and x * 0.5 or 1 -- a wall of some length, wherever x is
        if which == "walls" and fits(rec, x, y, x2, y) then
          keep_shape(rec, rec.w:add_wall{ x1 = x, y1 = y, x2 = x2, y2 = y })
        else
          keep_shape(rec, rec.w:add_obstacle{ x = x, y = y, radius = 0.5 })
        end
      end
    end
  end)
  if not ok then
    if type(err) == "table" then error(err, 0) end
    F:fail(which .. "() loop raised: " .. tostring(err))
  end
  recount(rec)
end

local function op_clear(F)
  local rec = live_world(F)
  if not rec then return end
  local which = F.rng:pick({ "clear_obstacles", "clear_walls" })
  F:call(rec.name .. ":" .. which, rec.w[which], { rec.w }, 1, true)
  recount(rec)
  if (which == "clear_obstacles" and rec.obstacles ~= 0) or (which == "clear_walls" and rec.walls ~= 0) then
    F:fail(which .. " left some")
  end
end

local function op_raycast(F)
  local rec = live_world(F)
  if not rec then return end
  local rng = F.rng
  local x1, y1 = G.near(F, rec)
  local x2, y2 = G.near(F, rec)
  local args = { rec.w, x1, y1, x2, y2 }
  local valid = true
  if rng:chance(0.5) then
    local f = {}
    if rng:chance(0.5) then f.walls = rng:chance(0.5) end
    if rng:chance(0.5) then f.obstacles = rng:chance(0.5) end
    if rng:chance(0.5) then f.agents = rng:chance(0.5) end
    if rng:chance(0.3) and #rec.live > 0 then f.ignore = rng:pick(rec.live) end
    -- a shape it passes through (alone, or listed with the agent); a
    -- removed one raises
    local shape = rng:chance(0.3) and some_shape(F, rec)
    if shape then
      f.ignore = f.ignore and { f.ignore, shape } or shape
      if not shape.alive then valid = nil end
    end
    if rng:chance(F.bad * 3) then
      f[rng:pick({ "walls", "agents", "ignore", "wals" })] = V.any(rng, G.pools(F))
      valid = nil
    end
    args[6] = f
  end
  if rng:chance(F.bad * 3) then
    args[rng:int(2, 5)] = V.any(rng, G.pools(F))
    valid = nil
  end
  -- an agent as the start (then left out of the hits, unless ignore names
  -- another) or as the end: the ends' other forms
  local from
  if valid and #rec.live > 0 and rng:chance(0.3) then
    from = rng:pick(rec.live)
    table.remove(args, 2)
    args[2] = from
  elseif valid and #rec.live > 0 and rng:chance(0.2) then
    args[4], args[5] = rng:pick(rec.live), args[6]
    args[6] = nil
  end
  local ok, r = F:call(rec.name .. ":raycast", rec.w.raycast, args, #args, valid, { name = "raycast" })
  if ok and r[1] ~= nil then
    L.check_hit(F, r)
    local f = args[#args]
    local other = type(f) == "table" and f.ignore ~= nil
    if from and r[7] == from and not other then F:fail("raycast hit the agent it starts from") end
    local ig = type(f) == "table" and f.ignore
    local ig_shape = ig
    if type(ig) == "table" then -- raw: a hostile value may trap (an unsure call)
      local n = 0
      while rawget(ig, n + 1) ~= nil do n = n + 1 end
      ig_shape = rawget(ig, n)
    end
    if ig_shape and r[7] == ig_shape then F:fail("raycast hit the shape it ignores") end
  end
end

--- A ray cast's hit r (its seven results, r[1] not nil): a fraction in
-- [0, 1], a finite point, a unit normal, a kind and its handle.
function L.check_hit(F, r)
  local fr, hx, hy, nx, ny, kind, h = r[1], r[2], r[3], r[4], r[5], r[6], r[7]
  if not (fr >= 0 and fr <= 1) or not (V.finite(hx) and V.finite(hy)) then
    F:fail("raycast: fraction outside [0, 1] or a non-finite point")
  end
  local nl = math.sqrt(nx * nx + ny * ny)
  if not (math.abs(nl - 1) < 1e-9) then F:fail("raycast: the normal is not a unit vector") end
  if not (kind == "wall" or kind == "obstacle" or kind == "agent") or type(h) ~= "userdata" then
    F:fail("raycast: bad kind or handle")
  end
  if kind == "wall" and (h.kind ~= "wall" and h.kind ~= "polygon") then
    F:fail("raycast: a wall hit names a non-wall")
  end
end

local function op_line_of_sight(F)
  local rec = live_world(F)
  if not rec then return end
  local rng = F.rng
  local args, valid = { rec.w }, true
  for _ = 1, 2 do
    local form = rng:int(1, 5)
    if form == 1 and #rec.live > 0 then args[#args + 1] = rng:pick(rec.live)
    elseif form == 2 then
      local x, y = G.near(F, rec)
      args[#args + 1] = { x, y }
    elseif form == 5 then
      args[#args + 1] = F.steer.point(G.near(F, rec))
    else
      local x, y = G.near(F, rec)
      args[#args + 1], args[#args + 2] = x, y
    end
  end
  if rng:chance(F.bad * 3) then
    args[rng:int(2, #args)] = V.any(rng, G.pools(F))
    valid = nil
  end
  local ok, r = F:call(rec.name .. ":line_of_sight", rec.w.line_of_sight, args, #args, valid,
    { name = "line_of_sight" })
  if ok and type(r[1]) ~= "boolean" then F:fail("line_of_sight did not return a boolean") end
end

local function op_query_box(F)
  local rec = live_world(F)
  if not rec then return end
  local rng = F.rng
  local x1, y1 = G.near(F, rec)
  local x2, y2 = V.cap(x1 + rng:range(-15, 15)), V.cap(y1 + rng:range(-15, 15))
  local args, valid, n = { rec.w, x1, y1, x2, y2 }, true, 5
  -- query's groups filter (agents here are in group 0 unless set otherwise)
  local only
  if rng:chance(0.3) then
    local groups = {}
    for g = 0, 2 do if rng:chance(0.5) then groups[#groups + 1] = g end end
    args[6], only, n = { groups = groups }, {}, 6
    for _, g in ipairs(groups) do only[g] = true end
  end
  if rng:chance(F.bad * 3) then
    args[rng:int(2, 5)] = rng:chance(0.5) and V.bad_number(rng) or V.any(rng, G.pools(F))
    valid = nil
  elseif rng:chance(F.bad * 2) then -- a misspelt key, a cone or an extra argument
    local k = rng:int(6, 7)
    args[k] = rng:pick({ { grups = { 0 } }, { fov = 90 }, { angle = 0 }, 3, "x" })
    if k == 7 then args[6] = nil end
    valid, n = false, k
  end
  local ok, r = F:call(rec.name .. ":query_box", rec.w.query_box, args, n, valid,
    { name = "query_box" })
  if not ok or valid == nil then return end
  local found = 0
  for a in r[1] do
    found = found + 1
    if rec.kind ~= "wrap" and not (a.x >= math.min(x1, x2) and a.x <= math.max(x1, x2)
        and a.y >= math.min(y1, y2) and a.y <= math.max(y1, y2)) then
      F:fail("query_box yields an agent outside the box")
    end
  end
  if rec.kind ~= "wrap" then
    local want = 0
    for _, a in ipairs(rec.live) do
      if a.x >= math.min(x1, x2) and a.x <= math.max(x1, x2)
          and a.y >= math.min(y1, y2) and a.y <= math.max(y1, y2)
          and (not only or only[a.group]) then want = want + 1 end
    end
    if want ~= found then F:fail(("query_box found %d agents, %d are inside"):format(found, want)) end
  end
end

local function op_contain(F)
  local rec, h = F.ops.some_agent(F)
  if rec.closed or not h then return end
  local rng = F.rng
  local region
  local form = rng:int(1, 4)
  if form == 1 then
    region = { h.x - rng:range(0, 10), h.y - rng:range(0, 10), h.x + rng:range(0, 10), h.y + rng:range(0, 10) }
  elseif form == 2 or form == 4 then
    region = {}
    local n = rng:int(3, 6)
    for i = 1, n do
      region[2 * i - 1], region[2 * i] = V.cap(h.x + rng:range(-10, 10)), V.cap(h.y + rng:range(-10, 10))
    end
    if form == 4 then region = as_points(F, region, n) end
  else
    region = #F.paths > 0 and rng:pick(F.paths).p or { 0, 0, 1, 1 }
  end
  local args, valid = { h, region }, nil
  if rng:chance(0.5) then args[3] = rng:range(0, 5) end
  if rng:chance(F.bad * 3) then args[rng:int(2, 3)] = V.any(rng, G.pools(F)) end
  local ok, r = F:call("a:contain", h.contain, args, 3, valid, { name = "contain" })
  if ok and not (V.finite(r[1]) and V.finite(r[2])) then F:fail("contain returned a non-finite force") end
end

local function op_closed_world(F)
  if #F.closed == 0 then return end
  local w = F.rng:pick(F.closed)
  local name = F.rng:pick({ "add_obstacle", "obstacles", "raycast", "query_box", "segments" })
  F:call("closed:" .. name, F.wmethods[name], { w, 1, 2, 3, 4 }, 5, false,
    { pattern = "closed" })
end

function L.list(F, O)
  F.ops = O
  return {
    { name = "add_obstacle", weight = 1, run = op_add_obstacle },
    { name = "add_wall", weight = 1, run = op_add_wall },
    { name = "add_polygon", weight = 0.6, run = op_add_polygon },
    { name = "add_walls", weight = 0.4, run = op_add_walls },
    { name = "walls_from_tiles", weight = 0.4, run = op_walls_from_tiles },
    { name = "shape field", weight = 2, run = op_shape_field },
    { name = "shape:remove", weight = 0.5, run = op_shape_remove },
    { name = "iterate shapes", weight = 0.4, run = op_iterate_shapes },
    { name = "clear", weight = 0.2, run = op_clear },
    { name = "raycast", weight = 2, run = op_raycast },
    { name = "line_of_sight", weight = 1, run = op_line_of_sight },
    { name = "query_box", weight = 1, run = op_query_box },
    { name = "a:contain", weight = 1, run = op_contain },
    { name = "closed world geometry", weight = 0.2, run = op_closed_world },
  }
end

return L
