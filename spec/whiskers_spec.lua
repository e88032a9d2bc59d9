-- avoid_walls' whiskers (docs/API.md 3.6, `whiskers`): Buckland's two side
-- feelers of half the length at 45 degrees either side of the heading; the
-- longest of the three pushes (the deepest feeler's) wins. Hand-computed cases, the
-- three single feelers as the oracle on random levels (bounded, unbounded,
-- torus), entries against the method, a room of wanderers (they no longer
-- line the walls), large inputs, errors and snapshots (version 15).
local steer = require "steer"
local support = require "support"

local same, vec_near = support.same_vec, support.vec_near
local C = math.sqrt(0.5)

-- The push of the single feeler of `length` along the heading (hx, hy)
-- (a unit vector), through the plain method: the agent's velocity is set
-- to the heading for the call, then put back.
local function feeler_along(a, hx, hy, length)
  local vx, vy = a.vx, a.vy
  a.vx, a.vy = hx, hy
  local fx, fy = a:avoid_walls(length)
  a.vx, a.vy = vx, vy
  return fx, fy
end

-- The whiskered push worked out from three single feelers, and whether the
-- deepest one is clear (no other within 1e-9 of its depth).
local function oracle(a, length)
  local vx, vy = a.vx, a.vy
  local l2 = vx * vx + vy * vy
  local ax, ay = 1, 0
  if l2 > 1e-4 and l2 < 1e300 then
    local l = math.sqrt(l2)
    ax, ay = vx / l, vy / l
  end
  local pushes = {
    { a:avoid_walls(length) },
    { feeler_along(a, C * ax - C * ay, C * ax + C * ay, length * 0.5) },
    { feeler_along(a, C * ax + C * ay, C * ay - C * ax, length * 0.5) },
  }
  local best, deepest, second = { 0, 0 }, 0, 0
  for _, p in ipairs(pushes) do
    local depth = math.sqrt(p[1] * p[1] + p[2] * p[2])
    if depth > deepest then
      best, second, deepest = p, deepest, depth
    elseif depth > second then
      second = depth
    end
  end
  return best[1], best[2], deepest - second > 1e-9 or deepest == 0
end

-- Share of agents' samples within `near` of the room's walls and inside
-- them: 300 wanderers in a room of 40 x 30 tiles of 16 (walls from tiles),
-- program `prog`.
local function room(prog)
  local W, H, T = 40, 30, 16
  local tiles = {}
  for r = 0, H - 1 do
    for c = 0, W - 1 do
      tiles[r * W + c + 1] = (r == 0 or c == 0 or r == H - 1 or c == W - 1) and 1 or 0
    end
  end
  local world = steer.world{ bounds = { W * T, H * T }, cell_size = 16, seed = 1 }
  world:add_walls(steer.walls_from_tiles(tiles, W, H, T))
  local xs, ys = {}, {}
  for k = 1, 300 do xs[k], ys[k] = 32 + (k * 37) % (W * T - 64), 32 + (k * 91) % (H * T - 64) end
  world:add_many({ x = xs, y = ys, vx = 10, radius = 3, max_speed = 40, max_force = 120,
    wander_distance = 20, wander_radius = 12, wander_jitter = 0.4 }, steer.program(prog))
  local near, inside, samples = 0, 0, 0
  for step = 1, 900 do
    world:step(1 / 60)
    if step > 300 and step % 30 == 0 then
      local pos, n = world:positions()
      for i = 1, n do
        local x, y = pos[2 * i - 1], pos[2 * i]
        support.all_finite(x, y)
        samples = samples + 1
        if x < T or y < T or x > (W - 1) * T or y > (H - 1) * T then
          inside = inside + 1
        elseif x < T + 5 or y < T + 5 or x > (W - 1) * T - 5 or y > (H - 1) * T - 5 then
          near = near + 1
        end
      end
    end
  end
  world:close()
  return near / samples, inside / samples
end

describe("avoid_walls with whiskers (3.6)", function()
  it("feels a wall beside the agent that the feeler ahead runs parallel to", function()
    local w = steer.world{}
    w:add_wall{ x1 = -10, y1 = 2, x2 = 10, y2 = 2 }
    local a = w:add{ x = 0, y = 0, vx = 1 }
    same("without whiskers", 0, 0, a:avoid_walls(6))
    -- the left whisker, (C, C) * 3, meets y = 2 at fraction 2 / (3 C):
    -- (1 - 2 / (3 C)) * 3 = 3 - 2 sqrt(2) past it, pushed down (away)
    local fx, fy = a:avoid_walls(6, true)
    vec_near(fx, fy, 0, -(3 - 2 * math.sqrt(2)), 1e-12, "the left whisker")
    -- at rest the heading is +x: the same
    local b = w:add{ x = 0, y = 0 }
    vec_near(b:avoid_walls(6, true), select(2, b:avoid_walls(6, true)), 0, -(3 - 2 * math.sqrt(2)), 1e-12,
      "at rest")
    -- the right whisker, mirrored
    local c = w:add{ x = 0, y = 4, vx = 1 }
    vec_near(c:avoid_walls(6, true), select(2, c:avoid_walls(6, true)), 0, 3 - 2 * math.sqrt(2), 1e-12,
      "the right whisker")
  end)

  it("pushes as the feeler ahead does when that one reaches deepest", function()
    local w = steer.world{}
    w:add_wall{ x1 = 5, y1 = -10, x2 = 5, y2 = 10 }
    local a = w:add{ x = 0, y = 0, vx = 2 }
    -- ahead 1 past x = 5; the whiskers' tips (2.12, +-2.12) fall short
    local fx, fy = a:avoid_walls(6, true)
    vec_near(fx, fy, -1, 0, 1e-12, "wall ahead")
    same("the feeler ahead's bits", fx, fy, a:avoid_walls(6))
    -- closer: ahead 4.5 past, each whisker (1 - 1.5 / (3 C)) * 3 = 0.88
    local b = w:add{ x = 3.5, y = 0, vx = 2 }
    fx, fy = b:avoid_walls(6, true)
    vec_near(fx, fy, -4.5, 0, 1e-12, "all three cross, ahead deepest")
    same("the feeler ahead's bits, closer", fx, fy, b:avoid_walls(6))
  end)

  it("takes the deepest of the three, whichever wall each crosses", function()
    local w = steer.world{}
    w:add_wall{ x1 = 5.9, y1 = -10, x2 = 5.9, y2 = 10 }  -- ahead: 0.1 past
    w:add_wall{ x1 = -5, y1 = 0.5, x2 = 5, y2 = 0.5 }     -- left whisker: deep
    local a = w:add{ x = 0, y = 0, vx = 1 }
    local plain_x, plain_y = a:avoid_walls(6)
    vec_near(plain_x, plain_y, -0.1, 0, 1e-12, "the feeler ahead alone")
    -- the left whisker meets y = 0.5 at fraction 0.5 / (3 C)
    local fx, fy = a:avoid_walls(6, true)
    vec_near(fx, fy, 0, -(3 - 0.5 * math.sqrt(2)), 1e-12, "the left whisker")
    assert.is_true(fx * fx + fy * fy >= plain_x * plain_x + plain_y * plain_y)
  end)

  it("equals the deepest of three single feelers on random levels (methods and entries)", function()
    local rand = support.random(23)
    local checked, changed = 0, 0
    for round = 1, 24 do
      local w, _, wrap, side = support.fit_level(steer, rand, round)
      if wrap then -- walls across the seam
        for _ = 1, 6 do
          local y = rand() * side
          w:add_wall{ x1 = side - 2, y1 = y, x2 = side + 3, y2 = y + rand() * 4 - 2 }
        end
      end
      for _ = 1, 30 do
        local speed = ({ 0, 1e-3, 0.5, 2, 7 })[1 + math.floor(rand() * 5)]
        local t = rand() * 2 * math.pi
        local a = w:add{ x = rand() * side, y = rand() * side, vx = speed * math.cos(t),
          vy = speed * math.sin(t), max_force = 1e6 }
        local length = 1 + rand() * 8
        local fx, fy = a:avoid_walls(length, true)
        support.all_finite(fx, fy)
        local ox, oy, clear = oracle(a, length)
        if clear then
          vec_near(fx, fy, ox, oy, 1e-9, ("round %d against three feelers"):format(round))
          checked = checked + 1
        end
        local px, py = a:avoid_walls(length)
        if fx ~= px or fy ~= py then changed = changed + 1 end
        assert.is_true(fx * fx + fy * fy >= px * px + py * py, "never weaker than the feeler ahead")
        -- the program entry (weighted, weight 1, one entry: no clamp acts
        -- below max_force) gives the method's bits
        a:set_behaviors{ { "avoid_walls", feeler_length = length, whiskers = true } }
        same("entry against the method", fx, fy, a:steering())
        a:set_behaviors{ { "avoid_walls", feeler_length = length, whiskers = false } }
        same("whiskers = false", px, py, a:steering())
      end
    end
    assert.is_true(checked > 600, "checked " .. checked)
    assert.is_true(changed > 60, "whiskers changed the push for " .. changed)
  end)

  it("keeps a room's wanderers off its walls, where one feeler lets them line them", function()
    local near, inside = room{ combine = "priority", { "avoid_walls", feeler_length = 60 }, { "wander" } }
    local wnear, winside = room{ combine = "priority", { "avoid_walls", feeler_length = 60, whiskers = true },
      { "wander" } }
    -- evenly spread, 3.8% of them would be within 5 px of a wall
    assert.is_true(near > 0.15, ("one feeler: %.3f near the walls"):format(near))
    assert.is_true(wnear < 0.03, ("whiskers: %.3f near the walls"):format(wnear))
    assert.are.equal(0, inside)
    assert.are.equal(0, winside)
    local snear = room{ combine = "prioritized_sum", { "avoid_walls", feeler_length = 30, weight = 6,
      whiskers = true }, { "wander", weight = 2 } }
    assert.is_true(snear < 0.05, ("prioritized_sum with whiskers: %.3f near the walls"):format(snear))
  end)

  it("stays finite for inputs up to 1e150", function()
    for _, big in ipairs{ 1e150, -1e150 } do
      local w = steer.world{}
      w:add_wall{ x1 = big, y1 = big, x2 = -big, y2 = big * 0.5 }
      w:add_wall{ x1 = 0, y1 = -big, x2 = 1, y2 = big }
      for _, v in ipairs{ { big, big }, { -big, 1 }, { 1e-300, 0 }, { 0, 0 } } do
        local a = w:add{ x = big * 0.3, y = -big * 0.7, vx = v[1], vy = v[2] }
        support.all_finite(a:avoid_walls(1e150, true))
        support.all_finite(a:avoid_walls(0, true))
        a:set_behaviors{ { "avoid_walls", feeler_length = 1e150, whiskers = true, hysteresis = 1e150 } }
        w:step(0.1)
        support.all_finite(a.x, a.y, a.vx, a.vy)
      end
    end
  end)

  it("raises errors naming the function and the argument", function()
    local w = steer.world{}
    local a = w:add{}
    assert.matches("bad argument #2 to 'avoid_walls' %(whiskers must be a boolean, got string%)",
      support.error_of(a.avoid_walls, a, 3, "yes"))
    assert.matches("bad argument #2 to 'avoid_walls' %(whiskers must be a boolean, got number%)",
      support.error_of(a.avoid_walls, a, 3, 1))
    assert.matches("bad argument #3 to 'avoid_walls'",
      support.error_of(a.avoid_walls, a, 3, true, 1))
    assert.matches("entry 1 %('avoid_walls'%): whiskers must be a boolean, got number",
      support.error_of(a.set_behaviors, a, { { "avoid_walls", whiskers = 1 } }))
    assert.matches("entry 2 %('avoid_obstacles'%): unknown parameter 'whiskers'",
      support.error_of(a.set_behaviors, a, { { "wander" }, { "avoid_obstacles", whiskers = true } }))
    assert.matches("did you mean 'whiskers'",
      support.error_of(a.set_behaviors, a, { { "avoid_walls", whisker = true } }))
    -- nil is left out: the plain feeler
    local fx, fy = a:avoid_walls(3, nil)
    same("nil", fx, fy, a:avoid_walls(3))
  end)

  it("reads back from behaviors()", function()
    local w = steer.world{}
    local a = w:add{}
    a:set_behaviors{ { "avoid_walls", whiskers = true }, { "avoid_walls" }, { "avoid_obstacles" } }
    local b = a:behaviors()
    assert.is_true(b[1].whiskers)
    assert.is_false(b[2].whiskers)
    assert.is_nil(b[3].whiskers)
    a:set_behaviors(b) -- the read-back compiles to the same program
    assert.is_true(a:behaviors()[1].whiskers)
  end)

  it("is kept by snapshots (version 15), and version 14's entries ran without it", function()
    local w = steer.world{}
    w:add_wall{ x1 = -10, y1 = 2, x2 = 10, y2 = 2 }
    local a, b = w:add{ x = 0, y = 0, vx = 1 }, w:add{ x = 1, y = 0, vx = 1 }
    a:set_behaviors{ { "seek", target = { 5, 5 } }, { "avoid_walls", feeler_length = 6, whiskers = true } }
    b:set_behaviors{ { "avoid_walls", feeler_length = 6 } }
    local s = w:snapshot()
    assert.are.equal("\15\0\0\0", s:sub(9, 12))
    local c = assert(steer.restore(s))
    assert.are.equal(s, c:snapshot())
    assert.is_true(c:get(a.id):behaviors()[2].whiskers)
    assert.is_false(c:get(b.id):behaviors()[1].whiskers)
    local ax, ay = a:steering()
    same("restored a", ax, ay, c:get(a.id):steering())
    -- the table after the unfitted entries (none): one entry, program 0, entry 1
    local at = support.grids_at(s) + 16 + 8
    assert.are.same({ 1, 0, 1 }, { support.u64(s, at), support.u64(s, at + 8), support.u64(s, at + 16) })
    if support.fnv then
      -- a listed entry that is not avoid_walls, or not there, is refused
      local function forged(k, q)
        return support.forge(s, at + 8, string.char(k, 0, 0, 0, 0, 0, 0, 0, q, 0, 0, 0, 0, 0, 0, 0))
      end
      local _, msg = steer.restore(forged(0, 0))
      assert.are.equal("snapshot holds an invalid program", msg)
      _, msg = steer.restore(forged(0, 7))
      assert.are.equal("snapshot refers to a missing entry", msg)
      _, msg = steer.restore(forged(5, 0))
      assert.are.equal("snapshot refers to a missing entry", msg)
      -- version 14 had no table and no whiskers
      a:set_behaviors{ { "avoid_walls", feeler_length = 6 } }
      local old = assert(steer.restore(support.before_whiskers(w:snapshot())))
      assert.is_false(old:get(a.id):behaviors()[1].whiskers)
      same("version 14's entry", 0, 0, old:get(a.id):steering())
    end
  end)
end)
