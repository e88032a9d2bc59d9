-- What a new-user review and an adversarial review found in session 55,
-- each checked the way it was found.
local steer = require "steer"
local support = require "support"
local error_of = support.error_of

describe("review of session 55", function()
  it("world:add_walls refuses one wall's table instead of adding nothing", function()
    local w = steer.world{}
    assert.matches("bad argument #1 to 'add_walls' %(a list of walls expected, got one wall "
      .. "%(world:add_wall takes one%)%)",
      error_of(w.add_walls, w, { x1 = 0, y1 = 0, x2 = 10, y2 = 0 }))
    assert.matches("bad argument #1 to 'add_walls' %(a list of walls expected, got a table "
      .. "without item 1%)", error_of(w.add_walls, w, { [2] = { x1 = 0, y1 = 0, x2 = 1, y2 = 0 } }))
    assert.are.equal(0, #w:segments())
    -- an empty list still adds none; a list of one adds it
    assert.are.equal(0, w:add_walls{})
    assert.are.equal(1, w:add_walls{ { x1 = 0, y1 = 0, x2 = 10, y2 = 0 } })
    assert.are.equal(4, #w:segments())
  end)

  it("an entry given 'target' for a target of another name hears that name", function()
    local w = steer.world{}
    local a = w:add{}
    local f = steer.formation{ anchor = a, shape = "line", count = 2 }
    local nav = steer.navgrid{ width = 2, height = 2 }
    local field = nav:flow(0.5, 0.5)
    local cases = {
      { { "formation", target = f }, "formation", "formation" },
      { { "flow", target = field }, "flow", "field" },
      { { "interpose", target = { a, a } }, "interpose", "between" },
      { { "contain", target = { 0, 0, 1, 1 } }, "contain", "region" },
    }
    for _, c in ipairs(cases) do
      local want = ("entry 1 %%('%s'%%): unknown parameter 'target': did you mean '%s'%%?")
        :format(c[2], c[3])
      assert.matches(want, error_of(steer.program, { c[1] }))
      assert.matches(want, error_of(a.set_behaviors, a, { c[1] }))
    end
    -- entries with no target at all keep the plain message
    assert.matches("entry 1 %('wander'%): unknown parameter 'target'%)$",
      error_of(steer.program, { { "wander", target = { 1, 2 } } }))
  end)

  it("'' and names with a zero byte select no entry; tags refuse zero bytes", function()
    local w = steer.world{}
    local a = w:add{ max_speed = 2, max_force = 4 }
    a:set_behaviors{ { "seek", target = { 1, 1 } }, { "arrive", target = { 5, 5 }, tag = "goal" } }
    assert.matches("bad argument #1 to 'set_weight' %(no entry ''%)", error_of(a.set_weight, a, "", 7))
    assert.matches("bad argument #1 to 'set_target' %(no entry ''%)", error_of(a.set_target, a, "", 9, 9))
    assert.matches("bad argument #1 to 'set_target' %(no entry 'goal' %(the name holds a zero byte%)%)",
      error_of(a.set_target, a, "goal\0x", 9, 9))
    local def = a:behaviors()
    assert.are.equal(1, def[1].weight)                  -- nothing changed
    assert.are.same({ 1, 1 }, def[1].target)
    -- with wander first the message is still about the name, not the entry
    a:set_behaviors{ { "wander" }, { "seek", target = { 1, 1 } } }
    assert.matches("no entry ''", error_of(a.set_target, a, "", 9, 9))
    -- a tag with a zero byte is refused (C reads it cut short: two would clash)
    assert.matches("entry 1 %('seek'%): tag must not hold a zero byte",
      error_of(steer.program, { { "seek", target = { 1, 1 }, tag = "ab\0cd" } }))
    -- "" stays no tag
    a:set_behaviors{ { "seek", target = { 1, 1 }, tag = "" } }
    assert.is_nil(a:behaviors()[1].tag)
    a:set_weight("seek", 2)                            -- found by its behavior's name
    assert.are.equal(2, a:behaviors()[1].weight)
  end)

  it("a follow start too large says its bound", function()
    local p = steer.path{ { 0, 0 }, { 1, 0 } }
    assert.matches("entry 1 %('follow'%): start must be a waypoint number in %[1, 2%^26%] or 'nearest'",
      error_of(steer.program, { { "follow", path = p, start = 1e8 } }))
    -- within the bound, past the last waypoint: the last
    steer.program{ { "follow", path = p, start = 2 ^ 26 } }
  end)

  it("a world:add_many or world:add that runs out of memory leaves the world's order as it was", function()
    -- the grid grew its buckets before a later allocation failed: the next
    -- sort put the agents in another order (ids() after a step differed)
    local function build()
      local w = steer.world{}
      for k = 1, 16 do w:add{ x = (k * 37) % 230 - 100, y = (k * 11) % 70 - 30, vx = 1 } end
      w:step(1 / 30)
      return w
    end
    local T = steer.testing
    for _, call in ipairs{
      function(w) return w:add_many{ n = 50 } end,
      function(w) return w:add_many({ n = 50 }, steer.program{ { "wander" } }) end,
      function(w) return w:add{ wander_radius = 3 } end,
    } do
      local failures = 0
      for n = 0, 100 do
        local w, twin = build(), build()
        T.fail_allocations(n)
        local ok, err = pcall(call, w)
        T.fail_allocations()
        if ok then break end
        failures = failures + 1
        assert.matches("not enough memory", err)
        assert.are.equal(twin:snapshot(), w:snapshot())
        w:step(1 / 30)
        twin:step(1 / 30)
        assert.are.same(twin:ids(), w:ids())
        w:close()
        twin:close()
      end
      assert.is_true(failures > 0)
    end
  end)

  it("a restored world goes on as the original after its walls were moved", function()
    -- the index kept a cell's entries in the order of its edits, a restored
    -- world in the order of the walls' numbers; ORCA and collide met equal
    -- shapes (an agent of radius 1e100 touches every wall alike) in those
    -- two orders and parted in the last bits
    local diverged = 0
    for seed = 1, 12 do
      local rand = support.random(seed)
      local w = steer.world{ seed = 7, cell_size = 4, bounds = { 1e150, 1e150 }, wrap = true }
      local walls = {}
      for k = 1, 12 do
        local x, y = rand() * 60, rand() * 60
        walls[k] = w:add_wall{ x1 = x, y1 = y, x2 = x + rand() * 10 - 5, y2 = y + rand() * 10 - 5 }
      end
      for _ = 1, 5 do w:add_obstacle{ x = rand() * 60, y = rand() * 60, radius = 1 + rand() } end
      for _ = 1, 4 do
        local s = walls[1 + math.floor(rand() * 12)]
        s.y2 = s.y1 + 3                               -- its entries out and in again
      end
      local prog = steer.program{ combine = "prioritized_sum", collide = true,
        orca = { push = 4, detour = true },
        { "avoid_walls", feeler_length = 3, weight = 3 }, { "arrive", target = { 30, 30 }, weight = 2 } }
      for k = 1, 6 do
        w:add{ x = rand() * 60, y = rand() * 60, max_speed = 2, max_force = 4,
          radius = k == 1 and 1e100 or 0.5, program = prog }
      end
      for _ = 1, 8 do w:step(100) end
      local copy = assert(steer.restore(w:snapshot()))
      for _ = 1, 5 do
        w:step(100)
        copy:step(100)
      end
      if w:snapshot() ~= copy:snapshot() then diverged = diverged + 1 end
      w:close()
      copy:close()
    end
    assert.are.equal(0, diverged)
  end)

  it("a:set_path_index sets the route's waypoint, not a contain region's", function()
    local w = steer.world{}
    local a = w:add{}
    local pts = {}
    for k = 1, 10 do pts[k] = { 4 * (k - 1), 0 } end
    a:set_behaviors{ { "contain", region = { -50, -50, 50, 50 } }, { "follow", path = steer.path(pts) } }
    a:set_path_index(7)                      -- 1-based: the route has 10 points, the box 4
    assert.are.equal(7, a:path_index())
    a:set_path_index(2)
    assert.are.equal(2, a:path_index())
    -- contain alone follows no route
    a:set_behaviors{ smoothing = 0.5, { "contain", region = { -50, -50, 50, 50 } }, { "seek", target = { 5, 5 } } }
    assert.matches("agent follows no path", error_of(a.set_path_index, a, 1))
  end)

  it("the C API: formations outlive their world, routes, programs a snapshot keeps, no error pointer", function()
    support.run_oracle("c_api_review", 30)    -- spec/c/c_api_review.c
  end)

  it("f:slot_of and a:behaviors give one nil, as annotated, not nothing", function()
    local w = steer.world{}
    local a, l = w:add{}, w:add{ x = 3 }
    local f = steer.formation{ anchor = l, shape = "line", count = 2 }
    assert.are.equal(1, select("#", f:slot_of(a)))
    assert.are.equal(1, select("#", a:behaviors()))
    assert.are.equal("nil nil", ("%s %s"):format(f:slot_of(a), a:behaviors()))
  end)
end)
