-- Snapshots keep the tactical entries (docs/API.md 9 and 17.7; snapshot
-- version 10): offset_pursuit, follow_leader, interpose (both ends: agents,
-- points, shared points), hide and queue restore with their parameters, and
-- a restored world continues bit for bit. Formations are still refused.
local steer = require "steer"
local support = require "support"
local error_of = support.error_of

--- Every agent's x, y, vx, vy, by id.
local function state_of(w)
  local t = {}
  for a in w:agents() do t[a.id] = { a.x, a.y, a.vx, a.vy } end
  return t
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
    for _ = 1, 40 do
      w:step(0.1)
      c:step(0.1)
    end
    assert.are.same(state_of(w), state_of(c))
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
    for _ = 1, 20 do
      c:step(0.1)
      fresh:step(0.1)
    end
    assert.are.same(state_of(fresh), state_of(c))
  end)

  it("formations are still refused", function()
    local w = steer.world{}
    local l = w:add{}
    local a = w:add{}
    a:set_behaviors{ { "formation", formation = steer.formation{ anchor = l, slots = { { -1, 0 } } } } }
    assert.matches("has a 'formation' entry, which snapshots cannot hold: formations are not saved yet",
      error_of(w.snapshot, w))
  end)
end)
