-- nav:inflated(radius [, { edges = true }]): a grid for a unit of that
-- radius, its blocked cells grown by it. Hand-computed grids, a brute-force
-- oracle (every cell against every blocked cell) on random grids, costs
-- kept, the original untouched, errors, allocation failure, and paths of
-- a big unit that keep off a gap narrower than itself.
local steer = require "steer"
local support = require "support"
local error_of = support.error_of
local fail_after = steer.testing.fail_allocations

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

-- The grid as rows of text: '#' blocked, '.' cost 1, '+' any other cost.
local function rows_of(nav)
  local W, H = nav:size()
  local rows = {}
  for cy = 0, H - 1 do
    local row = {}
    for cx = 0, W - 1 do
      local c = nav:cost(cx, cy)
      row[#row + 1] = c == 0 and "#" or c == 1 and "." or "+"
    end
    rows[#rows + 1] = table.concat(row)
  end
  return rows
end

local function costs_of(nav)
  local W, H = nav:size()
  local out = {}
  for cy = 0, H - 1 do
    for cx = 0, W - 1 do out[#out + 1] = nav:cost(cx, cy) end
  end
  return out
end

-- The oracle, written from the definition: an open cell is blocked when
-- its centre lies closer than r = radius / cell_size (cells) to the square
-- of some blocked cell (the square's closest point: per axis the distance
-- from the centre to the square's span, 0 inside it), or with edges closer
-- than r to the grid's outside edge. Squared distances in quarter cells
-- are exact, so the answer is exact too.
local function oracle(nav, radius, edges)
  local W, H = nav:size()
  local r = radius / nav:cell_size()
  local blocked = {}
  for cy = 0, H - 1 do
    for cx = 0, W - 1 do
      if nav:cost(cx, cy) == 0 then blocked[#blocked + 1] = { cx, cy } end
    end
  end
  local out = {}
  for cy = 0, H - 1 do
    for cx = 0, W - 1 do
      local c = nav:cost(cx, cy)
      if c ~= 0 then
        local px, py = cx + 0.5, cy + 0.5
        for _, b in ipairs(blocked) do
          local dx = math.max(b[1] - px, 0, px - (b[1] + 1))
          local dy = math.max(b[2] - py, 0, py - (b[2] + 1))
          if dx * dx + dy * dy < r * r then c = 0 break end
        end
        if edges and c ~= 0 then
          local e = math.min(px, W - px, py, H - py)
          if e * e < r * r then c = 0 end
        end
      end
      out[#out + 1] = c
    end
  end
  return out
end

local function same_list(want, got, what)
  assert.are.equal(#want, #got, what)
  for k = 1, #want do
    if want[k] ~= got[k] then
      error(("%s: cell %d is %s, the oracle says %s"):format(what, k - 1, tostring(got[k]),
        tostring(want[k])), 2)
    end
  end
end

describe("nav:inflated by hand", function()
  local DOT = {
    ".......",
    ".......",
    ".......",
    "...#...",
    ".......",
    ".......",
    ".......",
  }

  it("grows a single blocked cell by 0.5, 1 and 1.5 cells", function()
    -- 2-unit cells: the radius is in world units
    local nav = grid_of(DOT, 2, { 10, -4 })
    -- the neighbors' centres are 0.5 cells from the cell's square: not closer
    assert.are.same(DOT, rows_of(nav:inflated(1, { edges = false })))
    -- straight neighbors 0.5, diagonal ones 0.707 (< 1); two cells away 1.5
    assert.are.same({
      ".......",
      ".......",
      "..###..",
      "..###..",
      "..###..",
      ".......",
      ".......",
    }, rows_of(nav:inflated(2, { edges = false })))
    -- 1.5 cells: (2, 0) away is exactly 1.5, not closer; (2, 1) is 1.58
    assert.are.same({
      ".......",
      ".......",
      "..###..",
      "..###..",
      "..###..",
      ".......",
      ".......",
    }, rows_of(nav:inflated(3, { edges = false })))
    -- just beyond 1.5 cells: (2, 0) joins
    assert.are.same({
      ".......",
      "...#...",
      "..###..",
      ".#####.",
      "..###..",
      "...#...",
      ".......",
    }, rows_of(nav:inflated(2 * 1.5000001, { edges = false })))
    -- 1.6 cells: (2, 1) at 1.58 joins too, (2, 2) at 2.12 does not
    assert.are.same({
      ".......",
      "..###..",
      ".#####.",
      ".#####.",
      ".#####.",
      "..###..",
      ".......",
    }, rows_of(nav:inflated(2 * 1.6, { edges = false })))
  end)

  it("keeps the size, cell size and origin, and radius 0 copies", function()
    local nav = grid_of({ "..3#", "#.9." }, 0.25, { -3, 7 })
    local copy = nav:inflated(0)
    assert.are_not.equal(nav, copy)
    assert.are.same({ nav:size() }, { copy:size() })
    assert.are.equal(nav:cell_size(), copy:cell_size())
    assert.are.same({ nav:origin() }, { copy:origin() })
    assert.are.same(costs_of(nav), costs_of(copy))
    -- the outside edge is half a cell from the edge cells' centres: a
    -- radius of half a cell blocks nothing, with or without edges
    assert.are.same(costs_of(nav), costs_of(nav:inflated(0.125)))
    assert.are.same(costs_of(nav), costs_of(nav:inflated(0.125, { edges = false })))
  end)

  it("counts the outside edge as blocked unless edges = false", function()
    local nav = grid_of({ ".....", ".....", ".....", "....." })
    assert.are.same({
      "#####",
      "#...#",
      "#...#",
      "#####",
    }, rows_of(nav:inflated(0.6)))
    assert.are.same(rows_of(nav), rows_of(nav:inflated(0.6, { edges = false })))
    assert.are.same(rows_of(nav), rows_of(nav:inflated(1e150, { edges = false })))
    assert.are.same({ "#####", "#####", "#####", "#####" }, rows_of(nav:inflated(1.6)))
  end)

  it("closes a corridor 3 cells wide for a radius of 1.6 cells, not for 1.4", function()
    local rooms = grid_of({
      "#####################",
      "#.......#####.......#",
      "#.......#####.......#",
      "#...................#",
      "#...................#",
      "#...................#",
      "#.......#####.......#",
      "#.......#####.......#",
      "#.......#####.......#",
      "#.......#####.......#",
      "#####################",
    }, 10)
    local a, b = { 35, 55 }, { 165, 55 }
    local slim = rooms:inflated(14)
    -- the corridor's middle row is 1.5 cells from the walls beside it
    assert.are.equal("##.................##", rows_of(slim)[5])
    assert.are.equal(1, slim:cost(10, 4))
    assert.are.equal(0, slim:cost(10, 3))
    assert.are.equal(0, slim:cost(10, 5))
    assert.is_truthy(slim:path(a, b))
    local fat = rooms:inflated(16)
    for cx = 8, 12 do assert.are.equal(0, fat:cost(cx, 4)) end
    assert.are.equal(1, fat:cost(3, 4)) -- the rooms stay open
    assert.are.equal(1, fat:cost(17, 4))
    assert.are.same({ nil, "no path" }, { fat:path(a, b) })
  end)

  it("keeps the costs of the cells that stay open", function()
    local nav = grid_of({
      "12345678",
      "9#.1234.",
      "5678.9.1",
    })
    local inflated = nav:inflated(1, { edges = false })
    assert.are.same({
      "###+++++",
      "###++++.",
      "###+.+.+",
    }, rows_of(inflated))
    for cy = 0, 2 do
      for cx = 3, 7 do assert.are.equal(nav:cost(cx, cy), inflated:cost(cx, cy)) end
    end
  end)

  it("leaves the original grid untouched", function()
    local nav = grid_of({ "....#...", "..2.....", "........" })
    local before = costs_of(nav)
    local path_before = { nav:path(0.5, 0.5, 7.5, 2.5) }
    local f = nav:flow(7.5, 0.5)
    local big = nav:inflated(1.2)
    assert.are.same(before, costs_of(nav))
    assert.is_false(f:stale())
    -- the copy changes alone
    big:set_cost(0, 0, 7)
    assert.are.same(before, costs_of(nav))
    assert.is_false(f:stale())
    local path_after = { nav:path(0.5, 0.5, 7.5, 2.5) }
    assert.are.equal(path_before[2], path_after[2])
    assert.are.equal(path_before[3], path_after[3])
    assert.are.equal("steer.NavGrid (8 x 3 cells)", tostring(big))
  end)
end)

describe("nav:inflated against a brute-force oracle", function()
  local random = support.random(20261206)

  local function random_grid(W, H, density, cell_size)
    local cost = {}
    for k = 1, W * H do
      local u = random()
      cost[k] = u < density and 0 or (u < density + 0.1 and 1 + math.floor(random() * 9)) or 1
    end
    return steer.navgrid{ width = W, height = H, cost = cost, cell_size = cell_size,
      origin = { random(-10, 10), random(-10, 10) } }
  end

  -- radii in cells: exact boundaries (half cells, the diagonals of whole and
  -- half cells) a hair either side of them, and anything
  local function random_radius()
    local u = random()
    local base = ({ 0, 0.5, 1, 1.5, 2, 2.5, 0.5 * math.sqrt(2), math.sqrt(2.5),
      math.sqrt(4.5), math.sqrt(6.5), 3.5, 5 })[1 + math.floor(random() * 12)]
    if u < 0.3 then return base end
    if u < 0.5 then return base * (1 + 1e-12) end
    if u < 0.6 then return base * (1 - 1e-12) end
    return random(0, 7)
  end

  it("matches on small random grids, every cell against every blocked cell", function()
    for case = 1, 400 do
      local W, H = 1 + math.floor(random() * 14), 1 + math.floor(random() * 14)
      local density = ({ 0, 0.05, 0.2, 0.5, 0.9, 1 })[1 + math.floor(random() * 6)]
      local cs = ({ 1, 0.5, 2, 3, 1e-3 })[1 + math.floor(random() * 5)]
      local nav = random_grid(W, H, density, cs)
      local radius = random_radius() * cs
      local edges = random() < 0.5
      local before = costs_of(nav)
      local got = nav:inflated(radius, { edges = edges })
      same_list(oracle(nav, radius, edges), costs_of(got),
        ("case %d: %d x %d, radius %.17g, cell %g, edges %s"):format(case, W, H, radius, cs,
          tostring(edges)))
      same_list(before, costs_of(nav), "the original changed")
    end
  end)

  it("matches on bigger grids with rooms and scattered blocks", function()
    for case = 1, 6 do
      local W, H = 40 + math.floor(random() * 30), 30 + math.floor(random() * 20)
      local nav = random_grid(W, H, ({ 0.01, 0.04, 0.15 })[1 + case % 3], 1)
      -- a few long walls, so that whole rows and columns have no blocked cell
      -- while others have many
      for _ = 1, 3 do
        local y, x0 = math.floor(random() * H), math.floor(random() * W)
        for x = x0, math.min(W - 1, x0 + 15) do nav:set_cost(x, y, 0) end
      end
      local radius = ({ 1.5, 2.3, math.sqrt(8.5), 6.1, 13 })[1 + case % 5]
      local edges = case % 2 == 0
      same_list(oracle(nav, radius, edges), costs_of(nav:inflated(radius, { edges = edges })),
        ("big case %d: %d x %d, radius %g"):format(case, W, H, radius))
    end
  end)

  it("blocks everything for a huge radius when one cell is blocked", function()
    local nav = random_grid(30, 20, 0, 1)
    nav:set_cost(29, 19, 0)
    for _, radius in ipairs({ 1e6, 1e150 }) do
      local all = nav:inflated(radius, { edges = false })
      for _, c in ipairs(costs_of(all)) do assert.are.equal(0, c) end
    end
    -- a huge radius over tiny cells is no overflow
    local tiny = steer.navgrid{ width = 3, height = 1, cost = { 1, 0, 1 }, cell_size = 1e-300 }
    assert.are.same({ "###" }, rows_of(tiny:inflated(1e150, { edges = false })))
  end)
end)

describe("nav:inflated paths for a big unit", function()
  -- a short way through a gap 1 cell wide, a long one through a gap 3 wide
  local ROWS = {
    "..............",
    "..............",
    "..............",
    "#######.######",
    "..............",
    "..............",
    "..............",
    "...........###",
    "..............",
  }
  -- the distance from (x, y) (cells) to the nearest blocked cell's square
  local function gap(nav, x, y)
    local W, H = nav:size()
    local best = math.huge
    for cy = 0, H - 1 do
      for cx = 0, W - 1 do
        if nav:cost(cx, cy) == 0 then
          local dx = math.max(cx - x, 0, x - (cx + 1))
          local dy = math.max(cy - y, 0, y - (cy + 1))
          best = math.min(best, math.sqrt(dx * dx + dy * dy))
        end
      end
    end
    return best
  end

  it("goes around a gap narrower than the unit", function()
    local rows = {}
    for k, row in ipairs(ROWS) do rows[k] = row end
    rows[4] = "#######.###..."  -- the wide way: 3 cells at the right edge
    local nav = grid_of(rows)
    local radius = 0.7            -- 1.4 cells across: wider than the 1-cell gap
    local from, to = { 1.5, 1.5 }, { 1.5, 6.5 }
    local small, small_len = nav:path(from, to)
    local through = false
    for k = 1, #small - 1 do
      local ax, ay = small:point(k)
      local bx, by = small:point(k + 1)
      for i = 0, 20 do
        local x, y = ax + (bx - ax) * i / 20, ay + (by - ay) * i / 20
        if math.floor(x) == 7 and math.floor(y) == 3 then through = true end
      end
    end
    assert.is_true(through, "a point-sized unit takes the narrow gap")
    local big_nav = nav:inflated(radius, { edges = false })
    assert.are.equal(0, big_nav:cost(7, 3))
    local big, big_len = big_nav:path(from, to)
    assert.is_truthy(big)
    assert.is_true(big_len > small_len + 4, ("%g vs %g"):format(big_len, small_len))
    -- every turning point, and every point along the moves between them,
    -- keeps the radius from the original grid's blocked cells
    for k = 1, #big do
      local x, y = big:point(k)
      assert.is_true(gap(nav, x, y) >= radius, ("waypoint %d (%g, %g)"):format(k, x, y))
    end
    for k = 1, #big - 1 do
      local ax, ay = big:point(k)
      local bx, by = big:point(k + 1)
      for i = 0, 20 do
        local x, y = ax + (bx - ax) * i / 20, ay + (by - ay) * i / 20
        assert.is_true(gap(nav, x, y) >= radius, ("(%g, %g) on move %d"):format(x, y, k))
        -- row 3 is crossed by the wide way only
        assert.is_true(math.floor(y) ~= 3 or x >= 11, ("(%g, %g) on move %d"):format(x, y, k))
      end
    end
  end)

  -- On random grids, between random open cells' centres: a path on the
  -- inflated grid keeps the radius from the original blocked cells (and the
  -- outside edge) all along its moves, not just at its cells' centres
  -- (straight moves, and diagonal ones, which cut no corner). Smoothed, it
  -- keeps it with clearance = min(radius, half a cell's diagonal).
  it("keeps the radius along its moves, smoothed with a clearance too", function()
    local random = support.random(77)
    local function clearance_of(nav, x, y)
      local W, H = nav:size()
      return math.min(gap(nav, x, y), x, y, W - x, H - y)
    end
    local checked = 0
    for _ = 1, 60 do
      local W, H = 6 + math.floor(random() * 10), 6 + math.floor(random() * 10)
      local cost = {}
      for k = 1, W * H do cost[k] = random() < 0.15 and 0 or 1 end
      local nav = steer.navgrid{ width = W, height = H, cost = cost }
      local radius = random(0.3, 2.2)
      local big = nav:inflated(radius)
      local open = {}
      for cy = 0, H - 1 do
        for cx = 0, W - 1 do
          if big:cost(cx, cy) ~= 0 then open[#open + 1] = { cx + 0.5, cy + 0.5 } end
        end
      end
      if #open >= 2 then
        for _ = 1, 4 do
          local a = open[1 + math.floor(random() * #open)]
          local b = open[1 + math.floor(random() * #open)]
          for _, opts in ipairs({ {}, { smooth = true,
              clearance = math.min(radius, math.sqrt(0.5)) } }) do
            local path = big:path(a, b, opts)
            if path then
              checked = checked + 1
              for k = 1, #path - 1 do
                local ax, ay = path:point(k)
                local bx, by = path:point(k + 1)
                local n = math.ceil(math.sqrt((bx - ax) ^ 2 + (by - ay) ^ 2) * 64)
                for i = 0, n do
                  local x, y = ax + (bx - ax) * i / n, ay + (by - ay) * i / n
                  local c = clearance_of(nav, x, y)
                  assert.is_true(c >= radius - 1e-12, ("%s path on %d x %d, radius %.17g: "
                    .. "(%.17g, %.17g) keeps %.17g"):format(opts.smooth and "a smoothed" or "a",
                    W, H, radius, x, y, c))
                end
              end
            end
          end
        end
      end
    end
    assert.is_true(checked > 100, tostring(checked))
  end)

  it("gives the same grid through nav:flow", function()
    local nav = grid_of(ROWS)
    local big_nav = nav:inflated(0.7, { edges = false })
    local f = big_nav:flow(1.5, 6.5)
    assert.is_nil(f:distance(1.5, 1.5), "the narrow gap is shut: the top is cut off")
    assert.is_truthy(nav:flow(1.5, 6.5):distance(1.5, 1.5))
  end)
end)

describe("nav:inflated errors", function()
  local nav = grid_of({ "...", ".#." })

  it("names the call and the argument", function()
    local cases = {
      { "bad argument #1 to 'inflated' (radius: number expected, got no value)" },
      { "bad argument #1 to 'inflated' (radius: number expected, got string)", "1" },
      { "bad argument #1 to 'inflated' (radius: number expected, got nil)", nil, {} },
      { "bad argument #1 to 'inflated' (radius: non-negative number expected, got -1)", -1 },
      { "bad argument #1 to 'inflated' (radius: non-negative number expected, got nan)", 0 / 0 },
      { "bad argument #1 to 'inflated' (radius: non-negative number expected, got inf)", math.huge },
      { "bad argument #1 to 'inflated' (radius: number out of range, |1e+151| > 1e150)", 1e151 },
      { "bad argument #2 to 'inflated' (table expected, got number)", 1, 5 },
      { "bad argument #2 to 'inflated' (unknown option 'edge': did you mean 'edges'?)", 1, { edge = true } },
      { "bad argument #2 to 'inflated' (unknown option 'corners': expected 'edges')", 1, { corners = true } },
      { "bad argument #2 to 'inflated' ('edges' must be a boolean, got number)", 1, { edges = 1 } },
      { "bad argument #3 to 'inflated' (no argument expected here, got number)", 1, nil, 4 },
    }
    for _, case in ipairs(cases) do
      local want = case[1]
      local msg = #case == 1 and error_of(nav.inflated, nav)
        or error_of(nav.inflated, nav, case[2], case[3], case[4])
      assert.is_truthy(msg:find(want, 1, true), ("%q\n  got %q"):format(want, msg))
    end
    assert.matches("bad self", error_of(nav.inflated, 1, 1))
    assert.matches("steer.NavGrid expected", error_of(nav.inflated, {}, 1))
  end)

  it("raises not enough memory and changes nothing when allocation fails", function()
    local before = costs_of(nav)
    local failed = 0
    for n = 0, 50 do
      fail_after(n)
      local ok, err = pcall(nav.inflated, nav, 1.2)
      fail_after(nil)
      if ok then break end
      failed = failed + 1
      assert.matches("not enough memory", tostring(err))
      assert.are.same(before, costs_of(nav))
    end
    assert.is_true(failed >= 1)
    assert.are.same({ "###", "###" }, rows_of(nav:inflated(1.2, { edges = false })))
  end)
end)
