-- Formation slots fitted to the level (docs/API.md 17.3, `fit`): out of the
-- obstacles a slot lies in, then back to the anchor's side of the first wall
-- between them. Hand-computed cases, then a brute-force oracle on random
-- levels (bounded and wrapped worlds).
local steer = require "steer"

local function near(a, b, tol, what)
  if math.abs(a - b) > tol then
    error(("%s: expected %.17g, got %.17g"):format(what, b, a), 2)
  end
end

local function slot_at(f, k, x, y, tol)
  local sx, sy = f:slot_position(k)
  near(sx, x, tol or 1e-8, "slot " .. k .. " x")
  near(sy, y, tol or 1e-8, "slot " .. k .. " y")
end

describe("formation fit (17.3)", function()
  it("is on by default, and set_fit / fits switch it", function()
    local w = steer.world{}
    local leader = w:add{ x = 0, y = 0 }
    local f = steer.formation{ anchor = leader, slots = { { -5, 0 } } }
    assert.is_true(f:fits())
    w:add_obstacle{ x = -5.2, y = 0, radius = 1 }
    slot_at(f, 1, -4.2, 0)          -- no holder: radius 0, out to 1 from the centre
    f:set_fit(false)
    assert.is_false(f:fits())
    slot_at(f, 1, -5, 0, 0)         -- the slot as given
    assert.is_false(steer.formation{ anchor = leader, slots = {}, fit = false }:fits())
  end)

  it("pushes a slot out of a rock by the holder's radius", function()
    local w = steer.world{}
    local leader = w:add{ x = 0, y = 0 }
    local f = steer.formation{ anchor = leader, slots = { { -5, 0 }, { -10, 0 } } }
    local m = w:add{ x = -5, y = 0, radius = 0.5 }
    m:set_behaviors{ { "formation", formation = f } }
    assert.equal(1, f:slot_of(m))
    w:add_obstacle{ x = -5.2, y = 0, radius = 1 }   -- slot 1 is 0.2 from its centre
    w:add_obstacle{ x = -10, y = 0, radius = 1 }    -- slot 2 on the centre: toward the anchor
    slot_at(f, 1, -5.2 + 1.5, 0)
    slot_at(f, 2, -9, 0)
    -- a member standing on its fitted slot, the leader at rest: no force
    m.x, m.y = f:slot_position(1)
    local fx, fy = m:formation(f)
    near(fx, 0, 1e-6, "fx"); near(fy, 0, 1e-6, "fy")
    -- and at the slot as given it is pulled out of the rock, toward +x
    m.x, m.y = -5, 0
    fx = m:formation(f)
    assert.is_true(fx > 0)
  end)

  it("brings a slot back to the anchor's side of a wall, its radius from the line", function()
    local w = steer.world{}
    local leader = w:add{ x = 0, y = 0 }
    local f = steer.formation{ anchor = leader, slots = { { 0, 5 }, { 4, 4 }, { 0, -5 } } }
    local m = w:add{ x = 0, y = 5, radius = 0.5 }
    m:set_behaviors{ { "formation", formation = f } }
    local m2 = w:add{ x = 4, y = 4, radius = 0.5 }
    m2:set_behaviors{ { "formation", formation = f } }
    assert.equal(1, f:slot_of(m)); assert.equal(2, f:slot_of(m2))
    w:add_wall{ x1 = -4, y1 = 3, x2 = 4, y2 = 3 }
    slot_at(f, 1, 0, 2.5)
    -- aslant at 45 degrees: crossing at (3, 3), backed off 0.5 / cos 45 along the ray
    slot_at(f, 2, 2.5, 2.5)
    slot_at(f, 3, 0, -5, 0)          -- nothing between: as given, bit for bit
    -- the frame turns with the leader: facing +y, slot (0, 5) lies at (-5, 0)
    leader.angle = math.pi / 2
    w:add_wall{ x1 = -2, y1 = -4, x2 = -2, y2 = 4 }
    slot_at(f, 1, -1.5, 0)
  end)

  it("pulls a slot behind the anchor itself back to the anchor", function()
    local w = steer.world{}
    local leader = w:add{ x = 0, y = 0 }
    local f = steer.formation{ anchor = leader, slots = { { 0, 5 } } }
    local m = w:add{ x = 0, y = 5, radius = 2 }
    m:set_behaviors{ { "formation", formation = f } }
    w:add_wall{ x1 = -4, y1 = 1, x2 = 4, y2 = 1 }   -- 1 away, the body needs 2
    slot_at(f, 1, 0, 0, 0)
  end)

  it("works across a torus's seam", function()
    local w = steer.world{ bounds = { 20, 20 }, wrap = true }
    local leader = w:add{ x = 19, y = 10 }
    local f = steer.formation{ anchor = leader, slots = { { 2, 0 }, { 3, 5 } } }
    local m = w:add{ x = 1, y = 10, radius = 0.5 }
    m:set_behaviors{ { "formation", formation = f } }
    assert.equal(1, f:slot_of(m))
    w:add_obstacle{ x = 1, y = 10, radius = 1 }     -- slot 1 (21, 10) on its centre
    slot_at(f, 1, 19 + 0.5, 10)                     -- 1.5 from (21, 10), toward the anchor
    w:add_wall{ x1 = 1, y1 = 12, x2 = 1, y2 = 18 }  -- slot 2 (22, 15) behind it: radius 0
    slot_at(f, 2, 21, 10 + 10 / 3)                  -- crossing x = 21 two thirds along
    -- farther than half the world: no single way to it, so as given
    local far = steer.formation{ anchor = leader, slots = { { 11, 0 } } }
    slot_at(far, 1, 30, 10, 0)
  end)

  it("validates fit and set_fit", function()
    local w = steer.world{}
    local leader = w:add{ x = 0, y = 0 }
    local ok, err = pcall(steer.formation, { anchor = leader, slots = {}, fit = 1 })
    assert.is_false(ok)
    assert.matches("bad argument #1 to 'formation' %('fit' must be a boolean, got number%)", err)
    local f = steer.formation{ anchor = leader, slots = {} }
    ok, err = pcall(f.set_fit, f, "yes")
    assert.is_false(ok)
    assert.matches("bad argument #1 to 'set_fit' %(boolean expected, got string%)", err)
  end)

  -- The rule of 17.3, written out over every obstacle and wall.
  local function offset(kind, W, H, ax, ay, bx, by)
    local dx, dy = bx - ax, by - ay
    if kind == "torus" then
      dx = dx - W * math.floor(dx / W + 0.5)
      dy = dy - H * math.floor(dy / H + 0.5)
    end
    return dx, dy
  end
  local function cross(ax, ay, bx, by) return ax * by - ay * bx end
  local function brute_fit(kind, W, H, rocks, walls, ax, ay, ox, oy, r)
    if kind == "torus" and (math.abs(ox) > W / 2 or math.abs(oy) > H / 2) then return ox, oy end
    local sx, sy = ox, oy -- from the anchor
    for _ = 1, 4 do
      local best, bd, bx, by
      for k, o in ipairs(rocks) do
        local dx, dy = offset(kind, W, H, o.x, o.y, ax + sx, ay + sy)
        local d = math.sqrt(dx * dx + dy * dy)
        if d < o.r + r and (not best or d < bd) then best, bd, bx, by = o, d, dx, dy end
      end
      if not best then break end
      local ux, uy
      if bd > 0 then ux, uy = bx / bd, by / bd else
        local l = math.sqrt(sx * sx + sy * sy)
        ux, uy = -sx / l, -sy / l
      end
      local reach = (best.r + r) * (1 + 1e-9)
      sx, sy = sx - bx + ux * reach, sy - by + uy * reach
    end
    if kind == "torus" and (math.abs(sx) > W / 2 or math.abs(sy) > H / 2) then return ox, oy end
    local t, nx, ny
    for _, wl in ipairs(walls) do
      -- the wall's image nearest the anchor (walls here are short)
      local x1, y1 = offset(kind, W, H, ax, ay, wl[1], wl[2])
      local x2, y2 = x1 + wl[3] - wl[1], y1 + wl[4] - wl[2]
      local images = { { 0, 0 } }
      if kind == "torus" then
        for i = -1, 1 do for j = -1, 1 do
          if i ~= 0 or j ~= 0 then images[#images + 1] = { i * W, j * H } end
        end end
      end
      for _, s in ipairs(images) do
        local px, py, qx, qy = x1 + s[1], y1 + s[2], x2 - x1, y2 - y1
        local den = cross(sx, sy, qx, qy)
        if den ~= 0 then
          local tt, u = cross(px, py, qx, qy) / den, cross(px, py, sx, sy) / den
          if tt >= 0 and tt <= 1 and u >= 0 and u <= 1 and (not t or tt < t) then
            local l = math.sqrt(qx * qx + qy * qy)
            t, nx, ny = tt, -qy / l, qx / l
          end
        end
      end
    end
    if t then
      local len = math.sqrt(sx * sx + sy * sy)
      local slant = math.abs(sx * nx + sy * ny) / len
      local at = t * len - r * (1 + 1e-9) / slant
      if at > 0 then sx, sy = sx * at / len, sy * at / len else sx, sy = 0, 0 end
    end
    return sx, sy
  end

  for _, kind in ipairs{ "free", "torus" } do
    it("gives what the rule gives over every shape (random levels, " .. kind .. ")", function()
      local W, H = 60, 40
      local seed = 7
      local function rand()
        seed = (seed * 1103515245 + 12345) % 2147483648
        return seed / 2147483648
      end
      local moved, checked = 0, 0
      for level = 1, 12 do
        local w = steer.world(kind == "torus" and { bounds = { W, H }, wrap = true } or {})
        local rocks, walls = {}, {}
        for _ = 1, 25 do
          local o = { x = rand() * W, y = rand() * H, r = 0.3 + rand() * 2.5 }
          rocks[#rocks + 1] = o
          w:add_obstacle{ x = o.x, y = o.y, radius = o.r }
        end
        for _ = 1, 15 do
          local x, y, a, l = rand() * W, rand() * H, rand() * 2 * math.pi, 1 + rand() * 8
          local wl = { x, y, x + math.cos(a) * l, y + math.sin(a) * l }
          walls[#walls + 1] = wl
          w:add_wall{ x1 = wl[1], y1 = wl[2], x2 = wl[3], y2 = wl[4] }
        end
        local ax, ay = rand() * W, rand() * H
        local leader = w:add{ x = ax, y = ay, angle = rand() * 2 * math.pi }
        local slots = {}
        for k = 1, 16 do slots[k] = { (rand() - 0.5) * 24, (rand() - 0.5) * 24 } end
        local f = steer.formation{ anchor = leader, slots = slots }
        local members = {}
        for k = 1, 8 do
          local m = w:add{ x = rand() * W, y = rand() * H, radius = rand() * 1.5 }
          m:set_behaviors{ { "formation", formation = f } }
          members[k] = m
        end
        local radius_of = {}
        for _, m in ipairs(members) do radius_of[f:slot_of(m)] = m.radius end
        local c, s = math.cos(leader.angle), math.sin(leader.angle)
        for k = 1, #slots do
          local ox = c * slots[k][1] - s * slots[k][2]
          local oy = s * slots[k][1] + c * slots[k][2]
          local ex, ey = brute_fit(kind, W, H, rocks, walls, ax, ay, ox, oy, radius_of[k] or 0)
          local gx, gy = f:slot_position(k)
          local rx, ry = ax + c * slots[k][1] - s * slots[k][2], ay + s * slots[k][1] + c * slots[k][2]
          if math.abs(gx - rx) > 1e-9 or math.abs(gy - ry) > 1e-9 then moved = moved + 1 end
          near(gx, ax + ex, 1e-7, ("level %d slot %d x"):format(level, k))
          near(gy, ay + ey, 1e-7, ("level %d slot %d y"):format(level, k))
          checked = checked + 1
        end
      end
      -- the levels exercise the rule: a good share of the slots move
      assert.equal(192, checked)
      assert.is_true(moved >= 30, "only " .. moved .. " slots moved")
    end)
  end
end)
