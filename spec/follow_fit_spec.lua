-- follow_leader's spot behind the leader fitted to the level (docs/API.md
-- 17.2, `fit`): the spot offset_pursuit would hold at (-distance, 0) of the
-- leader's frame, fitted as its slot is (17.1). Hand-computed cases,
-- offset_pursuit as the oracle on random levels (methods and entries),
-- fit = false, errors and snapshots (version 14 on; version 13's followers
-- ran without it).
local steer = require "steer"
local support = require "support"

local same, vec_near = support.same_vec, support.vec_near

describe("follow_leader fit (17.2)", function()
  it("pulls the spot behind a wall back to the leader's side, by the follower's radius", function()
    local w = steer.world{}
    w:add_wall{ x1 = -1, y1 = -10, x2 = -1, y2 = 10 }
    local leader = w:add{ x = 0, y = 0, vx = 1, vy = 0 }
    local f = w:add{ x = -0.5, y = -3, radius = 0.5, max_speed = 2, max_force = 10 }
    -- the spot (-2, 0) lies 1 past the wall at x = -1: the ray from the
    -- leader meets it square on, so the fitted spot is (-1 + 0.5, 0); the
    -- follower is 3.9 from the point 2 ahead (2, 0): not in the way
    local fx, fy = f:follow_leader(leader, 2, 0)
    local gx, gy = f:offset_pursuit(leader, -0.5, 0, 2, false)
    vec_near(fx, fy, gx, gy, 1e-9, "fitted, against offset_pursuit of (-0.5, 0)")
    local rx, ry = f:follow_leader(leader, 2, 0, 2, false)
    same("fit = false, against offset_pursuit of (-2, 0)", rx, ry, f:offset_pursuit(leader, -2, 0, 2, false))
    assert.is_true(math.abs(rx - fx) + math.abs(ry - fy) > 0.05, "fit changes the force")
    -- a spot on the leader's side stays as given, to the bit
    local sx, sy = f:follow_leader(leader, 0.8, 0)
    same("a spot short of the wall", sx, sy, f:follow_leader(leader, 0.8, 0, 2, false))
  end)

  it("pushes the spot out of a rock", function()
    local w = steer.world{}
    w:add_obstacle{ x = -2.5, y = 0, radius = 1 }
    local leader = w:add{ x = 0, y = 0, vx = 1 }
    local f = w:add{ x = -3, y = -4, radius = 0.5, max_speed = 2, max_force = 10 }
    -- the spot (-2, 0) lies 0.5 from the centre, inside: straight out along
    -- the offset from the centre, to touching (1 + 0.5) and a hair
    local fx, fy = f:follow_leader(leader, 2, 0)
    local gx, gy = f:offset_pursuit(leader, -2.5 + 1.5 * (1 + 1e-9), 0, 2, false)
    vec_near(fx, fy, gx, gy, 1e-9, "out of the rock")
  end)

  it("still steps aside when in front of the leader", function()
    local w = steer.world{}
    w:add_wall{ x1 = -1, y1 = -10, x2 = -1, y2 = 10 }
    local leader = w:add{ x = 0, y = 0, vx = 1 }
    local f = w:add{ x = 3, y = 0.5, max_speed = 2, max_force = 10 }
    -- as without walls (tactics_spec): A = (2, 0), |p - A| < 2, on the left
    same("left", 0, 2, f:follow_leader(leader))
  end)

  it("equals offset_pursuit of the spot behind on random levels (methods and entries)", function()
    local rand = support.random(11)
    local checked, moved = 0, 0
    for round = 1, 24 do
      local w, leader, wrap, side = support.fit_level(steer, rand, round)
      local n = 0
      while n < 10 do
        local d, slowing = 1 + rand() * 6, 0.5 + rand() * 3
        local f = w:add{ x = rand() * side, y = rand() * side, radius = rand(), max_speed = 2, max_force = 5 }
        -- the step-aside case is not offset pursuit: leave such followers out
        local ax, ay = leader.x + d * math.cos(leader.angle), leader.y + d * math.sin(leader.angle)
        local dx, dy = f.x - ax, f.y - ay
        if wrap then dx, dy = dx - side * math.floor(dx / side + 0.5), dy - side * math.floor(dy / side + 0.5) end
        if math.sqrt(dx * dx + dy * dy) > d + 1e-6 then
          n = n + 1
          local fx, fy = f:follow_leader(leader, d, 0, slowing)
          -- at rest, the force (at most max_speed 2) is below max_force 5:
          -- neither clamp changes it, so the same bits
          same("method against offset_pursuit", fx, fy, f:offset_pursuit(leader, -d, 0, slowing))
          local rx, ry = f:follow_leader(leader, d, 0, slowing, false)
          same("fit = false", rx, ry, f:offset_pursuit(leader, -d, 0, slowing, false))
          if rx ~= fx or ry ~= fy then moved = moved + 1 end
          f:set_behaviors{ { "follow_leader", target = leader, distance = d, radius = 0, slowing_radius = slowing } }
          same("entry against the method", fx, fy, f:steering())
          f:set_behaviors{ { "follow_leader", target = leader, distance = d, radius = 0, slowing_radius = slowing,
            fit = false } }
          same("entry, fit = false", rx, ry, f:steering())
          checked = checked + 1
        end
        w:remove(f)
      end
      w:close()
    end
    assert.are.equal(240, checked)
    assert.is_true(moved > 10, "fitting moved " .. moved .. " spots of 240")
  end)

  it("keeps a follower on the leader's side of a wall over a walk", function()
    local function run(fit)
      local w = steer.world{ bounds = { 30, 30 } }
      w:add_wall{ x1 = 2, y1 = 12, x2 = 28, y2 = 12 }
      local leader = w:add{ x = 6, y = 10, vx = 0, vy = -1, angle = -math.pi / 2, max_speed = 1 }
      leader:set_behaviors{ { "seek", target = { 6, 2 } } }
      local f = w:add{ x = 6, y = 11, radius = 0.5, max_speed = 2, max_force = 4 }
      f:set_behaviors{ { "avoid_walls" }, { "follow_leader", target = leader, distance = 4, fit = fit },
        combine = "priority" }
      local highest = f.y
      for _ = 1, 40 do
        w:step(0.1)
        highest = math.max(highest, f.y)
      end
      return highest
    end
    -- the spot 4 behind a leader walking away from the wall starts 2 past
    -- it; fitted, the follower never reaches the wall
    assert.is_true(run(true) < 12 - 0.5 + 1e-9, "fitted: short of the wall by the radius")
    assert.is_true(run(false) > run(true), "unfitted, the follower heads for the wall")
  end)

  it("is off with fit = false: the spot as given, as without geometry", function()
    local w, bare = steer.world{}, steer.world{}
    w:add_wall{ x1 = -1, y1 = -10, x2 = -1, y2 = 10 }
    local l1, l2 = w:add{ vx = 1 }, bare:add{ vx = 1 }
    local f1 = w:add{ x = -0.5, y = -3, radius = 0.5 }
    local f2 = bare:add{ x = -0.5, y = -3, radius = 0.5 }
    local bx, by = f2:follow_leader(l2)
    same("method", bx, by, f1:follow_leader(l1, 2, 2, 2, false))
    f1:set_behaviors{ { "follow_leader", target = l1, fit = false } }
    assert.is_false(f1:behaviors()[1].fit)
    same("entry", bx, by, f1:steering())
    f1:set_behaviors{ { "follow_leader", target = l1 } }
    assert.is_true(f1:behaviors()[1].fit, "on by default")
  end)

  it("never overflows at the limits", function()
    local w = steer.world{}
    w:add_wall{ x1 = -1e150, y1 = 1e150, x2 = 1e150, y2 = -1e150 }
    w:add_obstacle{ x = 1e150, y = 1e150, radius = 1e149 }
    local leader = w:add{ x = -1e150, y = 1e150, vx = 1e150, angle = 1 }
    local f = w:add{ x = 1e150, y = -1e150, radius = 1e150 }
    for _, d in ipairs{ 1e150, 3e149, 0, 2 } do
      support.all_finite(f:follow_leader(leader, d, 1e150))
      support.all_finite(f:follow_leader({ 1e150, 1e150 }, d, 0, 1e150))
    end
  end)

  it("raises naming the function and argument", function()
    local w = steer.world{}
    local leader, f = w:add{}, w:add{}
    assert.matches("bad argument #5 to 'follow_leader' %(fit must be a boolean, got number%)",
      support.error_of(f.follow_leader, f, leader, 2, 2, 2, 1))
    assert.matches("bad argument #6 to 'follow_leader' %(fit must be a boolean, got string%)",
      support.error_of(f.follow_leader, f, 1, 2, 2, 2, 2, "yes"))
    assert.matches("bad argument #5 to 'follow_leader' %(fit must be a boolean, got table%)",
      support.error_of(f.follow_leader, f, { 1, 2 }, 2, 2, 2, {}))
    assert.matches("entry 1 %('follow_leader'%): fit must be a boolean, got string",
      support.error_of(f.set_behaviors, f, { { "follow_leader", target = leader, fit = "no" } }))
  end)

  it("is kept by snapshots (version 14 on), and version 13's followers ran without it", function()
    local w = steer.world{}
    w:add_wall{ x1 = -1, y1 = -10, x2 = -1, y2 = 10 }
    local leader = w:add{ vx = 1 }
    local a, b = w:add{ x = -0.5, y = -3 }, w:add{ x = -0.5, y = 3 }
    a:set_behaviors{ { "seek", target = { 5, 5 } }, { "follow_leader", target = leader, fit = false } }
    b:set_behaviors{ { "follow_leader", target = leader } }
    local s = w:snapshot()
    assert.are.equal("\15\0\0\0", s:sub(9, 12))
    local c = assert(steer.restore(s))
    assert.are.equal(s, c:snapshot())
    local ca, cb = c:get(a.id), c:get(b.id)
    assert.is_false(ca:behaviors()[2].fit)
    assert.is_true(cb:behaviors()[1].fit)
    local ax, ay = a:steering()
    same("restored a", ax, ay, ca:steering())
    local bx, by = b:steering()
    same("restored b", bx, by, cb:steering())
    -- the table, before the programs: one entry, program 0 (a's), entry 1
    local at = support.grids_at(s) + 16
    assert.are.same({ 1, 0, 1 }, { support.u64(s, at), support.u64(s, at + 8), support.u64(s, at + 16) })
    if support.fnv then
      -- version 13 wrote the same bytes, and its follow_leader ran without fit
      local old = assert(steer.restore(support.before_follow_fit(s)))
      assert.is_false(old:get(a.id):behaviors()[2].fit)
      assert.is_false(old:get(b.id):behaviors()[1].fit)
      local rx, ry = b:follow_leader(leader, 2, 2, 2, false)
      same("version 13's follower", rx, ry, old:get(b.id):steering())
      assert.is_true(rx ~= bx or ry ~= by, "the wall changes b's force when fitted")
      -- version 12 (no table) read them so too
      a:set_behaviors{ { "follow_leader", target = leader } }
      local v12 = assert(steer.restore(support.before_fit(w:snapshot())))
      assert.is_false(v12:get(a.id):behaviors()[1].fit)
      assert.is_false(v12:get(b.id):behaviors()[1].fit)
      same("version 12's follower", rx, ry, v12:get(b.id):steering())
    end
  end)
end)
