-- Tile levels' pictures (called by tools/pictures.lua with its helpers): a
-- crowd in a tile room without and with `collide`, nav:path through a
-- tile maze without and with `clearance`, and through rooms on a grid and
-- on its nav:inflated copy. The worlds are in pixels (24 px
-- tiles, as a game's); the pictures are drawn in tiles.
return function(pictures, h)
  local steer, canvas, COLORS, num = h.steer, h.canvas, h.colors, h.num
  local T = 24
  local WALL = "#8b96ad"
  local RED = "#d43a3a"

  local function tiles_of(rows)
    local solid = {}
    for r = 1, #rows do
      for c = 1, #rows[1] do solid[#solid + 1] = rows[r]:sub(c, c) == "#" and 1 or 0 end
    end
    return solid, #rows[1], #rows
  end

  -- the solid tiles of a w x h map, drawn from (ox, oy) tiles
  local function draw_tiles(c, solid, w, h, ox, oy)
    for r = 0, h - 1 do
      for col = 0, w - 1 do
        if solid[r * w + col + 1] ~= 0 then
          c:raw(('<rect x="%s" y="%s" width="%s" height="%s" fill="%s"/>'):format(
            c:x(ox + col), c:y(oy + r), num(c.s), num(c.s), WALL))
        end
      end
    end
  end

  local function ring(c, x, y, r, color, width)
    c:raw(('<circle cx="%s" cy="%s" r="%s" fill="none" stroke="%s" stroke-width="%s"/>'):format(
      c:x(x), c:y(y), num(r * c.s), color, num(width)))
  end

  -- agents at pos (x, y pairs in px, tiles of `tile` px) drawn from (ox, oy)
  -- tiles; those flagged(x, y) ringed in red
  local function draw_agents(c, pos, n, tile, ox, oy, flagged)
    for k = 1, n do
      local x, y = pos[2 * k - 1], pos[2 * k]
      c:circle(x / tile + ox, y / tile + oy, 3 / tile, COLORS[2])
      if flagged(x, y) then ring(c, x / tile + ox, y / tile + oy, 0.4, RED, 1.5) end
    end
  end

  -- ---- walls that stop bodies: collide ----------------------------------------

  local ROOM = {
    "####################",
    "#..................#",
    "#..####....#####...#",
    "#.....#........#...#",
    "#.....#..##....#..##",
    "#..####..##........#",
    "#..........#...#...#",
    "#...###....#...#...#",
    "#.....#....#####...#",
    "#..##.#............#",
    "#..................#",
    "####################",
  }

  function pictures.level_collide()
    local solid, W, H = tiles_of(ROOM)
    local N, SECONDS = 300, 10
    local function inside(x, y)
      return solid[math.floor(y / T) * W + math.floor(x / T) + 1] ~= 0
    end
    local runs = {}
    for panel, collide in ipairs({ false, true }) do
      local s = 1 -- the same starts in both panels
      local function random() s = (s * 1103515245 + 12345) % 2147483648; return s / 2147483648 end
      local world = steer.world{ bounds = { W * T, H * T }, cell_size = 24, seed = 5 }
      world:add_walls(steer.walls_from_tiles(solid, W, H, T))
      local xs, ys = {}, {}
      while #xs < N do -- anywhere on the floor
        local x, y = random() * W * T, random() * H * T
        if not inside(x, y) then xs[#xs + 1], ys[#ys + 1] = x, y end
      end
      world:add_many({ x = xs, y = ys, max_speed = 40, max_force = 120, radius = 3 },
        steer.program{ combine = "priority", collide = collide,
          { "avoid_walls", feeler_length = 22, weight = 8 },
          { "separation", radius = 10, falloff = "linear" }, { "wander" } })
      for _ = 1, SECONDS * 60 do world:step(1 / 60) end
      local function count(pos)
        local n = 0
        for k = 1, N do if inside(pos[2 * k - 1], pos[2 * k]) then n = n + 1 end end
        return n
      end
      -- positions by id: a step may reorder the agents
      local function by_id()
        local pos, ids, out = world:positions(), world:ids(), {}
        for k = 1, N do
          assert(ids[k] >= 1 and ids[k] <= N)
          out[2 * ids[k] - 1], out[2 * ids[k]] = pos[2 * k - 1], pos[2 * k]
        end
        return out
      end
      local before = by_id()
      local at_60 = count(before)
      world:step(0.5) -- a hitch: one long frame
      local after = by_id()
      runs[panel] = { before = before, after = after, at_60 = at_60, inside = count(after) }
    end
    local left, right = runs[1], runs[2]
    local c = canvas("collide: walls that stop bodies",
      ("%d wanderers (radius 3, max_speed 40 px/s; priority avoid_walls + linear separation + wander) in a room of 24 px tiles from walls_from_tiles, the same starts on both sides: %d s at 1/60 s (%s), then one 0.5 s frame, a hitch (grey: each agent's move in it). Red rings: centres inside a wall tile at the end. Left without collide, right with collide = true")
        :format(N, SECONDS, (left.at_60 + right.at_60 == 0) and "no centre is inside a wall tile on either side"
          or ("%d and %d centres inside a wall tile"):format(left.at_60, right.at_60)), 2 * W + 1, H + 1, 18)
    for panel, run in ipairs(runs) do
      local ox, oy = (panel - 1) * (W + 1), 1
      draw_tiles(c, solid, W, H, ox, oy)
      for k = 1, N do
        local x0, y0 = run.before[2 * k - 1] / T + ox, run.before[2 * k] / T + oy
        local x1, y1 = run.after[2 * k - 1] / T + ox, run.after[2 * k] / T + oy
        c:polyline({ { x0, y0 }, { x1, y1 } }, "#9aa3b5", 1)
      end
      draw_agents(c, run.after, N, T, ox, oy, inside)
      c:label(ox + 0.3, 0.75, ("%s: %d of %d centres inside a wall tile"):format(
        panel == 1 and "without collide" or "collide = true", run.inside, N),
        run.inside > 0 and RED or "#3a4050")
    end
    c:save("level-collide.svg")
  end

  -- ---- avoid_walls' whiskers -------------------------------------------------------

  function pictures.level_whiskers()
    local TW = 16 -- px a tile
    local HALL = {
      "################################",
      "#..............................#",
      "#..............................#",
      "#..............................#",
      "#..............................#",
      "#..........########............#",
      "#..........########............#",
      "#..........########............#",
      "#..............................#",
      "#..............................#",
      "#..............................#",
      "#..............................#",
      "#..............................#",
      "################################",
    }
    local solid, W, H = tiles_of(HALL)
    local N, SECONDS = 300, 10
    local function tile(x, y) return solid[math.floor(y / TW) * W + math.floor(x / TW) + 1] ~= 0 end
    -- within 5 px of a wall: a solid tile that near
    local function near_wall(x, y)
      for _, d in ipairs{ { 5, 0 }, { -5, 0 }, { 0, 5 }, { 0, -5 } } do
        if tile(x + d[1], y + d[2]) then return true end
      end
      return false
    end
    local runs = {}
    for panel, whiskers in ipairs{ false, true } do
      local s = 3 -- the same starts in both panels
      local function random() s = (s * 1103515245 + 12345) % 2147483648; return s / 2147483648 end
      local world = steer.world{ bounds = { W * TW, H * TW }, cell_size = 16, seed = 2 }
      world:add_walls(steer.walls_from_tiles(solid, W, H, TW))
      local xs, ys = {}, {}
      while #xs < N do
        local x, y = random() * W * TW, random() * H * TW
        if not tile(x, y) and not near_wall(x, y) then xs[#xs + 1], ys[#ys + 1] = x, y end
      end
      world:add_many({ x = xs, y = ys, radius = 3, max_speed = 40, max_force = 120,
        wander_distance = 20, wander_radius = 12, wander_jitter = 0.4 },
        steer.program{ combine = "priority",
          { "avoid_walls", feeler_length = 60, whiskers = whiskers }, { "wander" } })
      for a in world:agents() do -- headings and wander angles at random
        local t = random() * 2 * math.pi
        a.vx, a.vy, a.wander_angle = 10 * math.cos(t), 10 * math.sin(t), random() * 2 * math.pi
      end
      for _ = 1, SECONDS * 60 do world:step(1 / 60) end
      local pos = world:positions()
      local near = 0
      for k = 1, N do if near_wall(pos[2 * k - 1], pos[2 * k]) then near = near + 1 end end
      runs[panel] = { pos = pos, near = near }
    end
    local c = canvas("avoid_walls' whiskers",
      ("%d wanderers (radius 3 px, max_speed 40 px/s, max_force 120; priority of avoid_walls, feeler 60 px, and wander: distance 20, radius 12) in a hall of 16 px tiles, %d s at 1/60 s from the same starts. Left: one feeler along the velocity, which never crosses a wall the agent runs beside, so wander presses agents against the walls. Right: whiskers = true, two more feelers of 30 px at 45 degrees either side. Red rings: centres within 5 px of a wall")
        :format(N, SECONDS), 2 * W + 1, H + 1, 14)
    for panel, run in ipairs(runs) do
      local ox, oy = (panel - 1) * (W + 1), 1
      draw_tiles(c, solid, W, H, ox, oy)
      draw_agents(c, run.pos, N, TW, ox, oy, near_wall)
      c:label(ox + 0.3, 0.75, ("%s: %d of %d within 5 px of a wall"):format(
        panel == 1 and "one feeler" or "whiskers = true", run.near, N), run.near > 0 and RED or "#3a4050")
    end
    c:save("level-whiskers.svg")
  end

  -- ---- nav:path's clearance ------------------------------------------------------

  local MAZE = {
    "##################",
    "#........#.......#",
    "#........#.......#",
    "#..###...#...##..#",
    "#..###.......##..#",
    "#........#.......#",
    "#####.####...#####",
    "#........#.......#",
    "#...##...#...#...#",
    "#........#.......#",
    "##################",
  }

  function pictures.nav_clearance()
    local solid, W, H = tiles_of(MAZE)
    local nav = steer.navgrid{ width = W, height = H, cell_size = T, solid = solid }
    local r = 8 -- a guard's radius, in px
    local p1, p2 = { 1.7 * T, 8.6 * T }, { 16.4 * T, 8.5 * T } -- not cell centres
    -- the distance from (x, y) to the nearest blocked tile's square
    local function gap(x, y)
      local best = math.huge
      for row = 0, H - 1 do
        for col = 0, W - 1 do
          if solid[row * W + col + 1] ~= 0 then
            local dx = math.max(col * T - x, 0, x - (col + 1) * T)
            local dy = math.max(row * T - y, 0, y - (row + 1) * T)
            best = math.min(best, math.sqrt(dx * dx + dy * dy))
          end
        end
      end
      return best
    end
    local c
    local panels = {}
    for panel, opts in ipairs({ { smooth = true }, { smooth = true, clearance = r } }) do
      local path, length = assert(nav:path(p1, p2, opts))
      local pts = {}
      for k = 1, #path do pts[k] = { path:point(k) } end
      -- the body swept along the path, sampled every px
      local samples, closest, grazing = {}, math.huge, 0
      for k = 1, #pts - 1 do
        local ax, ay, bx, by = pts[k][1], pts[k][2], pts[k + 1][1], pts[k + 1][2]
        local n = math.max(1, math.ceil(math.sqrt((bx - ax) ^ 2 + (by - ay) ^ 2)))
        for i = 0, n - 1 do
          local x, y = ax + (bx - ax) * i / n, ay + (by - ay) * i / n
          local d = gap(x, y)
          closest = math.min(closest, d)
          if d < r then grazing = grazing + 1 end
          samples[#samples + 1] = { x, y, d }
        end
      end
      panels[panel] = { pts = pts, samples = samples, closest = closest, grazing = grazing,
        length = length, opts = opts }
    end
    local left, right = panels[1], panels[2]
    c = canvas("nav:path with clearance",
      ("a guard of radius %d px (circles: its body along the path) in a maze of 24 px tiles (steer.navgrid{ solid = tiles }). Left, nav:path(p1, p2, { smooth = true }): the string-pulled path grazes the tile corners, its body over them (red) along %d px, %.1f px from the nearest one; right, with clearance = %d: it keeps %.0f px (%.0f and %.0f px long). Both start exactly on p1 (ring) and end exactly on p2 (cross), not on their cells' centres")
        :format(r, left.grazing, left.closest, r, right.closest, left.length, right.length),
      2 * W + 1, H + 1, 20)
    for panel, p in ipairs(panels) do
      local ox, oy = (panel - 1) * (W + 1), 1
      local function at(x, y) return x / T + ox, y / T + oy end
      draw_tiles(c, solid, W, H, ox, oy)
      -- the swept body: a band 2r wide, then the body every 12 px, red where it
      -- overlaps a blocked tile
      local band = {}
      for k, q in ipairs(p.pts) do band[k] = { at(q[1], q[2]) } end
      c:raw(('<g opacity="0.22">'))
      c:polyline(band, COLORS[2], 2 * r / T * c.s)
      c:raw("</g>")
      for i = 1, #p.samples, 12 do
        local q = p.samples[i]
        local x, y = at(q[1], q[2])
        if q[3] >= r then ring(c, x, y, r / T, "#7fb0e4", 1) end
      end
      for i = 1, #p.samples, 3 do
        local q = p.samples[i]
        if q[3] < r then
          local x, y = at(q[1], q[2])
          ring(c, x, y, r / T, RED, 1)
        end
      end
      c:polyline(band, COLORS[2], 2)
      for _, q in ipairs(band) do c:dot(q[1], q[2], 3, COLORS[2]) end
      local sx, sy = at(p1[1], p1[2])
      ring(c, sx, sy, 0.3, "#1d2230", 1.5)
      c:label(sx - 0.25, sy + 0.95, "p1", "#1d2230")
      local gx, gy = at(p2[1], p2[2])
      c:target(gx, gy, "#1d2230")
      c:label(gx - 0.35, gy + 0.95, "p2", "#1d2230")
      c:label(ox + 0.3, 0.75, panel == 1 and "{ smooth = true }"
        or ("{ smooth = true, clearance = %d }"):format(r),
        panel == 1 and RED or "#3a4050")
    end
    c:save("nav-clearance.svg")
  end

  -- ---- nav:inflated: a grid for big units ------------------------------------------

  local ROOMS = {
    "######################",
    "#..........#.........#",
    "#..........#.........#",
    "#....................#",
    "#..........#.........#",
    "#...####...#...###...#",
    "#...#......#.........#",
    "#..........#.........#",
    "#....................#",
    "#....................#",
    "#....................#",
    "######################",
  }

  function pictures.nav_inflated()
    local solid, W, H = tiles_of(ROOMS)
    local nav = steer.navgrid{ width = W, height = H, cell_size = T, solid = solid }
    local r = 15 -- the big unit's radius in px: 30 px across, wider than a 24 px door
    local big_nav = nav:inflated(r)
    local p1, p2 = { 3.5 * T, 2.5 * T }, { 17.5 * T, 2.5 * T }
    local function gap(x, y) -- from (x, y) px to the nearest wall tile's square
      local best = math.huge
      for row = 0, H - 1 do
        for col = 0, W - 1 do
          if solid[row * W + col + 1] ~= 0 then
            local dx = math.max(col * T - x, 0, x - (col + 1) * T)
            local dy = math.max(row * T - y, 0, y - (row + 1) * T)
            best = math.min(best, math.sqrt(dx * dx + dy * dy))
          end
        end
      end
      return best
    end
    local panels = {}
    for panel, grid in ipairs({ nav, big_nav }) do
      local path, length = assert(grid:path(p1, p2))
      local pts, samples, closest, grazing = {}, {}, math.huge, 0
      for k = 1, #path do pts[k] = { path:point(k) } end
      for k = 1, #pts - 1 do
        local ax, ay, bx, by = pts[k][1], pts[k][2], pts[k + 1][1], pts[k + 1][2]
        local n = math.max(1, math.ceil(math.sqrt((bx - ax) ^ 2 + (by - ay) ^ 2)))
        for i = 0, n do
          local x, y = ax + (bx - ax) * i / n, ay + (by - ay) * i / n
          local d = gap(x, y)
          closest = math.min(closest, d)
          if d < r then grazing = grazing + 1 end
          samples[#samples + 1] = { x, y, d }
        end
      end
      panels[panel] = { pts = pts, samples = samples, closest = closest, grazing = grazing,
        length = length }
    end
    local left, right = panels[1], panels[2]
    local c = canvas("nav:inflated: a grid for big units",
      ("a unit of radius %d px (30 px across) in rooms of 24 px tiles with doors 1 and 3 tiles wide. Left, nav:path on the tile grid: the shortest path (%.0f px) takes the 1-tile doors, where the unit's body overlaps the walls (red) along %d px. Right, on nav:inflated(%d): every cell whose centre is nearer than %d px to a wall is blocked too (light), so the path (%.0f px) goes by the 3-tile doors and keeps %.1f px from every wall. An exact distance transform, O(cells) whatever the radius")
        :format(r, left.length, left.grazing, r, r, right.length, right.closest),
      2 * W + 1, H + 1, 20)
    for panel, p in ipairs(panels) do
      local ox, oy = (panel - 1) * (W + 1), 1
      local function at(x, y) return x / T + ox, y / T + oy end
      if panel == 2 then -- the cells the inflation blocks
        for row = 0, H - 1 do
          for col = 0, W - 1 do
            if big_nav:cost(col, row) == 0 and solid[row * W + col + 1] == 0 then
              c:raw(('<rect x="%s" y="%s" width="%s" height="%s" fill="#d5dae6"/>'):format(
                c:x(ox + col), c:y(oy + row), num(c.s), num(c.s)))
            end
          end
        end
      end
      draw_tiles(c, solid, W, H, ox, oy)
      local band = {}
      for k, q in ipairs(p.pts) do band[k] = { at(q[1], q[2]) } end
      c:raw('<g opacity="0.22">')
      c:polyline(band, COLORS[2], 2 * r / T * c.s)
      c:raw("</g>")
      for i = 1, #p.samples, 12 do
        local q = p.samples[i]
        local x, y = at(q[1], q[2])
        if q[3] >= r then ring(c, x, y, r / T, "#7fb0e4", 1) end
      end
      for i = 1, #p.samples, 3 do
        local q = p.samples[i]
        if q[3] < r then
          local x, y = at(q[1], q[2])
          ring(c, x, y, r / T, RED, 1)
        end
      end
      c:polyline(band, COLORS[2], 2)
      for _, q in ipairs(band) do c:dot(q[1], q[2], 3, COLORS[2]) end
      local sx, sy = at(p1[1], p1[2])
      ring(c, sx, sy, 0.3, "#1d2230", 1.5)
      c:label(sx - 0.25, sy + 0.95, "p1", "#1d2230")
      local gx, gy = at(p2[1], p2[2])
      c:target(gx, gy, "#1d2230")
      c:label(gx - 0.35, gy + 0.95, "p2", "#1d2230")
      c:label(ox + 0.3, 0.75, panel == 1 and "nav:path(p1, p2)"
        or ("nav:inflated(%d):path(p1, p2)"):format(r), panel == 1 and RED or "#3a4050")
    end
    c:save("nav-inflated.svg")
  end
end
