-- Navigation grids: cells and costs, A* paths (hand-computed grids, a
-- brute-force oracle, the Moving AI scenarios), flow fields and the flow
-- behavior, errors and allocation failure.
local steer = require "steer"
local support = require "support"
local near, error_of = support.near, support.error_of
local fail_after = steer.testing.fail_allocations
local SQRT2 = math.sqrt(2)

local here = debug.getinfo(1, "S").source:match("^@(.*)spec/nav_spec%.lua$") or ""
local NAV = here .. "../shared/nav/"

local function read(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local text = f:read("*a")
  f:close()
  return text
end

-- A grid from rows of text: '.' cost 1, '#' blocked, a digit d cost d + 1.
local function grid_of(rows, cell_size, origin)
  local cost = {}
  for _, row in ipairs(rows) do
    for c in row:gmatch(".") do
      cost[#cost + 1] = c == "#" and 0 or c == "." and 1 or tonumber(c) + 1
    end
  end
  return steer.navgrid{ width = #rows[1], height = #rows, cost = cost,
    cell_size = cell_size, origin = origin }
end

-- Brute-force oracle: cost of the cheapest move sequence from cell (sx, sy)
-- to every cell, by plain Dijkstra over a list (no heap), with the rules
-- written out again: entering cell v costs cost(v) * (1 or sqrt 2); a
-- diagonal needs both cells beside it passable.
local function oracle(nav, sx, sy, diagonal)
  local W, H = nav:size()
  local function cost(x, y)
    if x < 0 or y < 0 or x >= W or y >= H then return 0 end
    return nav:cost(x, y)
  end
  local dist, done = {}, {}
  dist[sy * W + sx] = 0
  while true do
    local best, bd
    for k, d in pairs(dist) do
      if not done[k] and (not bd or d < bd) then best, bd = k, d end
    end
    if not best then break end
    done[best] = true
    local x, y = best % W, math.floor(best / W)
    for dy = -1, 1 do
      for dx = -1, 1 do
        local diag = dx ~= 0 and dy ~= 0
        if (dx ~= 0 or dy ~= 0) and (diagonal or not diag) then
          local c = cost(x + dx, y + dy)
          if c > 0 and (not diag or (cost(x + dx, y) > 0 and cost(x, y + dy) > 0)) then
            local k = (y + dy) * W + x + dx
            local d = bd + c * (diag and SQRT2 or 1)
            if not done[k] and (not dist[k] or d < dist[k]) then dist[k] = d end
          end
        end
      end
    end
  end
  return dist
end

-- Points of a path as a list of {x, y}.
local function points(path)
  local out = {}
  for k = 1, #path do out[k] = { path:point(k) } end
  return out
end

-- Does the segment a-b stay off blocked cells? Sampled finely, and at a
-- grid corner every cell around it counts.
local function segment_clear(nav, a, b)
  local s = nav:cell_size()
  local n = math.ceil(math.max(math.abs(b[1] - a[1]), math.abs(b[2] - a[2])) / s * 64) + 1
  for k = 0, n do
    local x = a[1] + (b[1] - a[1]) * k / n
    local y = a[2] + (b[2] - a[2]) * k / n
    for _, d in ipairs{ { 0, 0 }, { 1e-9, 1e-9 }, { -1e-9, 1e-9 }, { 1e-9, -1e-9 }, { -1e-9, -1e-9 } } do
      local cx, cy = nav:cell_of(x + d[1] * s, y + d[2] * s)
      if cx and nav:cost(cx, cy) == 0 then return false end
    end
  end
  return true
end

describe("steer.navgrid", function()
  it("holds costs by 0-based cell, row-major", function()
    local nav = steer.navgrid{ width = 3, height = 2, cost = { 1, 0, 2, 3, 4, 5 } }
    assert.are.same({ 3, 2 }, { nav:size() })
    assert.are.equal(1, nav:cost(0, 0))
    assert.are.equal(0, nav:cost(1, 0))
    assert.are.equal(2, nav:cost(2, 0))
    assert.are.equal(3, nav:cost(0, 1))
    assert.are.equal(5, nav:cost(2, 1))
    nav:set_cost(2, 1, 0)
    assert.are.equal(0, nav:cost(2, 1))
    assert.are.equal(1, steer.navgrid{ width = 2, height = 2 }:cost(1, 1))
  end)

  it("maps world points to cells and back", function()
    local nav = steer.navgrid{ width = 4, height = 3, cell_size = 2, origin = { 10, -4 } }
    assert.are.same({ 0, 0 }, { nav:cell_of(10, -4) })
    assert.are.same({ 3, 2 }, { nav:cell_of(17.999, 1.999) })
    assert.are.same({ 1, 1 }, { nav:cell_of(12, -2) })
    assert.are.same({ 3, 2 }, { nav:cell_of(18, 0) })   -- the far edge: the last column
    assert.is_nil(nav:cell_of(18.001, 0))
    assert.is_nil(nav:cell_of(9.999, 0))
    assert.is_nil(nav:cell_of(1e150, -1e150))
    assert.are.same({ 11, -3 }, { nav:center_of(0, 0) })
    assert.are.same({ 17, 1 }, { nav:center_of(3, 2) })
    assert.are.same({ 10, -4 }, { nav:origin() })
    assert.are.equal(2, nav:cell_size())
  end)

  it("raises naming the argument", function()
    local nav = steer.navgrid{ width = 2, height = 2 }
    assert.matches("bad argument #1 to 'navgrid' %(table expected", error_of(steer.navgrid, 5))
    assert.matches("missing 'width'", error_of(steer.navgrid, { height = 2 }))
    assert.matches("'height' must be an integer", error_of(steer.navgrid, { width = 2, height = 1.5 }))
    assert.matches("'width' must be an integer in %[1, 65536%]", error_of(steer.navgrid, { width = 0, height = 2 }))
    assert.matches("unknown field 'costs': expected 'width', 'height', 'cell_size', 'origin', 'cost' or 'solid'%)", error_of(steer.navgrid, { width = 1, height = 1, costs = {} }))
    assert.matches("unknown field 'cellsize': did you mean 'cell_size'%?", error_of(steer.navgrid, { width = 1, height = 1, cellsize = 1 }))
    assert.matches("unknown field 'size': expected 'width'.-'solid'%)", error_of(steer.navgrid, { width = 1, height = 1, size = 1 }))
    -- a key that is not a name: its type, and the names expected
    assert.matches("unknown field 'number': expected 'width'.-'solid'%)", error_of(steer.navgrid, { width = 1, height = 1, 7 }))
    assert.matches("bad argument #3 to 'path' %(unknown option 'number': expected 'smooth', 'diagonal' or 'clearance'%)",
      error_of(steer.navgrid{ width = 2, height = 1 }.path, steer.navgrid{ width = 2, height = 1 }, { 1, 1 }, { 2, 1 }, { true }))
    assert.matches("'cost' has 3 entries", error_of(steer.navgrid, { width = 2, height = 2, cost = { 1, 1, 1 } }))
    assert.matches("cost%[2%]: cost must be 0 %(blocked%) or in %[1, 1e9%]",
      error_of(steer.navgrid, { width = 2, height = 1, cost = { 1, 0.5 } }))
    assert.matches("cost%[1%]: non%-negative number expected, got nan",
      error_of(steer.navgrid, { width = 1, height = 1, cost = { 0 / 0 } }))
    assert.matches("cell_size: positive number expected", error_of(steer.navgrid, { width = 1, height = 1, cell_size = 0 }))
    assert.matches("reaches beyond 1e150", error_of(steer.navgrid, { width = 10, height = 1, cell_size = 1e150 }))
    assert.matches("more than 2%^26 cells", error_of(steer.navgrid, { width = 65536, height = 65536 }))
    assert.matches("bad argument #1 to 'set_cost' %(cell x 2 outside 0..1%)", error_of(nav.set_cost, nav, 2, 0, 1))
    assert.matches("bad argument #2 to 'cost' %(cell y %-1 outside 0..1%)", error_of(nav.cost, nav, 0, -1))
    assert.matches("bad argument #3 to 'set_cost' %(c: cost must be 0", error_of(nav.set_cost, nav, 0, 0, 1e10))
    assert.matches("bad argument #1 to 'cell_of'", error_of(nav.cell_of, nav, 0 / 0, 1))
    assert.matches("bad argument #2 to 'cell_of'", error_of(nav.cell_of, nav, 1, 1e151))
    assert.matches("calling 'cost' on bad self", error_of(nav.cost, {}, 0, 0))
    assert.matches("bad argument #5 to 'path' %(unknown option 'smoth': did you mean 'smooth'%?%)",
      error_of(nav.path, nav, 0.5, 0.5, 1.5, 1.5, { smoth = true }))
    assert.matches("bad argument #5 to 'path' %('smooth' must be a boolean",
      error_of(nav.path, nav, 0.5, 0.5, 1.5, 1.5, { smooth = 1 }))
    assert.matches("bad argument #3 to 'path'", error_of(nav.path, nav, 0.5, 0.5, "x", 1.5))
    assert.matches("bad argument #1 to 'flow' %(goal %(5, 5%) is outside the grid%)", error_of(nav.flow, nav, 5, 5))
    assert.matches("bad argument #1 to 'flow' %(goal 2 %(%-1, 0%) is outside", error_of(nav.flow, nav, { { 1, 1 }, { -1, 0 } }))
    assert.matches("bad argument #1 to 'flow' %(at least one goal", error_of(nav.flow, nav, {}))
  end)
end)

describe("steer.navgrid_from_map", function()
  local map = "type octile\nheight 3\nwidth 4\nmap\n.@G.\r\nS.TO\n..W.\n"

  it("reads the Moving AI format: .GS passable, @OTW blocked", function()
    local nav = steer.navgrid_from_map(map, 2)
    assert.are.same({ 4, 3 }, { nav:size() })
    local want = { { 1, 0, 1, 1 }, { 1, 1, 0, 0 }, { 1, 1, 0, 1 } }
    for r = 0, 2 do
      for c = 0, 3 do assert.are.equal(want[r + 1][c + 1], nav:cost(c, r)) end
    end
    -- cell (c, r) covers [c s, (c + 1) s) x [r s, (r + 1) s)
    assert.are.same({ 1, 2 }, { nav:cell_of(2.5, 5.9) })
    assert.are.same({ 7, 5 }, { nav:center_of(3, 2) })
  end)

  it("names what is wrong with the text", function()
    assert.matches("bad argument #1 to 'navgrid_from_map' %(string expected", error_of(steer.navgrid_from_map, {}))
    assert.matches("first line must be 'type octile'", error_of(steer.navgrid_from_map, "height 3\n"))
    assert.matches("'width W'", error_of(steer.navgrid_from_map, "type octile\nheight 3\nwidth x\nmap\n"))
    assert.matches("row 2 is missing", error_of(steer.navgrid_from_map, "type octile\nheight 3\nwidth 2\nmap\n..\n..\n"))
    assert.matches("unknown terrain %(byte 120%) at column 1, row 0",
      error_of(steer.navgrid_from_map, "type octile\nheight 1\nwidth 2\nmap\n.x\n"))
    assert.matches("bad argument #2 to 'navgrid_from_map'", error_of(steer.navgrid_from_map, map, -1))
  end)
end)

describe("nav:path", function()
  it("takes octile moves on an open grid and returns turning points", function()
    local nav = grid_of({ ".....", ".....", "....." }, 2)
    local p, len, cost = nav:path(1, 1, 9, 5)
    near(len, 2 * (2 * SQRT2 + 2), 1e-12, "length")
    near(cost, len, 1e-12, "cost")
    local pts = points(p)
    assert.are.equal(3, #pts) -- start, one turn, goal
    assert.are.same({ 1, 1 }, pts[1])
    assert.are.same({ 9, 5 }, pts[3])
  end)

  it("never cuts a blocked corner", function()
    local nav = grid_of({ ".#.", "...", "..." })
    local p, len = nav:path(0.5, 0.5, 1.5, 1.5)
    near(len, 2, 1e-12, "around the corner")
    assert.are.same({ { 0.5, 0.5 }, { 0.5, 1.5 }, { 1.5, 1.5 } }, points(p))
    -- between two diagonal blocks there is no way through
    local closed = grid_of({ ".#", "#." })
    assert.are.same({ nil, "no path" }, { closed:path(0.5, 0.5, 1.5, 1.5) })
  end)

  it("respects cell costs", function()
    local nav = grid_of({ "...", ".9.", "..." })
    local p, len, cost = nav:path(0.5, 1.5, 2.5, 1.5)
    near(cost, 2 * SQRT2, 1e-12, "cost around the dear cell")
    near(len, 2 * SQRT2, 1e-12, "length")
    local pts = points(p)
    assert.are.equal(3, #pts)
    assert.are_not.equal(1.5, pts[2][2]) -- not through the centre
    -- a cheap enough middle is crossed: 2 + 1 < 2 sqrt 2
    local cheap = grid_of({ "...", ".0.", "..." })
    local _, len2, cost2 = cheap:path(0.5, 1.5, 2.5, 1.5)
    near(len2, 2, 1e-12, "straight")
    near(cost2, 2, 1e-12, "cost")
  end)

  it("equals a brute-force Dijkstra on random grids with costs", function()
    local rng = 12345
    local function rand(n)
      rng = (rng * 1103515245 + 12345) % 2147483648
      return rng % n
    end
    for trial = 1, 40 do
      local W, H = 3 + rand(6), 3 + rand(6)
      local cost = {}
      for k = 1, W * H do
        local r = rand(10)
        cost[k] = r < 3 and 0 or r < 7 and 1 or 1 + rand(4) + rand(100) / 100
      end
      local nav = steer.navgrid{ width = W, height = H, cost = cost }
      local sx, sy, gx, gy = rand(W), rand(H), rand(W), rand(H)
      nav:set_cost(sx, sy, 1)
      nav:set_cost(gx, gy, 1)
      for _, diagonal in ipairs{ true, false } do
        local want = oracle(nav, sx, sy, diagonal)[gy * W + gx]
        local p, len, c = nav:path(sx + 0.5, sy + 0.5, gx + 0.5, gy + 0.5, { diagonal = diagonal })
        if want then
          assert.is_not_nil(p, "trial " .. trial)
          near(c, want, 1e-9, "trial " .. trial .. " cost")
          assert.is_true(len <= c + 1e-9)
          local q = points(p)
          assert.are.same({ sx + 0.5, sy + 0.5 }, q[1])
          assert.are.same({ gx + 0.5, gy + 0.5 }, q[#q])
          for k = 2, #q do assert.is_true(segment_clear(nav, q[k - 1], q[k])) end
        else
          assert.are.same({ nil, "no path" }, { p, len })
        end
      end
    end
  end)

  it("equals a brute-force Dijkstra on random open/blocked grids (jump points)", function()
    local rng = 99
    local function rand(n)
      rng = (rng * 1103515245 + 12345) % 2147483648
      return rng % n
    end
    for trial = 1, 60 do
      local W, H = 2 + rand(12), 2 + rand(12)
      local density = rand(5) / 10
      local cost = {}
      for k = 1, W * H do cost[k] = rand(100) < density * 100 and 0 or 1 end
      local nav = steer.navgrid{ width = W, height = H, cost = cost }
      local sx, sy, gx, gy = rand(W), rand(H), rand(W), rand(H)
      nav:set_cost(sx, sy, 1)
      nav:set_cost(gx, gy, 1)
      local want = oracle(nav, sx, sy, true)[gy * W + gx]
      local p, len, c = nav:path(sx + 0.5, sy + 0.5, gx + 0.5, gy + 0.5)
      if want then
        near(c, want, 1e-9, "trial " .. trial .. " cost")
        near(len, want, 1e-9, "trial " .. trial .. " length")
        local q = points(p)
        for k = 2, #q do assert.is_true(segment_clear(nav, q[k - 1], q[k]), "trial " .. trial) end
      else
        assert.are.same({ nil, "no path" }, { p, len })
      end
    end
  end)

  it("moves 4 ways with diagonal = false", function()
    local nav = grid_of({ "....", "....", "...." })
    local _, len = nav:path(0.5, 0.5, 3.5, 2.5, { diagonal = false })
    near(len, 5, 1e-12, "Manhattan")
  end)

  it("smooths through line of sight, never through a blocked cell", function()
    local nav = grid_of({
      "..........",
      "..........",
      "....##....",
      "....##....",
      "..........",
      "..........",
    })
    local p, len = nav:path(0.5, 0.5, 9.5, 5.5, { smooth = true })
    local raw, raw_len = nav:path(0.5, 0.5, 9.5, 5.5)
    assert.is_true(len < raw_len - 0.1)
    assert.is_true(len >= math.sqrt(81 + 25) - 1e-9)
    local q = points(p)
    for k = 2, #q do assert.is_true(segment_clear(nav, q[k - 1], q[k]), "segment " .. k) end
    assert.is_true(#q <= #points(raw))
    -- an open grid: one straight segment
    local open = grid_of({ "......", "......", "......" })
    local s, slen = open:path(0.5, 0.5, 5.5, 2.5, { smooth = true })
    assert.are.equal(2, #s)
    near(slen, math.sqrt(25 + 4), 1e-12, "straight")
    -- a line grazing a blocked cell's corner does not count as clear
    local corner = grid_of({ "...", ".#.", "..." })
    local c = points((corner:path(0.5, 0.5, 2.5, 2.5, { smooth = true })))
    for k = 2, #c do assert.is_true(segment_clear(corner, c[k - 1], c[k])) end
    assert.is_true(#c >= 3)
  end)

  it("says why there is no path", function()
    local nav = grid_of({ "..#..", "..#..", "..#.." })
    assert.are.same({ nil, "no path" }, { nav:path(0.5, 0.5, 4.5, 0.5) })
    assert.are.same({ nil, "start cell is blocked" }, { nav:path(2.5, 0.5, 4.5, 0.5) })
    assert.are.same({ nil, "goal cell is blocked" }, { nav:path(0.5, 0.5, 2.5, 1.5) })
    assert.are.same({ nil, "start outside the grid" }, { nav:path(-1, 0.5, 0.5, 0.5) })
    assert.are.same({ nil, "goal outside the grid" }, { nav:path(0.5, 0.5, 0.5, 1e150) })
    -- start and goal in one cell: the path p1 -> p2, of grid cost 0
    local p, len, cost = nav:path(0.2, 0.2, 0.7, 0.9)
    assert.are.same({ { 0.2, 0.2 }, { 0.7, 0.9 } }, points(p))
    assert.are.same({ math.sqrt(0.5 ^ 2 + 0.7 ^ 2), 0 }, { len, cost })
    local one = steer.navgrid{ width = 1, height = 1 }
    assert.are.same({ { 0.5, 0.5 }, { 0.1, 0.1 } }, points((one:path(0.5, 0.5, 0.1, 0.1))))
    assert.are.same({ { 0.3, 0.3 } }, points((one:path(0.3, 0.3, 0.3, 0.3))))
  end)

  it("is deterministic", function()
    local nav = grid_of({ "........", "..#..#..", "........", "..#..#..", "........" })
    local a, b = points(nav:path(0.5, 0.5, 7.5, 4.5)), points(nav:path(0.5, 0.5, 7.5, 4.5))
    assert.are.same(a, b)
    nav:path(7.5, 0.5, 0.5, 4.5) -- another search in between
    assert.are.same(a, points(nav:path(0.5, 0.5, 7.5, 4.5)))
  end)

  -- the scenarios of ../shared/nav: every k-th one of each file
  local scenarios = {
    { map = "maze512-1-0.map", scen = "maze512-1-0.map.scen", every = 80, rel = 1e-5 },
    { map = "brc202d.map", scen = "brc202d.map.scen", every = 25, rel = 1e-5 },
    { map = "brc202d.map", scen = "brc202d-random-1.scen", every = 20, rel = 1e-6 },
  }
  for _, case in ipairs(scenarios) do
    it("has the optimal length of the Moving AI scenarios of " .. case.scen, function()
      local text, scen = read(NAV .. case.map), read(NAV .. case.scen)
      if not text or not scen then
        pending("../shared/nav not found")
        return
      end
      local nav = steer.navgrid_from_map(text)
      local n, checked = 0, 0
      for line in scen:gmatch("[^\n]+") do
        local sx, sy, gx, gy, opt = line:match("^%d+%s+%S+%s+%d+%s+%d+%s+(%d+)%s+(%d+)%s+(%d+)%s+(%d+)%s+(%S+)")
        if sx then
          n = n + 1
          if n % case.every == 1 then
            opt = tonumber(opt)
            local _, len = nav:path(sx + 0.5, sy + 0.5, gx + 0.5, gy + 0.5)
            -- 6 significant digits (.map.scen) or 8 decimals (random-1)
            local tol = case.rel == 1e-5 and 10 ^ (math.floor(math.log(math.max(opt, 1), 10)) - 5) + 1e-9
              or 1e-6 * math.max(opt, 1)
            near(len, opt, tol, case.scen .. " line " .. n)
            checked = checked + 1
          end
        end
      end
      assert.is_true(checked >= 40)
    end)
  end
end)

describe("flow fields", function()
  it("hold exact octile costs to the goal", function()
    local nav = grid_of({ ".....", ".....", "....." }, 2)
    local f = nav:flow(1, 1) -- cell (0, 0)
    assert.are.equal(0, f:distance(1, 1))
    near(f:distance(9, 1), 8, 1e-12, "4 cells east")
    near(f:distance(5, 5), 2 * 2 * SQRT2, 1e-12, "2 diagonal")
    near(f:distance(9.9, 5.9), 2 * (2 * SQRT2 + 2), 1e-12, "far corner")
    assert.is_nil(f:distance(-1, 1))
    -- a diagonal never cuts a blocked corner
    local corner = grid_of({ ".#", ".." })
    near(corner:flow(0.5, 0.5):distance(1.5, 1.5), 2, 1e-12, "around")
  end)

  it("lead to the nearest of several goals", function()
    local nav = grid_of({ "..........", ".........." })
    local f = nav:flow{ { 0.5, 0.5 }, { 9.5, 1.5 } }
    near(f:distance(2.5, 0.5), 2, 1e-12, "near the first")
    near(f:distance(7.5, 1.5), 2, 1e-12, "near the second")
    assert.are.same({ -1, 0 }, { f:direction(2.5, 0.5) })
    assert.are.same({ 1, 0 }, { f:direction(7.5, 1.5) })
  end)

  it("equal a brute-force Dijkstra on random grids, directions descending", function()
    local rng = 777
    local function rand(n)
      rng = (rng * 1103515245 + 12345) % 2147483648
      return rng % n
    end
    for trial = 1, 18 do
      local W, H = 2 + rand(5), 2 + rand(5)
      local cost = {}
      for k = 1, W * H do
        local r = rand(10)
        cost[k] = r < 3 and 0 or r < 7 and 1 or 1 + rand(3) + rand(10) / 10
        -- every third grid: costs too far apart for the bucket queue
        if trial % 3 == 0 and r >= 7 then cost[k] = 1 + rand(1000) + rand(10) / 10 end
      end
      local nav = steer.navgrid{ width = W, height = H, cost = cost }
      local gx, gy = rand(W), rand(H)
      local f = nav:flow(gx + 0.5, gy + 0.5)
      for cy = 0, H - 1 do
        for cx = 0, W - 1 do
          local want = nav:cost(gx, gy) > 0 and oracle(nav, cx, cy, true)[gy * W + gx] or nil
          if nav:cost(cx, cy) == 0 then want = nil end
          local got = f:distance(cx + 0.5, cy + 0.5)
          if want then
            near(got, want, 1e-9, ("trial %d cell %d,%d"):format(trial, cx, cy))
            local dx, dy = f:direction(cx + 0.5, cy + 0.5)
            support.all_finite(dx, dy)
            if want > 0 then
              -- some neighbor it points toward is one optimal step closer
              near(dx * dx + dy * dy, 1, 1e-9, "unit")
            else
              assert.are.same({ 0, 0 }, { dx, dy })
            end
          else
            assert.is_nil(got, ("trial %d cell %d,%d"):format(trial, cx, cy))
          end
        end
      end
    end
  end)

  it("point each cell centre along a cheapest move", function()
    local nav = grid_of({ "......", ".##...", "......" })
    local f = nav:flow(5.5, 2.5)
    for cy = 0, 2 do
      for cx = 0, 5 do
        local d = f:distance(cx + 0.5, cy + 0.5)
        if d and d > 0 then
          -- at a centre the blend may mix neighbors: step a little and the
          -- cost must fall
          local dx, dy = f:direction(cx + 0.5, cy + 0.5)
          local nd = f:distance(cx + 0.5 + dx * 0.99, cy + 0.5 + dy * 0.99)
          assert.is_true(nd and nd < d, ("cell %d,%d"):format(cx, cy))
        end
      end
    end
  end)

  it("go stale when a cost changes and f:update() recomputes", function()
    local nav = grid_of({ "....." })
    local f = nav:flow(0.5, 0.5)
    assert.is_false(f:stale())
    near(f:distance(4.5, 0.5), 4, 1e-12, "before")
    assert.are.equal(nav, nav:set_cost(2, 0, 3))
    assert.is_true(f:stale())
    near(f:distance(4.5, 0.5), 4, 1e-12, "unchanged until update")
    assert.are.equal(f, f:update())
    assert.is_false(f:stale())
    near(f:distance(4.5, 0.5), 6, 1e-12, "after")
    nav:set_cost(2, 0, 0)
    f:update()
    assert.is_nil(f:distance(4.5, 0.5))
    assert.matches("stale", tostring((nav:set_cost(0, 0, 1) and f)))
  end)

  it("handle blocked goals, all-blocked and 1x1 grids", function()
    local nav = grid_of({ "..#", "..." })
    local f = nav:flow(2.5, 0.5) -- on the blocked cell
    for cx = 0, 2 do assert.is_nil(f:distance(cx + 0.5, 1.5)) end
    assert.are.same({ 0, 0 }, { f:direction(0.5, 0.5) })
    local none = grid_of({ "##", "##" }):flow(0.5, 0.5)
    assert.is_nil(none:distance(0.5, 0.5))
    local w = steer.world{}
    local a = w:add{ x = 0.5, y = 0.5, vx = 1 }
    assert.are.same({ 0, 0 }, { a:flow(none) })
    assert.are.same({ 0, 0 }, { a:flow(f) })
    local one = steer.navgrid{ width = 1, height = 1 }:flow(0.5, 0.5)
    assert.are.equal(0, one:distance(0.9, 0.1))
    local b = w:add{ x = 0.1, y = 0.1, max_speed = 1, max_force = 5 }
    local fx, fy = b:flow(one, 2)
    local ex, ey = steer.arrive(0.1, 0.1, 0, 0, 0.5, 0.5, 1, 5, 2)
    assert.are.same({ ex, ey }, { fx, fy })
  end)
end)

describe("a:flow and the flow entry", function()
  local function agent_at(x, y, def)
    def = def or {}
    def.x, def.y = x, y
    def.max_speed = def.max_speed or 2
    def.max_force = def.max_force or 10
    return steer.world{}:add(def)
  end

  it("steers along the field at full speed, slowing near the goal", function()
    local nav = grid_of({ "........" })
    local f = nav:flow(0.5, 0.5)
    assert.are.same({ -2, 0 }, { agent_at(5.5, 0.5):flow(f, 2) })
    assert.are.same({ -2 - 1, 0 }, { agent_at(5.5, 0.5, { vx = 1 }):flow(f, 2) })
    -- one cell from the goal: 1 / 2 of full speed
    local fx, fy = agent_at(1.5, 0.5):flow(f, 2)
    near(fx, -1, 1e-12, "slowed")
    assert.are.equal(0, fy)
    -- in the goal cell: arrive at the goal point
    local gx, gy = agent_at(0.2, 0.7):flow(f, 2)
    local ex, ey = steer.arrive(0.2, 0.7, 0, 0, 0.5, 0.5, 2, 10, 2)
    assert.are.same({ ex, ey }, { gx, gy })
  end)

  it("leads off blocked and unreachable cells to the nearest reachable one", function()
    local nav = grid_of({ "...##", "...##" })
    local f = nav:flow(0.5, 0.5)
    assert.are.same({ -2, 0 }, { agent_at(4.5, 0.5):flow(f) })
    -- outside the grid: toward the nearest cell's centre
    local fx, fy = agent_at(-3, 0.5):flow(f)
    assert.are.same({ 2, 0 }, { fx, fy })
    local island = grid_of({ ".#.", "##." })
    local g = island:flow(0.5, 0.5)
    assert.is_nil(g:distance(2.5, 1.5))
    local hx, hy = agent_at(2.5, 1.5):flow(g)
    support.all_finite(hx, hy)
    near(hx * hx + hy * hy, 4, 1e-9, "full speed")
    -- huge coordinates stay finite
    support.all_finite(agent_at(1e150, -1e150, { vx = 1e150, max_speed = 1e150, max_force = 1e150 }):flow(f))
  end)

  it("leads back to a grid of tiny cells from far away (cell coordinates overflow)", function()
    -- (x - origin) / 1e-300 is infinite: the direction is taken in world units
    local nav = steer.navgrid{ width = 2, height = 1, cell_size = 1e-300 }
    local f = nav:flow(0.5e-300, 0.5e-300)
    local fx, fy = agent_at(1e10, 0):flow(f)   -- toward the centre (1.5e-300, 0.5e-300)
    assert.are.equal(-2, fx)
    assert.is_true(fy > 0 and fy < 1e-300)
    local gx, gy = agent_at(0, -1e150):flow(f)
    assert.is_true(gx >= 0 and gx < 1e-300)   -- 5e-451 underflows to 0
    assert.are.equal(2, gy)
  end)

  it("is a program entry that equals a:flow", function()
    local nav = grid_of({ "......", ".####.", "......" })
    local f = nav:flow(0.5, 2.5)
    local w = steer.world{}
    local a = w:add{ x = 5.5, y = 0.5, vx = 0.3, max_speed = 2, max_force = 3 }
    a:set_behaviors{ { "flow", field = f, slowing_radius = 1.5 } }
    assert.are.same({ a:flow(f, 1.5) }, { a:steering() })
    local spec = a:behaviors()[1]
    assert.are.equal("flow", spec[1])
    assert.are.equal(1.5, spec.slowing_radius)
    near(spec.field:distance(5.5, 0.5), f:distance(5.5, 0.5), 0, "same field")
    assert.matches("entry 1 %('flow'%): missing 'field'", error_of(a.set_behaviors, a, { { "flow" } }))
    assert.matches("'field' must be a steer.FlowField, got number",
      error_of(a.set_behaviors, a, { { "flow", field = 5 } }))
    assert.matches("unknown parameter 'target'",
      error_of(a.set_behaviors, a, { { "flow", field = f, target = { 1, 1 } } }))
    assert.matches("bad argument #1 to 'flow' %(steer.FlowField expected", error_of(a.flow, a, 5))
    assert.matches("bad argument #2 to 'flow'", error_of(a.flow, a, f, -1))
  end)

  it("brings a crowd to the goal around walls", function()
    local nav = grid_of({
      "............",
      ".#########..",
      "............",
      "..#########.",
      "............",
    }, 2)
    local f = nav:flow(1, 9) -- cell (0, 4)
    local w = steer.world{}
    local program = steer.program{ { "flow", field = f, slowing_radius = 2 }, { "separation", radius = 0.6 } }
    local agents = {}
    for k = 1, 12 do
      agents[k] = w:add{ x = 20 + (k % 4) * 0.5, y = 1 + (k % 3) * 0.4, max_speed = 3, max_force = 6, radius = 0.2 }
      agents[k]:set_behaviors(program)
    end
    for _ = 1, 1500 do w:step(0.05) end
    for k, a in ipairs(agents) do
      support.all_finite(a.x, a.y, a.vx, a.vy)
      assert.is_true(f:distance(a.x, a.y) ~= nil and f:distance(a.x, a.y) <= 3, "agent " .. k)
    end
  end)
end)

describe("flow fields in snapshots (version 12)", function()
  local fnv, forge, u64 = support.fnv, support.forge, support.u64

  -- A level with walls and a dear patch, a field toward two goals, a crowd
  -- following it (a program shared by most, one agent's own behaviors).
  local function flow_world()
    local nav = grid_of({
      "..........",
      "..###.....",
      "....#..33.",
      "....#..33.",
      "..........",
    }, 2, { -4, 1 })
    local field = nav:flow{ { 13, 2 }, { -3, 10 } }
    local w = steer.world{ seed = 11 }
    local program = steer.program{ { "flow", field = field, slowing_radius = 2 },
      { "separation", radius = 1 } }
    local agents = {}
    for k = 1, 24 do
      agents[k] = w:add{ x = -4 + (k * 7) % 20, y = 1 + (k * 3) % 10, max_speed = 2, max_force = 4,
        radius = 0.3 }
      agents[k]:set_behaviors(program)
    end
    agents[24]:set_behaviors{ { "flow", field = field } }
    return w, field, nav, agents
  end

  -- Every cell's distance and the directions at a few points in each.
  local function readings(f)
    local W, H = f:grid():size()
    local out = {}
    for cy = 0, H - 1 do
      for cx = 0, W - 1 do
        local x, y = f:grid():center_of(cx, cy)
        out[#out + 1] = f:distance(x, y)
        for _, d in ipairs{ { 0, 0 }, { 0.6, -0.3 }, { -0.9, 0.8 } } do
          local dx, dy = f:direction(x + d[1], y + d[2])
          out[#out + 1] = dx
          out[#out + 1] = dy
        end
      end
    end
    return out
  end

  it("restore the field, its grid and the agents following them, bit for bit", function()
    local w, field, nav, agents = flow_world()
    for _ = 1, 15 do w:step(0.1) end
    local s = w:snapshot()
    local c = assert(steer.restore(s))
    assert.are.equal(s, c:snapshot())
    local rf = c:get(agents[1].id):behaviors()[1].field
    assert.is_false(rf == field)
    assert.is_false(rf:grid() == nav)
    assert.is_false(rf:stale())
    assert.are.same(readings(field), readings(rf))
    assert.are.same({ nav:size() }, { rf:grid():size() })
    assert.are.equal(2, rf:grid():cell_size())
    assert.are.same({ -4, 1 }, { rf:grid():origin() })
    for cy = 0, 4 do
      for cx = 0, 9 do assert.are.equal(nav:cost(cx, cy), rf:grid():cost(cx, cy)) end
    end
    -- one field for every entry that held it (a shared program, an agent's own)
    assert.is_true(rawequal(rf, c:get(agents[24].id):behaviors()[1].field))
    assert.is_true(rawequal(rf, c:get(agents[7].id):behaviors()[1].field))
    for k = 1, 40 do
      w:step(0.1)
      c:step(0.1)
      assert.are.equal(w:snapshot(), c:snapshot(), "step " .. k)
    end
    -- the copy is the restored world's own: the saved world's field is untouched
    rf:set_goals{ { 13, 9 } }
    rf:grid():set_cost(0, 0, 0)
    assert.are.equal(0, nav:cost(0, 0) == 0 and 1 or 0)
    assert.is_false(field:stale())
    assert.are.same(readings(nav:flow{ { 13, 2 }, { -3, 10 } }), readings(field))
  end)

  it("keep a stale field as it was computed, and two fields sharing a grid", function()
    local w, field, nav, agents = flow_world()
    local other = nav:flow(5, 9)
    agents[3]:set_behaviors{ { "flow", field = other } }
    for _ = 1, 5 do w:step(0.1) end
    local before = readings(field)
    nav:set_cost(6, 0, 0) -- the field is stale now: it still steers as computed
    nav:set_cost(7, 1, 4)
    assert.is_true(field:stale() and other:stale())
    local s = w:snapshot()
    local c = assert(steer.restore(s))
    assert.are.equal(s, c:snapshot())
    local rf = c:get(agents[1].id):behaviors()[1].field
    local ro = c:get(agents[3].id):behaviors()[1].field
    assert.is_true(rf:stale() and ro:stale())
    assert.is_true(rawequal(rf:grid(), ro:grid())) -- one grid, as saved
    assert.are.same(before, readings(rf))          -- not computed again
    assert.are.equal(0, rf:grid():cost(6, 0))
    assert.are.equal(4, rf:grid():cost(7, 1))
    for k = 1, 20 do
      w:step(0.1)
      c:step(0.1)
      assert.are.equal(w:snapshot(), c:snapshot(), "step " .. k)
    end
    -- updated, both give the field of the new costs
    field:update()
    rf:update()
    assert.is_false(rf:stale())
    assert.are.same(readings(field), readings(rf))
    assert.are_not.same(before, readings(rf))
    assert.are.equal(w:snapshot(), c:snapshot())
  end)

  it("refuse forged grids and fields", function()
    if not fnv then return pending("forging needs 64-bit integers (Lua 5.4, LuaJIT)") end
    local nav = steer.navgrid{ width = 3, height = 2 }
    local field = nav:flow(0.5, 0.5)
    local w = steer.world{}
    w:add{ x = 2.5, y = 1.5 }:set_behaviors{ { "flow", field = field } }
    nav:set_cost(1, 1, 2) -- stale: its cells are written out
    local s = w:snapshot()
    local g = support.grids_at(s)
    assert.are.equal(1, u64(s, g))
    -- the grid: width, height, cell size, origin, version, six costs; then
    -- the fields: grid, version, goals, the goal, stale, reachable, cells, blend
    local costs = g + 8 + 4 + 4 + 24 + 8
    local flows = costs + 6 * 8
    assert.are.equal(1, u64(s, flows))
    local stale_at = flows + 8 + 8 + 8 + 8 + 16
    local cells = stale_at + 8
    local blend = cells + 6 * 16
    -- then the entries that keep their slot (none), those with whiskers
    -- (none), the programs (one)
    assert.are.equal(0, u64(s, blend + 6))
    assert.are.equal(0, u64(s, blend + 14))
    assert.are.equal(1, u64(s, blend + 22))
    local function refused(pos, bytes, message, what)
      local c, msg = steer.restore(forge(s, pos, bytes))
      assert.is_nil(c, what)
      assert.are.equal(message, msg, what)
    end
    assert.is_not_nil(steer.restore(forge(s, blend, s:sub(blend, blend))))
    -- bit 1 (west) of cell (0, 0) and bit 0 (east) of cell (2, 1) are clear
    assert.is_true(s:byte(blend) % 4 < 2 and s:byte(blend + 5) % 2 == 0)
    refused(blend, string.char(s:byte(blend) + 2), "snapshot holds an invalid flow field",
      "cell (0, 0) blends with its west neighbor, outside")
    refused(blend + 5, string.char(s:byte(blend + 5) + 1), "snapshot holds an invalid flow field",
      "cell (2, 1) blends with its east neighbor, outside")
    refused(cells, "\0\0\0\0\0\0\0\192", "snapshot holds an invalid flow field", "a distance -2")
    refused(cells + 8, "\0\0\0\64", "snapshot holds an invalid flow field", "a direction part 2")
    refused(stale_at, "\0", "snapshot holds an invalid flow field", "fresh, but of another version")
    refused(costs, "\0\0\0\0\0\0\224\63", "snapshot holds an invalid navigation grid", "a cost 0.5")
    refused(g + 8, "\0\0\0\0", "snapshot holds an invalid navigation grid", "width 0")
    refused(flows + 8, "\2", "snapshot refers to a missing navigation grid", "grid 2 of 1")
    refused(flows + 8, "\0", "snapshot refers to a missing navigation grid", "grid 0")
    -- version 11 had neither table: its reader meets other bytes there
    local c, msg = steer.restore(forge(s, 9, "\11"))
    assert.is_nil(c)
    assert.is_string(msg)
  end)
end)

describe("navigation memory", function()
  it("is 8 bytes per cell, 48 (+1 with a border) more once a path was searched", function()
    local W, H = 40, 30
    local nav = steer.navgrid{ width = W, height = H }
    local m0 = nav:memory()
    assert.is_true(m0 >= 8 * W * H and m0 <= 8 * W * H + 256, tostring(m0))
    nav:path(0.5, 0.5, W - 0.5, H - 0.5)
    local grown = nav:memory() - m0
    assert.is_true(grown >= 48 * W * H and grown <= 48 * W * H + (W + 2) * (H + 2) + 256, tostring(grown))
  end)
end)

describe("navigation under allocation failure", function()
  -- op(n) with the n-th allocation failing, for n = 0, 1, ... until it
  -- succeeds; every failure raises "not enough memory" and check() holds
  local function exhaust(op, check)
    for n = 0, 50 do
      fail_after(n)
      local ok, err = pcall(op)
      fail_after(nil)
      if ok then return n end
      assert.matches("not enough memory", tostring(err))
      if check then check() end
    end
    error("never succeeded")
  end

  it("leaves grids and fields as they were", function()
    assert.is_true(exhaust(function() steer.navgrid{ width = 4, height = 4 } end) >= 1)
    assert.is_true(exhaust(function() steer.navgrid_from_map("type octile\nheight 1\nwidth 2\nmap\n..\n") end) >= 1)
    local nav = grid_of({ "....", ".##.", "...." })
    local before = {}
    for cy = 0, 2 do for cx = 0, 3 do before[#before + 1] = nav:cost(cx, cy) end end
    local function same()
      local k = 0
      for cy = 0, 2 do for cx = 0, 3 do k = k + 1; assert.are.equal(before[k], nav:cost(cx, cy)) end end
    end
    assert.is_true(exhaust(function() nav:path(0.5, 0.5, 3.5, 2.5, { smooth = true }) end, same) >= 1)
    assert.is_true(exhaust(function() nav:flow(0.5, 0.5) end, same) >= 1)
    local f = nav:flow(0.5, 0.5)
    nav:set_cost(1, 0, 5)
    assert.is_true(exhaust(function() f:update() end, function()
      assert.is_true(f:stale())
      near(f:distance(3.5, 0.5), 3, 1e-12, "old distance kept")
    end) >= 1)
    assert.is_false(f:stale())
    near(f:distance(3.5, 0.5), 7, 1e-12, "new distance")
  end)
end)
