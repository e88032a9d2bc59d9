-- offset_pursuit's slot fitted to the level (docs/API.md 17.1, `fit`): the
-- same fitting as a formation's slots (17.3). Hand-computed cases, a
-- one-slot formation as the oracle on random levels (bounded and wrapped
-- worlds, methods and program entries), fit = false, errors and snapshots.
local steer = require "steer"
local support = require "support"

local same, vec_near = support.same_vec, support.vec_near

describe("offset_pursuit fit (17.1)", function()
  it("pulls a slot beyond a wall back to the leader's side, by the escort's radius", function()
    local w = steer.world{}
    w:add_wall{ x1 = -10, y1 = 2, x2 = 10, y2 = 2 }
    local leader = w:add{ x = 0, y = 0, vx = 1, vy = 0 }
    local e = w:add{ x = -2, y = -1, radius = 0.5, max_speed = 2, max_force = 10 }
    -- the slot (0, 4) lies 2 past the wall at y = 2: the ray from the leader
    -- meets it at y = 2, square on, so the fitted slot is (0, 2 - 0.5)
    local fx, fy = e:offset_pursuit(leader, 0, 4)
    local gx, gy = e:offset_pursuit(leader, 0, 1.5, 2, false)
    vec_near(fx, fy, gx, gy, 1e-9, "fitted against the slot (0, 1.5)")
    local rx, ry = e:offset_pursuit(leader, 0, 4, 2, false)
    assert.is_true(math.abs(rx - fx) + math.abs(ry - fy) > 0.05, "fit changes the force")
    -- a slot on the leader's side stays as given, to the bit
    local sx, sy = e:offset_pursuit(leader, 0, 1)
    same("a slot short of the wall", sx, sy, e:offset_pursuit(leader, 0, 1, 2, false))
  end)

  it("pushes a slot out of a rock, toward the leader when on its centre", function()
    local w = steer.world{}
    w:add_obstacle{ x = 3, y = -3, radius = 1 }
    local leader = w:add{ x = 0, y = 0 }
    local e = w:add{ x = 6, y = 0, radius = 0.5, max_speed = 2, max_force = 10 }
    -- on the centre: out toward the leader, to touching (1 + 0.5) and a hair
    local d = 1.5 * (1 + 1e-9) / math.sqrt(2)
    local ox, oy = e:offset_pursuit(leader, 3, -3)
    local gx, gy = e:offset_pursuit(leader, 3 - d, -3 + d, 2, false)
    vec_near(ox, oy, gx, gy, 1e-9, "out of the rock")
    -- beside the centre: straight out along the offset from it
    local fx, fy = e:offset_pursuit(leader, { 3.5, -3 })
    gx, gy = e:offset_pursuit(leader, 3 + 1.5 * (1 + 1e-9), -3, 2, false)
    vec_near(fx, fy, gx, gy, 1e-9, "beside the centre")
  end)

  it("equals a one-slot formation's member on random levels (methods and entries)", function()
    local rand = support.random(7)
    local checked, moved = 0, 0
    for round = 1, 24 do
      local w, leader, _, side = support.fit_level(steer, rand, round)
      for _ = 1, 10 do
        local ox, oy = rand() * 16 - 8, rand() * 16 - 8
        local e = w:add{ x = rand() * side, y = rand() * side, radius = rand(), max_speed = 2, max_force = 5 }
        local f = steer.formation{ anchor = leader, slots = { { ox, oy } } }
        e:set_behaviors{ { "formation", formation = f } }
        local fx, fy = e:formation(f)
        same("method against the formation", fx, fy, e:offset_pursuit(leader, ox, oy))
        local rx, ry = e:offset_pursuit(leader, ox, oy, 2, false)
        if rx ~= fx or ry ~= fy then moved = moved + 1 end
        e:set_behaviors{ { "offset_pursuit", target = leader, offset = { ox, oy } } }
        same("entry against the method", fx, fy, e:steering())
        e:set_behaviors{ { "offset_pursuit", target = leader, offset = { ox, oy }, fit = false } }
        same("entry, fit = false", rx, ry, e:steering())
        checked = checked + 1
      end
      w:close()
    end
    assert.are.equal(240, checked)
    assert.is_true(moved > 20, "fitting moved " .. moved .. " slots of 240")
  end)

  it("steps an escort as a formation steps its member, bit for bit", function()
    local function run(kind)
      local w = steer.world{ bounds = { 30, 30 }, wrap = true }
      w:add_wall{ x1 = 5, y1 = 12, x2 = 25, y2 = 12 }
      w:add_obstacle{ x = 15, y = 6, radius = 2 }
      local leader = w:add{ x = 10, y = 9, vx = 1, vy = 0, max_speed = 1 }
      leader:set_behaviors{ { "seek", target = { 25, 9 } } }
      local e = w:add{ x = 8, y = 8, radius = 0.5, max_speed = 2, max_force = 4 }
      if kind == "formation" then
        e:set_behaviors{ { "avoid_walls" }, { "formation", formation = steer.formation{ anchor = leader,
          slots = { { 0, 4 } } } }, combine = "priority" }
      else
        e:set_behaviors{ { "avoid_walls" }, { "offset_pursuit", target = leader, offset = { 0, 4 } },
          combine = "priority" }
      end
      local trace = {}
      for _ = 1, 60 do
        w:step(0.1)
        trace[#trace + 1] = ("%a %a"):format(e.x, e.y)
      end
      return table.concat(trace, " "), e
    end
    local a = run("formation")
    local b, e = run("offset_pursuit")
    assert.are.equal(a, b)
    assert.is_true(e.y < 12, "the escort stays on the leader's side of the wall")
  end)

  it("is off with fit = false: the slot as given, as without geometry", function()
    local w, bare = steer.world{}, steer.world{}
    w:add_wall{ x1 = -10, y1 = 2, x2 = 10, y2 = 2 }
    local l1, l2 = w:add{ vx = 1 }, bare:add{ vx = 1 }
    local e1 = w:add{ x = -2, y = -1, radius = 0.5 }
    local e2 = bare:add{ x = -2, y = -1, radius = 0.5 }
    local bx, by = e2:offset_pursuit(l2, 0, 4)
    same("method", bx, by, e1:offset_pursuit(l1, 0, 4, 2, false))
    e1:set_behaviors{ { "offset_pursuit", target = l1, offset = { 0, 4 }, fit = false } }
    assert.is_false(e1:behaviors()[1].fit)
    same("entry", bx, by, e1:steering())
    e1:set_behaviors{ { "offset_pursuit", target = l1, offset = { 0, 4 } } }
    assert.is_true(e1:behaviors()[1].fit, "on by default")
  end)

  it("never overflows at the limits", function()
    local w = steer.world{}
    w:add_wall{ x1 = -1e150, y1 = 1e150, x2 = 1e150, y2 = -1e150 }
    w:add_obstacle{ x = 1e150, y = 1e150, radius = 1e149 }
    local leader = w:add{ x = -1e150, y = 1e150, vx = 1e150, angle = 1 }
    local e = w:add{ x = 1e150, y = -1e150, radius = 1e150 }
    for _, o in ipairs{ { 1e150, 1e150 }, { -1e150, 0 }, { 0, 0 }, { 3e149, -2e149 } } do
      support.all_finite(e:offset_pursuit(leader, o[1], o[2]))
      support.all_finite(e:offset_pursuit({ 1e150, 1e150 }, o[1], o[2], 1e150))
    end
  end)

  it("raises naming the function and argument", function()
    local w = steer.world{}
    local leader, e = w:add{}, w:add{}
    assert.matches("bad argument #5 to 'offset_pursuit' %(fit must be a boolean, got number%)",
      support.error_of(e.offset_pursuit, e, leader, 0, 4, 2, 1))
    assert.matches("bad argument #4 to 'offset_pursuit' %(fit must be a boolean, got string%)",
      support.error_of(e.offset_pursuit, e, leader, { 0, 4 }, 2, "yes"))
    assert.matches("bad argument #6 to 'offset_pursuit'",
      support.error_of(e.offset_pursuit, e, leader, 0, 4, 2, true, 1))
    assert.matches("entry 1 %('offset_pursuit'%): fit must be a boolean, got number",
      support.error_of(e.set_behaviors, e, { { "offset_pursuit", target = leader, offset = { 0, 1 }, fit = 1 } }))
    assert.matches("entry 1 %('seek'%): unknown parameter 'fit'",
      support.error_of(e.set_behaviors, e, { { "seek", target = leader, fit = true } }))
  end)

  it("is kept by snapshots (version 13 on), and version 12's entries ran without it", function()
    local w = steer.world{}
    w:add_wall{ x1 = -10, y1 = 2, x2 = 10, y2 = 2 }
    local leader = w:add{ vx = 1 }
    local a, b = w:add{ x = -2, y = -1 }, w:add{ x = 2, y = -1 }
    a:set_behaviors{ { "seek", target = { 5, 5 } }, { "offset_pursuit", target = leader, offset = { 0, 4 },
      fit = false } }
    b:set_behaviors{ { "offset_pursuit", target = leader, offset = { 0, 4 } } }
    local s = w:snapshot()
    assert.are.equal("\15\0\0\0", s:sub(9, 12))
    local c = assert(steer.restore(s))
    assert.are.equal(s, c:snapshot())
    local ca, cb = c:get(a.id), c:get(b.id)
    assert.is_false(ca:behaviors()[2].fit)
    assert.is_true(ca:behaviors()[1].fit == nil)
    assert.is_true(cb:behaviors()[1].fit)
    local ax, ay = a:steering()
    same("restored a", ax, ay, ca:steering())
    local bx, by = b:steering()
    same("restored b", bx, by, cb:steering())
    -- the table, before the programs: one entry, program 0 (a's), entry 1
    local at = support.grids_at(s) + 16
    assert.are.same({ 1, 0, 1 }, { support.u64(s, at), support.u64(s, at + 8), support.u64(s, at + 16) })
    if support.fnv then
      local function refused(pos, bytes, what)
        local r, msg = steer.restore(support.forge(s, pos, bytes))
        assert.is_nil(r, what)
        assert.are.equal("snapshot refers to a missing entry", msg, what)
      end
      refused(at + 16, "\2", "entry 2 of a's two")
      refused(at + 8, "\9", "program 9")
      -- version 12 wrote no table, and its offset_pursuit ran without fit
      b:set_behaviors{ { "offset_pursuit", target = leader, offset = { 0, 4 } } }
      a:set_behaviors{ { "offset_pursuit", target = leader, offset = { 0, 4 } } }
      local v12 = support.before_fit(w:snapshot())
      local old = assert(steer.restore(v12))
      assert.is_false(old:get(b.id):behaviors()[1].fit)
      local rx, ry = b:offset_pursuit(leader, 0, 4, 2, false)
      same("version 12's escort", rx, ry, old:get(b.id):steering())
    end
  end)
end)
