-- Group and tactical behaviors (docs/API.md section 17): offset_pursuit,
-- follow_leader, formations, interpose, hide and queue. Every expected value
-- is worked out by hand from the documented formula in the comments; the
-- formation assignment is checked against a brute-force oracle.
local steer = require "steer"
local support = require "support"
local vec_near, close, all_finite = support.vec_near, support.close, support.all_finite
local error_of = support.error_of

local TOL = 1e-12

local function eq(what, ex, ey, fx, fy)
  vec_near(fx, fy, ex, ey, TOL, what)
end

-- ===================================================================== --
describe("offset_pursuit (17.1)", function()
  it("arrives at the slot of a leader at rest", function()
    local w = steer.world{}
    local leader = w:add{ x = 0, y = 0 }
    local e = w:add{ x = -2, y = 4, max_speed = 2, max_force = 10 }
    -- W = (-2, 1), e = (0, -3), |e| = 3 >= 2: desired (0, -2)
    eq("numbers", 0, -2, e:offset_pursuit(leader, -2, 1))
    eq("table", 0, -2, e:offset_pursuit(leader, { -2, 1 }))
    eq("named table", 0, -2, e:offset_pursuit(leader, { x = -2, y = 1 }))
    -- on the slot of a leader at rest: nothing (the degenerate case)
    e.x, e.y = -2, 1
    local fx, fy = e:offset_pursuit(leader, -2, 1)
    assert.are.equal(0, fx); assert.are.equal(0, fy)
  end)

  it("matches a moving leader's velocity: no force on the slot", function()
    local w = steer.world{}
    local leader = w:add{ x = 3, y = 1, vx = 1 }
    local e = w:add{ x = 1, y = 2, vx = 1, max_speed = 2, max_force = 10 }
    local fx, fy = e:offset_pursuit(leader, -2, 1)
    assert.are.equal(0, fx); assert.are.equal(0, fy)
  end)

  it("predicts the slot with T = |e0| / (S + |u|) and feeds u forward", function()
    local w = steer.world{}
    local leader = w:add{ x = 0, y = 0, vx = 1 }
    local e = w:add{ x = -2.5, y = 0, vx = 1, max_speed = 4, max_force = 10 }
    -- W = (-2, 0), e0 = (0.5, 0), T = 0.5 / 5 = 0.1, e = (0.6, 0);
    -- arrive_v = (4 * 0.6 / 2, 0) = (1.2, 0); desired (2.2, 0); force (1.2, 0)
    eq("lookahead", 1.2, 0, e:offset_pursuit(leader, -2, 0))
  end)

  it("turns the offset with the leader's facing angle", function()
    local w = steer.world{}
    local leader = w:add{ x = 0, y = 0, vy = 1, angle = math.pi / 2 }
    -- offset (-2, 1): behind is -y, left is -x: W = (-1, -2)
    local e = w:add{ x = -1, y = -2, vy = 1, max_speed = 2, max_force = 10 }
    eq("on the turned slot", 0, 0, e:offset_pursuit(leader, -2, 1))
    e.x, e.y, e.vy = -1, -6, 0
    -- e0 = (0, 4), T = 4 / 3, e = (0, 4 + 4/3): desired clamp((0, 1 + 2), 2)
    eq("behind the turned slot", 0, 2, e:offset_pursuit(leader, -2, 1))
    -- the frame is the angle, not the velocity: moving along +y but facing
    -- 0, W = (-2, 1) + T u; e = (-1, -2) at rest: e0 = (-1, 3), T = sqrt(10)/3,
    -- e = (-1, 3 + sqrt(10)/3); desired = u + 2 e/|e| (|e| >= 2), clamped to 2
    leader.angle = 0
    e.x, e.y = -1, -2
    local ex, ey = -1, 3 + math.sqrt(10) / 3
    local len = math.sqrt(ex * ex + ey * ey)
    local dx, dy = 2 * ex / len, 1 + 2 * ey / len
    local dl = math.sqrt(dx * dx + dy * dy)
    eq("facing 0 while moving up", 2 * dx / dl, 2 * dy / dl, e:offset_pursuit(leader, -2, 1))
  end)

  it("keeps a stopped leader's frame: its angle (entries and methods alike)", function()
    local w = steer.world{}
    local leader = w:add{ x = 0, y = 1, vy = 1 }
    leader:set_behaviors{ turn = "velocity" }      -- the angle follows the velocity
    w:step(0.1)                                    -- turns at once (unlimited)
    close(leader.angle, math.pi / 2, 1e-12, "turned to its velocity")
    leader.y = 0
    local e = w:add{ x = -1, y = -2, max_speed = 2, max_force = 10 }
    e:set_behaviors{ { "offset_pursuit", target = leader, offset = { -2, 1 } } }
    -- moving: W = (-1, -2) in the turned frame; e on it, at rest: desired (0, 1)
    eq("moving", 0, 1, e:steering())
    leader.vy = 0                                  -- stops: the angle stays
    eq("stopped: entry", 0, 0, e:steering())
    eq("stopped: method", 0, 0, e:offset_pursuit(leader, -2, 1))
    leader.angle = 0                               -- the frame is the angle
    -- W = (-2, 1), e = (-1, 3), |e| >= 2: desired 2 e/|e|
    local s = 2 / math.sqrt(10)
    eq("angle 0: method", -s, 3 * s, e:offset_pursuit(leader, -2, 1))
    eq("angle 0: entry", -s, 3 * s, e:steering())
  end)

  it("takes a point leader (at rest, frame angle 0)", function()
    local w = steer.world{}
    local e = w:add{ x = 2, y = 5, max_speed = 2, max_force = 10 }
    -- W = (1, 1) + (1, 0) = (2, 1): e = (0, -4)
    eq("point", 0, -2, e:offset_pursuit({ 1, 1 }, 1, 0))
    eq("x, y", 0, -2, e:offset_pursuit(1, 1, 1, 0))
  end)

  it("settles behind a leader at constant velocity with no steady lag", function()
    local w = steer.world{}
    local leader = w:add{ x = 0, y = 0, vx = 1, max_speed = 1 }
    local e = w:add{ x = -6, y = 3, max_speed = 3, max_force = 5 }
    e:set_behaviors{ { "offset_pursuit", target = leader, offset = { -2, 1 } } }
    for _ = 1, 600 do w:step(1 / 30) end
    close(e.x, leader.x - 2, 1e-3, "x on the slot")
    close(e.y, leader.y + 1, 1e-3, "y on the slot")
    close(e.vx, 1, 1e-3, "vx matches"); close(e.vy, 0, 1e-3, "vy matches")
  end)

  it("never overflows at the limits", function()
    local w = steer.world{}
    local leader = w:add{ x = 1e150, y = -1e150, vx = 1e150, vy = 1e150, max_speed = 1e150 }
    local e = w:add{ x = -1e150, y = 1e150, max_speed = 1e150, max_force = 1e150 }
    all_finite(e:offset_pursuit(leader, 1e150, -1e150))
    all_finite(e:offset_pursuit(leader, 0, 0, 0))
    local slow = w:add{ x = 0, y = 0, max_speed = 0, max_force = 0 }
    all_finite(slow:offset_pursuit(leader, 1e150, 1e150))
    -- a vanishing max_speed: T is capped at 1e150 (found by the fuzzer)
    local tiny = w:add{ x = 0, y = 33, max_speed = 1e-300, max_force = 1 }
    all_finite(tiny:offset_pursuit(tiny, -3e128, -14, 1.7))
    all_finite(tiny:offset_pursuit(leader, -3e128, -14, 1.7))
    all_finite(tiny:queue(1e150))
    all_finite(tiny:follow_leader(leader, 1e150, 1e150, 0))
    all_finite(tiny:interpose(leader, { -1e150, 1e150 }, 0))
    all_finite(tiny:hide(leader, 1e150, 0))
  end)

  it("is a program entry equal to the method, retargetable", function()
    local w = steer.world{}
    local leader = w:add{ x = 0, y = 0, vx = 1 }
    local e = w:add{ x = -3, y = 4, max_speed = 2, max_force = 10 }
    e:set_behaviors{ { "offset_pursuit", target = leader, offset = { -2, 1 },
                       slowing_radius = 3 } }
    local fx, fy = e:steering()
    local mx, my = e:offset_pursuit(leader, -2, 1, 3)
    assert.are.equal(mx, fx); assert.are.equal(my, fy)
    e:set_target("offset_pursuit", { 10, 0 })
    fx, fy = e:steering()
    mx, my = e:offset_pursuit({ 10, 0 }, -2, 1, 3)
    assert.are.equal(mx, fx); assert.are.equal(my, fy)
    local b = e:behaviors()[1]
    assert.are.same({ -2, 1 }, b.offset)
    assert.are.equal(3, b.slowing_radius)
    w:remove(leader)
    e:set_behaviors{ { "offset_pursuit", target = e, offset = { 1, 0 } } }
    all_finite(e:steering())
  end)

  it("raises naming the function and argument", function()
    local w = steer.world{}
    local leader = w:add{}
    local e = w:add{}
    assert.matches("bad argument #2 to 'offset_pursuit'",
      error_of(e.offset_pursuit, e, leader))
    assert.matches("bad argument #2 to 'offset_pursuit'",
      error_of(e.offset_pursuit, e, leader, 0 / 0, 1))
    assert.matches("entry 1 %('offset_pursuit'%): offset",
      error_of(e.set_behaviors, e, { { "offset_pursuit", target = leader, offset = 3 } }))
    assert.matches("offset",
      error_of(e.set_behaviors, e, { { "offset_pursuit", target = leader, offset = { 1, 1 / 0 } } }))
    assert.matches("missing 'target'",
      error_of(e.set_behaviors, e, { { "offset_pursuit", offset = { 1, 1 } } }))
    assert.matches("not a path", error_of(e.set_behaviors, e,
      { { "offset_pursuit", target = steer.path{ { 0, 0 } }, offset = { 1, 1 } } }))
  end)
end)

-- ===================================================================== --
describe("follow_leader (17.2)", function()
  it("steps aside when in front of the leader, to its own side", function()
    local w = steer.world{}
    local leader = w:add{ x = 0, y = 0, vx = 1 }
    local f = w:add{ x = 3, y = 0.5, max_speed = 2, max_force = 10 }
    -- A = (2, 0), |p - A| = 1.118 < 2, on the left: desired (0, 2)
    eq("left", 0, 2, f:follow_leader(leader))
    f.y = -0.5
    eq("right", 0, -2, f:follow_leader(leader))
  end)

  it("arrives behind otherwise", function()
    local w = steer.world{}
    local leader = w:add{ x = 0, y = 0, vx = 1 }
    local f = w:add{ x = -6, y = 0, max_speed = 2, max_force = 10 }
    -- slot (-2, 0): e0 = (4, 0), T = 4/3: desired clamp((1, 0) + (2, 0), 2)
    eq("behind", 2, 0, f:follow_leader(leader))
  end)

  it("a follower on the leader's spot, leader at rest: arrives behind", function()
    local w = steer.world{}
    local leader = w:add{ x = 0, y = 0 }
    local f = w:add{ x = 0, y = 0, max_speed = 2, max_force = 10 }
    -- |p - A| = 2 is not < 2; slot (-2, 0), |e| = 2: desired (-2, 0); the
    -- leader at distance 0 is no separation neighbor
    eq("coincident", -2, 0, f:follow_leader(leader))
  end)

  it("adds separation over radius", function()
    local w = steer.world{}
    local leader = w:add{ x = 0, y = 0 }
    local f = w:add{ x = -2, y = 0, max_speed = 2, max_force = 10 }
    w:add{ x = -2, y = 1 }
    -- on its slot (no pursuit force); the neighbor at d = 1 pushes
    -- -(0, 1) / 1^2; the leader at d = 2 is not < 2
    eq("separation", 0, -1, f:follow_leader(leader))
    eq("radius 0: none", 0, 0, f:follow_leader(leader, 2, 0))
  end)

  it("is a program entry equal to the method", function()
    local w = steer.world{}
    local leader = w:add{ x = 0, y = 0, vx = 1 }
    local f = w:add{ x = -5, y = 1, max_speed = 2, max_force = 10 }
    f:set_behaviors{ { "follow_leader", target = leader, distance = 3, radius = 1 } }
    local fx, fy = f:steering()
    local mx, my = f:follow_leader(leader, 3, 1)
    assert.are.equal(mx, fx); assert.are.equal(my, fy)
    local b = f:behaviors()[1]
    assert.are.equal(3, b.distance); assert.are.equal(1, b.radius)
    assert.matches("bad argument #2 to 'follow_leader'",
      error_of(f.follow_leader, f, leader, -1))
  end)
end)

-- ===================================================================== --
describe("formations (17.3)", function()
  -- the brute-force minimum of the summed distances over every injective
  -- assignment of members to slots (or slots to members)
  local function best_total(pos, slots)
    local n, m = #pos, #slots
    local best = math.huge
    local used = {}
    local function go(k, total, placed)
      if total >= best then return end
      if k > n then
        if placed == math.min(n, m) then best = total end
        return
      end
      for s = 1, m do
        if not used[s] then
          used[s] = true
          local dx, dy = slots[s][1] - pos[k][1], slots[s][2] - pos[k][2]
          go(k + 1, total + math.sqrt(dx * dx + dy * dy), placed + 1)
          used[s] = false
        end
      end
      if n - k >= math.min(n, m) - placed then go(k + 1, total, placed) end
    end
    go(1, 0, 0)
    return best
  end

  it("assigns slots minimizing the total distance (brute-force oracle)", function()
    local seed = 7
    local function rnd() seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648 end
    for trial = 1, 60 do
      local w = steer.world{}
      local leader = w:add{ x = rnd() * 10, y = rnd() * 10, vx = rnd() - 0.5, vy = rnd() - 0.5 }
      local n, m = 1 + math.floor(rnd() * 6), 1 + math.floor(rnd() * 6)
      local slots = {}
      for k = 1, m do slots[k] = { rnd() * 8 - 4, rnd() * 8 - 4 } end
      local f = steer.formation{ anchor = leader, slots = slots }
      local members, pos = {}, {}
      for k = 1, n do
        members[k] = w:add{ x = rnd() * 20 - 5, y = rnd() * 20 - 5 }
        members[k]:set_behaviors{ { "formation", formation = f } }
      end
      local world_slots, total, seen, placed = {}, 0, {}, 0
      for s = 1, m do world_slots[s] = { f:slot_position(s) } end
      for k = 1, n do
        pos[k] = { members[k].x, members[k].y }
        local s = f:slot_of(members[k])
        if s then
          assert.is_nil(seen[s], "slot given twice"); seen[s] = true
          placed = placed + 1
          local dx, dy = world_slots[s][1] - pos[k][1], world_slots[s][2] - pos[k][2]
          total = total + math.sqrt(dx * dx + dy * dy)
        end
      end
      assert.are.equal(math.min(n, m), placed)
      close(total, best_total(pos, world_slots), 1e-9, "trial " .. trial)
    end
  end)

  -- libFuzzer's formation-crash input: one member, four slots on a torus
  -- 5.5625 wide and 1e-300 high (the y offsets wrap to about nothing; the
  -- x offsets of the far slots wrap to anywhere in [-w/2, w/2]).
  it("assigns optimally on a thin torus at a join and at reassign, not at steps", function()
    local W, H = 5.5625, 1e-300
    -- C's wrap_delta: fmod, then into [-extent/2, extent/2]
    local function wrap(d, extent)
      if d > extent / 2 or d < -extent / 2 then
        d = math.fmod(d, extent)
        if d > extent / 2 then d = d - extent elseif d < -extent / 2 then d = d + extent end
      end
      return d
    end
    local function dist(p, s)
      local dx, dy = wrap(s[1] - p[1], W), wrap(s[2] - p[2], H)
      return math.sqrt(dx * dx + dy * dy)
    end
    -- every assignment of the one member: the brute-force optimum
    local function best(p, slots)
      local b = math.huge
      for s = 1, #slots do b = math.min(b, dist(p, slots[s])) end
      return b
    end
    local w = steer.world{ bounds = { W, H }, wrap = true }
    local leader = w:add{ x = 4.2562499999999996, y = 9.830793228809142e-301,
                          vx = 5.6875, vy = -0.25,    -- facing its heading -0.0439...
                          angle = (math.atan2 or math.atan)(-0.25, 5.6875) }
    local f = steer.formation{ anchor = leader, slots = {
      { 100, 459.84375 }, { 9.3953153532721282e+64, 1 },
      { 6.5816718700778672e+140, 2 ^ 53 }, { 100, -1.0000000000000001e-05 } } }
    local a = w:add{ x = 0.23125000000000001, y = 8.1638533275293482e-301 }
    local function state()
      local slots = {}
      for k = 1, 4 do slots[k] = { f:slot_position(k) } end
      local p = { a.x, a.y }
      return dist(p, slots[f:slot_of(a)]), best(p, slots), slots, p
    end
    a:set_behaviors{ { "formation", formation = f } }   -- joins: assigned now
    local total, optimum, slots, p = state()
    assert.are.equal(1, f:slot_of(a))
    close(total, optimum, 1e-12, "at the join")
    close(1.7469463914755323, total, 1e-12, "slot 1")
    close(1.7589673613849612, dist(p, slots[4]), 1e-12, "slot 4, a little further")
    -- a step later (the crash input's): the member keeps slot 1, which is
    -- no longer the nearest; the fuzzer wrongly asked for the optimum here
    leader.x, a.x = 4.5406249999999995, 0.34687500000000004
    total, optimum = state()
    assert.are.equal(1, f:slot_of(a))
    close(1.9156963914755494, total, 1e-12, "slot 1 kept")
    close(1.5902173613849442, optimum, 1e-12, "slot 4 nearer now")
    assert.are.equal(1, f:reassign())
    total, optimum = state()
    assert.are.equal(4, f:slot_of(a))
    close(total, optimum, 1e-12, "reassigned")
  end)

  it("places shapes in the anchor's frame and turns them with it", function()
    local w = steer.world{}
    local leader = w:add{ x = 10, y = 0 }
    local f = steer.formation{ anchor = leader, shape = "line", count = 3, spacing = 2 }
    eq("line 1", -2, 2, f:slot(1)); eq("line 2", -2, 0, f:slot(2)); eq("line 3", -2, -2, f:slot(3))
    eq("at rest: angle 0", 8, 2, f:slot_position(1))
    leader.vy = 1                                  -- moving up, still facing 0
    eq("moving, angle 0", 8, 2, f:slot_position(1))
    leader.angle = math.pi / 2                     -- facing up: ahead is +y
    eq("turned", 8, -2, f:slot_position(1))
    local c = steer.formation{ anchor = leader, shape = "column", count = 2, spacing = 3 }
    eq("column 2", -6, 0, c:slot(2))
    local wedge = steer.formation{ anchor = leader, shape = "wedge", count = 3 }
    eq("wedge 3", -4, 4, wedge:slot(3))
    local ring = steer.formation{ anchor = leader, shape = "circle", count = 4, spacing = 1 }
    -- R = max(1, 4/2pi) = 1; slot 0 at angle pi, slot 1 at 3pi/2
    eq("circle 1", -1, 0, ring:slot(1)); eq("circle 2", 0, -1, ring:slot(2))
    assert.are.equal(4, #ring)
  end)

  it("reassigns the rest when a member leaves or joins", function()
    local w = steer.world{}
    local leader = w:add{ x = 0, y = 0 }
    local f = steer.formation{ anchor = leader, shape = "wedge", count = 4, spacing = 2 }
    local m = {}
    for k = 1, 3 do
      m[k] = w:add{ x = -2 * k, y = 3, max_speed = 2, max_force = 5 }
      m[k]:set_behaviors{ { "formation", formation = f } }
    end
    assert.are.same({ 1, 3, 2 }, { f:slot_of(m[1]), f:slot_of(m[2]), f:slot_of(m[3]) })
    local list = f:members()
    assert.are.equal(m[1], list[1]); assert.are.equal(m[3], list[3])
    m[2]:set_behaviors(nil)                        -- leaves: m[3] takes (-4, 4)
    assert.is_nil(f:slot_of(m[2]))
    assert.are.equal(3, f:slot_of(m[3]))
    m[2]:set_behaviors{ { "seek", target = { 0, 0 } }, { "formation", formation = f } }
    assert.are.equal(3, #f:members())
    w:remove(m[1])
    assert.are.equal(2, #f:members())
    assert.are.equal(2, f:reassign())
  end)

  it("steers a member as offset pursuit of its slot", function()
    local w = steer.world{}
    local leader = w:add{ x = 0, y = 0, vx = 1 }
    local f = steer.formation{ anchor = leader, slots = { { -2, 1 } } }
    local e = w:add{ x = -3, y = 4, max_speed = 2, max_force = 10 }
    e:set_behaviors{ { "formation", formation = f } }
    local fx, fy = e:steering()
    local mx, my = e:offset_pursuit(leader, -2, 1)
    assert.are.equal(mx, fx); assert.are.equal(my, fy)
    local ax, ay = e:formation(f)
    assert.are.equal(mx, ax); assert.are.equal(my, ay)
    local outsider = w:add{ x = 5, y = 5, vx = 1 }
    eq("no member: zero", 0, 0, outsider:formation(f))
    assert.are.equal(1, #f:members())
  end)

  it("handles the empty formation, slotless members and a removed anchor", function()
    local w = steer.world{}
    local leader = w:add{ x = 0, y = 0 }
    local empty = steer.formation{ anchor = leader, slots = {} }
    assert.are.same({}, empty:members())
    assert.are.equal(0, empty:reassign())
    local a = w:add{ x = 1, y = 1, vx = 1 }
    a:set_behaviors{ { "formation", formation = empty } }
    assert.is_nil(empty:slot_of(a))
    eq("no slot: silent", 0, 0, a:steering())
    local f = steer.formation{ anchor = leader, shape = "column", count = 2 }
    local b = w:add{ x = -10, y = 0 }
    a:set_behaviors{ { "formation", formation = f } }
    b:set_behaviors{ { "formation", formation = f } }
    assert.are.equal(2, f:slot_of(b))
    w:remove(leader)
    eq("anchor gone: silent", 0, 0, a:steering())
    assert.are.equal(2, f:reassign())              -- member k keeps slot k
    assert.are.equal(1, f:slot_of(a)); assert.are.equal(2, f:slot_of(b))
  end)

  it("is greedy beyond 32 members: a newcomer takes the nearest free slot", function()
    local w = steer.world{}
    local f = steer.formation{ anchor = { 0, 0 }, world = w, shape = "column", count = 40, spacing = 1 }
    local prog = steer.program{ { "formation", formation = f } }
    local m = {}
    for k = 1, 33 do
      m[k] = w:add{ x = -k, y = 0 }                -- each on slot k
      m[k]:set_behaviors(prog)
    end
    for k = 1, 33 do assert.are.equal(k, f:slot_of(m[k])) end
    local late = w:add{ x = -37.2, y = 0 }
    late:set_behaviors(prog)
    assert.are.equal(37, f:slot_of(late))
    w:remove(m[5])                                 -- nobody moves
    assert.are.equal(37, f:slot_of(late)); assert.are.equal(6, f:slot_of(m[6]))
    local xs = {}
    for k = 1, 10 do xs[k] = -40 + k * 0.01 end
    assert.are.equal(10, w:add_many({ n = 10, x = xs, y = 0 }, prog))
    local list = f:members()
    assert.are.equal(43, #list)
    local slotless = 0                              -- 40 slots for 43 members
    for _, a in ipairs(list) do if not f:slot_of(a) then slotless = slotless + 1 end end
    assert.are.equal(3, slotless)
  end)

  it("beyond 32 members, joins and reassign leave no two ways to the slots crossing", function()
    -- 120 members at random places, 120 slots in a box: the sum of the
    -- distances no longer than the greedy rule's, and no two straight ways
    -- (member to its slot) cross
    local rnd = support.random(2026)
    local w = steer.world{}
    local slots = {}
    for k = 1, 120 do slots[k] = { (k - 1) % 12 * 2, math.floor((k - 1) / 12) * 2 } end
    local f = steer.formation{ anchor = { 100, 0 }, world = w, slots = slots }
    local prog = steer.program{ { "formation", formation = f } }
    local members = {}
    for k = 1, 120 do
      members[k] = w:add{ x = rnd(0, 200), y = rnd(-60, 60), program = prog }
    end
    local function ways()
      local t = {}
      for k, a in ipairs(members) do
        local s = f:slot_of(a)
        local sx, sy = f:slot_position(s)
        t[k] = { a.x, a.y, sx, sy }
      end
      return t
    end
    local function total(t)
      local sum = 0
      for _, q in ipairs(t) do sum = sum + math.sqrt((q[1] - q[3]) ^ 2 + (q[2] - q[4]) ^ 2) end
      return sum
    end
    local function crossings(t)
      local function side(ax, ay, bx, by, px, py) return (bx - ax) * (py - ay) - (by - ay) * (px - ax) end
      local n = 0
      for i = 1, #t do
        for j = i + 1, #t do
          local p, q = t[i], t[j]
          local d1 = side(p[1], p[2], p[3], p[4], q[1], q[2])
          local d2 = side(p[1], p[2], p[3], p[4], q[3], q[4])
          local d3 = side(q[1], q[2], q[3], q[4], p[1], p[2])
          local d4 = side(q[1], q[2], q[3], q[4], p[3], p[4])
          if d1 * d2 < 0 and d3 * d4 < 0 then n = n + 1 end
        end
      end
      return n
    end
    -- the greedy rule written out: each member in join order takes the
    -- nearest free slot
    local taken, greedy = {}, 0
    for _, a in ipairs(members) do
      local best, bd
      for s = 1, 120 do
        if not taken[s] then
          local sx, sy = f:slot_position(s)
          local d = math.sqrt((a.x - sx) ^ 2 + (a.y - sy) ^ 2)
          if not bd or d < bd then best, bd = s, d end
        end
      end
      taken[best] = true
      greedy = greedy + bd
    end
    local joined = ways()
    assert.is_true(total(joined) <= greedy + 1e-9)
    assert.are.equal(120, f:reassign())
    local after = ways()
    assert.are.equal(0, crossings(after))
    assert.is_true(total(after) < greedy, ("%g vs greedy %g"):format(total(after), greedy))
  end)

  it("moves members between formations with set_target", function()
    local w = steer.world{}
    local leader = w:add{}
    local f1 = steer.formation{ anchor = leader, shape = "line", count = 2 }
    local f2 = steer.formation{ anchor = leader, shape = "column", count = 2 }
    local a = w:add{ x = 5 }
    a:set_behaviors{ { "formation", formation = f1 } }
    a:set_target("formation", f2)
    assert.are.same({}, f1:members())
    assert.are.equal(a, f2:members()[1])
    assert.are.equal(f2, a:behaviors()[1].formation)
  end)

  it("raises naming the function and argument", function()
    local w, other = steer.world{}, steer.world{}
    local leader = w:add{}
    local stranger = other:add{}
    assert.matches("bad argument #1 to 'formation'", error_of(steer.formation, nil))
    assert.matches("needs slots", error_of(steer.formation, { anchor = leader }))
    assert.matches("world =", error_of(steer.formation, { anchor = { 0, 0 }, shape = "line", count = 2 }))
    assert.matches("either slots or shape", error_of(steer.formation,
      { anchor = leader, slots = {}, shape = "line", count = 1 }))
    assert.matches("count must be an integer", error_of(steer.formation,
      { anchor = leader, shape = "line", count = 1.5 }))
    assert.matches("unknown field 'spacin': did you mean 'spacing'%?", error_of(steer.formation,
      { anchor = leader, shape = "line", count = 2, spacin = 1 }))
    assert.matches("unknown field 'colour': expected 'anchor', 'slots', 'shape', 'spacing', 'count', 'world' or 'fit'",
      error_of(steer.formation, { anchor = leader, shape = "line", count = 2, colour = 1 }))
    assert.matches("slot 2", error_of(steer.formation, { anchor = leader, slots = { { 0, 0 }, { 1 } } }))
    local f = steer.formation{ anchor = leader, shape = "line", count = 2 }
    assert.matches("another world", error_of(stranger.set_behaviors, stranger,
      { { "formation", formation = f } }))
    assert.matches("missing 'formation'", error_of(leader.set_behaviors, leader, { { "formation" } }))
    assert.matches("bad argument #1 to 'slot_position'", error_of(f.slot_position, f, 3))
    assert.matches("bad argument #1 to 'formation'", error_of(leader.formation, leader, {}))
  end)

  it("leaves the world as it was when memory runs out", function()
    local w = steer.world{}
    local leader = w:add{}
    local f = steer.formation{ anchor = leader, shape = "line", count = 2 }
    local a = w:add{ x = 3 }
    for budget = 0, 6 do
      steer.testing.fail_allocations(budget)
      local ok = pcall(a.set_behaviors, a, { { "formation", formation = f } })
      steer.testing.fail_allocations(nil)
      if ok then
        assert.are.equal(a, f:members()[1])
        break
      end
      assert.are.same({}, f:members())
      assert.is_nil(a:behaviors())
    end
  end)
end)

-- ===================================================================== --
describe("interpose (17.4)", function()
  it("arrives at the midpoint of the predicted ends", function()
    local w = steer.world{}
    local charge = w:add{ x = 0, y = 0 }
    local wolf = w:add{ x = 4, y = 0, vy = 2 }
    local g = w:add{ x = 2, y = -4, max_speed = 2, max_force = 10 }
    -- M = (2, 0), T = 2, target (2, 2): desired (0, 2)
    eq("agents", 0, 2, g:interpose(charge, wolf))
    -- two points: target (2, 0), |to| = 4
    eq("points", 0, 2, g:interpose({ 0, 0 }, { 4, 0 }))
    eq("x, y forms", 0, 2, g:interpose(0, 0, 4, 0))
    -- inside the slowing radius: target (2, -3), d = 1: speed 2 * 1/2
    eq("slowing", 0, 1, g:interpose({ 0, -3 }, { 4, -3 }))
  end)

  it("coincident ends and a guard already there: no force", function()
    local w = steer.world{}
    local g = w:add{ x = 1, y = 1, max_speed = 2, max_force = 10 }
    eq("coincident", 0, 0, g:interpose({ 1, 1 }, { 1, 1 }))
    g.vx = 1
    eq("brakes", -1, 0, g:interpose({ 1, 1 }, { 1, 1 }))
    local still = w:add{ x = 0, y = 0, vx = 1, max_speed = 0, max_force = 10 }
    eq("max_speed 0", -1, 0, still:interpose({ 5, 5 }, { 7, 5 }))
  end)

  it("is a program entry, retargeted with set_target(which, a, b)", function()
    local w = steer.world{}
    local charge = w:add{ x = 0, y = 0 }
    local wolf = w:add{ x = 4, y = 0, vy = 2 }
    local g = w:add{ x = 2, y = -4, max_speed = 2, max_force = 10 }
    g:set_behaviors{ { "interpose", between = { charge, wolf } } }
    eq("entry", 0, 2, g:steering())
    g:set_target("interpose", { 0, -4 }, { x = 2, y = -4 })
    -- target (1, -4): to (-1, 0), d = 1 < 2: desired (-1, 0)
    eq("retargeted", -1, 0, g:steering())
    local b = g:behaviors()[1]
    assert.are.same({ { 0, -4 }, { 2, -4 } }, b.between)
    assert.matches("between", error_of(g.set_behaviors, g, { { "interpose", between = { charge } } }))
    assert.matches("missing 'between'", error_of(g.set_behaviors, g, { { "interpose" } }))
    -- one end as x, y numbers, the second missing
    assert.matches("bad argument #4 to 'set_target' %(entry 1 %('interpose'%): target must be an agent",
      error_of(g.set_target, g, 1, 0, 0))
    w:remove(wolf)
    g:set_behaviors{ { "interpose", between = { charge, g } } }
    all_finite(g:steering())
  end)
end)

-- ===================================================================== --
describe("hide (17.5)", function()
  it("goes behind the obstacle from the hunter, evades without one", function()
    local w = steer.world{}
    local hunter = w:add{ x = -5, y = 0 }
    local prey = w:add{ x = 5, y = 0, max_speed = 2, max_force = 10 }
    eq("no cover: flee", 2, 0, prey:hide(hunter))
    hunter.vx = 1
    -- evade: T = 10 / 2 = 5, predicted (0, 0): away (2, 0)
    eq("no cover: evade", 2, 0, prey:hide(hunter))
    hunter.vx = 0
    w:add_obstacle{ x = 0, y = 0, radius = 1 }
    -- the hunter exactly behind the obstacle: spot (2, 0), |to| = 3
    eq("behind", -2, 0, prey:hide(hunter))
    eq("distance 3: spot (4, 0), d = 1", -1, 0, prey:hide(hunter, 3))
    prey.x = 2
    eq("at the spot", 0, 0, prey:hide(hunter))
  end)

  it("picks the nearest spot, skipping an obstacle centred on the hunter", function()
    local w = steer.world{}
    local hunter = w:add{ x = 0, y = 0 }
    local prey = w:add{ x = 0, y = 10, max_speed = 2, max_force = 10 }
    w:add_obstacle{ x = 0, y = 0, radius = 2 }     -- the hunter inside: no side
    w:add_obstacle{ x = 10, y = 0, radius = 1 }    -- spot (12, 0)
    w:add_obstacle{ x = 0, y = 4, radius = 1 }     -- spot (0, 6): nearest
    eq("nearest", 0, -2, prey:hide(hunter))
    eq("point hunter", 0, -2, prey:hide({ 0, 0 }))
    prey:set_behaviors{ { "hide", target = hunter, distance = 1 } }
    eq("entry", 0, -2, prey:steering())
    prey:set_target("hide", { 0, 8 })              -- spots (0, 2)... (0, 0) is nearest? no:
    -- from (0, 8): obstacle 1 spot (0, -3), obstacle 2 (10, 0) + dir(10, -8) * 2,
    -- obstacle 3 (0, 4) + (0, -1) * 2 = (0, 2): d = 8 from the prey, the nearest
    eq("retargeted", 0, -2, prey:steering())
  end)
end)

-- ===================================================================== --
describe("queue (17.6)", function()
  it("brakes behind a slower agent ahead, holding max(d/2, r + r_j)", function()
    local w = steer.world{}
    local a = w:add{ x = 0, y = 0, vx = 1, max_speed = 2, max_force = 10 }
    local b = w:add{ x = 2, y = 0 }
    eq("brake", -0.5, 0, a:queue(3))
    b.vx = 2                                       -- pulls away: silent
    eq("faster ahead", 0, 0, a:queue(3))
    b.vx, b.x, b.y = 0, 0, 2                       -- 90 degrees off: out of a 90 cone
    eq("outside the cone", 0, 0, a:queue(3))
    -- s = 0 < |v|: e = (0, 0.5), desired (0, 0.5), force (0, 0.5) - (1, 0)
    eq("inside a 270 cone", -1, 0.5, a:queue(3, 270))
  end)

  it("backs off when too close, even at rest; ignores an agent on its spot", function()
    local w = steer.world{}
    local a = w:add{ x = 0, y = 0, max_speed = 2, max_force = 10 }
    local b = w:add{ x = 1, y = 0 }
    -- the forward is its angle, 0; hold 1.5, e = (-0.5, 0)
    eq("too close", -0.5, 0, a:queue(3))
    b.x = 0
    eq("coincident", 0, 0, a:queue(3))
  end)

  it("files agents through a door without pushing through", function()
    local w = steer.world{ seed = 5 }
    local walkers = {}
    for k = 1, 6 do
      walkers[k] = w:add{ x = -3 * k, y = 0, vx = 1, max_speed = 1.5 + 0.1 * k,
                          max_force = 4, radius = 0.5 }
      walkers[k]:set_behaviors{ combine = "priority",
        { "queue", distance = 2.5 }, { "seek", target = { 30, 0 } } }
    end
    local closest = math.huge
    for _ = 1, 400 do
      w:step(1 / 30)
      for k = 2, 6 do
        local d = math.abs(walkers[k - 1].x - walkers[k].x)
        if d < closest then closest = d end
      end
    end
    -- the faster ones behind never close below the two radii
    assert.is_true(closest > 1, "closest " .. closest)
  end)

  it("is a program entry equal to the method", function()
    local w = steer.world{}
    local a = w:add{ x = 0, y = 0, vx = 1, max_speed = 2, max_force = 10 }
    w:add{ x = 2, y = 0 }
    a:set_behaviors{ { "queue", distance = 3, fov = 60 } }
    eq("entry", -0.5, 0, a:steering())
    local b = a:behaviors()[1]
    assert.are.equal(60, b.fov); assert.are.equal(3, b.distance)
    assert.matches("fov", error_of(a.set_behaviors, a, { { "queue", fov = 400 } }))
    assert.matches("bad argument #2 to 'queue'", error_of(a.queue, a, 3, 0))
    assert.matches("takes no target", error_of(a.set_target, a, 1, { 0, 0 }))
  end)
end)

-- ===================================================================== --
describe("tactics programs", function()
  it("round-trip through a:behaviors()", function()
    local w = steer.world{}
    local l = w:add{ x = 1, y = 2, vx = 1 }
    local a = w:add{ x = -3, y = 4, max_speed = 2, max_force = 5 }
    local f = steer.formation{ anchor = l, shape = "line", count = 3 }
    a:set_behaviors{ combine = "prioritized_sum",
      { "offset_pursuit", target = l, offset = { -1, 2 } },
      { "follow_leader", target = { 3, 3 }, distance = 3 },
      { "formation", formation = f },
      { "interpose", between = { l, { 5, 5 } } },
      { "hide", target = l, distance = 2 },
      { "queue", distance = 4, fov = 120 } }
    local fx, fy = a:steering()
    a:set_behaviors(a:behaviors())
    local gx, gy = a:steering()
    assert.are.equal(fx, gx); assert.are.equal(fy, gy)
    assert.are.equal(1, #f:members())
  end)

  it("step like their methods in a shared program", function()
    local w = steer.world{}
    local l = w:add{ x = 0, y = 0, vx = 1, max_speed = 1 }
    local prog = steer.program{ { "offset_pursuit", target = l, offset = { -2, 0 } } }
    local a = w:add{ x = -5, y = 1, max_speed = 2, max_force = 3 }
    local b = w:add{ x = -5, y = -1, max_speed = 2, max_force = 3 }
    a:set_behaviors(prog); b:set_behaviors(prog)
    local ax, ay = a:offset_pursuit(l, -2, 0)
    local vx, vy = a.vx + ax * 0.1, a.vy + ay * 0.1   -- below max_speed
    w:step(0.1)
    close(a.vx, vx, 1e-12, "vx"); close(a.vy, vy, 1e-12, "vy")
    close(b.vy, -vy, 1e-12, "mirror")
  end)
end)

describe("tactics and snapshots (17.7)", function()
  it("snapshots a world running a formation (spec/snapshot_tactics_spec.lua)", function()
    local w = steer.world{}
    local l = w:add{}
    local f = steer.formation{ anchor = l, slots = { { -1, 0 } } }
    local a = w:add{}
    a:set_behaviors{ { "formation", formation = f } }
    local c = assert(steer.restore(w:snapshot()))
    local f2 = c:get(a.id):behaviors()[1].formation
    assert.are.equal(1, f2:slot_of(c:get(a.id)))
    assert.are.equal(l.id, f2:anchor().id)
    assert.is_false(rawequal(f, f2)) -- the restored world's own
  end)
end)
