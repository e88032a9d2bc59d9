-- Batched priority programs and level entries (program_batch.c,
-- program_priority.c): priority lists and weighted sums of avoid_walls,
-- avoid_obstacles, path entries, flocking rules, wander and point targets are
-- computed entry by entry for a batch of agents; the result must be
-- program_force's, bit for bit, with the same winners and the same entry
-- states (hysteresis, waypoints, hold). The reference run adds a
-- zero-weighted pursue entry last, which never speaks and makes every
-- program unbatchable and the step buffered.
local steer = require "steer"
local support = require "support"

local function run(reference, opts)
  local side = opts.side
  -- an unbounded world's level and crowd may lie far from the origin: the
  -- walks' margins grow with the cells' numbers
  local at = opts.shift or 0
  local world = steer.world{ bounds = opts.bounded ~= false and { side, side } or nil,
    wrap = opts.wrap, seed = 9, threads = opts.threads }
  local seed = 31
  local function rand()
    seed = (seed * 1103515245 + 12345) % 4294967296
    return seed / 4294967296
  end
  for _ = 1, opts.geometry do
    world:add_obstacle{ x = at + rand() * side, y = at + rand() * side, radius = 0.3 + rand() * 2 }
  end
  for k = 1, opts.geometry do
    -- some across the seam of a torus, some very short
    local x, y, a, l = at + rand() * side, at + rand() * side, rand() * 2 * math.pi, 1 + rand() * 6
    if k % 17 == 0 then l = 1e-7 end
    world:add_wall{ x1 = x, y1 = y, x2 = x + math.cos(a) * l, y2 = y + math.sin(a) * l }
  end
  if opts.degenerate then
    -- what the feelers' batched walk must take as the single walk does:
    -- walls of almost no length, on the seam, longer than the world (the large
    -- list), obstacles of radius 0, on the seam, larger than the world
    world:add_wall{ x1 = side / 3, y1 = side / 3, x2 = side / 3 + 1e-12, y2 = side / 3 }
    world:add_wall{ x1 = 0, y1 = side / 4, x2 = 0, y2 = side / 2 }
    world:add_wall{ x1 = side / 5, y1 = 0, x2 = side / 2, y2 = 0 }
    if opts.wrap then -- across the seam, almost all round
      world:add_wall{ x1 = -side * 0.49, y1 = side / 7, x2 = side * 0.49, y2 = side / 6 }
    else -- its box covers thousands of cells
      world:add_wall{ x1 = -3 * side, y1 = -3 * side, x2 = 4 * side, y2 = 4 * side + 1 }
    end
    world:add_obstacle{ x = side / 2, y = side / 2, radius = 0 }
    world:add_obstacle{ x = 0, y = side / 3, radius = 1.5 }
    world:add_obstacle{ x = side / 6, y = side / 5, radius = opts.wrap and side / 3 or 2 * side }
  end
  local loop = steer.path{ { at + side * 0.2, at + side * 0.2 }, { at + side * 0.8, at + side * 0.2 },
    { at + side * 0.8, at + side * 0.8 }, { at + side * 0.2, at + side * 0.8 }, loop = true }
  local open = steer.path{ { at + side * 0.1, at + side * 0.1 }, { at + side * 0.5, at + side * 0.2 },
    { at + side * 0.9, at + side * 0.7 } }
  local short = steer.path{ { at + side * 0.3, at + side * 0.5 }, { at + side * 0.7, at + side * 0.5 } }
  local programs = {
    -- bench/level's program
    { combine = "priority", { "avoid_walls" }, { "avoid_obstacles" },
      { "separation", radius = 1.5 }, { "follow", path = loop } },
    { combine = "priority", hold = 0.35, { "avoid_walls", hysteresis = 1 },
      { "avoid_obstacles", hysteresis = 0.5, weight = 2 }, { "separation", radius = 3 },
      { "cohesion", radius = 4 }, { "wander" } },
    { combine = "priority", { "avoid_obstacles", feeler_length = 5 },
      { "seek", target = open, arrival_radius = 2 }, { "arrive", target = { side / 2, side / 2 } } },
    { combine = "priority", hold = 1, { "avoid_walls", feeler_length = 6 },
      { "arrive", target = loop, arrival_radius = 3 }, { "separation", radius = 2, weight = -1 } },
    { combine = "priority", { "flee", target = { side / 2, side / 2 }, panic_radius = side / 5 },
      { "alignment", radius = 3 }, { "wander", weight = 0.5 } },
    { combine = "weighted", { "avoid_walls", hysteresis = 2 },
      { "follow", path = open, path_radius = 2 }, { "wander", weight = 0.3 } },
    { combine = "weighted", { "avoid_walls" }, { "avoid_obstacles" },
      { "separation", radius = 1.5 }, { "follow", path = loop } },
    -- one entry holding control (the reference's pursue is a second)
    { combine = "priority", hold = 0.5, { "avoid_walls", feeler_length = 4 } },
    -- feelers longer than a few cells: their boxes cover more cells than
    -- the level has items (then every item is tested), or more than a few
    { combine = "priority", { "avoid_walls", feeler_length = 25, hysteresis = 3 },
      { "avoid_obstacles", feeler_length = 12, hysteresis = 12 }, { "follow", path = loop } },
    -- an open path's last waypoint: arrive (the wide arrival radius takes
    -- most agents past the first at once), the others seek theirs
    { combine = "priority", { "avoid_obstacles" },
      { "follow", path = short, arrival_radius = 12, slowing_radius = 25 } },
    -- no hold, two flocking rules walked late (their sums kept per agent)
    { combine = "priority", { "avoid_walls" }, { "separation", radius = 1.5 },
      { "cohesion", radius = 4, weight = 0.01 }, { "follow", path = loop } },
    -- whiskers: the walls and obstacles not walked as a pair
    { combine = "priority", { "avoid_walls", whiskers = true, feeler_length = 4 },
      { "avoid_obstacles" }, { "separation", radius = 1.5 }, { "follow", path = loop } },
    { combine = "weighted", { "avoid_walls", whiskers = true, hysteresis = 1 },
      { "wander", weight = 0.5 } },
  }
  local agents = {}
  for k = 1, opts.n do
    local s = 1 + k % 3
    -- standing agents (no heading: the feeler points along +x) and agents
    -- barely moving (below the heading's usual range)
    if opts.still and k % 5 == 0 then s = 0 elseif opts.still and k % 5 == 1 then s = 1e-3 end
    agents[k] = world:add{ x = at + rand() * side, y = at + rand() * side,
      vx = s * math.cos(k), vy = s * math.sin(k), max_speed = 2.5, max_force = 1 + k % 5,
      radius = 0.2 + (k % 4) * 0.2 }
  end
  for q, entries in ipairs(programs) do
    if reference then entries[#entries + 1] = { "pursue", target = agents[1], weight = 0 } end
    programs[q] = steer.program(entries)
  end
  local uses = opts.programs
  for k, a in ipairs(agents) do a:set_behaviors(programs[uses[k % #uses + 1]]) end
  local state = {}
  for step = 1, opts.steps do
    world:step(0.1)
    if step == math.floor(opts.steps / 2) then
      -- hold and hysteresis carry over from one step to the next
      for k = 1, #agents, 7 do agents[k].vx, agents[k].vy = -agents[k].vy, agents[k].vx end
    end
  end
  for k, a in ipairs(agents) do
    support.all_finite(a.x, a.y, a.vx, a.vy)
    local winner = a:active_behavior() or 0
    state[k] = { a.x, a.y, a.vx, a.vy, winner }
  end
  world:close()
  return state
end

local cases = {
  { name = "the level program on a torus", wrap = true, side = 60, n = 1500, geometry = 300,
    programs = { 1 }, steps = 12 },
  { name = "the level program in a bounded world", wrap = false, side = 60, n = 1500,
    geometry = 300, programs = { 1 }, steps = 12 },
  { name = "the level program in an unbounded world", bounded = false, side = 60, n = 1500,
    geometry = 300, programs = { 1 }, steps = 12 },
  { name = "the level program in an unbounded world, 3.3e7 from the origin", bounded = false,
    side = 60, n = 1500, geometry = 300, programs = { 1, 11 }, steps = 12, shift = -3.3e7 },
  { name = "hold and hysteresis", wrap = true, side = 50, n = 1500, geometry = 400,
    programs = { 2 }, steps = 20 },
  { name = "path waypoints and point targets", wrap = false, side = 50, n = 1500, geometry = 200,
    programs = { 3, 4, 10 }, steps = 20 },
  { name = "flee, alignment and wander", wrap = true, side = 40, n = 1200, geometry = 50,
    programs = { 5 }, steps = 10 },
  { name = "weighted sums of level entries", wrap = true, side = 50, n = 1500, geometry = 300,
    programs = { 6, 7 }, steps = 12 },
  { name = "one entry holding control", wrap = true, side = 40, n = 1500, geometry = 400,
    programs = { 8 }, steps = 20 },
  { name = "feelers at once: zero velocities, degenerate geometry, the seam", wrap = true,
    side = 60, n = 1500, geometry = 200, programs = { 1, 9, 2 }, steps = 12, still = true,
    degenerate = true },
  { name = "feelers at once in a sparse bounded level, long feelers", wrap = false, side = 60,
    n = 1200, geometry = 4, programs = { 9, 1 }, steps = 12, still = true, degenerate = true },
  { name = "feelers at once in a sparse level on a big torus (a hashed index)", wrap = true,
    side = 200, n = 1500, geometry = 60, programs = { 9, 1 }, steps = 12, still = true,
    degenerate = true },
  { name = "two flocking rules walked late, no hold", wrap = true, side = 60, n = 1500,
    geometry = 300, programs = { 11 }, steps = 12 },
  { name = "whiskers", wrap = true, side = 60, n = 1500, geometry = 300,
    programs = { 12, 13 }, steps = 12, still = true, degenerate = true },
  { name = "every program mixed, two threads", wrap = true, side = 60, n = 5000, geometry = 400,
    programs = { 1, 2, 3, 4, 5, 6, 7, 8 }, steps = 8, threads = 2 },
}

describe("batched priority programs and level entries", function()
  for _, o in ipairs(cases) do
    it("give program_force's results bit for bit: " .. o.name, function()
      local want = run(true, o)
      local moved = 0
      for _, width in ipairs{ 1, 2, 4 } do
        steer.testing.simd(width)
        local got = run(false, o)
        steer.testing.simd()
        local diff = support.first_difference(want, got, 5)
        if diff then error(("width %d, %s"):format(width, diff)) end
      end
      -- the case does something: agents moved and entries won
      local winners = {}
      for k = 1, #want do
        if want[k][5] > 0 then winners[want[k][5]] = true end
        if want[k][3] ~= 0 or want[k][4] ~= 0 then moved = moved + 1 end
      end
      assert.is_true(moved > #want / 2)
      if o.programs[1] <= 5 or o.programs[1] >= 8 then assert.is_true(next(winners) ~= nil) end
    end)
  end
end)
