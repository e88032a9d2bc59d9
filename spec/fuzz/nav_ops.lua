--- The fuzzer's navigation operations (steer.navgrid, navgrid_from_map,
-- the NavGrid and FlowField methods, nav:inflated, a:flow and the flow entry): random
-- grids (1x1, all blocked, random costs), goals on blocked cells and
-- outside, hostile arguments. Grids are mirrored here (their costs); small
-- ones are checked against a brute-force Dijkstra. Flow-following agents
-- live in worlds of their own, whose snapshots are checked here.
local V = require "fuzz.values"
local G = require "fuzz.gen"

local unpack = table.unpack or unpack
local N = {}
local MAX_NAVS = 4
local SQRT2 = math.sqrt(2)

local function random_cost(rng, blocked)
  local r = rng:float()
  if r < blocked then return 0 end
  if r < blocked + (1 - blocked) * 0.7 then return 1 end
  if rng:chance(0.1) then return rng:pick({ 1e9, 1000, 1.5 }) end
  return 1 + rng:int(0, 8) + rng:int(0, 9) / 10
end

-- A grid description: width, height, costs (or nil: all 1), cell size, origin.
local function random_shape(rng)
  local W, H = rng:int(1, 12), rng:int(1, 12)
  if rng:chance(0.1) then W, H = 1, 1 end
  local blocked = rng:pick({ 0, 0.2, 0.4, 1 })
  local cost
  if rng:chance(0.85) then
    cost = {}
    for k = 1, W * H do cost[k] = random_cost(rng, blocked) end
  end
  local cs = rng:pick({ 1, 1, 2, 0.5, 1e-3, 7.25, 1e140 / 12 })
  local origin = rng:chance(0.5) and { rng:range(-50, 50), rng:range(-50, 50) } or nil
  return W, H, cost, cs, origin
end

local function track(F, nav, W, H, cost, cs, ox, oy)
  local c = {}
  for k = 1, W * H do c[k] = cost and cost[k] or 1 end
  local rec = { nav = nav, W = W, H = H, cost = c, cs = cs, ox = ox, oy = oy, fields = {} }
  F:name(nav, "nav" .. W .. "x" .. H)
  F.navs = F.navs or {}
  if #F.navs >= MAX_NAVS then table.remove(F.navs, 1) end
  F.navs[#F.navs + 1] = rec
  return rec
end

local function some_nav(F)
  if not F.navs or #F.navs == 0 then N.new_grid(F, true) end
  return F.rng:pick(F.navs)
end

function N.new_grid(F, valid_only)
  local rng = F.rng
  local W, H, cost, cs, origin = random_shape(rng)
  local def = { width = W, height = H, cost = cost, cell_size = cs, origin = origin }
  -- walls_from_tiles' convention: solid = (cost == 0), 'solid' instead of 'cost'
  if cost and rng:chance(0.2) then
    local solid = {}
    for k = 1, W * H do solid[k] = cost[k] == 0 and rng:pick({ 1, true, -2.5 }) or rng:pick({ 0, false }) end
    for k = 1, W * H do cost[k] = cost[k] == 0 and 0 or 1 end
    def.cost, def.solid = nil, solid
  end
  local valid = true
  local pattern
  if not valid_only and rng:chance(F.bad) then
    local which = rng:int(1, 7)
    if which == 1 then def.width = rng:pick({ 0, -1, 1.5, 65537, "3" })
    elseif which == 2 then def.height = V.any(rng, G.pools(F))
    elseif which == 3 then def.cell_size = V.bad_number(rng, "pos")
    elseif which == 4 and def.cost then -- (a grid made from 'solid' reads no cost)
      cost[rng:int(1, #cost)] = rng:pick({ 0.5, -1, 1e10, 0 / 0, "1" })
    elseif which == 5 then def.origin = { rng:pick({ 1e151, 0 / 0 }), 0 }
    elseif which == 6 then def.wdith = 3
    else def = V.any(rng, G.pools(F)) end
    valid = nil -- most of these are invalid; some draws happen to be fine
  elseif not valid_only and rng:chance(F.bad) then
    -- the tile-map mistakes: both arrays, a bad tile, walls_from_tiles' table as cost
    local which = rng:int(1, 3)
    local tiles = def.solid or {}
    if not def.solid then for k = 1, W * H do tiles[k] = 0 end end
    if which == 1 then
      def.cost, def.solid = tiles, tiles
      pattern = "both 'cost' and 'solid' given"
    elseif which == 2 then
      tiles[rng:int(1, W * H)] = rng:pick({ 0 / 0, math.huge, "#", {} })
      def.cost, def.solid = nil, tiles
      pattern = "solid%[%d+%]: "
    else
      F.steer.walls_from_tiles(tiles, W, H, 1)
      def.cost, def.solid = tiles, nil
      pattern = "'cost' is the table given to walls_from_tiles"
    end
    valid = false
  end
  local ok, r = F:call("steer.navgrid", F.steer.navgrid, { def }, 1, valid, { name = "navgrid", pattern = pattern })
  if not ok then return end
  local nav = r[1]
  local ox, oy = 0, 0
  if type(def) == "table" and type(def.origin) == "table" then ox, oy = def.origin[1], def.origin[2] end
  local w, h = nav:size()
  if type(def) == "table" and (w ~= def.width or h ~= def.height) then
    F:fail("nav:size() differs from the definition")
  end
  if type(def) == "table" and def.width == W and def.height == H then
    track(F, nav, W, H, cost, nav:cell_size(), ox, oy)
  end
end

local function op_from_map(F)
  local rng = F.rng
  local W, H = rng:int(1, 10), rng:int(1, 10)
  local rows, cost = {}, {}
  local chars = { ".", "G", "S", "@", "O", "T", "W" }
  for r = 1, H do
    local row = {}
    for c = 1, W do
      local ch = rng:pick(chars)
      row[c] = ch
      cost[(r - 1) * W + c] = (ch == "." or ch == "G" or ch == "S") and 1 or 0
    end
    rows[r] = table.concat(row)
  end
  local text = ("type octile\nheight %d\nwidth %d\nmap\n%s\n"):format(H, W, table.concat(rows, "\n"))
  local valid = true
  if rng:chance(F.bad) then
    local cut = rng:int(0, #text)
    text = text:sub(1, cut) .. rng:pick({ "", "x", "\0", "\n\n", "width 0\n" }) .. text:sub(cut + 1)
    valid = nil
  end
  local cs = rng:chance(0.7) and 1 or rng:pick({ 2, 0.25, -1, 0 / 0 })
  if not V.is_pos(cs) then valid = false end
  local ok, r = F:call("steer.navgrid_from_map", F.steer.navgrid_from_map, { text, cs }, 2, valid,
    { name = "navgrid_from_map" })
  if ok and valid then
    local rec = track(F, r[1], W, H, cost, cs, 0, 0)
    for k = 1, W * H do
      local cx, cy = (k - 1) % W, math.floor((k - 1) / W)
      if rec.nav:cost(cx, cy) ~= cost[k] then F:fail("navgrid_from_map: cell cost differs") end
    end
  end
end

-- A cell coordinate: mostly inside, sometimes outside or not a number.
local function cell_arg(F, n)
  local rng = F.rng
  if rng:chance(F.bad) then return V.any(rng, G.pools(F)) end
  if rng:chance(0.1) then return rng:pick({ -1, n, 2 ^ 31, 1.5 }) end
  return rng:int(0, n - 1)
end

local function op_cost(F)
  local rec, rng = some_nav(F), F.rng
  local cx, cy = cell_arg(F, rec.W), cell_arg(F, rec.H)
  local inside = V.is_integral(cx) and V.is_integral(cy) and cx >= 0 and cy >= 0 and cx < rec.W and cy < rec.H
  if rng:chance(0.5) then
    local c = rng:chance(F.bad) and V.any(rng, G.pools(F)) or random_cost(rng, 0.3)
    local valid = inside and V.is_num(c) and (c == 0 or (c >= 1 and c <= 1e9))
    local ok = F:call("nav:set_cost", rec.nav.set_cost, { rec.nav, cx, cy, c }, 4, valid, { name = "set_cost" })
    if ok then
      rec.cost[cy * rec.W + cx + 1] = c
      for _, f in ipairs(rec.fields) do
        if not f:stale() then F:fail("a field is not stale after set_cost") end
      end
    end
  else
    local ok, r = F:call("nav:cost", rec.nav.cost, { rec.nav, cx, cy }, 3, inside, { name = "cost" })
    if ok and r[1] ~= rec.cost[cy * rec.W + cx + 1] + 0.0 then F:fail("nav:cost differs from the mirror") end
  end
end

-- A world point around the grid: inside, outside, huge, or hostile; some
-- on the far edges (in the grid: it is closed) or on its corner.
local function point_arg(F, rec)
  local rng = F.rng
  if rng:chance(F.bad) then return V.any(rng, G.pools(F)), V.num(rng) end
  if rng:chance(0.1) then return V.num(rng), V.num(rng) end
  local x = rec.ox + rng:range(-0.2, 1.2) * rec.W * rec.cs
  local y = rec.oy + rng:range(-0.2, 1.2) * rec.H * rec.cs
  local edge = rng:int(1, 10)
  if edge == 1 or edge == 3 then x = rec.ox + rec.W * rec.cs end
  if edge == 2 or edge == 3 then y = rec.oy + rec.H * rec.cs end
  return x, y
end

-- The cell of world point (x, y) by the mirror: cell (cx, cy) covers
-- [cx, cx + 1) x [cy, cy + 1) in grid units, the far edges in the last
-- column and row; nil outside.
local function mirror_cell(rec, x, y)
  local qx, qy = (x - rec.ox) / rec.cs, (y - rec.oy) / rec.cs
  if not (qx >= 0 and qy >= 0 and qx <= rec.W and qy <= rec.H) then return nil end
  return math.min(math.floor(qx), rec.W - 1), math.min(math.floor(qy), rec.H - 1)
end

-- An agent standing at (x, y) in a world of the nav ops' own (a point may
-- be an agent of any world); sometimes one removed since. Returns the
-- handle and whether it is live.
local function agent_at(F, x, y)
  local st = F.nav_agents
  if not st then
    st = { w = F.steer.world{}, live = {}, removed = {} }
    F.nav_agents = st
  end
  if #st.removed > 0 and F.rng:chance(0.05) then return F.rng:pick(st.removed), false end
  local a = st.w:add{ x = x, y = y }
  st.live[#st.live + 1] = a
  if #st.live > 12 then
    local old = table.remove(st.live, 1)
    st.w:remove(old)
    if #st.removed >= 4 then table.remove(st.removed, 1) end
    st.removed[#st.removed + 1] = old
  end
  return a, true
end

-- A point in one of its forms (API.md, Points): two numbers, {x, y},
-- {x =, y =}, a steer.point or an agent; one_value: not two numbers.
-- Returns the argument list, how many arguments it takes, the index
-- (1 or 2) of the first bad one or nil, and x, y.
local function point_form(F, rec, one_value)
  local rng = F.rng
  local x, y = point_arg(F, rec)
  local fine = V.is_num(x) and V.is_num(y)
  local r = rng:float()
  if r < 0.4 and not one_value then
    -- a table or handle in the x slot would be a point of its own: keep apart
    if type(x) == "table" or type(x) == "userdata" then x, fine = 0 / 0, false end
    local bad = (not V.is_num(x) and 1) or (not V.is_num(y) and 2) or nil
    return { x, y }, 2, bad, x, y
  end
  if r < 0.65 or not fine then
    local t = rng:chance(0.5) and { x, y } or { x = x, y = y }
    return { t }, 1, (not fine) and 1 or nil, x, y
  end
  if r < 0.8 then return { F.steer.point(x, y) }, 1, nil, x, y end
  local a, live = agent_at(F, x, y)
  if not live then return { a }, 1, 1 end
  return { a }, 1, nil, x, y
end

-- {self, ...point args..., more...}, and n
local function with_point(self, p, used, ...)
  local args = { self }
  for i = 1, used do args[1 + i] = p[i] end
  local n = 1 + used
  for i = 1, select("#", ...) do args[n + i] = select(i, ...) end
  return args, n + select("#", ...)
end

local function op_cells(F)
  local rec = some_nav(F)
  local p, used, bad, x, y = point_form(F, rec)
  local args, n = with_point(rec.nav, p, used)
  local ok, r = F:call("nav:cell_of", rec.nav.cell_of, args, n, not bad, { name = "cell_of", argn = bad })
  if not ok then return end
  local mx, my = mirror_cell(rec, x, y)
  if r[1] ~= mx or r[2] ~= my then
    F:fail(("nav:cell_of(%s, %s) is %s, %s; the mirror says %s, %s"):format(V.show(x), V.show(y),
      V.show(r[1]), V.show(r[2]), V.show(mx), V.show(my)))
  end
  if r[1] == nil then return end
  local cx, cy = r[1], r[2]
  if cx < 0 or cy < 0 or cx >= rec.W or cy >= rec.H then F:fail("cell_of outside the grid") end
  local ok2, c = F:call("nav:center_of", rec.nav.center_of, { rec.nav, cx, cy }, 3, true,
    { name = "center_of", numbers = true })
  if ok2 then
    local bx, by = rec.nav:cell_of(c[1], c[2])
    if bx ~= cx or by ~= cy then F:fail("cell_of(center_of(c)) ~= c") end
  end
end

-- Brute-force cost from cell (sx, sy) to every cell (small grids only).
local function oracle(rec, sx, sy, diagonal)
  local W, H, cost = rec.W, rec.H, rec.cost
  local function c(x, y)
    if x < 0 or y < 0 or x >= W or y >= H then return 0 end
    return cost[y * W + x + 1]
  end
  local dist, done = { [sy * W + sx] = 0 }, {}
  while true do
    local best, bd
    for k, d in pairs(dist) do
      if not done[k] and (not bd or d < bd) then best, bd = k, d end
    end
    if not best then return dist end
    done[best] = true
    local x, y = best % W, math.floor(best / W)
    for dy = -1, 1 do
      for dx = -1, 1 do
        local diag = dx ~= 0 and dy ~= 0
        if (dx ~= 0 or dy ~= 0) and (diagonal or not diag) and c(x + dx, y + dy) > 0
            and (not diag or (c(x + dx, y) > 0 and c(x, y + dy) > 0)) then
          local k = (y + dy) * W + x + dx
          local d = bd + c(x + dx, y + dy) * (diag and SQRT2 or 1)
          if not done[k] and (not dist[k] or d < dist[k]) then dist[k] = d end
        end
      end
    end
  end
end

local function op_path(F)
  local rec, rng = some_nav(F), F.rng
  local p1, used1, bad1, x1, y1 = point_form(F, rec)
  local p2, used2, bad2, x2, y2 = point_form(F, rec)
  local opts = nil
  if rng:chance(0.6) then opts = { smooth = rng:chance(0.5), diagonal = rng:chance(0.8) } end
  if opts and rng:chance(0.4) then opts.clearance = rng:pick({ 0, rng:range(0, 0.6) * rec.cs, 1e150 }) end
  -- the first bad argument: a point's x or y, counted from the point's first
  local argn = bad1 or (bad2 and used1 + bad2)
  local valid = not argn
  if rng:chance(F.bad) and valid then opts = { smooth = V.any(rng, G.pools(F)) }; valid = nil end
  local pattern
  if rng:chance(F.bad) and valid then
    opts = { smooth = true, clearance = rng:pick({ -1, 0 / 0, math.huge, "1", 1e151 }) }
    valid, pattern = false, "clearance"
  end
  local args = { rec.nav }
  for i = 1, used1 do args[1 + i] = p1[i] end
  for i = 1, used2 do args[1 + used1 + i] = p2[i] end
  args[2 + used1 + used2] = opts
  local ok, r = F:call("nav:path", rec.nav.path, args, 2 + used1 + used2, valid,
    { name = "path", argn = argn, pattern = pattern })
  if not ok or valid == nil then return end
  if r[1] == nil then
    if type(r[2]) ~= "string" then F:fail("nav:path: no path without a reason") end
    return
  end
  local p, len, cost = r[1], r[2], r[3]
  -- the exact endpoints add at most half a cell's diagonal at each end
  if not (V.finite(len) and V.finite(cost) and len >= 0
      and len <= (cost + SQRT2 * rec.cs) * (1 + 1e-9)) then
    F:fail(("nav:path: length %s, cost %s"):format(V.show(len), V.show(cost)))
  end
  local fx, fy = p:point(1)
  local lx, ly = p:point(#p)
  if fx ~= x1 or fy ~= y1 or lx ~= x2 or ly ~= y2 then
    F:fail("nav:path does not start at p1 and end at p2")
  end
  for k = 1, #p do
    local px, py = p:point(k)
    local cx, cy = rec.nav:cell_of(px, py)
    if not cx or rec.cost[cy * rec.W + cx + 1] == 0 then F:fail("nav:path through a blocked cell") end
  end
  -- small grids: the cost is the brute-force optimum
  if rec.W * rec.H <= 64 and not (opts and opts.smooth) then
    local sx, sy = rec.nav:cell_of(x1, y1)
    local gx, gy = rec.nav:cell_of(x2, y2)
    local want = oracle(rec, sx, sy, not opts or opts.diagonal ~= false)[gy * rec.W + gx]
    if not want or math.abs(want * rec.cs - cost) > 1e-9 * math.max(1, cost) then
      F:fail(("nav:path cost %s, brute force %s"):format(V.show(cost), V.show(want and want * rec.cs)))
    end
  end
end

-- The goals of nav:flow and f:set_goals after self: one point in any
-- form, or a list of them (agents, steer.points, {x, y}, {x =, y =}).
-- Returns the arguments, their number and whether they are valid (inside
-- the grid by the mirror; nil: perhaps).
local function goals_args(F, rec, self)
  local rng = F.rng
  if rng:chance(0.5) then
    local p, used, bad, x, y = point_form(F, rec)
    local args, n = with_point(self, p, used)
    return args, n, not bad and mirror_cell(rec, x, y) ~= nil
  end
  local goals, valid = {}, true
  for k = 1, rng:int(0, 4) do
    local p, _, bad, x, y = point_form(F, rec, true)
    goals[k] = p[1]
    valid = valid and not bad and mirror_cell(rec, x, y) ~= nil
  end
  if rng:chance(F.bad) then goals[#goals + 1] = V.any(rng, G.pools(F)); valid = nil end
  if #goals == 0 then valid = false end
  return { self, goals }, 2, valid
end

-- Every cell's distance (false where nil), to compare two fields.
local function field_distances(rec, f)
  local out = {}
  for cy = 0, rec.H - 1 do
    for cx = 0, rec.W - 1 do
      local x, y = rec.nav:center_of(cx, cy)
      out[#out + 1] = f:distance(x, y) or false
    end
  end
  return out
end

local function same_list(a, b)
  if #a ~= #b then return false end
  for k = 1, #a do if a[k] ~= b[k] then return false end end
  return true
end

local function op_flow(F)
  local rec = some_nav(F)
  local args, n, valid = goals_args(F, rec, rec.nav)
  -- every refusal is about argument 1 (the list, or the point's x)
  local ok, r = F:call("nav:flow", rec.nav.flow, args, n, valid,
    { name = "flow", argn = valid == false and n == 2 and 1 or nil })
  if not ok then return end
  local f = r[1]
  if f:stale() then F:fail("a new field is stale") end
  if #rec.fields >= 3 then table.remove(rec.fields, 1) end
  rec.fields[#rec.fields + 1] = f
  if f:grid() ~= rec.nav then F:fail("f:grid() is not the grid's handle") end
  for _ = 1, 4 do
    local p, used, bad = point_form(F, rec)
    local fargs, fn = with_point(f, p, used)
    local dok, d = F:call("f:distance", f.distance, fargs, fn, not bad, { name = "distance", argn = bad })
    if dok and d[1] ~= nil and not (V.finite(d[1]) and d[1] >= 0) then F:fail("f:distance is " .. V.show(d[1])) end
    local vok, v = F:call("f:direction", f.direction, fargs, fn, not bad,
      { name = "direction", numbers = true, argn = bad })
    if vok then
      local l = v[1] * v[1] + v[2] * v[2]
      if l ~= 0 and math.abs(l - 1) > 1e-9 then F:fail("f:direction is neither zero nor a unit vector") end
    end
  end
end

local function op_update(F)
  local rec = some_nav(F)
  if #rec.fields == 0 then return op_flow(F) end
  local f = F.rng:pick(rec.fields)
  local ok = F:call("f:update", f.update, { f }, 1, true, { name = "update" })
  if ok and f:stale() then F:fail("a field is stale after f:update()") end
end

-- f:set_goals: the goals of nav:flow; the field afterwards equals a new
-- nav:flow toward them, and a refusal leaves it as it was.
local function op_set_goals(F)
  local rec = some_nav(F)
  if #rec.fields == 0 then return op_flow(F) end
  local f = F.rng:pick(rec.fields)
  local before = field_distances(rec, f)
  local stale = f:stale()
  local args, n, valid = goals_args(F, rec, f)
  local ok, r = F:call("f:set_goals", f.set_goals, args, n, valid,
    { name = "set_goals", argn = valid == false and n == 2 and 1 or nil })
  if not ok then
    if not same_list(before, field_distances(rec, f)) or f:stale() ~= stale then
      F:fail("a refused f:set_goals changed the field")
    end
    return
  end
  if r[1] ~= f then F:fail("f:set_goals does not return the field") end
  if f:stale() then F:fail("a field is stale after f:set_goals") end
  args[1] = rec.nav
  local fresh = rec.nav.flow(unpack(args, 1, n))
  if not same_list(field_distances(rec, fresh), field_distances(rec, f)) then
    F:fail("f:set_goals differs from nav:flow toward the same goals")
  end
end

-- nav:inflated: a radius in cells (exact boundaries and hairs beside them,
-- anything, huge) or a bad one, the edges option or a bad one. The new
-- grid has the old one's shape; on small grids its costs match a brute
-- force (every open cell against every blocked cell and the edge); the
-- old grid and its fields do not change. The new grid joins the mirror.
local function op_inflated(F)
  local rec, rng = some_nav(F), F.rng
  local cells = rng:pick({ 0, 0.5, 1, 1.5, math.sqrt(2) / 2, math.sqrt(2.5), 2, rng:range(0, 4),
    rng:range(0, 12), 1e9 })
  if rng:chance(0.3) then cells = cells * rng:pick({ 1 + 1e-12, 1 - 1e-12 }) end
  local radius = math.min(cells * rec.cs, 1e150)
  if rng:chance(0.05) then radius = rng:pick({ 1e150, 0 }) end
  local opts, edges = nil, true
  if rng:chance(0.6) then
    edges = rng:chance(0.5)
    opts = { edges = edges }
  end
  local valid, argn, pattern = true, nil, nil
  if rng:chance(F.bad) then
    radius = rng:pick({ -1, 0 / 0, math.huge, -math.huge, 1e151, "1", {}, true })
    valid, argn, pattern = false, 1, "radius: "
  elseif rng:chance(F.bad) then
    opts = rng:pick({ { edges = 1 }, { edge = true }, { corners = false }, 5, "edges" })
    valid, argn = false, 2
  elseif rng:chance(F.bad) then
    opts = { edges = V.any(rng, G.pools(F)) }
    valid, argn = nil, nil
  end
  local before = {}
  for k = 1, rec.W * rec.H do before[k] = rec.nav:cost((k - 1) % rec.W, math.floor((k - 1) / rec.W)) end
  local stale = {}
  for k, f in ipairs(rec.fields) do stale[k] = f:stale() end
  local ok, r = F:call("nav:inflated", rec.nav.inflated, { rec.nav, radius, opts }, 3, valid,
    { name = "inflated", argn = argn, pattern = pattern })
  for k = 1, rec.W * rec.H do
    if rec.nav:cost((k - 1) % rec.W, math.floor((k - 1) / rec.W)) ~= before[k] then
      F:fail("nav:inflated changed the original grid")
    end
  end
  for k, f in ipairs(rec.fields) do
    if f:stale() ~= stale[k] then F:fail("nav:inflated changed a field's staleness") end
  end
  if not ok then return end
  if valid == nil then edges = opts.edges ~= false end
  local big = r[1]
  local w, h = big:size()
  local ox, oy = big:origin()
  if w ~= rec.W or h ~= rec.H or big:cell_size() ~= rec.cs or ox ~= rec.ox + 0.0 or oy ~= rec.oy + 0.0 then
    F:fail("nav:inflated: the new grid's shape differs")
  end
  local cost = {}
  for k = 1, w * h do cost[k] = big:cost((k - 1) % w, math.floor((k - 1) / w)) end
  if w * h <= 64 then
    local rr = radius / rec.cs
    for k = 1, w * h do
      local x, y = (k - 1) % w + 0.5, math.floor((k - 1) / w) + 0.5
      local want = before[k]
      if want ~= 0 then
        for j = 1, w * h do
          if before[j] == 0 then
            local bx, by = (j - 1) % w, math.floor((j - 1) / w)
            local dx = math.max(bx - x, 0, x - bx - 1)
            local dy = math.max(by - y, 0, y - by - 1)
            if dx * dx + dy * dy < rr * rr then want = 0 end
          end
        end
        local e = math.min(x, y, w - x, h - y)
        if edges and e * e < rr * rr then want = 0 end
      end
      if cost[k] ~= want then
        F:fail(("nav:inflated(%s): cell %d costs %s, brute force %s"):format(V.show(radius), k - 1,
          V.show(cost[k]), V.show(want)))
      end
    end
  end
  track(F, big, w, h, cost, rec.cs, rec.ox, rec.oy)
end

-- Agents following a field in a world of their own.
local function op_follow(F)
  local rec, rng = some_nav(F), F.rng
  if #rec.fields == 0 then return op_flow(F) end
  local f = rng:pick(rec.fields)
  local w = F.steer.world{}
  local agents = {}
  for k = 1, rng:int(1, 4) do
    local x, y = point_arg(F, rec)
    if not V.is_num(x) then x = 0 end
    agents[k] = w:add{ x = x, y = y, vx = rng:range(-3, 3), vy = rng:range(-3, 3),
      max_speed = rng:pick({ 1, 2.5, 0, 1e150 }), max_force = rng:pick({ 1, 4, 0, 1e150 }) }
  end
  local a = agents[1]
  local slowing = rng:chance(F.bad) and V.any(rng, G.pools(F)) or rng:pick({ nil, 0, 2, 1e150 })
  local sv = slowing == nil or V.is_nonneg(slowing)
  F:call("a:flow", a.flow, { a, f, slowing }, 3, sv, { name = "flow", numbers = true })
  local entry = { "flow", field = f, slowing_radius = rng:pick({ 0, 2, 5 }) }
  local program = rng:chance(0.5) and { entry } or { entry, { "separation", radius = 1 } }
  if rng:chance(F.bad) then program[1].field = V.any(rng, G.pools(F)) end
  for _, h in ipairs(agents) do
    local ok = pcall(h.set_behaviors, h, program)
    if not ok then return end
  end
  if agents[1]:behaviors()[1].field ~= f then F:fail("a:behaviors() does not give the field back") end
  -- one agent changes fields (a:set_target takes a steer.FlowField only)
  if rng:chance(0.5) then
    local is_field = rng:chance(0.8)
    local g = is_field and rng:pick(rec.fields) or V.any(rng, G.pools(F))
    local tok = F:call("a:set_target", agents[1].set_target, { agents[1], 1, g }, 3, is_field or nil,
      { name = "set_target" })
    if tok and agents[1]:behaviors()[1].field ~= g then F:fail("a:set_target did not change the field") end
    if #agents > 1 and agents[2]:behaviors()[1].field ~= f then
      F:fail("a:set_target changed another agent's field")
    end
  end
  local sok = F:call("world:step", w.step, { w, rng:pick({ 0.05, 0.1, 1 }) }, 2, true, { name = "step" })
  if sok then
    for _, h in ipairs(agents) do
      if not (V.finite(h.x) and V.finite(h.y) and V.finite(h.vx) and V.finite(h.vy)) then
        F:fail("a flow-following agent is not finite")
      end
    end
  end
  -- snapshots keep the fields (version 12): a copy that snapshots to the
  -- same bytes, reads its fields as the saved world does and steps alike
  local snap_ok, out = F:call("world:snapshot", w.snapshot, { w }, 1, true, { name = "snapshot", argn = 0 })
  if not snap_ok then return end
  local s = out[1]
  local c = F.steer.restore(s)
  if not c then F:fail("a snapshot of flow-following agents does not restore") end
  if c:snapshot() ~= s then F:fail("restore(snapshot) of flow-following agents differs") end
  for _, h in ipairs(agents) do
    local mine, theirs = h:behaviors()[1].field, c:get(h.id):behaviors()[1].field
    if theirs == mine or theirs:stale() ~= mine:stale() then
      F:fail("a restored field is the saved one, or not stale as it is")
    end
    local x, y = h.x, h.y
    local d1, d2 = mine:distance(x, y), theirs:distance(x, y)
    local a1, b1 = mine:direction(x, y)
    local a2, b2 = theirs:direction(x, y)
    if d1 ~= d2 or a1 ~= a2 or b1 ~= b2 then F:fail("a restored field reads apart") end
  end
  w:step(0.1)
  c:step(0.1)
  if c:snapshot() ~= w:snapshot() then F:fail("a restored world of flow-following agents steps apart") end
  c:close()
end

function N.list(F)
  if type(F.steer.navgrid) ~= "function" then return {} end
  return {
    { name = "navgrid", weight = 1, run = function(F) N.new_grid(F, false) end },
    { name = "navgrid_from_map", weight = 0.5, run = op_from_map },
    { name = "nav:cost", weight = 1, run = op_cost },
    { name = "nav:cell_of", weight = 0.5, run = op_cells },
    { name = "nav:path", weight = 1.5, run = op_path },
    { name = "nav:flow", weight = 1, run = op_flow },
    { name = "f:update", weight = 0.5, run = op_update },
    { name = "f:set_goals", weight = 1, run = op_set_goals },
    { name = "a:flow", weight = 1, run = op_follow },
    { name = "nav:inflated", weight = 0.7, run = op_inflated },
  }
end

return N
