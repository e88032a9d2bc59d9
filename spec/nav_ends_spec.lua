-- nav:path's exact endpoints (the path starts at p1 and ends at p2 where
-- the segment to the next waypoint is clear), its clearance option, and
-- steer.navgrid's solid tiles: hand-computed grids and brute force.
local steer = require "steer"
local support = require "support"
local near, error_of = support.near, support.error_of

-- A grid from rows of text: '.' cost 1, '#' blocked, a digit d cost d + 1.
local function grid_of(rows, cell_size)
  local cost = {}
  for _, row in ipairs(rows) do
    for c in row:gmatch(".") do
      cost[#cost + 1] = c == "#" and 0 or c == "." and 1 or tonumber(c) + 1
    end
  end
  return steer.navgrid{ width = #rows[1], height = #rows, cost = cost, cell_size = cell_size }
end

local function points(path)
  local out = {}
  for k = 1, #path do out[k] = { path:point(k) } end
  return out
end

local function polyline_length(q)
  local len = 0
  for k = 2, #q do len = len + math.sqrt((q[k][1] - q[k - 1][1]) ^ 2 + (q[k][2] - q[k - 1][2]) ^ 2) end
  return len
end

-- Distance from the segment a-b to the box [x0, x1] x [y0, y1], sampled
-- densely (n points) and exactly at each sample.
local function segment_box(a, b, x0, y0, x1, y1, n)
  local best = math.huge
  for k = 0, n do
    local x = a[1] + (b[1] - a[1]) * k / n
    local y = a[2] + (b[2] - a[2]) * k / n
    local dx = math.max(x0 - x, 0, x - x1)
    local dy = math.max(y0 - y, 0, y - y1)
    best = math.min(best, math.sqrt(dx * dx + dy * dy))
  end
  return best
end

-- Does the segment a-b stay off blocked cells? Sampled densely: every
-- sample's cell must be passable.
local function segment_clear(nav, a, b)
  local s = nav:cell_size()
  local n = math.ceil(math.max(math.abs(b[1] - a[1]), math.abs(b[2] - a[2])) / s * 256) + 1
  for k = 0, n do
    local cx, cy = nav:cell_of(a[1] + (b[1] - a[1]) * k / n, a[2] + (b[2] - a[2]) * k / n)
    if not cx or nav:cost(cx, cy) == 0 then return false end
  end
  return true
end

describe("nav:path's exact endpoints", function()
  it("start at p1 and end at p2 on an open grid; the cost stays the grid path's", function()
    local nav = grid_of({ ".....", ".....", "....." }, 2)
    local centre, clen, ccost = nav:path(1, 1, 9, 5)
    local turn = points(centre)[2]
    local p, len, cost = nav:path(1.3, 0.4, 8.2, 5.9)
    assert.are.same({ { 1.3, 0.4 }, turn, { 8.2, 5.9 } }, points(p))
    near(len, math.sqrt((turn[1] - 1.3) ^ 2 + (turn[2] - 0.4) ^ 2)
      + math.sqrt((8.2 - turn[1]) ^ 2 + (5.9 - turn[2]) ^ 2), 1e-12, "length")
    assert.are.equal(ccost, cost)
    near(clen, 2 * (2 * math.sqrt(2) + 2), 1e-12, "the centres' length")
    -- smoothed: one straight segment, p1 to p2
    local s, slen, scost = nav:path(1.3, 0.4, 8.2, 5.9, { smooth = true })
    assert.are.same({ { 1.3, 0.4 }, { 8.2, 5.9 } }, points(s))
    near(slen, math.sqrt(6.9 ^ 2 + 5.5 ^ 2), 1e-12, "straight")
    assert.are.equal(ccost, scost)
  end)

  it("replace the centres in an L corridor, smooth or not", function()
    local nav = grid_of({ "....", "###.", "###." })
    for _, smooth in ipairs{ false, true } do
      -- from the centres: the corner between
      assert.are.same({ { 0.5, 0.5 }, { 3.5, 0.5 }, { 3.5, 2.5 } },
        points((nav:path(0.5, 0.5, 3.5, 2.5, { smooth = smooth }))))
      local p, len, cost = nav:path(0.2, 0.9, 3.1, 2.8, { smooth = smooth })
      assert.are.same({ { 0.2, 0.9 }, { 3.5, 0.5 }, { 3.1, 2.8 } }, points(p))
      near(len, math.sqrt(3.3 ^ 2 + 0.4 ^ 2) + math.sqrt(0.4 ^ 2 + 2.3 ^ 2), 1e-12, "length")
      near(cost, 5, 1e-12, "cost")
    end
  end)

  it("pass the cell centre when p1 (or p2) cannot see the next waypoint", function()
    -- the start cell (0, 1) lies below a blocked cell: its centre sees the
    -- goal's centre (4.5, 0.5), a point near its top-left corner does not
    local nav = grid_of({ "#....", "....." })
    local p, len = nav:path(0.1, 1.1, 4.5, 0.5, { smooth = true })
    assert.are.same({ { 0.1, 1.1 }, { 0.5, 1.5 }, { 4.5, 0.5 } }, points(p))
    near(len, math.sqrt(0.32) + math.sqrt(17), 1e-12, "length")
    -- its lower right part does: the segment crosses y = 1 at x = 3.21
    local q = nav:path(0.9, 1.9, 4.5, 0.5, { smooth = true })
    assert.are.same({ { 0.9, 1.9 }, { 4.5, 0.5 } }, points(q))
    -- the same at the goal end
    local r, rlen = nav:path(4.5, 0.5, 0.1, 1.1, { smooth = true })
    assert.are.same({ { 4.5, 0.5 }, { 0.5, 1.5 }, { 0.1, 1.1 } }, points(r))
    near(rlen, len, 1e-12, "reversed")
    assert.are.same({ { 4.5, 0.5 }, { 0.9, 1.9 } }, points((nav:path(4.5, 0.5, 0.9, 1.9, { smooth = true }))))
  end)

  it("give p1 -> p2 in one cell, one point when equal", function()
    local nav = grid_of({ "..", ".." }, 10)
    local p, len, cost = nav:path(1, 1, 7, 9)
    assert.are.same({ { 1, 1 }, { 7, 9 } }, points(p))
    assert.are.same({ 10, 0 }, { len, cost })
    local one, olen = nav:path(3, 3, 3, 3, { smooth = true })
    assert.are.same({ { 3, 3 } }, points(one))
    assert.are.equal(0, olen)
  end)

  it("with diagonal = false", function()
    local nav = grid_of({ "...", "...", "..." })
    local centre = points((nav:path(0.5, 0.5, 2.5, 2.5, { diagonal = false })))
    assert.are.equal(3, #centre)
    local p, len, cost = nav:path(0.2, 0.3, 2.7, 2.9, { diagonal = false })
    assert.are.same({ { 0.2, 0.3 }, centre[2], { 2.7, 2.9 } }, points(p))
    near(len, polyline_length(points(p)), 1e-12, "length")
    near(cost, 4, 1e-12, "Manhattan cost")
  end)

  it("keep every segment clear on random grids (brute force)", function()
    local rng = 4242
    local function rand(n)
      rng = (rng * 1103515245 + 12345) % 2147483648
      return rng % n
    end
    local moved = 0
    for trial = 1, 150 do
      local W, H = 2 + rand(10), 2 + rand(10)
      local cost = {}
      for k = 1, W * H do cost[k] = rand(100) < 30 and 0 or 1 + rand(3) end
      local s = 0.5 + rand(4)
      local nav = steer.navgrid{ width = W, height = H, cost = cost, cell_size = s }
      local a = { (rand(W * 1000) + 0.5) / 1000 * s, (rand(H * 1000) + 0.5) / 1000 * s }
      local b = { (rand(W * 1000) + 0.5) / 1000 * s, (rand(H * 1000) + 0.5) / 1000 * s }
      for _, opts in ipairs{ {}, { smooth = true }, { diagonal = false }, { smooth = true, diagonal = false } } do
        local p, len, c = nav:path(a, b, opts)
        local ca, cb = { nav:cell_of(a) }, { nav:cell_of(b) }
        local centre, _, ccost = nav:path({ nav:center_of(ca[1], ca[2]) }, { nav:center_of(cb[1], cb[2]) }, opts)
        if p then
          local q = points(p)
          assert.are.same(a, q[1], "trial " .. trial)
          assert.are.same(b, q[#q], "trial " .. trial)
          near(len, polyline_length(q), 1e-9 * s, "trial " .. trial .. " length")
          assert.are.equal(ccost, c, "trial " .. trial .. " cost")
          assert.is_true(#q <= #centre + 2)
          for k = 2, #q do
            assert.is_true(segment_clear(nav, q[k - 1], q[k]), "trial " .. trial .. " segment " .. k)
          end
          if #q == #centre and #q > 1 then moved = moved + 1 end
        else
          assert.is_nil(centre)
        end
      end
    end
    assert.is_true(moved > 50, "paths whose both centres were replaced: " .. moved)
  end)
end)

describe("nav:path's clearance", function()
  it("is checked like the other options", function()
    local nav = grid_of({ "..", ".." })
    assert.are.equal("bad argument #3 to 'path' (clearance: non-negative number expected, got -1)",
      error_of(nav.path, nav, { 0.5, 0.5 }, { 1.5, 1.5 }, { clearance = -1 }))
    assert.matches("'clearance' must be a number, got string",
      error_of(nav.path, nav, { 0.5, 0.5 }, { 1.5, 1.5 }, { clearance = "1" }), 1, true)
    assert.matches("unknown option 'clearence': did you mean 'clearance'?",
      error_of(nav.path, nav, { 0.5, 0.5 }, { 1.5, 1.5 }, { clearence = 1 }), 1, true)
    assert.matches("clearance", error_of(nav.path, nav, 0.5, 0.5, 1.5, 1.5, { clearance = 0 / 0 }), 1, true)
  end)

  it("keeps a smoothed path off the corners it would graze", function()
    -- the sight line from (5, 5) to (25, 45) passes sqrt(5) from the
    -- corner (20, 30) of the blocked cell (2, 2): cross((15, 25), (1, 2)) / sqrt 5
    local nav = grid_of({ "....", "....", "..#.", "....", "...." }, 10)
    local p = points((nav:path(5, 5, 35, 45, { smooth = true })))
    assert.are.same({ { 5, 5 }, { 25, 45 }, { 35, 45 } }, p)
    near(segment_box(p[1], p[2], 20, 20, 30, 30, 1e5), math.sqrt(5), 1e-3, "zero clearance")
    local c = points((nav:path(5, 5, 35, 45, { smooth = true, clearance = 4 })))
    assert.is_true(#c > 2)
    for k = 2, #c do
      assert.is_true(segment_box(c[k - 1], c[k], 20, 20, 30, 30, 4096) >= 4 - 1e-9, "segment " .. k)
    end
    -- without smooth the grid path is the same whatever the clearance
    assert.are.same(points((nav:path(5, 5, 35, 45))), points((nav:path(5, 5, 35, 45, { clearance = 4 }))))
  end)

  it("keeps r from every blocked cell and the edge on random grids (brute force)", function()
    local rng = 777
    local function rand(n)
      rng = (rng * 1103515245 + 12345) % 2147483648
      return rng % n
    end
    local checked, shorter = 0, 0
    for trial = 1, 120 do
      local W, H = 3 + rand(10), 3 + rand(10)
      local cost = {}
      for k = 1, W * H do cost[k] = rand(100) < 25 and 0 or 1 end
      local s = 1 + rand(3)
      local nav = steer.navgrid{ width = W, height = H, cost = cost, cell_size = s }
      local r = rand(51) / 100 * s -- up to half a cell
      -- points that keep r themselves (a point nearer a wall cannot)
      local function point()
        for _ = 1, 50 do
          local x, y = rand(W * 100) / 100 * s, rand(H * 100) / 100 * s
          local ok = x >= r and y >= r and x <= W * s - r and y <= H * s - r
          for cy = 0, H - 1 do
            for cx = 0, W - 1 do
              if cost[cy * W + cx + 1] == 0 and ok then
                local dx = math.max(cx * s - x, 0, x - (cx + 1) * s)
                local dy = math.max(cy * s - y, 0, y - (cy + 1) * s)
                ok = dx * dx + dy * dy >= (r + 1e-6) ^ 2
              end
            end
          end
          if ok then return { x, y } end
        end
      end
      local a, b = point(), point()
      if a and b then
        local p = nav:path(a, b, { smooth = true, clearance = r })
        local p0 = nav:path(a, b, { smooth = true })
        if p then
          local q = points(p)
          assert.are.same(a, q[1])
          assert.are.same(b, q[#q])
          if #q > #p0 then shorter = shorter + 1 end
          for k = 2, #q do
            local u, v = q[k - 1], q[k]
            for cy = 0, H - 1 do
              for cx = 0, W - 1 do
                if cost[cy * W + cx + 1] == 0 then
                  local d = segment_box(u, v, cx * s, cy * s, (cx + 1) * s, (cy + 1) * s, 512)
                  assert.is_true(d >= r - 1e-9, ("trial %d segment %d: %.6g from cell %d,%d, r %.6g"):format(trial, k, d, cx, cy, r))
                end
              end
            end
            for _, e in ipairs{ u[1], u[2], W * s - u[1], H * s - u[2], v[1], v[2], W * s - v[1], H * s - v[2] } do
              assert.is_true(e >= r - 1e-9, "trial " .. trial .. ": the edge")
            end
            checked = checked + 1
          end
        end
      end
    end
    assert.is_true(checked > 200, "segments checked: " .. checked)
    assert.is_true(shorter > 5, "paths that needed more waypoints: " .. shorter)
  end)
end)

describe("steer.navgrid's solid tiles", function()
  it("take walls_from_tiles' convention: non-zero or true blocks", function()
    local nav = steer.navgrid{ width = 3, height = 2, solid = { 1, 0, true, false, 2.5, -1 } }
    local got = {}
    for cy = 0, 1 do for cx = 0, 2 do got[#got + 1] = nav:cost(cx, cy) end end
    assert.are.same({ 0, 1, 0, 1, 0, 0 }, got)
  end)

  it("make the path a tile map's walls_from_tiles sees", function()
    local solid = { 1, 1, 1, 1, 1,
                    1, 0, 0, 0, 1,
                    1, 0, 1, 0, 1,
                    1, 0, 0, 0, 1,
                    1, 1, 1, 1, 1 }
    steer.walls_from_tiles(solid, 5, 5, 24)
    local nav = steer.navgrid{ width = 5, height = 5, cell_size = 24, solid = solid }
    local p, len = nav:path(36, 36, 84, 84)
    assert.are.same({ { 36, 36 }, { 84, 36 }, { 84, 84 } }, points(p))
    assert.are.equal(96, len)
    -- the same table as 'cost' raises, naming the mistake
    assert.are.equal("bad argument #1 to 'navgrid' ('cost' is the table given to walls_from_tiles, "
      .. "where non-zero is solid; here 0 blocks a cell: pass it as solid = ...)",
      error_of(steer.navgrid, { width = 5, height = 5, cell_size = 24, cost = solid }))
    -- a copy is a cost array like any other
    local copy = {}
    for k, v in ipairs(solid) do copy[k] = v end
    assert.is_not_nil(steer.navgrid{ width = 5, height = 5, cost = copy })
  end)

  it("raise for bad tiles and for cost and solid together", function()
    local function err(def) return error_of(steer.navgrid, def) end
    assert.are.equal("bad argument #1 to 'navgrid' (both 'cost' and 'solid' given: 'cost' has 0 = blocked, "
      .. "'solid' non-zero = blocked; give one)", err{ width = 1, height = 1, cost = { 1 }, solid = { 0 } })
    assert.are.equal("bad argument #1 to 'navgrid' (solid[2]: finite number expected, got nan)",
      err{ width = 2, height = 1, solid = { 0, 0 / 0 } })
    assert.matches("solid[1]: finite number expected, got inf", err{ width = 1, height = 1, solid = { math.huge } }, 1, true)
    assert.are.equal("bad argument #1 to 'navgrid' (solid[1]: number or boolean expected, got string)",
      err{ width = 1, height = 1, solid = { "#" } })
    assert.are.equal("bad argument #1 to 'navgrid' ('solid' has 1 entries, width * height = 2)",
      err{ width = 2, height = 1, solid = { 1 } })
    assert.matches("a table of rows?", err{ width = 2, height = 2, solid = { { 1, 0 }, { 0, 0 } } }, 1, true)
    assert.are.equal("bad argument #1 to 'navgrid' ('solid' must be a table, got number)",
      err{ width = 1, height = 1, solid = 1 })
    assert.are.equal("bad argument #1 to 'navgrid' (unknown field 'soild': did you mean 'solid'?)",
      err{ width = 1, height = 1, soild = { 1 } })
  end)
end)

describe("a:set_target(tag, nav:path(a, b))", function()
  it("takes nav:path's three values, and says when there was no path", function()
    local nav = steer.navgrid{ width = 8, height = 4 }
    local w = steer.world{}
    local a = w:add{ x = 0.5, y = 0.5 }
    a:set_behaviors{ { "follow", path = steer.path{ { 0, 0 } }, tag = "chase" } }
    local path, length, cost = nav:path(a, { 7.5, 3.5 })
    assert.is_true(length > 0 and cost > 0)
    a:set_target("chase", nav:path(a, { 7.5, 3.5 }))
    assert.are.equal(tostring(path), tostring(a:behaviors()[1].path))
    assert.are.equal("bad argument #2 to 'set_target' (target expected, got nil and "
      .. "'goal outside the grid' (nav:path found no path?))",
      error_of(a.set_target, a, "chase", nav:path(a, { 70.5, 3.5 })))
    -- any other extra argument still raises
    assert.matches("bad argument #3 to 'set_target' %(no argument expected here, got number%)",
      error_of(a.set_target, a, "chase", path, 3))
    assert.matches("bad argument #5 to 'set_target' %(no argument expected here, got number%)",
      error_of(a.set_target, a, "chase", path, length, cost, 9))
    assert.matches("bad argument #3 to 'set_target' %(no argument expected here, got string%)",
      error_of(a.set_target, a, "chase", { 1, 1 }, "x"))
  end)
end)
