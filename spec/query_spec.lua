-- world:query and a:neighbors against a brute-force scan of every agent
-- (within radius: dx*dx + dy*dy <= r*r, wrapped offsets on a torus), on
-- random worlds of 500 agents, for several cell sizes, radii and world
-- kinds, before and after agents move (written or integrated) and are
-- removed.
local steer = require "steer"
local support = require "support"
local ids_of = support.ids_of

local BIG, TINY = 1e150, 1e-300

local brute, same_ids = support.brute_ids, support.same_ids

local function live(world)
  local list = {}
  for a in world:agents() do list[#list + 1] = a end
  return list
end

-- Compares every query of one round with the brute force.
local function check(world, kind, W, H, rnd, radii, phase)
  local agents = live(world)
  local centres = {}
  for _ = 1, 8 do centres[#centres + 1] = { rnd(0, W), rnd(0, H) } end
  for _ = 1, 4 do
    local a = agents[math.floor(rnd(1, #agents + 1))]
    centres[#centres + 1] = { a.x, a.y }
  end
  -- outside the bounds (integers, so that wrapping them is exact)
  for _, c in ipairs({ { -10, 40 }, { W + 7, -5 }, { 250, 300 }, { -1000, -1000 },
      { 0, H }, { W, 0 } }) do
    centres[#centres + 1] = c
  end
  for _, r in ipairs(radii) do
    for k, c in ipairs(centres) do
      local what = ("%s: query (%g, %g) r = %g [centre %d]"):format(phase, c[1], c[2], r, k)
      same_ids(brute(world, kind, W, H, c[1], c[2], r), ids_of(world:query(c[1], c[2], r)), what)
    end
    for k = 1, 6 do
      local a = agents[math.floor(rnd(1, #agents + 1))]
      local what = ("%s: neighbors of agent %d r = %g [%d]"):format(phase, a.id, r, k)
      local ids = ids_of(a:neighbors(r))
      same_ids(brute(world, kind, W, H, a.x, a.y, r, a), ids, what)
    end
  end
end

-- Builds a world of 500 random agents (with a few coincident ones and some
-- on the edges), then checks it, moves agents by writing positions, by
-- a:apply, removes some and adds new ones, checking after every step.
local function scenario(kind, cell, W, H, seed, place)
  local rnd = support.random(seed)
  local opts = { cell_size = cell }
  if kind ~= "free" then opts.bounds = { W, H } end
  if kind == "torus" then opts.wrap = true end
  local world = steer.world(opts)
  place = place or function() return rnd(0, W), rnd(0, H) end
  for k = 1, 500 do
    local x, y = place(k)
    world:add{ x = x, y = y, max_speed = 10, max_force = 10 }
  end
  -- coincident agents and agents on the edges
  local first = live(world)[1]
  for _ = 1, 3 do world:add{ x = first.x, y = first.y } end
  world:add{ x = 0, y = 0 }; world:add{ x = W, y = H }; world:add{ x = W / 2, y = H }
  local radii = { 0, 0.3, 5, 12, 60, 1000 }
  if W > 1000 then radii[#radii + 1] = 300 end
  check(world, kind, W, H, rnd, radii, "initial")

  local agents = live(world)
  for _ = 1, 150 do
    local a = agents[math.floor(rnd(1, #agents + 1))]
    a.x, a.y = rnd(-30, W + 30), rnd(-30, H + 30)
  end
  check(world, kind, W, H, rnd, radii, "after writing positions")

  for _ = 1, 150 do
    local a = agents[math.floor(rnd(1, #agents + 1))]
    a.vx, a.vy = rnd(-10, 10), rnd(-10, 10)
    a:apply(rnd(-10, 10), rnd(-10, 10), rnd(0.1, 3))
  end
  check(world, kind, W, H, rnd, radii, "after a:apply")

  local removed = 0
  for _, a in ipairs(agents) do
    if rnd() < 0.3 then world:remove(a); removed = removed + 1 end
  end
  assert.are.equal(#agents - removed, #world)
  check(world, kind, W, H, rnd, radii, "after removing")

  for _ = 1, 100 do world:add{ x = rnd(0, W), y = rnd(0, H) } end
  check(world, kind, W, H, rnd, radii, "after adding again")

  -- a step sorts the agents (a flocking program makes it sort every step);
  -- in a hashed grid the cells around the crowd then take buckets in
  -- space order and the others hash: agents written far away and queries
  -- there must still find exactly what the brute force finds
  local flock = steer.program{ { "separation", radius = 2 }, { "cohesion", radius = 4 } }
  for a in world:agents() do if rnd() < 0.5 then a:set_behaviors(flock) end end
  world:step(0.05)
  check(world, kind, W, H, rnd, radii, "after a step")
  agents = live(world)
  for _ = 1, 40 do
    local a = agents[math.floor(rnd(1, #agents + 1))]
    a.x, a.y = rnd(-3 * W, 4 * W), rnd(-3 * H, 4 * H)
  end
  check(world, kind, W, H, rnd, radii, "after writing positions far away")
  world:step(0.05)
  check(world, kind, W, H, rnd, radii, "after a step with agents far away")
end

describe("world:query and a:neighbors equal a brute-force scan", function()
  for _, cell in ipairs({ 0.5, 5, 50 }) do
    it("unbounded world, cell_size " .. cell, function()
      local rnd = support.random(11)
      scenario("free", cell, 100, 80, 1000 + cell * 10,
        function() return rnd(-20, 120), rnd(-20, 100) end)
    end)
    it("torus, cell_size " .. cell, function()
      scenario("torus", cell, 100, 80, 2000 + cell * 10)
    end)
    it("clamped world, cell_size " .. cell, function()
      scenario("clamped", cell, 100, 80, 3000 + cell * 10)
    end)
  end

  -- 6000 x 6000 cells: more than a dense grid holds
  it("large torus with a fine grid", function()
    local rnd = support.random(5)
    scenario("torus", 0.5, 3000, 3000, 4000, function(k)
      if k % 2 == 0 then return rnd(0, 100), rnd(0, 80) end
      return rnd(2950, 3000), rnd(2950, 3000)      -- across the seam
    end)
  end)

  it("large clamped world with a fine grid", function()
    local rnd = support.random(6)
    scenario("clamped", 0.5, 3000, 3000, 5000, function(k)
      if k % 2 == 0 then return rnd(0, 100), rnd(0, 80) end
      return rnd(2950, 3000), rnd(2950, 3000)
    end)
  end)
end)

describe("queries: hand-checked cases", function()
  it("wrap around the seams of a torus", function()
    local w = steer.world{ bounds = { 100, 80 }, wrap = true }
    local a = w:add{ x = 99.9, y = 40 }
    local b = w:add{ x = 0.1, y = 0.1 }
    same_ids({ a.id }, ids_of(w:query(0.1, 40, 0.3)), "across x")
    same_ids({}, ids_of(w:query(0.1, 40, 0.1)), "0.2 away")
    same_ids({ a.id }, ids_of(w:query(100, 40, 0.15)), "centre on the far edge")
    same_ids({ a.id }, ids_of(w:query(-0.1, 40, 0.15)), "centre outside")
    same_ids({ b.id }, ids_of(w:query(99.9, 79.9, 0.3)), "across the corner")
    same_ids({ a.id, b.id }, ids_of(w:query(0, 0, 1000)), "radius beyond the world")
    same_ids({ b.id }, ids_of(a:neighbors(1000)), "neighbors beyond the world")
  end)

  it("clamped worlds answer centres outside the bounds", function()
    local w = steer.world{ bounds = { 100, 80 } }
    local a = w:add{ x = -5, y = 40 }         -- clamped to (0, 40)
    same_ids({ a.id }, ids_of(w:query(-3, 40, 3)), "d = 3 <= 3")
    same_ids({}, ids_of(w:query(-3, 40, 2.9)), "d = 3 > 2.9")
    same_ids({ a.id }, ids_of(w:query(-1000, 40, 1000)), "far left")
  end)

  it("radius 0 finds coincident agents; neighbors exclude self", function()
    local w = steer.world{}
    local a, b, c = w:add{ x = 1, y = 2 }, w:add{ x = 1, y = 2 }, w:add{ x = 1, y = 2 }
    w:add{ x = 1, y = 2.0000001 }
    same_ids({ a.id, b.id, c.id }, ids_of(w:query(1, 2, 0)), "query r = 0")
    same_ids({ b.id, c.id }, ids_of(a:neighbors(0)), "neighbors r = 0")
  end)

  it("unbounded worlds at the limits", function()
    local w = steer.world{}
    local o = w:add{}
    local e = w:add{ x = BIG }
    local west = w:add{ x = -BIG }
    local n = w:add{ y = BIG }
    same_ids({ o.id, e.id, west.id, n.id }, ids_of(w:query(0, 0, BIG)), "all at d <= 1e150")
    same_ids({ e.id }, ids_of(w:query(BIG, 0, 0)), "r = 0 at 1e150")
    same_ids({ o.id, e.id }, ids_of(w:query(BIG, 0, BIG)), "from 1e150")
    same_ids({ e.id, west.id, n.id }, ids_of(o:neighbors(BIG)), "neighbors")
    same_ids({}, ids_of(o:neighbors(TINY)), "tiny radius")
    local t = w:add{ x = TINY }
    same_ids({ o.id, t.id }, ids_of(w:query(0, 0, 1)), "tiny offset")
  end)

  -- cell_size only tunes the grid: any valid one answers the same. These
  -- run in a child interpreter, so that a crash fails one spec only.
  local EXTREME = [[
local steer = require "steer"
local support = require "support"
local w = steer.world(opts)
for _, p in ipairs(points) do w:add{ x = p[1], y = p[2] } end
for _, r in ipairs(radii) do
  for _, c in ipairs(centres) do
    local what = ("query (%g, %g) r = %g"):format(c[1], c[2], r)
    support.same_ids(support.brute_ids(w, kind, W, H, c[1], c[2], r),
      support.ids_of(w:query(c[1], c[2], r)), what)
  end
  for a in w:agents() do
    support.same_ids(support.brute_ids(w, kind, W, H, a.x, a.y, r, a),
      support.ids_of(a:neighbors(r)), ("neighbors of (%g, %g) r = %g"):format(a.x, a.y, r))
  end
end
]]
  local function extreme(opts, kind, W, H, points, centres, radii)
    local lit = support.literal
    local code = ("local opts, kind, W, H, points, centres, radii = %s, %s, %s, %s, %s, %s, %s\n")
      :format(lit(opts), lit(kind), lit(W), lit(H), lit(points), lit(centres), lit(radii))
      .. EXTREME
    local ok, out = support.run_child(code)
    assert(ok, out)
  end
  local spread = { { 0, 0 }, { 1, -1 }, { 1, -1 }, { -3.5, 2 }, { 1e10, 0 }, { 1e10, 1 },
    { -BIG, 0 }, { BIG, BIG }, { TINY, 0 }, { 0, -1e5 } }
  local centres = { { 0, 0 }, { 1, -1 }, { 1e10, 0 }, { -BIG, 0 }, { BIG, BIG }, { 5, 5 } }

  for _, cell in ipairs({ 1e-5, 1e-300, 5e-324, 1e150 }) do
    it("unbounded world with cell_size " .. cell, function()
      extreme({ cell_size = cell }, "free", 0, 0, spread, centres, { 0, 1, 1e10, BIG })
    end)
  end

  local pts = { { 0, 0 }, { TINY, TINY }, { -1, 5 }, { 0, TINY } }
  local cs = { { 0, 0 }, { TINY, 0 }, { -BIG, 0 }, { BIG, -BIG }, { -1, 5 } }
  it("tiny clamped world (1e-300)", function()
    extreme({ bounds = { TINY, TINY } }, "clamped", TINY, TINY, pts, cs, { 0, TINY, 1, BIG })
  end)

  it("tiniest clamped world (5e-324)", function()
    extreme({ bounds = { 5e-324, 5e-324 } }, "clamped", 5e-324, 5e-324, pts, cs, { 0, 1, BIG })
  end)

  it("tiny torus (1e-300)", function()
    extreme({ bounds = { TINY, TINY }, wrap = true }, "torus", TINY, TINY,
      { { 0, 0 }, { 0, 0 }, { 5e-301, 0 } }, { { 0, 0 }, { 5e-301, 0 } }, { 0, BIG })
  end)
end)

-- docs/API.md section 19: a ghost "is never anyone's neighbor"; query_box is
-- "like world:query" and a ray passes through a ghost (a marker, a mouse
-- pointer must not stop bullets).
describe("ghosts are found by no query and hit by no ray", function()
  it("query, query_box and raycast skip a ghost, and find it once it is not", function()
    local w = steer.world{}
    local g = w:add{ x = 2, y = 0, ghost = true }           -- radius 0.5
    local b = w:add{ x = 6, y = 0 }
    same_ids({}, ids_of(w:query(2, 0, 1)), "query around the ghost")
    same_ids({}, ids_of(w:query_box(0, -1, 3, 1)), "query_box around the ghost")
    same_ids({ b.id }, ids_of(w:query_box(0, -1, 10, 1)), "query_box over both")
    local f, hx, hy, nx, ny, kind, h = w:raycast(0, 0, 10, 0, { agents = true })
    assert.are.same({ 0.55, 5.5, 0, -1, 0, "agent" }, { f, hx, hy, nx, ny, kind })
    assert.are.equal(b, h)
    -- a ray that starts inside the ghost passes through it too
    assert.are.equal(b, select(7, w:raycast(2, 0, 10, 0, { agents = true })))
    assert.is_nil(w:raycast(0, 0, 10, 0, { agents = true, ignore = b }))
    g.ghost = false
    same_ids({ g.id }, ids_of(w:query(2, 0, 1)), "query around a former ghost")
    same_ids({ g.id, b.id }, ids_of(w:query_box(0, -1, 10, 1)), "query_box over both")
    f, hx, hy, nx, ny, kind, h = w:raycast(0, 0, 10, 0, { agents = true })
    assert.are.same({ 0.15, 1.5, 0, -1, 0, "agent" }, { f, hx, hy, nx, ny, kind })
    assert.are.equal(g, h)
    g.ghost = true
    assert.are.equal(b, select(7, w:raycast(0, 0, 10, 0, { agents = true })))
  end)

  it("on a torus: a ghost's images are skipped as well", function()
    local t = steer.world{ bounds = { 20, 20 }, wrap = true }
    t:add{ x = 19.5, y = 1, ghost = true }
    local d = t:add{ x = 0.5, y = 10 }
    same_ids({}, ids_of(t:query_box(-1, 0, 1, 2)), "the ghost's image at -0.5")
    same_ids({ d.id }, ids_of(t:query_box(-1, 9, 1, 11)), "an agent's own position")
    assert.is_nil(t:raycast(-3, 1, 3, 1, { agents = true }))
  end)

  -- A brute force over every agent, ghosts left out: the agents whose centre
  -- lies in the box, and the first circle the ray meets (its fraction).
  local function brute_box(agents, x1, y1, x2, y2)
    local ids = {}
    for _, a in ipairs(agents) do
      if not a.ghost and a.x >= math.min(x1, x2) and a.x <= math.max(x1, x2)
          and a.y >= math.min(y1, y2) and a.y <= math.max(y1, y2) then
        ids[#ids + 1] = a.id
      end
    end
    table.sort(ids)
    return ids
  end

  local function brute_ray(agents, sx, sy, ex, ey)
    local dx, dy = ex - sx, ey - sy
    local best, hit = math.huge, nil
    for _, a in ipairs(agents) do
      if not a.ghost then
        local fx, fy, r = sx - a.x, sy - a.y, a.radius
        local t
        if fx * fx + fy * fy <= r * r then
          t = 0
        else -- the smaller root of |f + t d|^2 = r^2
          local A, B, C = dx * dx + dy * dy, 2 * (fx * dx + fy * dy), fx * fx + fy * fy - r * r
          local disc = B * B - 4 * A * C
          if A > 0 and disc >= 0 then t = (-B - math.sqrt(disc)) / (2 * A) end
          if t and (t < 0 or t > 1) then t = nil end
        end
        if t and t < best then best, hit = t, a end
      end
    end
    return hit, best
  end

  for _, kind in ipairs({ "free", "clamped" }) do
    it("query_box and raycast equal a brute force that skips ghosts (" .. kind .. ")", function()
      local rnd = support.random(kind == "free" and 7 or 8)
      local w = steer.world(kind == "free" and { cell_size = 3 } or { bounds = { 60, 60 } })
      local agents = {}
      for k = 1, 300 do
        agents[k] = w:add{ x = rnd(0, 60), y = rnd(0, 60), radius = rnd(0.1, 1.5),
          ghost = k % 3 == 0 }
      end
      -- the same circles, every one a body: where a ghost would come first
      local bodies = {}
      for k, a in ipairs(agents) do
        bodies[k] = { x = a.x, y = a.y, radius = a.radius, ghost = false, was_ghost = a.ghost }
      end
      local ghosts_first, rays_hit = 0, 0
      for k = 1, 200 do
        local x1, y1, x2, y2 = rnd(-5, 65), rnd(-5, 65), rnd(-5, 65), rnd(-5, 65)
        same_ids(brute_box(agents, x1, y1, x2, y2), ids_of(w:query_box(x1, y1, x2, y2)),
          ("query_box %d"):format(k))
        local want, t = brute_ray(agents, x1, y1, x2, y2)
        local f, _, _, _, _, hit_kind, h = w:raycast(x1, y1, x2, y2, { agents = true })
        if want then
          rays_hit = rays_hit + 1
          assert.are.equal("agent", hit_kind)
          assert.are.equal(want, h, ("ray %d hits agent %d"):format(k, want.id))
          support.close(f, t, 1e-9, ("ray %d fraction"):format(k))
        else
          assert.is_nil(f, ("ray %d hits nothing"):format(k))
        end
        local first = brute_ray(bodies, x1, y1, x2, y2)
        if first and first.was_ghost then ghosts_first = ghosts_first + 1 end
      end
      -- the test means something: rays met agents, and ghosts lay first on many
      assert.is_true(rays_hit > 100, "rays that hit: " .. rays_hit)
      assert.is_true(ghosts_first > 20, "rays whose first circle is a ghost: " .. ghosts_first)
    end)
  end
end)

describe("neighbor filters' options", function()
  it("raise on a misspelt key instead of filtering nothing", function()
    local w = steer.world{}
    local me = w:add{ x = 0, y = 0 }
    w:add{ x = 1, y = 0, group = 0 }
    w:add{ x = -1, y = 0, group = 1 }
    local ok, err = pcall(me.neighbors, me, 5, { group = { 1 } })
    assert.is_false(ok)
    assert.matches("bad argument #2 to 'neighbors' %(unknown field 'group': did you mean 'groups'%?%)", err)
    ok, err = pcall(w.query, w, 0, 0, 5, { fov = 90, angel = math.pi })
    assert.matches("bad argument #4 to 'query' %(unknown field 'angel': did you mean 'angle'%?%)", err)
    local n = 0
    for _ in me:neighbors(5, { groups = { 1 } }) do n = n + 1 end
    assert.are.equal(1, n)
  end)
end)

describe("world:query around a point given as one value", function()
  it("takes an agent, a shared point or a table as its centre, the same as x, y", function()
    local w = steer.world{}
    local rnd = support.random(44)
    for _ = 1, 200 do w:add{ x = rnd(-10, 10), y = rnd(-10, 10), group = rnd(0, 1) < 0.5 and 0 or 1 } end
    local function ids(it)
      local t = {}
      for a in it do t[#t + 1] = a.id end
      table.sort(t)
      return table.concat(t, " ")
    end
    local n = 0
    for a in w:agents() do
      local here = ids(w:query(a.x, a.y, 3, { groups = { 1 } }))
      assert.are.equal(here, ids(w:query(a, 3, { groups = { 1 } })))
      assert.are.equal(here, ids(w:query({ a.x, a.y }, 3, { groups = { 1 } })))
      assert.are.equal(here, ids(w:query(steer.point(a.x, a.y), 3, { groups = { 1 } })))
      n = n + 1
      if n == 40 then break end
    end
    -- the agent itself is among the results (a:neighbors leaves it out)
    local a = w:add{ x = 100, y = 100 }
    assert.are.equal(tostring(a.id), ids(w:query(a, 1)))
    -- errors count the arguments as given
    assert.matches("bad argument #2 to 'query' %(number expected, got no value%)",
      select(2, pcall(w.query, w, a)))
    assert.matches("bad argument #2 to 'query' %(non%-negative number expected, got %-1%)",
      select(2, pcall(w.query, w, a, -1)))
    assert.matches("bad argument #4 to 'query' %(no argument expected here, got number%)",
      select(2, pcall(w.query, w, a, 1, {}, 5)))
  end)
end)

describe("world:nearest", function()
  -- brute force: the agents within r of (qx, qy) as support.brute_ids finds
  -- them, the nearest by the same offsets (ties: the lower id)
  local function brute_nearest(world, kind, W, H, qx, qy, r, exclude, groups)
    if kind == "torus" then qx, qy = qx % W, qy % H end
    local best, best_d2
    for a in world:agents() do
      if a ~= exclude and (not groups or groups[a.group]) then
        local dx, dy = support.brute_offset(kind, W, H, qx, qy, a)
        local d2 = dx * dx + dy * dy
        if d2 <= r * r and (not best or d2 < best_d2 or (d2 == best_d2 and a.id < best.id)) then
          best, best_d2 = a, d2
        end
      end
    end
    return best, best and math.sqrt(best_d2)
  end

  for _, kind in ipairs{ "free", "torus", "clamped" } do
    it("equals a brute-force scan (" .. kind .. " world)", function()
      local W, H = 200, 120
      local opts = kind == "free" and {} or { bounds = { W, H }, wrap = kind == "torus" }
      local w = steer.world(opts)
      local rnd = support.random(kind == "free" and 7 or kind == "torus" and 8 or 9)
      -- integer positions: offsets and wrapping are exact, so are the ties
      for _ = 1, 300 do
        w:add{ x = math.floor(rnd(0, W)), y = math.floor(rnd(0, H)), group = math.floor(rnd(0, 4)) }
      end
      local agents = {}
      for a in w:agents() do agents[#agents + 1] = a end
      local checked, found = 0, 0
      for k = 1, 120 do
        local r = ({ 0, 3, 10, 40, 500 })[k % 5 + 1]
        local filter = k % 3 == 0 and { groups = { 1, 3 } } or nil
        local groups = filter and { [1] = true, [3] = true } or nil
        local got, d, want, want_d
        if k % 2 == 0 then -- around an agent: it is left out
          local a = agents[math.floor(rnd(1, #agents + 1))]
          got, d = w:nearest(a, r, filter)
          want, want_d = brute_nearest(w, kind, W, H, a.x, a.y, r, a, groups)
        else
          local x, y = math.floor(rnd(-20, W + 20)), math.floor(rnd(-20, H + 20))
          if kind == "torus" then x, y = x % W, y % H end
          got, d = w:nearest(x, y, r, filter)
          want, want_d = brute_nearest(w, kind, W, H, x, y, r, nil, groups)
        end
        checked = checked + 1
        assert.are.equal(want, got, "query " .. k)
        if want then
          found = found + 1
          assert.are.equal(want_d, d, "distance " .. k)
        end
      end
      assert.is_true(found > 40 and found < checked, found .. " of " .. checked .. " found one")
    end)
  end

  for _, kind in ipairs{ "free", "torus" } do
    it("visible = true equals a brute-force scan with world:line_of_sight (" .. kind .. ")", function()
      local W, H = 200, 120
      local w = steer.world(kind == "free" and {} or { bounds = { W, H }, wrap = true })
      local rnd = support.random(kind == "free" and 17 or 18)
      for _ = 1, 200 do w:add{ x = math.floor(rnd(0, W)), y = math.floor(rnd(0, H)) } end
      for _ = 1, 60 do -- walls and rocks, some across the seam
        local x, y, a = rnd(0, W), rnd(0, H), rnd(0, 2 * math.pi)
        w:add_wall{ x1 = x, y1 = y, x2 = x + 25 * math.cos(a), y2 = y + 25 * math.sin(a) }
        w:add_obstacle{ x = rnd(0, W), y = rnd(0, H), radius = rnd(1, 6) }
      end
      local agents = {}
      for a in w:agents() do agents[#agents + 1] = a end
      local hidden = 0
      for k = 1, 150 do
        local r = ({ 10, 40, 80, 500 })[k % 4 + 1]
        local centre = agents[math.floor(rnd(1, #agents + 1))]
        local got, d = w:nearest(centre, r, { visible = true })
        local want, want_d2
        for a in w:agents() do
          if a ~= centre then
            local dx, dy = support.brute_offset(kind, W, H, centre.x, centre.y, a)
            local d2 = dx * dx + dy * dy
            if d2 <= r * r and w:line_of_sight(centre, a) and
               (not want or d2 < want_d2 or (d2 == want_d2 and a.id < want.id)) then
              want, want_d2 = a, d2
            end
          end
        end
        assert.are.equal(want, got, "query " .. k)
        if want then assert.are.equal(math.sqrt(want_d2), d) end
        if got ~= w:nearest(centre, r) then hidden = hidden + 1 end
      end
      -- the walls hide the nearest agent often enough to tell the two apart
      assert.is_true(hidden > 10, hidden .. " queries where the nearest agent is hidden")
    end)
  end

  it("visible = true skips agents behind a wall; errors", function()
    local w = steer.world{}
    local a = w:add{ x = 0, y = 0 }
    local b = w:add{ x = 3, y = 0 }
    local c = w:add{ x = 0, y = 5 }
    w:add_wall{ x1 = 1, y1 = -1, x2 = 1, y2 = 1 }    -- between a and b
    assert.are.equal(b, (w:nearest(a, 10)))
    local got, d = w:nearest(a, 10, { visible = true })
    assert.are.equal(c, got)
    assert.are.equal(5, d)
    w:add_obstacle{ x = 0, y = 2.5, radius = 0.5 }    -- and a rock before c
    assert.is_nil(w:nearest(a, 10, { visible = true }))
    assert.are.equal(b, (w:nearest(a, 10, { visible = false })))
    assert.matches("bad argument #3 to 'nearest' %(field 'visible': boolean expected, got number%)",
      select(2, pcall(w.nearest, w, a, 10, { visible = 1 })))
    assert.matches("did you mean 'visible'", select(2, pcall(w.nearest, w, a, 10, { visibel = true })))
  end)

  it("hand cases: ties, the centre agent, other worlds, fov, errors", function()
    local w = steer.world{}
    local a = w:add{ x = 0, y = 0 }
    local b = w:add{ x = 3, y = 4, group = 1 }
    local c = w:add{ x = -3, y = 4, group = 2 } -- as far as b: b has the lower id
    local got, d = w:nearest(a, 10)
    assert.are.equal(b, got)
    assert.are.equal(5, d)
    assert.are.equal(c, (w:nearest(a, 10, { groups = { 2 } })))
    assert.are.equal(a, (w:nearest(0, 0, 10)))            -- a point: a counts
    assert.are.equal(a, (w:nearest({ 0.5, 0 }, 10)))
    assert.is_nil(w:nearest(a, 4.9))
    -- an agent of another world is only a point here
    local other = steer.world{}:add{ x = 0, y = 0 }
    assert.are.equal(a, (w:nearest(other, 1)))
    -- a view cone turns with the centre agent's facing
    local e = w:add{ x = 0, y = -5, group = 3 }
    a.angle = -math.pi / 2 -- facing -y: e ahead, b and c behind
    assert.are.equal(e, (w:nearest(a, 10, { fov = 90 })))
    a.angle = math.pi / 2
    assert.are.equal(b, (w:nearest(a, 10, { fov = 90 })))
    assert.matches("bad argument #2 to 'nearest' %(number expected, got no value%)",
      select(2, pcall(w.nearest, w, a)))
    assert.matches("bad argument #2 to 'nearest' %(non%-negative number expected, got %-1%)",
      select(2, pcall(w.nearest, w, a, -1)))
    assert.matches("bad argument #4 to 'nearest' %(no argument expected here, got number%)",
      select(2, pcall(w.nearest, w, a, 1, nil, 5)))
    assert.matches("did you mean 'groups'", select(2, pcall(w.nearest, w, a, 1, { grops = { 1 } })))
    w:remove(b)
    assert.matches("agent has been removed", select(2, pcall(w.nearest, w, b, 1)))
  end)
end)
