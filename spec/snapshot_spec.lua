-- world:snapshot() and steer.restore(s): complete, bit-identical, and never
-- trusting a damaged snapshot.
local steer = require "steer"
local support = require "support"

local function scene()
  local world = steer.world{ seed = 21, bounds = { 60, 40 }, wrap = true, cell_size = 4 }
  local loop = steer.path{ { 5, 5 }, { 55, 5 }, { 55, 35 }, loop = true }
  local open = steer.path{ { 1, 1 }, { 30, 20 } }
  world:add_obstacle{ x = 30, y = 20, radius = 3 }
  world:add_wall{ x1 = 10, y1 = 10, x2 = 10, y2 = 30 }
  local agents = {}
  for k = 1, 40 do
    agents[k] = world:add{ x = (k * 9.1) % 60, y = (k * 4.7) % 40,
                           vx = math.cos(k), vy = math.sin(k),
                           max_speed = 2 + k % 3, max_force = 3, radius = 0.3 + k % 2 }
  end
  for k = 1, 40, 4 do
    agents[k]:set_behaviors{ { "separation", radius = 1.5 }, { "alignment", radius = 5 },
      { "cohesion", radius = 5 }, { "wander", weight = 0.3 } }
    agents[k + 1]:set_behaviors{ combine = "priority", hold = 0.3, smoothing = 0.5,
      { "avoid_obstacles", hysteresis = 0.5 }, { "avoid_walls" },
      { "follow", path = loop, tag = "patrol" } }
    agents[k + 2]:set_behaviors{ combine = "dither",
      { "evade", target = agents[k + 1], probability = 0.4 },
      { "arrive", target = open } }
    agents[k + 3].wander_jitter = 0.9
    agents[k + 3]:follow(open)
  end
  agents[7]:seed(99)
  world:remove(agents[12]) -- free slots and bumped generations are state too
  world:remove(agents[30])
  return world, agents
end

local function run(world, steps)
  for _ = 1, steps do world:step(0.1) end
end

describe("snapshots", function()
  it("restore a world that continues bit-identically", function()
    local world = scene()
    run(world, 50)
    local s = world:snapshot()
    local copy = assert(steer.restore(s))
    assert.are.equal(#world, #copy)
    assert.are.equal(s, copy:snapshot())
    run(world, 200)
    run(copy, 200)
    assert.are.equal(world:snapshot(), copy:snapshot())
  end)

  it("continue bit-identically from a world whose programs read no neighbors", function()
    -- such a world sorts its agents only every few steps; a snapshot taken
    -- between sorts must still continue the same, also once the agents
    -- start flocking (neighbor sums depend on the order)
    local world = steer.world{ seed = 5, bounds = { 80, 80 } }
    local go = steer.program{ { "arrive", target = { 40, 40 }, slowing_radius = 10 } }
    local roam = steer.program{ { "seek", target = { 70, 10 } }, { "wander", weight = 0.5 } }
    for k = 1, 300 do
      world:add{ x = (k * 7.3) % 80, y = (k * 3.1) % 80, vx = math.cos(k), vy = math.sin(k),
                 max_speed = 3, max_force = 5 }:set_behaviors(k % 2 == 0 and go or roam)
    end
    run(world, 3)
    local copy = assert(steer.restore(world:snapshot()))
    run(world, 6)
    run(copy, 6)
    local flock = steer.program{ { "separation", radius = 2, weight = 1.5 },
      { "alignment", radius = 5 }, { "cohesion", radius = 5 } }
    for a in world:agents() do
      a:set_behaviors(flock)
      copy:get(a.id):set_behaviors(flock)
    end
    run(world, 10)
    run(copy, 10)
    assert.are.equal(world:snapshot(), copy:snapshot())
  end)

  it("carry ids, free slots, fields, programs, paths, obstacles and walls", function()
    local world, agents = scene()
    run(world, 5)
    local copy = assert(steer.restore(world:snapshot()))
    for a in world:agents() do
      local b = copy:get(a.id)
      assert.is_not_nil(b)
      for _, f in ipairs{ "x", "y", "vx", "vy", "max_speed", "max_force", "radius",
                          "wander_radius", "wander_distance", "wander_jitter", "wander_angle" } do
        assert.are.equal(a[f], b[f])
      end
    end
    assert.is_nil(copy:get(agents[12].id))
    -- the next agent gets the same id in both
    assert.are.equal(world:add{}.id, copy:add{}.id)
    -- the same shapes under the same handles
    local function shapes(w)
      local t = {}
      for o in w:obstacles() do t[#t + 1] = { o.id, o.x, o.y, o.radius } end
      for s in w:walls() do t[#t + 1] = { s.id, s.x1, s.y1, s.x2, s.y2 } end
      return t
    end
    assert.are.same(shapes(world), shapes(copy))
    local d1, d2 = agents[2]:behaviors(), copy:get(agents[2].id):behaviors()
    assert.are.equal(d1.hold, d2.hold)
    assert.are.equal("patrol", d2[3].tag)
    assert.are.equal(#d1[3].path, #d2[3].path)
    assert.are.equal(agents[2]:path_index(), copy:get(agents[2].id):path_index())
    assert.are.equal(agents[4]:path_index(), copy:get(agents[4].id):path_index())
  end)

  it("are refused with a message when truncated", function()
    local world = scene()
    local s = world:snapshot()
    for n = 0, #s - 1, 7 do
      local w, msg = steer.restore(s:sub(1, n))
      assert.is_nil(w)
      assert.is_string(msg)
    end
    assert.is_nil((steer.restore(s:sub(1, #s - 1))))
    assert.is_nil((steer.restore(s .. "x")))
  end)

  it("are refused with a message when a byte is damaged", function()
    local world = scene()
    local s = world:snapshot()
    local step = math.max(1, math.floor(#s / 300))
    for pos = 1, #s, step do
      local byte = s:byte(pos)
      local damaged = s:sub(1, pos - 1) .. string.char((byte + 1) % 256) .. s:sub(pos + 1)
      local w, msg = steer.restore(damaged)
      assert.is_nil(w)
      assert.matches("snapshot", msg)
    end
  end)

  it("are refused when not a string or not a snapshot", function()
    assert.matches("bad argument #1 to 'restore' %(string expected, got no value%)",
      support.error_of(steer.restore))
    local w, msg = steer.restore("")
    assert.is_nil(w)
    assert.are.equal("not a steer snapshot", msg)
  end)

  -- the snapshot's checksum, to forge snapshots whose content is wrong
  local fnv, forge = support.fnv, support.forge

  -- body with each of its `count` copies of `from` replaced by `to`
  local function replace(body, from, to, count)
    local parts, at = {}, 1
    while true do
      local hit = body:find(from, at, true)
      if not hit then break end
      parts[#parts + 1] = body:sub(at, hit - 1) .. to
      at = hit + #from
    end
    assert.are.equal(count, #parts)
    return table.concat(parts) .. body:sub(at)
  end

  -- an entry's last bytes: its start (u64 0, after its look_ahead 1.0: 00 00 00
  -- 00 00 00 F0 3F), then since version 6 its personal space (0.5: ... E0 3F)
  local entry_start, entry_space = "\0\0\0\0\0\0\240\63" .. ("\0"):rep(8), "\0\0\0\0\0\0\224\63"

  -- snapshot s of version 7, of a world without shared points, as version 6
  -- wrote it (no checksum): without the points table's count (u64 0 after
  -- the paths' count, u64 0, which follows the world's 32 bytes and the
  -- slots) and without each entry's point number (u64 0 between its path,
  -- u64 0, and its weight and probability, 1: 00 00 00 00 00 00 F0 3F; the
  -- entries here keep those defaults, and come before any agent whose
  -- bytes could look the same)
  local function version6(s, slots, entries, programs)
    s = support.before_tactics(s, entries) -- first as version 9 wrote it
    assert.are.equal("\9\0\0\0", s:sub(9, 12))
    -- version 8's flags, last (one u32 per program, per wall: none here),
    -- then version 9's (one u32 per program, one per agent: as many as
    -- the slots here)
    s = s:sub(1, #s - 8 - 8 * (programs or entries) - 4 * slots) .. s:sub(#s - 7)
    local at = 12 + 32 + 12 + 8 * slots + 1
    assert.are.equal(("\0"):rep(16), s:sub(at, at + 15))
    local body = s:sub(13, at + 7) .. s:sub(at + 16, #s - 8)
    local one = "\0\0\0\0\0\0\240\63"
    local from = 1
    for _ = 1, entries do
      local hit = assert(body:find(("\0"):rep(24) .. one .. one, from, true))
      body = body:sub(1, hit + 15) .. body:sub(hit + 24)
      from = hit + 16
    end
    return s:sub(1, 8) .. "\6\0\0\0" .. body
  end

  it("have a checksum the specs can recompute", function()
    if not fnv then return pending("forging needs 64-bit integers (Lua 5.4, LuaJIT)") end
    local s = scene():snapshot()
    assert.are.equal(s, forge(s, 1, "STEERSNP"))
  end)

  it("of versions 2 to 5 (before orca's margin, its push, its detour, avoid_agents' space) restore without them", function()
    if not fnv then return pending("forging needs 64-bit integers (Lua 5.4, LuaJIT)") end
    local function crowd(margin, push, detour)
      local world = steer.world{}
      for k = 1, 12 do
        local a = world:add{ x = k % 4 * 2.5, y = math.floor(k / 4) * 2.5, radius = 1.25, max_speed = 2 }
        a:set_behaviors{ { "seek", target = { 8 - k % 4 * 2.5, 8 } },
          orca = { margin = margin, push = push, detour = detour } }
      end
      return world
    end
    -- version 6 writes the margin (0.8125: 00 00 00 00 00 00 EA 3F) after
    -- max_neighbors, then the push (u64 5) and the detour (u32 1), one per
    -- program (each agent here has its own); after each agent's radius
    -- (1.25: 00 00 00 00 00 00 F4 3F) its standstill clock (0 before a step);
    -- and after each entry's start its personal space (entry_space above).
    -- Version 5 lacks the space, version 4 the detour and the clock too,
    -- version 3 the push too, version 2 the margin too (and all of them
    -- version 7's shared points).
    local v6 = version6(crowd(0.8125, 5, true):snapshot(), 12, 12)
    local margin, push, detour = "\0\0\0\0\0\0\234\63", "\5\0\0\0\0\0\0\0", "\1\0\0\0"
    local radius, clock = "\0\0\0\0\0\0\244\63", ("\0"):rep(8)
    local function older(version, kept)
      local body = v6:sub(13)
      body = replace(body, entry_start .. entry_space, entry_start, 12)
      if version < 5 then body = replace(body, radius .. clock, radius, 12) end
      body = replace(body, margin .. push .. detour, kept, 12)
      body = v6:sub(1, 8) .. string.char(version) .. "\0\0\0" .. body
      return assert(steer.restore(body .. fnv(body)))
    end
    -- version 5 keeps the detour: its world goes on as the saved one
    local v5 = older(5, margin .. push .. detour)
    for _ = 1, 20 do v5:step(0.1) end
    local now = crowd(0.8125, 5, true)
    for _ = 1, 20 do now:step(0.1) end
    assert.are.equal(now:snapshot(), v5:snapshot())
    for _, case in ipairs{ { 4, margin .. push, 0.8125, 5 }, { 3, margin, 0.8125, 0 }, { 2, "", 0, 0 } } do
      local old = older(case[1], case[2])
      local a
      for x in old:agents() do a = a or x end
      local orca = a:behaviors().orca
      assert.are.equal(case[3], orca.margin)
      assert.are.equal(case[4], orca.push)
      assert.is_false(orca.detour)
      local fresh = crowd(case[3], case[4], false)
      for _ = 1, 20 do old:step(0.1); fresh:step(0.1) end
      assert.are.equal(fresh:snapshot(), old:snapshot())
    end
  end)

  it("of version 5 give avoid_agents no personal space, as it ran then", function()
    if not fnv then return pending("forging needs 64-bit integers (Lua 5.4, LuaJIT)") end
    local world = steer.world{}
    local a = world:add{ x = 0, y = 0, radius = 1, max_speed = 2, max_force = 10 }
    world:add{ x = 2.5, y = 0, radius = 1 }
    a:set_behaviors{ { "avoid_agents" }, { "seek", target = { 5, 5 } } }
    local v6 = version6(world:snapshot(), 2, 2, 1)
    local body = replace(v6:sub(13), entry_start .. entry_space, entry_start, 2)
    body = v6:sub(1, 8) .. "\5\0\0\0" .. body
    local old = assert(steer.restore(body .. fnv(body)))
    local b
    for x in old:agents() do b = b or x end
    local program = b:behaviors()
    assert.are.equal(0, program[1].personal_space)
    local seek_only = steer.world{}
    local c = seek_only:add{ x = 0, y = 0, radius = 1, max_speed = 2, max_force = 10 }
    c:set_behaviors{ { "seek", target = { 5, 5 } } }
    assert.are.same({ c:steering() }, { b:steering() }) -- at rest, no space: only the seek speaks
  end)

  it("refuse a standstill clock no run can reach (outside [-20, 2))", function()
    if not fnv then return pending("forging needs 64-bit integers (Lua 5.4, LuaJIT)") end
    local world = steer.world{}
    local a = world:add{ x = 1, y = 2, radius = 1.25, max_speed = 2 }
    a:set_behaviors{ { "seek", target = { 9, 9 } }, orca = true }
    local s = world:snapshot()
    -- the clock follows the radius (1.25: 00 00 00 00 00 00 F4 3F), 0 now
    local at = s:find("\0\0\0\0\0\0\244\63" .. ("\0"):rep(8), 13, true)
    assert.is_truthy(at)
    if not string.pack then return pending("string.pack needs Lua 5.3+") end
    local function with_clock(c) return steer.restore(forge(s, at + 8, string.pack("<d", c))) end
    for _, c in ipairs{ -20, -19.5, -0.25, 0, 1.99 } do
      assert.is_truthy(with_clock(c), "clock " .. c)
    end
    for _, c in ipairs{ -20.25, -1e150, 2, 1e150 } do
      local w, msg = with_clock(c)
      assert.is_nil(w, "clock " .. c)
      assert.are.equal("snapshot holds an invalid standstill clock", msg)
    end
    for _, c in ipairs{ 1e300, 1 / 0, -1 / 0, 0 / 0 } do -- refused as any number out of range
      assert.is_nil(with_clock(c), "clock " .. c)
    end
  end)

  it("with a valid checksum but bad content are still refused or safe", function()
    if not fnv then return pending("forging needs 64-bit integers (Lua 5.4, LuaJIT)") end
    local world = scene()
    local s = world:snapshot()
    local _, msg = steer.restore(forge(s, 9, "\255\0\0\0"))
    assert.are.equal("unsupported snapshot version", msg)
    _, msg = steer.restore(forge(s, 9, "\16\0\0\0")) -- a later version
    assert.are.equal("unsupported snapshot version", msg)
    _, msg = steer.restore(forge(s, 9, "\1\0\0\0")) -- before orientation
    assert.are.equal("unsupported snapshot version", msg)
    -- damage every few bytes, fix the checksum: either refused with a
    -- message, or a valid world that steps without NaN
    local refused, accepted = 0, 0
    local step = math.max(1, math.floor(#s / 400))
    for pos = 13, #s - 8, step do
      for _, b in ipairs{ 0, 255, 127 } do
        local w, why = steer.restore(forge(s, pos, string.char(b)))
        if w then
          accepted = accepted + 1
          run(w, 3)
          for a in w:agents() do support.all_finite(a.x, a.y, a.vx, a.vy) end
        else
          refused = refused + 1
          assert.matches("snapshot", why)
        end
      end
    end
    assert.is_true(refused > 0 and accepted > 0)
  end)
end)
