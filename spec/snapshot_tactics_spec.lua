-- Snapshots keep the tactical entries (docs/API.md 9 and 17.7; snapshot
-- version 10): offset_pursuit, follow_leader, interpose (both ends: agents,
-- points, shared points), hide and queue restore with their parameters, and
-- a restored world continues bit for bit. Formations too (version 11):
-- their anchor, slots, fit and members in join order with their slots.
local steer = require "steer"
local support = require "support"
local error_of = support.error_of

--- Every agent's x, y, vx, vy, by id.
local function state_of(w)
  local t = {}
  for a in w:agents() do t[a.id] = { a.x, a.y, a.vx, a.vy } end
  return t
end

--- Steps worlds a and b alike `steps` times; then they hold the same agents
-- in the same states.
local function step_alike(a, b, steps)
  for _ = 1, steps do
    a:step(0.1)
    b:step(0.1)
  end
  assert.are.same(state_of(a), state_of(b))
end

--- A level with a leader that wanders and one follower per tactical entry
-- (each with a little wander, so that they move apart).
local function tactics_world(shared)
  local w = steer.world{ bounds = { 100, 100 } }
  w:add_obstacle{ x = 50, y = 50, radius = 3 }
  w:add_obstacle{ x = 30, y = 60, radius = 2 }
  local l = w:add{ x = 10, y = 10, vx = 1, max_speed = 2 }
  l:set_behaviors{ { "wander" } }
  local entries = {
    { "offset_pursuit", target = l, offset = { -1, 2 } },
    { "follow_leader", target = l, distance = 3 },
    { "interpose", between = { l, { 60, 60 } } },
    { "interpose", between = { shared, l } },
    { "interpose", between = { { 5, 90 }, shared } },
    { "hide", target = l, distance = 2 },
    { "queue", distance = 2, fov = 120 },
  }
  for k, e in ipairs(entries) do
    w:add{ x = 20 + 5 * k, y = 30, vx = 0.5, max_speed = 2, max_force = 3 }
      :set_behaviors{ e, { "wander", weight = 0.2 } }
  end
  return w, #entries
end

describe("snapshots keep the tactical entries", function()
  it("restore(snapshot()) snapshots to the same bytes and continues bit for bit", function()
    local w = tactics_world(steer.point(40, 40))
    for _ = 1, 10 do w:step(0.1) end
    local s = w:snapshot()
    local c = assert(steer.restore(s))
    assert.are.equal(s, c:snapshot())
    step_alike(w, c, 40)
    assert.are.equal(w:snapshot(), c:snapshot())
  end)

  it("each entry reads back with its parameters and ends", function()
    local w, n = tactics_world(steer.point(40, 40))
    local c = assert(steer.restore(w:snapshot()))
    for id = 2, n + 1 do
      local a, b = w:get(id):behaviors()[1], c:get(id):behaviors()[1]
      assert.are.equal(a[1], b[1])
      assert.are.same(a.offset, b.offset)
      assert.are.equal(a.distance, b.distance)
      assert.are.equal(a.fov, b.fov)
      assert.are.equal(a.slowing_radius, b.slowing_radius)
      local function same_end(x, y)
        if type(x) == "table" then return assert.are.same(x, y) end
        -- an agent of each world: the same id; a shared point: where it is
        assert.are.equal(x.id, y.id)
        assert.are.equal(x.x, y.x)
        assert.are.equal(x.y, y.y)
      end
      if a.target then same_end(a.target, b.target) end
      if a.between then
        same_end(a.between[1], b.between[1])
        same_end(a.between[2], b.between[2])
      end
    end
    -- hand-checked: the offset and the interpose ends as written
    assert.are.same({ -1, 2 }, c:get(2):behaviors()[1].offset)
    assert.are.equal(3, c:get(3):behaviors()[1].distance)
    assert.are.same({ 60, 60 }, c:get(4):behaviors()[1].between[2])
  end)

  it("a shared point at interpose's ends is one point again after restore", function()
    local w = tactics_world(steer.point(40, 40))
    local c = assert(steer.restore(w:snapshot()))
    local first = c:get(5):behaviors()[1].between[1] -- between = { shared, l }
    local second = c:get(6):behaviors()[1].between[2] -- between = { {5, 90}, shared }
    assert.is_true(rawequal(first, second))
    assert.are.equal(40, first.x)
    -- moving it moves both agents' ends: they steer as in a world built so
    first.x, first.y = 70, 20
    local fresh = tactics_world(steer.point(70, 20))
    step_alike(fresh, c, 20)
  end)

end)

--- The members' ids of f in join order, each with its slot (0: none).
local function membership(f)
  local t = {}
  for k, a in ipairs(f:members()) do t[k] = { a.id, f:slot_of(a) or 0 } end
  return t
end

--- A formation world: a wandering leader (or `anchor`), `n` members of a
-- wedge of `slots` slots, and a wall the slots fit around.
local function formation_world(n, slots, anchor, fit)
  local w = steer.world{ bounds = { 200, 200 } }
  w:add_wall{ x1 = 60, y1 = 20, x2 = 60, y2 = 180 }
  local l = w:add{ x = 50, y = 100, vx = 1, max_speed = 2 }
  l:set_behaviors{ { "wander" } }
  local f = steer.formation{ anchor = anchor or l, shape = "wedge", count = slots,
    spacing = 2, fit = fit, world = w }
  for k = 1, n do
    w:add{ x = 10 + (k * 37) % 90, y = 20 + (k * 53) % 160, max_speed = 3, max_force = 4 }
      :set_behaviors{ { "formation", formation = f }, { "wander", weight = 0.1 } }
  end
  return w, f, l
end

describe("snapshots keep formations (version 11)", function()
  it("restore every member in its slot and continue bit for bit", function()
    local w, f = formation_world(6, 5) -- one member without a slot
    for _ = 1, 10 do w:step(0.1) end
    local s = w:snapshot()
    local c = assert(steer.restore(s))
    assert.are.equal(s, c:snapshot())
    local f2 = c:get(f:members()[1].id):behaviors()[1].formation
    assert.are.equal(6, #f2:members())
    assert.are.same(membership(f), membership(f2))
    local none = 0
    for _, m in ipairs(membership(f2)) do none = none + (m[2] == 0 and 1 or 0) end
    assert.are.equal(1, none)
    for k = 1, 5 do assert.are.same({ f:slot_position(k) }, { f2:slot_position(k) }) end
    assert.are.equal(f:fits(), f2:fits())
    step_alike(w, c, 40)
    assert.are.same(membership(f), membership(f2))
  end)

  it("keep a greedy formation's slots as they are (no reassignment on restore)", function()
    -- beyond 32 members a leaver frees its slot and nobody moves: the saved
    -- slots are not what assigning them anew would give
    local w, f = formation_world(40, 40)
    for _ = 1, 5 do w:step(0.1) end
    for k = 1, 6 do w:remove(f:members()[k * 3]) end
    local before = membership(f)
    local c = assert(steer.restore(w:snapshot()))
    local f2 = c:get(before[1][1]):behaviors()[1].formation
    assert.are.same(before, membership(f2))
    -- a newcomer joins both alike: the same free slot, the same trades
    for _, world in ipairs{ w, c } do
      world:add{ x = 5, y = 5, max_speed = 3 }:set_behaviors{ { "formation",
        formation = world == w and f or f2 } }
    end
    assert.are.same(membership(f), membership(f2))
    step_alike(w, c, 20)
  end)

  it("keep a point anchor and fit = false, and a shared point anchor shared", function()
    local w, f = formation_world(3, 3, { 20, 40 }, false)
    local c = assert(steer.restore(w:snapshot()))
    local f2 = c:get(f:members()[1].id):behaviors()[1].formation
    assert.are.same({ 20, 40 }, { f2:anchor() })
    assert.is_false(f2:fits())
    -- one steer.point both the anchor and a seek target
    local p = steer.point(30, 30)
    local w3, g = formation_world(3, 3, p)
    w3:add{ x = 1, y = 1 }:set_behaviors{ { "seek", target = p } }
    local c3 = assert(steer.restore(w3:snapshot()))
    local g2 = c3:get(g:members()[1].id):behaviors()[1].formation
    local seeker
    for a in c3:agents() do
      local b = a:behaviors()
      if b and b[1][1] == "seek" then seeker = a end
    end
    local q = seeker:behaviors()[1].target
    assert.are.same({ 30, 30 }, { q.x, q.y })
    q.x, q.y = 70, 90 -- moves the restored anchor, not the original
    assert.are.same({ 70, 90 }, { g2:anchor() })
    assert.are.same({ 30, 30 }, { g:anchor() })
  end)

  it("refuse members that do not match the programs", function()
    if not support.fnv then return pending("forging needs 64-bit integers (Lua 5.4, LuaJIT)") end
    if not string.pack then return pending("writing the bytes needs string.pack (Lua 5.3+)") end
    local w, f = formation_world(3, 3)
    local s = w:snapshot()
    -- the members come last before the checksum: count, then (id, slot) pairs
    local tail = #s - 8 - (8 + 3 * 16) + 1
    assert.are.equal(3, (string.unpack("<I8", s, tail)))
    local ids = {}
    for k = 1, 3 do ids[k] = string.unpack("<I8", s, tail + 8 + 16 * (k - 1)) end
    assert.are.same({ f:members()[1].id, f:members()[2].id, f:members()[3].id }, ids)
    local function member_at(k, id, slot)
      return support.forge(s, tail + 8 + 16 * (k - 1), string.pack("<I8i8", id, slot))
    end
    local l = f:anchor()
    local cases = {
      member_at(2, ids[1], f:slot_of(f:members()[1]) - 1), -- a member twice
      member_at(3, l.id, 0), -- the leader names no formation
      member_at(3, 999, 0), -- no such agent
      member_at(1, ids[1], f:slot_of(f:members()[2]) - 1), -- two in one slot
      member_at(1, ids[1], 3), -- slot 4 of 3
      member_at(1, ids[1], -2),
    }
    for k, bad in ipairs(cases) do
      local c, msg = steer.restore(bad)
      assert.is_nil(c, "case " .. k)
      assert.are.equal("snapshot holds inconsistent formation members", msg, "case " .. k)
    end
    -- fewer members than agents naming it
    local fewer = s:sub(1, tail - 1) .. string.pack("<I8", 2) .. s:sub(tail + 8, tail + 8 + 32 - 1)
    fewer = fewer .. support.fnv(fewer)
    local c, msg = steer.restore(fewer)
    assert.is_nil(c)
    assert.are.equal("snapshot holds inconsistent formation members", msg)
    -- a version-10 snapshot holds no formation
    c, msg = steer.restore(support.forge(s, 9, "\10\0\0\0"))
    assert.is_nil(c)
    assert.is_string(msg)
  end)
end)
