-- Session 42's new-user review of the core (/work/tmp/s42/rev_core, findings
-- 3, 6 and 7): smoothing 0 (which froze the force) is refused, loose values
-- of wrap, bounds and tag raise, duplicate tags raise, and unknown behavior
-- names and combine modes get a hint. Every case failed before.
local steer = require "steer"
local support = require "support"
local error_of = support.error_of

local function set_error(def)
  local a = steer.world{}:add{}
  return error_of(a.set_behaviors, a, def)
end

describe("smoothing (rev_core #3)", function()
  local SMOOTHING = "smoothing must be in (0, 1] (1: no smoothing; smaller is smoother), got "

  it("refuses 0, which kept the first force for good, naming the function", function()
    assert.are.equal("bad argument #1 to 'set_behaviors' (" .. SMOOTHING .. "0)",
      set_error{ smoothing = 0, { "seek", target = { 10, 0 } } })
    assert.are.equal("bad argument #1 to 'program' (" .. SMOOTHING .. "0)",
      error_of(steer.program, { smoothing = 0, { "wander" } }))
    local w = steer.world{}
    assert.are.equal("bad argument #2 to 'add_many' (" .. SMOOTHING .. "0)",
      error_of(w.add_many, w, { n = 2 }, { smoothing = 0, { "wander" } }))
    assert.are.equal(0, #w)
  end)

  it("says the range for any number outside (0, 1]", function()
    assert.are.equal("bad argument #1 to 'set_behaviors' (" .. SMOOTHING .. "1.5)",
      set_error{ smoothing = 1.5 })
    assert.are.equal("bad argument #1 to 'set_behaviors' (" .. SMOOTHING .. "-0.5)",
      set_error{ smoothing = -0.5 })
    assert.are.equal("bad argument #1 to 'set_behaviors' (smoothing: finite number expected, got nan)",
      set_error{ smoothing = 0 / 0 })
  end)

  it("a refused program leaves the previous one in place", function()
    local a = steer.world{}:add{}
    a:set_behaviors{ { "seek", target = { 1, 0 }, tag = "goal" } }
    assert.is_false(pcall(a.set_behaviors, a, { smoothing = 0, { "wander" } }))
    assert.are.equal("goal", a:behaviors()[1].tag)
  end)

  it("1 is no smoothing; a small value still follows a new target", function()
    for _, s in ipairs{ 1, 0.1, 1e-3 } do
      local w = steer.world{}
      local a = w:add{ max_speed = 2, max_force = 4 }
      a:set_behaviors{ smoothing = s, { "seek", target = { 10, 0 }, tag = "goal" } }
      assert.are.equal(s, a:behaviors().smoothing)
      local fx = a:steering(0.1)
      assert.are.equal(2, fx)                          -- the first force is the raw one
      a:set_target("goal", -10, 0)
      fx = a:steering(0.1)
      if s == 1 then assert.are.equal(-2, fx) else assert.is_true(fx < 2) end
      for _ = 1, 20000 do fx = a:steering(0.1) end
      assert.is_true(fx < -1.9, "smoothing " .. s .. " reaches the new force")
    end
  end)
end)

describe("loose values (rev_core #6)", function()
  it("wrap must be a boolean, like ghost", function()
    for _, v in ipairs{ 0, 1, "no", "false", {} } do
      assert.are.equal("bad argument #1 to 'world' (field 'wrap': boolean expected, got " .. type(v) .. ")",
        error_of(steer.world, { bounds = { 100, 100 }, wrap = v }))
    end
    assert.is_false(select(3, steer.world{ bounds = { 100, 100 }, wrap = false }:bounds()))
    assert.is_true(select(3, steer.world{ bounds = { 100, 100 }, wrap = true }:bounds()))
    assert.is_false(select(3, steer.world{ bounds = { 100, 100 } }:bounds()))
    assert.are.equal("bad argument #1 to 'world' (field 'wrap': needs bounds = {w, h})",
      error_of(steer.world, { wrap = true }))
    assert.are.equal(0, #steer.world{ wrap = false })
  end)

  it("bounds must be exactly two numbers", function()
    assert.are.equal("bad argument #1 to 'world' (field 'bounds': {w, h} expected (2 numbers), got 3 values)",
      error_of(steer.world, { bounds = { 100, 100, 50 } }))
    assert.are.equal("bad argument #1 to 'world' (field 'bounds': {w, h} expected (2 numbers), got 3 values)",
      error_of(steer.world, { bounds = { 100, 100, wrap = true } }))
    assert.are.equal("bad argument #1 to 'world' (field 'bounds[2]': number expected, got nil)",
      error_of(steer.world, { bounds = { 100 } }))
    assert.are.equal(100, steer.world{ bounds = { 100, 50 } }:bounds())
  end)

  it("a tag must be a string: a number would be taken for an entry index", function()
    assert.are.equal("bad argument #1 to 'set_behaviors' (entry 1 ('seek'): tag must be a string, got number "
      .. "(a number selects entries by index: name it, e.g. tag = 'goal'))",
      set_error{ { "seek", target = { 1, 0 }, tag = 7 } })
    assert.are.equal("bad argument #1 to 'set_behaviors' (entry 1 ('seek'): tag must be a string, got boolean)",
      set_error{ { "seek", target = { 1, 0 }, tag = true } })
    assert.are.equal("bad argument #1 to 'set_behaviors' (entry 1 ('seek'): tag must be a string of at most 31 bytes)",
      set_error{ { "seek", target = { 1, 0 }, tag = ("x"):rep(32) } })
  end)

  it("two entries of one program cannot share a tag", function()
    assert.are.equal("bad argument #1 to 'set_behaviors' (entry 3 ('arrive'): tag 'x' already names entry 1)",
      set_error{ { "seek", target = { 1, 0 }, tag = "x" }, { "wander", tag = "y" },
        { "arrive", target = { 2, 0 }, tag = "x" } })
    assert.are.equal("bad argument #1 to 'program' (entry 2 ('wander'): tag 'a' already names entry 1)",
      error_of(steer.program, { { "wander", tag = "a" }, { "wander", tag = "a" } }))
    -- different tags, and entries without one, are fine
    local a = steer.world{}:add{}
    a:set_behaviors{ { "wander" }, { "wander" }, { "seek", target = { 1, 0 }, tag = "A" },
      { "seek", target = { 1, 0 }, tag = "a" } }
    a:set_target("a", 5, 5)
    assert.are.same({ 5, 5 }, a:behaviors()[4].target)
    assert.are.same({ 1, 0 }, a:behaviors()[3].target)
  end)
end)

describe("hints for names (rev_core #7)", function()
  local function entry_error(name)
    return set_error{ { name } }
  end
  local function combine_error(mode)
    return set_error{ combine = mode, { "wander" } }
  end

  it("a misspelt behavior name, or another book's name, gets 'did you mean'", function()
    local cases = { avoid_obstacle = "avoid_obstacles", Seek = "seek", AVOID_WALLS = "avoid_walls",
      follow_path = "follow", path_following = "follow", obstacle_avoidance = "avoid_obstacles",
      wall_avoidance = "avoid_walls", pursuit = "pursue", evasion = "evade",
      leader_following = "follow_leader", offset_pursue = "offset_pursuit",
      containment = "contain", collision_avoidance = "avoid_agents" }
    for name, meant in pairs(cases) do
      assert.are.equal("bad argument #1 to 'set_behaviors' (entry 1 ('?'): unknown behavior '" .. name
        .. "': did you mean '" .. meant .. "'?)", entry_error(name))
    end
  end)

  it("an unknown behavior name otherwise lists the names", function()
    assert.are.equal("bad argument #1 to 'set_behaviors' (entry 1 ('?'): unknown behavior 'teleport': "
      .. "expected one of seek, flee, arrive, pursue, evade, wander, avoid_obstacles, avoid_walls, "
      .. "follow, separation, alignment, cohesion, flow, avoid_agents, offset_pursuit, follow_leader, "
      .. "formation, interpose, hide, queue, contain, face, look_where_going, match_orientation)",
      entry_error("teleport"))
  end)

  it("combine modes get 'did you mean' or the list", function()
    local cases = { Priority = "priority", dithered = "dither", dithering = "dither",
      prioritized = "prioritized_sum", prioritised = "prioritized_sum", wieghted = "weighted",
      prioritized_dithering = "dither", weighted_truncated_sum = "weighted",
      weighted_truncated_running_sum_with_prioritization = "prioritized_sum" }
    for mode, meant in pairs(cases) do
      assert.are.equal("bad argument #1 to 'set_behaviors' (unknown combine mode '" .. mode
        .. "': did you mean '" .. meant .. "'?)", combine_error(mode))
    end
    assert.are.equal("bad argument #1 to 'set_behaviors' (unknown combine mode 'best': expected "
      .. "'weighted', 'priority', 'prioritized_sum' or 'dither')", combine_error("best"))
  end)

  it("a positional target says where targets go", function()
    assert.are.equal("bad argument #1 to 'set_behaviors' (entry 1 ('seek'): unexpected number key "
      .. "(targets go in 'target = ...'))", set_error{ { "seek", { 3, 4 } } })
    assert.are.equal("bad argument #1 to 'set_behaviors' (entry 1 ('follow'): unexpected number key "
      .. "(the path goes in 'path = ...'))",
      set_error{ { "follow", steer.path{ { 0, 0 }, { 1, 0 } } } })
    assert.are.equal("bad argument #1 to 'set_behaviors' (entry 1 ('wander'): unexpected number key "
      .. "(parameters go by name))", set_error{ { "wander", 2 } })
  end)

  it("a region of fewer than 2 points names the forms a region takes", function()
    local a = steer.world{}:add{}
    local FORMS = "expected a box {x1, y1, x2, y2} (4 numbers in order), a polygon of at least 3 points "
      .. "or a steer.Path"
    assert.are.equal("bad argument #1 to 'contain' (region: 0 points (fields by name are not read); "
      .. FORMS .. ")", error_of(a.contain, a, { x1 = 0, y1 = 0, x2 = 10, y2 = 10 }))
    assert.are.equal("bad argument #1 to 'contain' (region: 0 points; " .. FORMS .. ")",
      error_of(a.contain, a, {}))
    assert.are.equal("bad argument #1 to 'contain' (region: 1 point; " .. FORMS .. ")",
      error_of(a.contain, a, { 1, 2 }))
    assert.are.equal("bad argument #1 to 'set_behaviors' (entry 1 ('contain'): region: 1 point; " .. FORMS .. ")",
      set_error{ { "contain", region = { { 1, 2 } } } })
    -- the box written in order works
    assert.are.same({ 0, 0 }, { a:contain({ 0, 0, 10, 10 }) })
    -- add_polygon keeps its own count (a polygon of 2 points is a segment)
    local w = steer.world{}
    assert.matches("%(1 point: at least 2 expected%)$", error_of(w.add_polygon, w, { { 0, 0 } }))
  end)
end)

-- Session 42's game-developer review (/work/tmp/s42/rev_game, findings 5
-- and 9).
describe("tile maps given as a table of rows", function()
  it("get a hint that a flat array is expected", function()
    local rows = { { 1, 0, 0, 0 }, { 0, 0, 0, 0 }, { 0, 0, 0, 1 } }
    assert.are.equal("bad argument #1 to 'walls_from_tiles' (3 tiles, expected w * h = 12; "
      .. "a table of rows? a flat array, row by row, is expected)",
      error_of(steer.walls_from_tiles, rows, 4, 3, 1))
    assert.are.equal("bad argument #1 to 'navgrid' ('cost' has 3 entries, width * height = 12; "
      .. "a table of rows? a flat array, row by row, is expected)",
      error_of(steer.navgrid, { width = 4, height = 3, cost = rows }))
    assert.are.equal("bad argument #1 to 'walls_from_tiles' (2 tiles, expected w * h = 12)",
      error_of(steer.walls_from_tiles, { 1, 0 }, 4, 3, 1))
  end)
end)

describe("how quickly agents respond (docs/API.md section 1)", function()
  -- seconds until a seeking agent at rest reaches 90% of max_speed 115
  local function t90(max_force, weight)
    local w = steer.world{}
    local a = w:add{ max_speed = 115, max_force = max_force }
    a:set_behaviors{ { "seek", target = { 1e6, 0 }, weight = weight } }
    local t = 0
    while a.speed < 0.9 * 115 do
      w:step(1 / 60)
      t = t + 1 / 60
    end
    return t
  end

  it("max_force only caps: about ln 10 s to 90% at 400 and at 4,000", function()
    assert.is_near(math.log(10), t90(400, 1), 0.02)
    assert.is_near(math.log(10), t90(4000, 1), 0.02)
    assert.is_true(t90(40, 1) > 3) -- where the cap bites, slower
  end)

  it("weight is the gain: 1 / weight of it", function()
    assert.is_near(math.log(10) / 4, t90(4000, 4), 0.02)
    assert.is_near(math.log(10) / 4, t90(400, 4), 0.02)
  end)
end)
