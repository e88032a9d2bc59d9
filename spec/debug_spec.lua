-- steer.debug draws through line/circle callbacks; these specs record the
-- primitives and compare them with the geometry worked out by hand.
local steer = require "steer"
local support = require "support"
local sdebug = require "steer.debug"

-- a view whose callbacks append {"line"|"circle", numbers..., kind} to `out`
local function recording(out, opts)
  opts = opts or {}
  opts.line = function(x1, y1, x2, y2, kind)
    out[#out + 1] = {"line", x1, y1, x2, y2, kind}
  end
  opts.circle = function(x, y, r, kind)
    out[#out + 1] = {"circle", x, y, r, kind}
  end
  return sdebug.new(opts)
end

local function show(p)
  local parts = {}
  for i = 1, #p do parts[i] = tostring(p[i]) end
  return "{" .. table.concat(parts, ", ") .. "}"
end

-- asserts the recorded primitives equal `expected` (numbers within 1e-12)
local function same_primitives(got, expected)
  local lines = {}
  for i = 1, math.max(#got, #expected) do
    local g, e = got[i], expected[i]
    local ok = g and e and #g == #e
    if ok then
      for k = 1, #e do
        if type(e[k]) == "number" then
          ok = ok and type(g[k]) == "number" and math.abs(g[k] - e[k]) <= 1e-12
        else
          ok = ok and g[k] == e[k]
        end
      end
    end
    if not ok then
      lines[#lines + 1] = ("#%d: expected %s, got %s"):format(i,
        e and show(e) or "nothing", g and show(g) or "nothing")
    end
  end
  if #lines > 0 then error("primitives differ:\n" .. table.concat(lines, "\n"), 2) end
end

describe("steer.debug", function()
  local world, a, b, path

  -- agent a at the origin heading +x at speed 2, an obstacle and a wall
  -- ahead, b beside it moving +x, a path along the x axis then up
  before_each(function()
    world = steer.world{}
    world:add_obstacle{ x = 4, y = 0.5, radius = 1 }
    world:add_wall{ x1 = 2, y1 = -2, x2 = 2, y2 = 2 }
    a = world:add{ x = 0, y = 0, vx = 2, vy = 0, max_speed = 3, max_force = 5, radius = 0.5 }
    b = world:add{ x = 0, y = 1.5, vx = 2, vy = 0, radius = 0.5 }
    world:add{ x = 5, y = 5 } -- outside every radius below
    path = steer.path{ {0, 0}, {4, 0}, {4, 4} }
    a.wander_angle = 0
  end)

  it("draws the exact primitives of a known agent", function()
    a:follow(path) -- at waypoint 1 already: heads for waypoint 2, (4, 0)
    assert.are.equal(2, a:path_index())
    local got = {}
    local view = recording(got, { vector_scale = 0.5, force_scale = 0.25 })
    view:set_force(a, 2, -2)
    view:draw_agent(a, {
      feeler_length = 3, wander = true, neighbor_radius = 2, path = path,
      pursue = b, target = {5, 5},
    })
    same_primitives(got, {
      {"circle", 0, 0, 0.5, "agent"},
      {"line", 0, 0, 1, 0, "velocity"},          -- p + v * 0.5
      {"line", 0, 0, 0.5, -0.5, "force"},         -- p + f * 0.25
      {"line", 0, 0, 3, 0, "feeler"},             -- tip = p + (1, 0) * 3
      {"circle", 4, 0.5, 1, "threat"},            -- |tip - c| = 1.118 < 1 + 0.5
      {"line", 2, -2, 2, 2, "threat"},            -- the feeler crosses x = 2
      {"line", 0, 0, 2, 0, "wander"},             -- centre = p + forward * 2
      {"circle", 2, 0, 1.2, "wander"},
      {"circle", 3.2, 0, 1.2 * 0.15, "wander_target"}, -- angle 0
      {"circle", 0, 0, 2, "neighbor_radius"},
      {"line", 0, 0, 0, 1.5, "neighbor"},         -- b only
      {"line", 0, 0, 4, 0, "path"},
      {"line", 4, 0, 4, 4, "path"},
      {"circle", 4, 0, 0.6, "waypoint"},
      -- T = 1.5 / max_speed 3 = 0.5: b + (2, 0) * 0.5
      {"line", 0, 0, 1, 1.5, "prediction"},
      {"circle", 1, 1.5, 0.5, "prediction"},
      {"line", 0, 0, 5, 5, "target"},
    })
  end)

  it("draws only the body and velocity without options, and no force until set", function()
    local got = {}
    recording(got):draw_agent(b)
    same_primitives(got, {
      {"circle", 0, 1.5, 0.5, "agent"},
      {"line", 0, 1.5, 2, 1.5, "velocity"},
    })
  end)

  it("points the feeler along +x when the agent stands still", function()
    a.vx, a.vy = 0, 0
    world:clear_obstacles()
    world:clear_walls()
    local got = {}
    local view = recording(got)
    view.show.agent, view.show.velocity = false, false
    view:draw_agent(a, { feeler_length = 2.5 })
    same_primitives(got, { {"line", 0, 0, 2.5, 0, "feeler"} })
  end)

  it("marks no threat when the feeler is clear", function()
    a.vx, a.vy = 0, -2 -- heading away from the obstacle and the wall
    local got = {}
    local view = recording(got)
    view.show.agent, view.show.velocity = false, false
    view:draw_agent(a, { feeler_length = 3 })
    same_primitives(got, { {"line", 0, 0, 0, -3, "feeler"} })
  end)

  it("uses a looping path's closing segment and the arrival radius given", function()
    local loop = steer.path{ {0, 0}, {2, 0}, {2, 2}, loop = true }
    local got = {}
    local view = recording(got)
    view.show.agent, view.show.velocity = false, false
    view:draw_agent(a, { path = loop, arrival_radius = 0.25 })
    same_primitives(got, {
      {"line", 0, 0, 2, 0, "path"},
      {"line", 2, 0, 2, 2, "path"},
      {"line", 2, 2, 0, 0, "path"},
      {"circle", 0, 0, 0.25, "waypoint"}, -- never followed: index 1
    })
  end)

  it("hides the parts turned off in view.show", function()
    local got = {}
    local view = recording(got)
    for k in pairs(view.show) do view.show[k] = false end
    view.show.velocity = true
    view:set_force(a, 1, 1)
    view:draw_agent(a, { feeler_length = 3, wander = true, neighbor_radius = 2 })
    same_primitives(got, { {"line", 0, 0, 2, 0, "velocity"} })
  end)

  it("draws an evader's prediction of its pursuer", function()
    local got = {}
    local view = recording(got)
    view.show.agent, view.show.velocity = false, false
    view:draw_agent(b, { evade = a }) -- T = 1.5 / b.max_speed 1; a + (2, 0) * 1.5
    same_primitives(got, {
      {"line", 0, 1.5, 3, 0, "prediction"},
      {"circle", 3, 0, 0.5, "prediction"},
    })
  end)

  it("draws a target agent at its position", function()
    local got = {}
    local view = recording(got)
    view.show.agent, view.show.velocity = false, false
    view:draw_agent(a, { target = b })
    same_primitives(got, { {"line", 0, 0, 0, 1.5, "target"} })
  end)

  describe("toggles", function()
    it("draws watched agents only, in id order, and nothing once unwatched", function()
      local got = {}
      local view = recording(got)
      view.show.velocity = false
      view:watch(b)
      view:watch(a)
      view:draw(world)
      same_primitives(got, {
        {"circle", 0, 0, 0.5, "agent"},
        {"circle", 0, 1.5, 0.5, "agent"},
      })
      view:unwatch(a)
      view:unwatch(b)
      for k in pairs(got) do got[k] = nil end
      view:draw(world)
      same_primitives(got, {})
    end)

    it("toggle flips an agent and reports its new state", function()
      local view = recording({})
      assert.is_true(view:toggle(a, { wander = true }))
      assert.is_true(view:watching(a))
      assert.is_false(view:toggle(a))
      assert.is_false(view:watching(a))
    end)

    it("a shown world draws its obstacles, walls and every agent", function()
      local got = {}
      local view = recording(got)
      view.show.velocity = false
      assert.is_true(view:toggle_world(world))
      view:draw(world)
      same_primitives(got, {
        {"circle", 4, 0.5, 1, "obstacle"},
        {"line", 2, -2, 2, 2, "wall"},
        {"circle", 0, 0, 0.5, "agent"},
        {"circle", 0, 1.5, 0.5, "agent"},
        {"circle", 5, 5, 0.5, "agent"},
      })
      assert.is_false(view:toggle_world(world))
      for k in pairs(got) do got[k] = nil end
      view:draw(world)
      same_primitives(got, {})
    end)

    it("a watched agent keeps its own options in a shown world", function()
      local got = {}
      local view = recording(got)
      view.show.velocity, view.show.agent = false, false
      view:show_world(world, true, { feeler_length = 1 })
      view:watch(a, { feeler_length = 0.5 })
      view.show.obstacles, view.show.walls = false, false
      view:draw(world)
      same_primitives(got, {
        {"line", 0, 0, 0.5, 0, "feeler"},
        {"line", 0, 1.5, 1, 1.5, "feeler"},
        {"line", 5, 5, 6, 5, "feeler"},
      })
    end)

    it("keeps watching an agent whose handle nobody else holds", function()
      local got = {}
      local view = recording(got)
      view.show.velocity = false
      view:watch(world:add{ x = 7, y = 8 }) -- the handle is dropped here
      collectgarbage()
      collectgarbage()
      view:draw(world)
      same_primitives(got, { {"circle", 7, 8, 0.5, "agent"} })
    end)

    it("forgets removed agents when drawing", function()
      local view = recording({})
      view:watch(a)
      view:set_force(a, 1, 0)
      world:remove(a)
      view:draw(world)
      assert.is_false(view:watching(a))
      assert.is_nil(view.forces[a])
    end)

    it("skips removed agents and agents of other worlds", function()
      local got = {}
      local view = recording(got)
      view.show.velocity = false
      local other = steer.world{}
      local c = other:add{ x = 9, y = 9 }
      view:watch(a)
      view:watch(c)
      world:remove(a)
      view:draw(world)
      same_primitives(got, {})
      view:draw(other)
      same_primitives(got, { {"circle", 9, 9, 0.5, "agent"} })
    end)
  end)

  it("uses wrapped offsets on a wrapping world", function()
    local torus = steer.world{ bounds = {10, 10}, wrap = true }
    local p = torus:add{ x = 0.5, y = 5 }
    torus:add{ x = 9.5, y = 5 }
    local got = {}
    local view = recording(got, { wrap = {10, 10} })
    view.show.agent, view.show.velocity = false, false
    view:draw_agent(p, { neighbor_radius = 2 })
    same_primitives(got, {
      {"circle", 0.5, 5, 2, "neighbor_radius"},
      {"line", 0.5, 5, -0.5, 5, "neighbor"},
    })
  end)

  -- world:bounds() came with the behavior programs
  local has_bounds = steer.world{}.bounds ~= nil
  ;(has_bounds and it or pending)("takes the wrap from world:bounds() when not given", function()
    local torus = steer.world{ bounds = {10, 10}, wrap = true }
    local p = torus:add{ x = 0.5, y = 5 }
    torus:add{ x = 9.5, y = 5 }
    local got = {}
    local view = recording(got)
    view.show.agent, view.show.velocity = false, false
    view:draw_agent(p, { neighbor_radius = 2 })
    same_primitives(got, {
      {"circle", 0.5, 5, 2, "neighbor_radius"},
      {"line", 0.5, 5, -0.5, 5, "neighbor"},
    })
  end)

  describe("backends", function()
    local saved
    before_each(function() saved = rawget(_G, "love") end)
    after_each(function() rawset(_G, "love", saved) end)

    it("needs callbacks when LÖVE is absent", function()
      rawset(_G, "love", nil)
      local err = select(2, pcall(sdebug.new, {}))
      assert.matches("love.graphics is not available", err, 1, true)
      err = select(2, pcall(sdebug.new, { line = function() end }))
      assert.matches("give both line and circle callbacks", err, 1, true)
    end)

    it("draws through love.graphics with a color per kind and restores the state", function()
      local calls = {}
      local color, width = {0.1, 0.2, 0.3, 0.4}, 7
      rawset(_G, "love", { graphics = {
        getColor = function() return color[1], color[2], color[3], color[4] end,
        setColor = function(r, g, b, al)
          color = {r, g, b, al}
          calls[#calls + 1] = {"setColor", r, g, b, al}
        end,
        getLineWidth = function() return width end,
        setLineWidth = function(w) width = w end,
        line = function(...) calls[#calls + 1] = {"line", ...} end,
        circle = function(...) calls[#calls + 1] = {"circle", ...} end,
      } })
      local view = sdebug.new{ line_width = 0.1, segments = 12 }
      view:draw_agent(a)
      local ac, vc = sdebug.colors.agent, sdebug.colors.velocity
      same_primitives(calls, {
        {"setColor", ac[1], ac[2], ac[3], ac[4]},
        {"circle", "line", 0, 0, 0.5, 12},
        {"setColor", 0.1, 0.2, 0.3, 0.4},
        {"setColor", vc[1], vc[2], vc[3], vc[4]},
        {"line", 0, 0, 2, 0},
        {"setColor", 0.1, 0.2, 0.3, 0.4},
      })
      assert.are.equal(7, width)
    end)
  end)
end)

describe("steer.debug with mistakes and removed agents", function()
  -- a second review (session 40): a target that died broke every later
  -- draw, and a misspelt option was accepted and failed inside a draw
  it("draws no prediction or target line to an agent that was removed", function()
    local w = steer.world{}
    local guard = w:add{ x = 0, y = 0, max_speed = 2 }
    local enemy = w:add{ x = 5, y = 0 }
    for _, opt in ipairs{ "pursue", "evade", "target" } do
      local out = {}
      local view = recording(out)
      view:watch(guard, { [opt] = enemy })
      view:draw(w)
      local kinds = {}
      for _, p in ipairs(out) do kinds[p.kind or p[#p]] = true end
      assert.is_true(kinds.prediction or kinds.target or false, opt)
    end
    w:remove(enemy)
    for _, opt in ipairs{ "pursue", "evade", "target" } do
      local out = {}
      local view = recording(out)
      view:watch(guard, { [opt] = enemy })
      view:draw(w) -- used to raise "agent has been removed"
      for _, p in ipairs(out) do
        assert.is_false(p.kind == "prediction" or p.kind == "target" or p[#p] == "prediction"
          or p[#p] == "target")
      end
      assert.is_true(#out > 0) -- the guard itself is drawn
    end
  end)

  it("refuses unknown options, wrong values and non-agents when watching", function()
    local w = steer.world{}
    local a = w:add{}
    local view = sdebug.new{ line = function() end, circle = function() end }
    local function err(f, ...)
      local ok, e = pcall(f, ...)
      assert.is_false(ok)
      return e
    end
    assert.matches("bad argument #2 to 'watch' %(unknown option 'feeler': did you mean 'feeler_length'%?%)",
      err(view.watch, view, a, { feeler = 3 }))
    assert.matches("unknown option 'neighbour_radius': did you mean 'neighbor_radius'%?",
      err(view.watch, view, a, { neighbour_radius = 3 }))
    assert.matches("unknown option 'NeighborRadius': did you mean 'neighbor_radius'%?",
      err(view.watch, view, a, { NeighborRadius = 3 }))
    assert.matches("unknown option 'wnader': did you mean 'wander'%?",
      err(view.watch, view, a, { wnader = true }))
    assert.matches("bad argument #2 to 'watch' %(option 'path': steer.Path expected, got number%)",
      err(view.watch, view, a, { path = 5 }))
    assert.matches("bad argument #1 to 'watch' %(steer.Agent expected, got table%)",
      err(view.watch, view, {}, {}))
    assert.matches("bad argument #3 to 'show_world' %(unknown option 'neighbors': options are arrival_radius, evade, feeler_length, neighbor_radius, path, pursue, target, wander%)",
      err(view.show_world, view, w, true, { neighbors = 14 }))
    assert.matches("bad argument #2 to 'draw_agent' %(option 'target'",
      err(view.draw_agent, view, a, { target = "home" }))
    assert.is_false(view:watching(a))
    view:watch(a, { target = steer.point(1, 2), pursue = a, path = steer.path{ { 0, 0 }, { 1, 1 } } })
    assert.is_true(view:watching(a))
    view:draw(w)
  end)

  -- each of these was accepted and failed (or drew NaN) later, inside draw
  it("checks forces, points, sizes, worlds and its own options at the call", function()
    local w = steer.world{}
    local a = w:add{ vx = 1 }
    local lines = {}
    local view = sdebug.new{ line = function(...) lines[#lines + 1] = { ... } end,
      circle = function() end }
    local err = support.error_of
    assert.matches("bad argument #2 to 'set_force' %(number in %[%-1e150, 1e150%] expected, got nil%)",
      err(view.set_force, view, a, nil, 0))
    assert.matches("bad argument #3 to 'set_force' %(number in %[%-1e150, 1e150%] expected, got inf%)",
      err(view.set_force, view, a, 0, math.huge))
    assert.matches("bad argument #1 to 'set_force' %(steer.Agent expected, got nil%)",
      err(view.set_force, view, nil, 0, 0))
    -- {1, y = 2} is a list missing [2] by steer's rule, as a:seek says
    assert.matches("option 'target'", err(view.watch, view, a, { target = { 1, y = 2 } }))
    assert.matches("option 'neighbor_radius': number in %[0, 1e150%] expected",
      err(view.watch, view, a, { neighbor_radius = 1e300 }))
    assert.matches("option 'feeler_length'", err(view.watch, view, a, { feeler_length = math.huge }))
    assert.matches("bad argument #1 to 'show_world' %(steer.World expected, got nil%)",
      err(view.show_world, view, nil, true))
    assert.matches("bad argument #1 to 'draw' %(steer.World expected, got steer.Agent%)",
      err(view.draw, view, a))
    assert.matches("bad argument #1 to 'unwatch' %(steer.Agent expected, got nil%)",
      err(view.unwatch, view, nil))
    assert.matches("bad argument #1 to 'new' %(table expected, got number%)", err(sdebug.new, 5))
    assert.matches("bad argument #1 to 'new' %(option 'vector_scale': number in %[0, 1e150%] expected, got string%)",
      err(sdebug.new, { vector_scale = "x", line = print, circle = print }))
    assert.matches("bad argument #1 to 'new' %(unknown option 'colour': options are circle, colors, force_scale, line, line_width, segments, vector_scale, wrap%)",
      err(sdebug.new, { colour = {}, line = print, circle = print }))
    -- what is accepted draws finite lines
    view:watch(a, { target = { x = 3, y = 4 }, feeler_length = 2, neighbor_radius = 3 })
    view:set_force(a, 1, -1)
    view:draw(w)
    assert.is_true(#lines > 0)
    for _, l in ipairs(lines) do
      for k = 1, 4 do assert.is_true(l[k] == l[k] and math.abs(l[k]) < math.huge) end
    end
  end)
end)
