-- ORCA crowds through a door (bench/doorway.lua, smaller): 100 agents of
-- radius 8 px in a block of 10 x 10 before a wall with a door 64 px wide
-- (four bodies), each heading for a point past the door, then for its own
-- goal beyond. RVO2 (bench/doorway_rvo2.cc on these starts) gets 98, 100,
-- 100, 100 through in 20 s; steer got 84, 89, 94, 92 while its detour took
-- agents waiting in the door's queue out of it (docs/API.md 18.1.3), and
-- gets 98, 100, 89, 88 since.
local steer = require "steer"

local DT, R, SPEED = 1 / 30, 8, 60
local WALL_X, HALF, DOOR_Y = 600, 4, 1200
local THROUGH_X = WALL_X + HALF + R -- the whole body past the wall

-- a generator exact in doubles (LuaJIT) and integers (Lua 5.4) alike
local function jitter(seed)
  local s = seed
  return function()
    s = (s * 16807) % 2147483647
    return -1 + 2 * (s / 2147483647)
  end
end

-- how many of the 100 are through after `seconds`; the deepest overlap of
-- two bodies (every 10th step) and of a body into the wall (every step)
local function doorway(seed, seconds, door, orca)
  local world = steer.world{ bounds = { 1400, 2400 }, cell_size = 32 }
  local rnd = jitter(seed)
  local agents, targets, goals, through = {}, {}, {}, {}
  for c = 0, 9 do
    for r = 0, 9 do
      local x, y = WALL_X - HALF - 44 - 20 * c, DOOR_Y + 20 * (r - 4.5)
      local target = steer.point(WALL_X + 60, DOOR_Y)
      local a = world:add{ x = x + rnd(), y = y + rnd(), radius = R, max_speed = SPEED, max_force = 1e6 }
      a:set_behaviors{ { "arrive", target = target, slowing_radius = SPEED * DT, weight = 1 / DT }, orca = orca }
      agents[#agents + 1], targets[#targets + 1] = a, target
      goals[#goals + 1] = { WALL_X + 150 + 20 * c, y }
    end
  end
  local d0, d1 = DOOR_Y - door / 2, DOOR_Y + door / 2
  world:add_polygon{ WALL_X - HALF, -4800, WALL_X + HALF, -4800, WALL_X + HALF, d0, WALL_X - HALF, d0, closed = true }
  world:add_polygon{ WALL_X - HALF, d1, WALL_X + HALF, d1, WALL_X + HALF, 7200, WALL_X - HALF, 7200, closed = true }
  local count, pair_pen, wall_pen = 0, 0, 0
  for step = 1, math.floor(seconds / DT + 0.5) do
    world:step(DT)
    for i, a in ipairs(agents) do
      if not through[i] and a.x > THROUGH_X then
        through[i] = true
        count = count + 1
        targets[i].x, targets[i].y = goals[i][1], goals[i][2]
      end
      -- into the wall: the body's reach past the nearer face, beside the door
      if a.y < d0 or a.y > d1 then
        wall_pen = math.max(wall_pen, R - math.max(math.abs(a.x - WALL_X) - HALF, 0))
      end
      if step % 10 == 0 then
        for j = i + 1, #agents do
          local b = agents[j]
          local d = math.sqrt((a.x - b.x) ^ 2 + (a.y - b.y) ^ 2)
          pair_pen = math.max(pair_pen, 2 * R - d)
        end
      end
    end
  end
  world:close()
  return count, pair_pen, wall_pen
end

describe("orca at a door four bodies wide", function()
  it("lets the crowd through nearly as RVO2 does, without overlaps", function()
    local total, deepest, into_wall = 0, 0, 0
    for seed = 1, 4 do
      local n, pen, wall = doorway(seed, 20, 64, true)
      total = total + n
      deepest = math.max(deepest, pen)
      into_wall = math.max(into_wall, wall)
    end
    -- 375 of 400 (359 with the detour taking the queue apart; RVO2 398)
    assert.is_true(total >= 370, "through in 20 s: " .. total .. " of 400")
    -- bodies a 16th of a diameter deep at most (0.76 px; RVO2 up to 1.35
    -- on these starts), none into the wall
    assert.is_true(deepest < 1, "deepest overlap " .. deepest)
    assert.is_true(into_wall <= 0, "into the wall " .. into_wall)
  end)
end)
