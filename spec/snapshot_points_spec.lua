-- Shared points (steer.point) through world:snapshot() and steer.restore:
-- since format version 7 the snapshot numbers the distinct points and the
-- entries refer to them, so entries that shared a point share one again
-- (docs/SNAPSHOT.md; docs/API.md "Shared targets").
local steer = require "steer"
local support = require "support"

-- goal is held by two programs (chase, run by a and d; wait, run by b) and
-- by c's own behaviors; flag by chase only.
local function scene(goal, flag)
  local world = steer.world{ seed = 7, bounds = { 40, 40 } }
  local chase = steer.program{ { "seek", target = goal }, { "seek", target = flag, weight = 0.5 } }
  local wait = steer.program{ combine = "priority", { "arrive", target = goal, slowing_radius = 5 } }
  local a = world:add{ x = 2, y = 3, max_speed = 2, max_force = 4 }
  local b = world:add{ x = 20, y = 30, max_speed = 3, max_force = 5 }
  local c = world:add{ x = 35, y = 5, max_speed = 1.5, max_force = 4 }
  local d = world:add{ x = 10, y = 10, max_speed = 2, max_force = 4 }
  a:set_behaviors(chase)
  d:set_behaviors(chase)
  b:set_behaviors(wait)
  c:set_behaviors{ { "flee", target = goal, panic_radius = 8 } }
  return world, { a, b, c, d }
end

-- the agents of `copy` with the ids of `agents`
local function same_agents(copy, agents)
  local out = {}
  for k, a in ipairs(agents) do out[k] = assert(copy:get(a.id)) end
  return out
end

local function target(a, k) return a:behaviors()[k].target end
local unpack = table.unpack or unpack

describe("shared points in snapshots", function()
  it("come back as one point for every entry that shared it", function()
    local goal, flag = steer.point(30, 10), steer.point(5, 35)
    local world, agents = scene(goal, flag)
    local copy = assert(steer.restore(world:snapshot()))
    local a, b, c, d = unpack(same_agents(copy, agents))
    local p = target(b, 1)
    assert.are.equal("steer.SharedPoint (30.000, 10.000)", tostring(p))
    assert.is_true(rawequal(p, target(a, 1)))
    assert.is_true(rawequal(p, target(c, 1)))
    assert.is_true(rawequal(p, target(d, 1)))
    assert.is_false(rawequal(p, goal)) -- the restored world's own point
    local q = target(a, 2)
    assert.is_true(rawequal(q, target(d, 2)))
    assert.is_false(rawequal(p, q))
    assert.are.same({ 5, 35 }, { q.x, q.y })

    -- moving it moves b's program (at rest: arrive from 27.5 away, beyond
    -- the slowing radius, is max_speed toward it) ...
    p.x, p.y = 5, 7
    assert.are.same({ 30, 10 }, { goal.x, goal.y })
    assert.are.same({ 5, 35 }, { q.x, q.y })
    local fx, fy = b:steering()
    local dist = math.sqrt(15 * 15 + 23 * 23)
    support.vec_near(fx, fy, -15 / dist * 3, -23 / dist * 3, 1e-12, "b arrives at the moved point")
    -- ... and c's own behaviors: flee at max_speed from 1 away
    p.x, p.y = 36, 5
    fx, fy = c:steering()
    support.vec_near(fx, fy, -1.5, 0, 1e-12, "c flees the moved point")
    -- a handle the game dropped is made again for the same point
    p, q = nil, nil
    collectgarbage()
    collectgarbage()
    local again = target(a, 1)
    again.x = 12
    assert.are.equal(12, target(c, 1).x)
    assert.are.equal(12, target(b, 1).x)
  end)

  it("continue bit-identically while the game moves them", function()
    local goal, flag = steer.point(30, 10), steer.point(5, 35)
    local world, agents = scene(goal, flag)
    for _ = 1, 3 do world:step(0.1) end
    local s = world:snapshot()
    local copy = assert(steer.restore(s))
    assert.are.equal(s, copy:snapshot())
    local restored = same_agents(copy, agents)
    local p, q = target(restored[2], 1), target(restored[1], 2)
    for k = 1, 8 do
      local x, y = (k * 5.5) % 40, (k * 7.25) % 40
      goal.x, goal.y = x, y
      p.x, p.y = x, y
      flag.x, flag.y = y, x
      q.x, q.y = y, x
      world:step(0.1)
      copy:step(0.1)
      for i, a in ipairs(agents) do
        local r = restored[i]
        assert.are.same({ a.x, a.y, a.vx, a.vy }, { r.x, r.y, r.vx, r.vy })
      end
      assert.are.equal(world:snapshot(), copy:snapshot())
    end
  end)

  it("are written once, in a table after the paths", function()
    if not string.unpack then return pending("reading the bytes needs string.unpack (Lua 5.3+)") end
    local world = scene(steer.point(30, 10), steer.point(5, 35))
    local s = world:snapshot()
    assert.are.equal(15, (string.unpack("<I4", s, 9)))
    -- world 32 bytes, slots u64 4, u32 free, 4 x 8 bytes; then the paths
    -- (none), the points (goal, first met in chase, then flag), the
    -- formations, the navigation grids, the flow fields, the entries
    -- that keep their slot and those with whiskers (none)
    local at = 12 + 32 + 12 + 4 * 8 + 1
    local got = { string.unpack("<I8I8ddddI8I8I8I8I8", s, at) }
    got[12] = nil -- the position after them
    assert.are.same({ 0, 2, 30.0, 10.0, 5.0, 35.0, 0, 0, 0, 0, 0 }, got)
  end)

  -- saved by version 6 (main before the points table) from the scene of
  -- the first spec without d and flag: chase = { seek goal }, wait =
  -- { arrive goal, slowing_radius = 5 }, c's { flee goal, panic_radius = 8 },
  -- goal at (30, 10)
  local v6_hex = table.concat{
      "5354454552534e5006000000000000000000144007000000000000000000444000000000000044400000000003000000",
      "00000000ffffffff00000000000000000200000000000000010000000000000000000000000000000300000000000000",
      "00000000000000000000f0bf000000000000000000000000000000000100000000000000000000000500000000000000",
      "00003e40000000000000244000000000000000000000000000000000000000000000f03f000000000000f03f00000000",
      "0000000000000000000008400000000000000040333333333333e33f000000000000f0bf000000000000000000000000",
      "000008400000000000000000000000000000000000000000000000000000000000000000ffffffff0000000000807640",
      "00000000000000000000f0bf000000000000f03f0000000000000000000000000000e03f00000000000000000000f0bf",
      "00000000000000000000000000000000010000000000000001000000050000000000000000003e400000000000002440",
      "00000000000000000000000000000000000000000000f03f000000000000f03f00000000000000000000000000000840",
      "0000000000000040333333333333e33f0000000000002040000000000000000000000000000008400000000000000000",
      "000000000000000000000000000000000000000000000000ffffffff000000000080764000000000000000000000f0bf",
      "000000000000f03f0000000000000000000000000000e03f00000000000000000000f0bf000000000000000000000000",
      "00000000010000000000000002000000050000000000000000003e400000000000002440000000000000000000000000",
      "00000000000000000000f03f000000000000f03f00000000000000000000000000000840000000000000144033333333",
      "3333e33f000000000000f0bf000000000000000000000000000008400000000000000000000000000000000000000000",
      "000000000000000000000000ffffffff000000000080764000000000000000000000f0bf000000000000f03f00000000",
      "00000000000000000000e03f030000000000000000000000000000400000000000000840000000000000000000000000",
      "0000000000000000000000400000000000001040000000000000e03f0000000000000000000000000100000001000000",
      "00000000000000000000000000804140000000000000144000000000000000000000000000000000000000000000f83f",
      "0000000000001040000000000000e03f0000000000000000020000000100000002000000000000000000000000000000",
      "000034400000000000003e40000000000000000000000000000000000000000000000840000000000000144000000000",
      "0000e03f000000000000000001000000010000000300000000000000000000000000000000000000ffffffff00000000",
      "000000000000000000000000c675bd181690b188",
  }
  local function from_hex(h) return (h:gsub("..", function(x) return string.char(tonumber(x, 16)) end)) end

  -- the v6 scene built now, with a point of its own for each program
  local function v6_scene(g1, g2, g3)
    local world = steer.world{ seed = 7, bounds = { 40, 40 } }
    local a = world:add{ x = 2, y = 3, max_speed = 2, max_force = 4 }
    local b = world:add{ x = 20, y = 30, max_speed = 3, max_force = 5 }
    local c = world:add{ x = 35, y = 5, max_speed = 1.5, max_force = 4 }
    a:set_behaviors(steer.program{ { "seek", target = g1 } })
    b:set_behaviors(steer.program{ { "arrive", target = g2, slowing_radius = 5 } })
    c:set_behaviors{ { "flee", target = g3, panic_radius = 8 } }
    return world, { a, b, c }
  end

  it("of version 6 restore with a point of its own for each program, as before", function()
    local v6 = from_hex(v6_hex)
    assert.are.equal("\6\0\0\0", v6:sub(9, 12))
    local old = assert(steer.restore(v6))
    local g = { steer.point(30, 10), steer.point(30, 10), steer.point(30, 10) }
    local now, agents = v6_scene(g[1], g[2], g[3])
    local restored = same_agents(old, agents)
    local t = {}
    for k = 1, 3 do
      t[k] = target(restored[k], 1)
      assert.are.same({ 30, 10 }, { t[k].x, t[k].y })
    end
    assert.is_false(rawequal(t[1], t[2]))
    assert.is_false(rawequal(t[1], t[3]))
    assert.is_false(rawequal(t[2], t[3]))
    -- the same world as one built with three points; it saves as the current version
    assert.are.equal(now:snapshot(), old:snapshot())
    assert.are.equal("\15\0\0\0", old:snapshot():sub(9, 12))
    -- moving one moves that program's target alone
    t[1].x, g[1].x = 3, 3
    assert.are.same({ 30, 30 }, { t[2].x, t[3].x })
    for _ = 1, 5 do
      now:step(0.1)
      old:step(0.1)
    end
    assert.are.equal(now:snapshot(), old:snapshot())
  end)

  -- forging: the checksum of a changed body
  local fnv, forge = support.fnv, support.forge
  local one, two = "\0\0\0\0\0\0\240\63", "\0\0\0\0\0\0\0\64"
  local function u64(n) return string.char(n % 256) .. ("\0"):rep(7) end

  it("refuse point numbers out of range with a message, building no world", function()
    if not fnv then return pending("forging needs 64-bit integers (Lua 5.4, LuaJIT)") end
    local world = steer.world{}
    local a = world:add{ x = 1, y = 1 }
    local p = steer.point(4, 5)
    a:set_behaviors{ { "seek", target = p }, { "seek", target = { 1, 2 } } }
    local s = world:snapshot()
    -- the shared entry: kind 5, x 0, y 0, agent 0, path 0, point 1, weight 1
    local shared = assert(s:find("\5\0\0\0" .. ("\0"):rep(32) .. u64(1) .. one, 13, true))
    local number = shared + 4 + 32
    -- the fixed one: kind 1, x 1, y 2, agent 0, path 0, point 0, weight 1
    local fixed = assert(s:find("\1\0\0\0" .. one .. two .. ("\0"):rep(24) .. one, 13, true))
    -- the points table: its count after the paths' (world 32 bytes, 1 slot)
    local count = 12 + 32 + 12 + 8 + 8 + 1
    assert.are.equal(u64(1), s:sub(count, count + 7))
    local function refused(bytes, message)
      local w, msg = steer.restore(bytes)
      assert.is_nil(w)
      assert.are.equal(message, msg)
    end
    local missing = "snapshot refers to a missing shared point"
    refused(forge(s, number, u64(2)), missing)
    refused(forge(s, number, u64(0)), missing)
    refused(forge(s, number, ("\255"):rep(8)), missing)
    refused(forge(s, number, "\1\0\0\0\1\0\0\0"), missing)
    local empty = s:sub(1, count - 1) .. u64(0) .. s:sub(count + 24, #s - 8)
    refused(empty .. fnv(empty), missing) -- a table without the point
    refused(forge(s, fixed + 4 + 16 + 16, u64(1)), "snapshot holds an invalid entry")
    refused(forge(s, count, ("\255"):rep(8)), "snapshot is truncated or corrupt (count too large)")
    refused(forge(s, count + 8, "\0\0\0\0\0\0\248\127"), "snapshot holds a number out of range") -- NaN
    refused(s:sub(1, count + 11), "snapshot is corrupt or truncated (checksum mismatch)")
    -- cut anywhere with a checksum to match: refused with a message
    for n = 13, #s - 9 do
      local body = s:sub(1, n)
      local w, msg = steer.restore(body .. fnv(body))
      assert.is_nil(w, "cut at " .. n)
      assert.matches("^snapshot ", msg)
    end
    -- the world saved is untouched, its point still the game's
    assert.are.equal(s, world:snapshot())
    p.x = 9
    assert.is_true(rawequal(p, target(a, 1)))
    -- the forged numbers swapped back: a world again
    assert.is_truthy(steer.restore(forge(forge(s, number, u64(2)), number, u64(1))))
  end)
end)
