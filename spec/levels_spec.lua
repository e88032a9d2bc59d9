-- Game levels: static geometry in spatial indexes, handles, polygons, tile
-- maps, ray casts, line of sight, query_box and containment (issue 12).

describe("geometry index (C oracle)", function()
  it("gives the brute force scan's answers bit for bit", function()
    -- spec/c/geometry_oracle.c: random levels, torus seams, degenerate and
    -- huge items, edits, ray casts, tile maps, allocation failures (built and
    -- run without the ASan runtime that `make asan` preloads into busted)
    require("support").run_oracle("geometry_oracle", 50000)
  end)
end)

local steer = require "steer"

local function list(iter, state)
  local t = {}
  for v in iter, state do t[#t + 1] = v end
  return t
end

describe("level geometry handles", function()
  it("read, write, keep their own data and raise once removed", function()
    local w = steer.world{}
    local o = w:add_obstacle{ x = 1, y = 2, radius = 3, name = "rock" }
    local s = w:add_wall{ x1 = 0, y1 = 0, x2 = 4, y2 = 0, team = 2 }
    assert.are.same({ 1, 2, 3, "obstacle", "rock", true }, { o.x, o.y, o.radius, o.kind, o.name, o.alive })
    assert.are.same({ 0, 0, 4, 0, "wall", 2 }, { s.x1, s.y1, s.x2, s.y2, s.kind, s.team })
    o.x, o.radius, o.hp = 10, 0.5, 7
    assert.are.same({ 10, 0.5, 7 }, { o.x, o.radius, o.hp })
    -- moving it moves what avoidance sees: the feeler of an agent at (6.5, 2.2)
    -- heading +x (off the centre's line, so pushed back, not sideways)
    local a = w:add{ x = 6.5, y = 2.2, vx = 1, radius = 0.5 }
    local fx = a:avoid_obstacles(3)
    assert.is_true(fx < 0)
    assert.has_error(function() s.x2 = 0 end) -- zero length
    assert.has_error(function() o.id = 3 end)
    o:remove()
    assert.is_false(o.alive)
    local ok, err = pcall(function() return o.x end)
    assert.is_false(ok)
    assert.is_truthy(err:find("obstacle has been removed", 1, true))
    assert.is_false(pcall(function() return o.name end))
    assert.is_false(pcall(o.remove, o))
    assert.are.same({ 0, 0 }, { a:avoid_obstacles(3) })
    assert.are.same({ s }, list(w:walls()))
  end)

  it("iterate in a stable order while some are removed", function()
    local w = steer.world{}
    local made = {}
    for k = 1, 10 do made[k] = w:add_obstacle{ x = k, y = 0, radius = 1 } end
    local seen = {}
    for o in w:obstacles() do
      seen[#seen + 1] = o.x
      if o.x % 2 == 1 then o:remove() end
    end
    assert.are.same({ 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 }, seen)
    assert.are.equal(5, #list(w:obstacles()))
  end)

  it("polygons are walls under one handle, solid inside", function()
    local w = steer.world{}
    local p = w:add_polygon{ 0, 0, 10, 0, 10, 10, 0, 10, zone = "pit" }
    assert.are.same({ "polygon", 4, "pit" }, { p.kind, p.edges, p.zone })
    local seg, n = w:segments()
    assert.are.equal(4, n)
    assert.are.equal(16, #seg)
    local f = w:raycast(-5, 5, 15, 5)
    assert.are.equal(0.25, f)
    local open = w:add_polygon{ 20, 0, 30, 0, 30, 10, closed = false }
    assert.are.equal(2, open.edges)
    p:remove()
    local _, left = w:segments()
    assert.are.equal(2, left)
    assert.is_nil(w:raycast(-5, 5, 15, 5))
  end)
end)

describe("world:raycast", function()
  it("returns the nearest hit, its normal, kind and handle", function()
    local w = steer.world{}
    local far = w:add_wall{ x1 = 8, y1 = -5, x2 = 8, y2 = 5 }
    local near = w:add_wall{ x1 = 5, y1 = -5, x2 = 5, y2 = 5 }
    local rock = w:add_obstacle{ x = 3, y = 0, radius = 1 }
    local f, hx, hy, nx, ny, kind, h = w:raycast(0, 0, 10, 0)
    assert.are.same({ 0.2, 2, 0, -1, 0, "obstacle" }, { f, hx, hy, nx, ny, kind })
    assert.are.equal(rock, h)
    f, hx, hy, nx, ny, kind, h = w:raycast(0, 0, 10, 0, { obstacles = false })
    assert.are.same({ 0.5, 5, 0, -1, 0, "wall" }, { f, hx, hy, nx, ny, kind })
    assert.are.equal(near, h)
    -- from the other side the normal faces the ray
    f, hx, hy, nx, ny, kind, h = w:raycast(10, 0, 0, 0)
    assert.are.same({ 0.2, 8, 0, 1, 0 }, { f, hx, hy, nx, ny })
    assert.are.equal(far, h)
    -- agents only when asked, and not the one ignored
    local a = w:add{ x = 1, y = 0, radius = 0.5 }
    assert.are.equal("obstacle", select(6, w:raycast(0, 0, 10, 0)))
    f, hx, hy, nx, ny, kind, h = w:raycast(0, 0, 10, 0, { agents = true })
    assert.are.same({ 0.05, 0.5, 0, -1, 0, "agent" }, { f, hx, hy, nx, ny, kind })
    assert.are.equal(a, h)
    assert.are.equal("obstacle", select(6, w:raycast(0, 0, 10, 0, { agents = true, ignore = a })))
    -- a ray starting inside a circle hits it at once
    assert.are.equal(0, (w:raycast(3, 0.5, 3, 10)))
    assert.is_nil(w:raycast(0, 20, 10, 20))
    assert.has_error(function() w:raycast(0, 0, 1, 1, { wals = true }) end)
    assert.has_error(function() w:raycast(0, 0, 1, math.huge) end)
  end)

  it("takes each end as an agent or a point, leaving out an agent at the start", function()
    local w = steer.world{}
    w:add_wall{ x1 = 5, y1 = -5, x2 = 5, y2 = 5 }
    local tower = w:add{ x = 0, y = 0, radius = 1 }
    local creep = w:add{ x = 10, y = 0, radius = 0.5 }
    local want = { 0.5, 5, 0, -1, 0, "wall" }
    for _, ends in ipairs{ { tower, creep }, { { 0, 0 }, { x = 10, y = 0 } },
                           { steer.point(0, 0), creep }, { 0, 0, creep }, { tower, 10, 0 } } do
      local f, hx, hy, nx, ny, kind = w:raycast((table.unpack or unpack)(ends))
      assert.are.same(want, { f, hx, hy, nx, ny, kind })
    end
    -- agents: the tower itself (the start) is left out, the creep is hit
    local f, hx, _, _, _, kind, h = w:raycast(tower, creep, { agents = true, walls = false })
    assert.are.same({ 0.95, 9.5, "agent" }, { f, hx, kind })
    assert.are.equal(creep, h)
    -- from a point on the tower, the tower is in the way (as before)
    assert.are.equal(tower, select(7, w:raycast(0, 0, creep, { agents = true })))
    -- ignore names another agent: then the start agent counts
    assert.are.equal(tower, select(7, w:raycast(tower, creep, { agents = true, ignore = creep })))
    -- the filter's argument number follows the ends
    assert.matches("bad argument #3 to 'raycast' %(table expected, got number%)",
      select(2, pcall(w.raycast, w, tower, creep, 5)))
    assert.matches("bad argument #5 to 'raycast' %(unknown filter field 'wals'%)",
      select(2, pcall(w.raycast, w, 0, 0, 1, 1, { wals = true })))
    assert.matches("bad argument #2 to 'raycast' %(agent belongs to another world%)",
      select(2, pcall(w.raycast, w, tower, steer.world{}:add{ x = 1, y = 1 })))
    assert.matches("bad argument #1 to 'raycast' %(number, steer.Agent", select(2, pcall(w.raycast, w, "a", creep)))
  end)

  it("sees geometry across a torus seam", function()
    local w = steer.world{ bounds = { 100, 100 }, wrap = true }
    local wall = w:add_wall{ x1 = 98, y1 = 40, x2 = 104, y2 = 40 }
    local rock = w:add_obstacle{ x = -1, y = 50, radius = 2 }
    assert.are.equal(99, rock.x)
    local f, hx, hy, nx, ny, kind, h = w:raycast(1, 45, 1, 35)
    assert.are.same({ 0.5, 1, 40, 0, 1, "wall" }, { f, hx, hy, nx, ny, kind })
    assert.are.equal(wall, h)
    f, hx, hy, nx, ny, kind, h = w:raycast(3, 50, -7, 50)
    assert.are.same({ 0.2, 1, 50, 1, 0, "obstacle" }, { f, hx, hy, nx, ny, kind })
    assert.are.equal(rock, h)
    -- line of sight from x = 96 to x = 4 goes through the seam, past the rock
    assert.is_false(w:line_of_sight(96, 50, 4, 50))
    assert.is_true(w:line_of_sight(96, 60, 4, 60))
  end)
end)

describe("ray casts against agents", function()
  -- The nearest agent a ray from (x1, y1) to (x2, y2) meets, by brute force
  -- over every agent (and, on a torus, its eight nearest images): its
  -- fraction and the agents within 1e-9 of it; `clear` false when some
  -- agent grazes the ray within 1e-9 of its radius (either answer is right).
  local function brute(w, x1, y1, x2, y2, side)
    local dx, dy = x2 - x1, y2 - y1
    local len = math.sqrt(dx * dx + dy * dy)
    local ux, uy = dx / len, dy / len
    local best, at, clear = math.huge, {}, true
    local shifts = side and { -side, 0, side } or { 0 }
    for a in w:agents() do
      local r = a.radius
      for _, sx in ipairs(shifts) do
        for _, sy in ipairs(shifts) do
          local fx, fy = x1 - (a.x + sx), y1 - (a.y + sy)
          local t
          if fx * fx + fy * fy <= r * r then
            t = 0
          else
            local proj = -(fx * ux + fy * uy)
            local px, py = fx + ux * proj, fy + uy * proj
            local perp = math.sqrt(px * px + py * py)
            if math.abs(perp - r) < 1e-9 then clear = false end
            if proj >= 0 and perp <= r then
              local dist = proj - math.sqrt(r * r - perp * perp)
              if dist <= len then t = math.max(dist, 0) / len end
            end
          end
          if t then at[#at + 1] = { t = t, a = a } end
          if t and t < best then best = t end
        end
      end
    end
    local near = {}
    for _, h in ipairs(at) do
      if h.t <= best + 1e-9 then near[h.a] = true end
    end
    return best, near, clear
  end

  local function check_rays(w, side, wrap, rng, label)
    for k = 1, 200 do
      local x, y = rng() * side, rng() * side
      -- shorter than half the torus: a ray takes the shortest way there
      local ang, l = rng() * 2 * math.pi, 1 + rng() * 28
      local x2, y2 = x + math.cos(ang) * l, y + math.sin(ang) * l
      local f, _, _, _, _, kind, h = w:raycast(x, y, x2, y2, { walls = false, agents = true })
      local best, near, clear = brute(w, x, y, x2, y2, wrap and side)
      if clear then
        if best == math.huge then
          assert.is_nil(f, label .. ": ray " .. k .. " hits nothing")
        else
          assert.are.equal("agent", kind, label .. ": ray " .. k)
          assert.is_true(math.abs(f - best) <= 1e-9, label .. ": ray " .. k .. " fraction")
          assert.is_true(near[h], label .. ": ray " .. k .. " hits the nearest agent")
        end
      end
    end
  end

  it("find the nearest agent as radii grow and shrink and agents come and go", function()
    local seed = 7
    local function rng()
      seed = (seed * 1103515245 + 12345) % 2147483648
      return seed / 2147483648
    end
    for _, wrap in ipairs{ false, true } do
      local side = 60
      local w = steer.world{ bounds = { side, side }, wrap = wrap, seed = 3 }
      local agents = {}
      for k = 1, 150 do
        agents[k] = w:add{ x = rng() * side, y = rng() * side, radius = 0.2 + rng() * 1.3 }
      end
      local label = wrap and "torus" or "bounded"
      local function check(what, world) check_rays(world or w, side, wrap, rng, label .. what) end
      check("")
      -- one agent grows far wider than any other: rays must find it at once
      agents[10].radius = 9
      check(", one radius 9")
      -- it shrinks back, another is removed, a wide one comes and goes
      agents[10].radius = 0.3
      w:remove(agents[20])
      local wide = w:add{ x = side / 2, y = side / 2, radius = 12 }
      check(", an agent of radius 12")
      w:remove(wide)
      check(", after removals")
      w:step(0.1)
      check(", after a step")
      agents[30].radius = 9 -- a restored world knows its widest agent
      local copy = assert(steer.restore(w:snapshot()))
      check(", restored", copy)
      copy:get(agents[5].id).radius = 7
      check(", restored, one radius 7", copy)
    end
  end)
end)

describe("world:line_of_sight and world:query_box", function()
  it("take agents and points; query_box is exact at its edges", function()
    local w = steer.world{}
    w:add_wall{ x1 = 5, y1 = -5, x2 = 5, y2 = 5 }
    local a = w:add{ x = 0, y = 0 }
    local b = w:add{ x = 10, y = 0 }
    local c = w:add{ x = 0, y = 10 }
    assert.is_false(w:line_of_sight(a, b))
    assert.is_true(w:line_of_sight(a, c))
    assert.is_true(w:line_of_sight({ 0, 6 }, { x = 10, y = 6 }))
    assert.is_false(w:line_of_sight(a, 10, 0))
    assert.has_error(function() w:line_of_sight(a, "x") end)
    local found = {}
    for ag in w:query_box(10, 10, 0, 0) do found[#found + 1] = ag end
    assert.are.equal(3, #found)
    found = list(w:query_box(-1, -1, 1, 11))
    assert.are.equal(2, #found)
    local t = steer.world{ bounds = { 20, 20 }, wrap = true }
    local d = t:add{ x = 19.5, y = 1 }
    assert.are.same({ d }, list(t:query_box(-1, 0, 1, 2))) -- its image at -0.5
  end)
end)

describe("tile maps", function()
  it("give the merged boundary of the solid tiles", function()
    -- an L: row 0 (bottom) = 1 1 0, row 1 = 1 0 0; cells of 2 from (10, 20)
    local walls = steer.walls_from_tiles({ 1, 1, 0, 1, 0, 0 }, 3, 2, 2, 10, 20)
    assert.are.equal(6, #walls)
    assert.are.same({ x1 = 10, y1 = 20, x2 = 14, y2 = 20, solid = "left" }, walls[1]) -- bottom, merged
    local perimeter = 0
    for _, s in ipairs(walls) do
      perimeter = perimeter + math.abs(s.x2 - s.x1) + math.abs(s.y2 - s.y1)
    end
    assert.are.equal(16, perimeter)
    local w = steer.world{}
    assert.are.equal(6, w:add_walls(walls))
    assert.are.equal(6, #list(w:walls()))
    assert.is_false(w:line_of_sight(9, 21, 15, 21))
    assert.has_error(function() steer.walls_from_tiles({ 1 }, 2, 2, 1) end)
    assert.has_error(function() w:add_walls{ { x1 = 0, y1 = 0, x2 = 0, y2 = 0 } } end)
    assert.are.equal(6, #list(w:walls())) -- nothing added by the failed call
  end)

  it("walls_from_tiles: a map with a side of 0 has no walls, at once however long the other", function()
    for _, n in ipairs{ 0, 7, 2 ^ 30, 2 ^ 53 } do
      assert.are.same({}, steer.walls_from_tiles({}, n, 0, 1))
      assert.are.same({}, steer.walls_from_tiles({}, 0, n, 1))
    end
    -- a negative side is named as its own argument
    assert.matches("bad argument #3 to 'walls_from_tiles' %(map of 0 x %-1 tiles",
      require("support").error_of(steer.walls_from_tiles, {}, 0, -1, 1))
    assert.matches("bad argument #2 to 'walls_from_tiles' %(map of %-1 x 0 tiles",
      require("support").error_of(steer.walls_from_tiles, {}, -1, 0, 1))
  end)
end)

describe("containment", function()
  it("steers back before the feeler leaves a box or a polygon", function()
    local w = steer.world{}
    local a = w:add{ x = 8, y = 5, vx = 1 }
    assert.are.same({ -1, 0 }, { a:contain({ 0, 0, 10, 10 }, 3) })
    assert.are.same({ 0, 0 }, { a:contain({ 0, 0, 10, 10 }, 1) })
    local fx, fy = a:contain({ 0, 0, 10, 0, 10, 10, 0, 10 }, 3)
    assert.are.same({ -1, 0 }, { fx, fy })
    -- as a program entry it keeps a crowd inside a box without a clamp
    for k = 1, 20 do
      local b = w:add{ x = 5, y = 5, vx = math.cos(k), vy = math.sin(k), max_speed = 2, max_force = 4 }
      b:set_behaviors{ combine = "priority", { "contain", region = { 0, 0, 10, 10 }, feeler_length = 2 },
        { "wander" } }
    end
    for _ = 1, 300 do w:step(0.05) end
    for b in w:agents() do
      if b ~= a then
        assert.is_true(b.x > -0.5 and b.x < 10.5 and b.y > -0.5 and b.y < 10.5)
      end
    end
  end)
end)

describe("snapshots of a level", function()
  it("carry the geometry and its handles' ids", function()
    local w = steer.world{ bounds = { 50, 50 }, wrap = true }
    local o = w:add_obstacle{ x = 3, y = 4, radius = 1 }
    w:add_wall{ x1 = 48, y1 = 1, x2 = 53, y2 = 1 }
    local p = w:add_polygon{ 10, 10, 20, 10, 15, 18 }
    w:add_obstacle{ x = 30, y = 30, radius = 2 }:remove()
    local c = assert(steer.restore(w:snapshot()))
    local function shapes(world)
      local t = {}
      for s in world:obstacles() do t[#t + 1] = { s.id, s.x, s.y, s.radius } end
      for s in world:walls() do t[#t + 1] = { s.id, s.kind } end
      local seg = world:segments()
      t[#t + 1] = seg
      return t
    end
    assert.are.same(shapes(w), shapes(c))
    -- the next shape gets the same id in both
    assert.are.equal(w:add_obstacle{ x = 0, y = 0, radius = 1 }.id,
      c:add_obstacle{ x = 0, y = 0, radius = 1 }.id)
    assert.are.equal(w:snapshot(), c:snapshot())
    assert.is_true(o.alive and p.alive)
  end)
end)

describe("bench/level", function()
  it("runs its smoke level and reports finite figures", function()
    -- the interpreter running the specs (its build is first on LUA_CPATH)
    local lua = rawget(_G, "jit") and "luajit" or "lua5.4"
    local p = assert(io.popen(lua .. " bench/level.lua smoke 2>&1"))
    local out = p:read("*a")
    p:close()
    assert.is_truthy(out:find("level 100+100, torus", 1, true), out)
    assert.is_truthy(out:match("(%d+) passed, 0 failed"), out)
  end)
end)

-- Torus images of circles: a circle whose diameter spans many periods on an
-- axis (a thin torus, a huge radius) is tested through the images nearest
-- the ray on that axis only, so these finish at once, with exact answers.
describe("ray casts on a torus much smaller than the shapes", function()
  local steer = require "steer"

  it("hits an agent of radius 0.5 in a torus 1e-300 wide", function()
    local w = steer.world{ bounds = { 1e-300, 47 }, wrap = true }
    local a = w:add{ x = 0, y = 20, radius = 0.5 }
    -- along y from 10 to 30: the agent's edge at y = 19.5, 9.5 / 20 of the way
    local f, hx, hy, nx, ny, kind, h = w:raycast(0, 10, 0, 30, { agents = true })
    assert.are.equal(0.475, f)
    assert.is_true(math.abs(hy - 19.5) < 1e-12 and hx == 0)
    -- the images along x tie; the first wins, its centre 1e-300 aside
    assert.is_true(math.abs(nx) < 1e-12 and ny == -1 and kind == "agent")
    assert.are.equal(a, h)
    -- (0, 57) is seen at its nearest image (0, 10): the ray goes down
    f, hx, hy, nx, ny, kind = w:raycast(0, 30, 0, 57, { agents = true })
    assert.is_true(math.abs(f - 0.475) < 1e-12 and math.abs(hy - 20.5) < 1e-12)
    assert.is_true(math.abs(nx) < 1e-12 and ny == 1 and kind == "agent")
    -- beside it: nothing (its images along x merge into a band 1 wide in y only)
    assert.is_nil(w:raycast(0, 21, 0, 40, { agents = true }))
  end)

  it("blocks line of sight with an obstacle in a torus 1e-300 wide", function()
    local w = steer.world{ bounds = { 1e-300, 47 }, wrap = true }
    w:add_obstacle{ x = 5, y = 20, radius = 0.5 }
    assert.is_false(w:line_of_sight(3, 10, 7, 30))
    assert.is_true(w:line_of_sight(3, 21, 7, 40))
    local f, _, hy, _, ny, kind = w:raycast(3, 30, 7, 10)
    assert.are.equal(0.475, f)
    assert.is_true(math.abs(hy - 20.5) < 1e-12 and ny == 1 and kind == "obstacle")
  end)

  it("starts inside a circle far wider than the torus: fraction 0, the nearest image's normal", function()
    local w = steer.world{ bounds = { 1e-300, 47 }, wrap = true }
    w:add_obstacle{ x = 0, y = 0, radius = 5e5 }
    local f, hx, hy, nx, ny, kind = w:raycast(0, 10, 0, 30)
    assert.are.same({ 0, 0, 10, 0, 1, "obstacle" }, { f, hx, hy, nx, ny, kind })
    local u = steer.world{ bounds = { 1, 1 }, wrap = true }
    local b = u:add{ x = 0.5, y = 0.5, radius = 5e5 }
    local f2, hx2, hy2, nx2, ny2, kind2, h2 = u:raycast(0.25, 0.5, 0.75, 0.5, { agents = true })
    assert.are.same({ 0, 0.25, 0.5, -1, 0, "agent" }, { f2, hx2, hy2, nx2, ny2, kind2 })
    assert.are.equal(b, h2)
  end)

  it("runs a ray 1e6 long in a world 1 wide to the far end's nearest image", function()
    local w = steer.world{ bounds = { 1, 1 }, wrap = true }
    w:add_obstacle{ x = 0.6, y = 0.5, radius = 0.05 }
    -- (1e6 + 0.75, 0.5) is seen at (0.75, 0.5): the ray is 0.5 long
    local f, hx, hy, nx, ny, kind = w:raycast(0.25, 0.5, 1e6 + 0.75, 0.5)
    assert.is_true(math.abs(f - 0.6) < 1e-12 and math.abs(hx - 0.55) < 1e-12)
    assert.are.same({ 0.5, -1, 0, "obstacle" }, { hy, nx, ny, kind })
    -- a box 1e6 wide holds every agent once
    local a = w:add{ x = 0.2, y = 0.2, radius = 0.5 }
    local b = w:add{ x = 0.9, y = 0.9, radius = 5e5 }
    local seen = {}
    for agent in w:query_box(-5e5, -5e5, 5e5, 5e5) do seen[#seen + 1] = agent.id end
    table.sort(seen)
    assert.are.same({ a.id, b.id }, seen)
  end)
end)

-- hide and orca read the level through the geometry index: the same answers
-- as a scan of every obstacle (hide's cover search grows its box until no
-- farther obstacle can beat the best spot).
describe("hide through the geometry index", function()
  local function wrap(d, extent)
    if not extent then return d end
    return d - extent * math.floor(d / extent + 0.5)
  end

  local function brute_hide(w, prey, hx, hy, distance, W, H)
    local best, bx, by
    for o in w:obstacles() do
      local cx = prey.x + wrap(o.x - prey.x, W)
      local cy = prey.y + wrap(o.y - prey.y, H)
      local ax, ay = cx - hx, cy - hy
      local len = math.sqrt(ax * ax + ay * ay)
      if len > 0 then
        local sx = cx + ax / len * (o.radius + distance)
        local sy = cy + ay / len * (o.radius + distance)
        local d = (sx - prey.x) ^ 2 + (sy - prey.y) ^ 2
        if not best or d < best then best, bx, by = d, sx, sy end
      end
    end
    return bx, by
  end

  for _, case in ipairs({ { "bounded" }, { "torus", 400, 300 } }) do
    it("picks the spot a scan of every obstacle picks (" .. case[1] .. ")", function()
      local W, H = case[2], case[3]
      local w = W and steer.world{ bounds = { W, H }, wrap = true, seed = 5 }
        or steer.world{ seed = 5 }
      local seed = 12345
      local function rnd(lo, hi)
        seed = (seed * 1103515245 + 12345) % 2147483648
        return lo + (hi - lo) * seed / 2147483648
      end
      for _ = 1, 400 do
        w:add_obstacle{ x = rnd(0, 400), y = rnd(0, 300), radius = rnd(0.5, 6) }
      end
      local checked = 0
      for _ = 1, 60 do
        local prey = w:add{ x = rnd(0, 400), y = rnd(0, 300), vx = rnd(-1, 1), max_speed = 3, max_force = 5 }
        local hx, hy = rnd(0, 400), rnd(0, 300)
        local distance = rnd(0, 4)
        local sx, sy = brute_hide(w, prey, prey.x + wrap(hx - prey.x, W), prey.y + wrap(hy - prey.y, H),
          distance, W, H)
        local fx, fy = prey:hide({ hx, hy }, distance, 5)
        local ex, ey = prey:arrive(sx, sy, 5)
        assert.is_true(math.abs(fx - ex) < 1e-9 and math.abs(fy - ey) < 1e-9,
          string.format("hide %g, %g; scan %g, %g", fx, fy, ex, ey))
        checked = checked + 1
      end
      assert.are.equal(60, checked)
    end)
  end
end)

describe("walls on a torus", function()
  it("are refused when longer than the wrapped world, by every call", function()
    local w = steer.world{ bounds = { 20, 10 }, wrap = true }
    local function refused(f, where)
      local ok, err = pcall(f)
      assert.is_false(ok)
      assert.is_truthy(tostring(err):find(where .. "wall is longer than the wrapped world (20 by 10)", 1, true), err)
    end
    refused(function() w:add_wall{ x1 = 0, y1 = 0, x2 = 21, y2 = 0 } end, "")
    refused(function() w:add_polygon{ 0, 0, 5, 0, 5, 11 } end, "edge: ")
    refused(function() w:add_walls{ { x1 = 0, y1 = 0, x2 = 1, y2 = 0 }, { x1 = 0, y1 = 0, x2 = 0, y2 = 10.5 } } end, "wall 2: ")
    assert.are.equal(0, select(2, w:segments())) -- nothing added by the refused calls
    local s = w:add_wall{ x1 = 0, y1 = 0, x2 = 20, y2 = 0 } -- exactly the world: allowed
    refused(function() s.x2 = 25 end, "")
    assert.are.same({ 0, 0, 20, 0 }, { s.x1, s.y1, s.x2, s.y2 })
    -- a bounded world takes any length
    local b = steer.world{ bounds = { 20, 10 } }
    assert.is_truthy(b:add_wall{ x1 = 0, y1 = 0, x2 = 100, y2 = 0 })
  end)
end)

-- What a new user's review found (session 40): each case is what the
-- reviewer ran, with the answer the docs promise.
describe("level calls as a new user meets them", function()
  local err_of = require("support").error_of

  it("obstacles() and walls() visit the shapes present when the loop starts", function()
    local w = steer.world{}
    local a = w:add_obstacle{ x = 0, y = 0, radius = 1 }
    local b = w:add_obstacle{ x = 5, y = 0, radius = 1 }
    local visited, added = {}, {}
    for o in w:obstacles() do
      visited[#visited + 1] = o
      added[#added + 1] = w:add_obstacle{ x = o.x, y = 3, radius = 0.5 } -- debris beside it
      if #visited > 10 then break end -- (it used to run forever)
    end
    assert.are.same({ a, b }, visited)
    assert.are.same({ a, b, added[1], added[2] }, list(w:obstacles()))
    -- a slot freed before the loop and reused during it is not visited either
    local s = w:add_wall{ x1 = 0, y1 = 0, x2 = 1, y2 = 0 }
    local t = w:add_wall{ x1 = 0, y1 = 1, x2 = 1, y2 = 1 }
    s:remove()
    local walls = {}
    for v in w:walls() do
      walls[#walls + 1] = v
      w:add_wall{ x1 = 0, y1 = 2, x2 = 1, y2 = 2 } -- takes s's freed slot, before t
      if #walls > 10 then break end
    end
    assert.are.same({ t }, walls)
    assert.are.equal(2, #list(w:walls()))
    -- a shape removed during the loop is skipped; restored shapes are present
    local c = w:add_obstacle{ x = 9, y = 9, radius = 1 }
    local seen = {}
    for o in w:obstacles() do
      seen[#seen + 1] = o.id
      if o == a then c:remove() end
    end
    assert.are.same({ a.id, b.id, added[1].id, added[2].id }, seen)
    local r = steer.restore(w:snapshot())
    local n = 0
    for _ in r:obstacles() do
      n = n + 1
      r:add_obstacle{ x = 1, y = 1, radius = 1 }
    end
    assert.are.equal(4, n)
    assert.are.equal(8, #list(r:obstacles()))
  end)

  it("a contain entry read back with a:behaviors() sets again", function()
    local w = steer.world{}
    local a = w:add{ vx = 1 }
    a:set_behaviors{ { "contain", region = { 0, 0, 10, 10 }, feeler_length = 2 }, { "wander" } }
    local t = a:behaviors()
    assert.is_nil(t[1].hysteresis)
    assert.are.equal(2, t[1].feeler_length)
    a:set_behaviors(t)
    local again = a:behaviors()
    assert.are.same({ "contain", 2, 1 }, { again[1][1], again[1].feeler_length, again[1].weight })
    for k = 1, 4 do
      assert.are.same({ t[1].region:point(k) }, { again[1].region:point(k) })
    end
    -- avoid_walls keeps its hysteresis
    a:set_behaviors{ { "avoid_walls", hysteresis = 0.5 } }
    assert.are.equal(0.5, a:behaviors()[1].hysteresis)
  end)

  it("a bad contain region names its entry; points may come as a list", function()
    local a = steer.world{}:add{ vx = 1 }
    a:set_behaviors{ { "seek", target = { 5, 0 } } }
    local function bad(region)
      return err_of(a.set_behaviors, a, { { "seek", target = { 0, 0 } }, { "contain", region = region } })
    end
    assert.matches("%(entry 2 %('contain'%): region: 1 point; expected a box {x1, y1, x2, y2} %(4 numbers in "
      .. "order%), a polygon of at least 3 points or a steer.Path%)$", bad{ 1, 2 })
    assert.matches("%(entry 2 %('contain'%): 3 numbers: x, y pairs expected %(an even count%)%)$", bad{ 1, 2, 3 })
    assert.matches("%(entry 2 %('contain'%): region: the box has no area%)$", bad{ 0, 0, 0, 5 })
    assert.matches("%(entry 2 %('contain'%): region: the polygon encloses no area%)$", bad{ 0, 0, 1, 1, 2, 2 })
    assert.matches("%(entry 2 %('contain'%): region: the path encloses no area%)$",
      bad(steer.path{ { 0, 0 }, { 1, 0 }, { 3, 0 } }))
    assert.matches("%(entry 2 %('contain'%): region: a path of at least 3 points expected%)$",
      bad(steer.path{ { 0, 0 }, { 1, 1 } }))
    assert.matches("%(entry 2 %('contain'%): point 2: y: number expected, got nil%)$",
      bad{ { 0, 0 }, { x = 4 }, { 4, 4 } })
    assert.are.equal(5, a:behaviors()[1].target[1]) -- the previous program stays
    -- the method: the same rules, no entry
    assert.matches("%(region: the polygon encloses no area%)$", err_of(a.contain, a, { 2, 2, 2, 2, 2, 2 }))
    -- a list of points is the polygon its flat numbers make
    local b = steer.world{}:add{ x = 3, y = 1, vx = -2, vy = 0 }
    local flat = { b:contain({ 0, 0, 4, 0, 4, 4 }, 3) }
    assert.are.same(flat, { b:contain({ { 0, 0 }, { x = 4, y = 0 }, steer.point(4, 4) }, 3) })
    assert.is_true(flat[1] ~= 0 or flat[2] ~= 0) -- the tip (0, 1) is outside: it pushes
  end)

  it("add_polygon takes a list of points; its count errors say what is wrong", function()
    local w = steer.world{}
    w:add_polygon{ 0, 0, 4, 0, 4, 4 }
    w:add_polygon{ { 0, 0 }, { x = 4, y = 0 }, steer.point(4, 4) }
    local s = w:segments()
    assert.are.same({ s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8], s[9], s[10], s[11], s[12] },
      { s[13], s[14], s[15], s[16], s[17], s[18], s[19], s[20], s[21], s[22], s[23], s[24] })
    assert.are.equal(24, #s)
    assert.matches("%(5 numbers: x, y pairs expected %(an even count%)%)$",
      err_of(w.add_polygon, w, { 0, 0, 1, 1, 2 }))
    assert.matches("%(1 point: at least 2 expected%)$", err_of(w.add_polygon, w, { { 0, 0 } }))
    assert.matches("%(point 2: {x, y}, {x =, y =} or steer.SharedPoint expected, got number%)$",
      err_of(w.add_polygon, w, { { 0, 0 }, 5 }))
  end)

  it("shape handles: field errors read like agents', typos and reserved names raise", function()
    local w = steer.world{}
    local rock = w:add_obstacle{ x = 1, y = 1, radius = 1, x1 = 5 }
    local wall = w:add_wall{ x1 = 0, y1 = 0, x2 = 4, y2 = 0 }
    local poly = w:add_polygon{ 0, 0, 1, 0, 1, 1 }
    assert.matches("cannot set field 'x2' of steer.Wall: the wall would have zero length$",
      err_of(function() wall.x2 = 0 end))
    assert.matches("cannot set field 'x1' of steer.Wall: number expected, got string$",
      err_of(function() wall.x1 = "a" end))
    assert.matches("cannot set field 'radius' of steer.Obstacle: non%-negative number expected, got %-1$",
      err_of(function() rock.radius = -1 end))
    assert.matches("cannot set field 'Radius' of steer.Obstacle: did you mean 'radius'%?$",
      err_of(function() rock.Radius = 5 end))
    assert.matches("field 'kind' of steer.Wall is read%-only$", err_of(function() wall.kind = "door" end))
    assert.matches("field 'edges' of steer.Polygon is read%-only$", err_of(function() poly.edges = 1 end))
    assert.are.same({ 4, 0, 1, 5 }, { wall.x2, wall.y2, rock.radius, rock.x1 }) -- unchanged; x1 is own data
    rock.x1 = 6 -- an obstacle has no x1: the game's own key
    assert.are.equal(6, rock.x1)
    rock.radius = 2
    assert.are.equal(2, rock.radius)
    assert.matches("%(field 'kind' is reserved %(the handle answers it%)%)$",
      err_of(w.add_wall, w, { x1 = 0, y1 = 0, x2 = 1, y2 = 0, kind = "door" }))
    assert.matches("%(field 'id' is reserved %(the handle answers it%)%)$",
      err_of(w.add_obstacle, w, { x = 0, y = 0, radius = 1, id = 7 }))
    assert.matches("%(field 'raduis': did you mean 'radius'%?%)$",
      err_of(w.add_obstacle, w, { x = 0, y = 0, raduis = 1 }))
    assert.matches("%(field 'Closed': did you mean 'closed'%?%)$",
      err_of(w.add_polygon, w, { 0, 0, 1, 0, Closed = false }))
    assert.are.equal(3, #list(w:obstacles()) + #list(w:walls())) -- nothing added by the errors
  end)

  it("line_of_sight takes a shared point; raycast refuses a removed agent to ignore", function()
    local w = steer.world{}
    w:add_wall{ x1 = 5, y1 = -1, x2 = 5, y2 = 1 }
    local guard = w:add{ x = 0, y = 0 }
    local mouse = steer.point(10, 0)
    assert.is_false(w:line_of_sight(guard, mouse))
    mouse.x = 3
    assert.is_true(w:line_of_sight(guard, mouse))
    assert.is_true(w:line_of_sight(mouse, 4, 0))
    local gone = w:add{ x = 7, y = 0 }
    w:remove(gone)
    assert.matches("%(field 'ignore': agent has been removed%)$",
      err_of(w.raycast, w, 0, 0, 10, 0, { agents = true, ignore = gone }))
    -- a wall on the ray's own line is never crossed (as for feelers)
    local v = steer.world{}
    v:add_wall{ x1 = 1, y1 = 0, x2 = 5, y2 = 0 }
    assert.is_nil(v:raycast(0, 0, 10, 0))
    assert.is_true(v:line_of_sight(0, 0, 10, 0))
    assert.are.equal(0.5, (v:raycast(3, -1, 3, 1)))
  end)

  it("walls_from_tiles wants exactly w * h tiles, takes an empty map, drops rounded-away edges", function()
    assert.matches("%(6 tiles, expected w %* h = 4%)$",
      err_of(steer.walls_from_tiles, { 1, 0, 0, 0, 0, 1 }, 2, 2, 1))
    assert.matches("%(6 tiles, expected w %* h = 8%)$",
      err_of(steer.walls_from_tiles, { 1, 0, 0, 0, 0, 1 }, 4, 2, 1))
    assert.are.same({}, steer.walls_from_tiles({}, 0, 0, 1))
    assert.are.same({}, steer.walls_from_tiles({}, 3, 0, 1))
    -- at 1e150 a unit tile is narrower than the rounding: its vertical edges
    -- are points there and are left out; what is left adds as walls
    local segs = steer.walls_from_tiles({ 1 }, 1, 1, 1, 1e150, 0)
    assert.are.equal(2, #segs)
    for _, s in ipairs(segs) do assert.is_true(s.x1 ~= s.x2 or s.y1 ~= s.y2) end
    assert.are.equal(2, steer.world{}:add_walls(segs))
  end)

  it("steer.program() without a table says so; steer's handles are named by type", function()
    assert.matches("%(table expected, got no value%)$", err_of(steer.program))
    assert.matches("%(table expected, got number%)$", err_of(steer.program, 3))
    local rock = steer.world{}:add_obstacle{ x = 0, y = 0, radius = 1 }
    assert.matches("'field' must be a steer.FlowField, got steer.Obstacle%)$",
      err_of(steer.program, { { "flow", field = rock } }))
    assert.matches("%(table expected, got steer.Obstacle%)$", err_of(steer.formation, rock))
  end)
end)
