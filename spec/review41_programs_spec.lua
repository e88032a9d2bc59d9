-- Session 41's new-user reviews of programs, formations and tactics
-- (/work/tmp/s41/rev_nav and rev_crowd): the messages name what each entry
-- takes, silently ignored input raises, and a:behaviors() gives back the
-- very steer.SharedPoint a program was given. Every case failed before.
local steer = require "steer"
local support = require "support"
local error_of = support.error_of

local function program_error(def)
  return error_of(steer.program, def)
end

describe("entry messages (rev_nav #5)", function()
  it("set_target lists the forms the entry takes", function()
    local w = steer.world{}
    local leader = w:add{}
    local e = w:add{ x = 3 }
    local f = steer.formation{ anchor = leader, shape = "line", count = 2 }
    e:set_behaviors{ { "offset_pursuit", target = leader, offset = { -2, 0 } } }
    local msg = error_of(e.set_target, e, 1, f)
    assert.are.equal("bad argument #2 to 'set_target' (entry 1 ('offset_pursuit'): target must be "
      .. "an agent, a steer.SharedPoint, {x, y} or {x =, y =}, got steer.Formation)", msg)
    assert.is_nil(msg:find("a path", 1, true))
    assert.matches("entry 1 %('pursue'%): target must be an agent, got string",
      program_error{ { "pursue", target = "x" } })
    assert.matches("entry 1 %('seek'%): target must be an agent, a path, a steer.SharedPoint",
      program_error{ { "seek", target = true } })
  end)

  it("a formation entry's error names the entry and the parameter", function()
    local w = steer.world{}
    local a = w:add{}
    assert.are.equal("bad argument #1 to 'set_behaviors' (entry 1 ('formation'): 'formation' must be "
      .. "a steer.Formation, got table)", error_of(a.set_behaviors, a, { { "formation", formation = {} } }))
    assert.matches("entry 2 %('formation'%): 'formation' must be a steer.Formation, got steer.Agent",
      error_of(a.set_behaviors, a, { { "wander" }, { "formation", formation = a } }))
    local other = steer.world{}
    local f = steer.formation{ anchor = other:add{}, shape = "line", count = 1 }
    assert.matches("entry 1 %('formation'%): formation belongs to another world",
      error_of(a.set_behaviors, a, { { "formation", formation = f } }))
    a:set_behaviors{ { "formation", formation = steer.formation{ anchor = a, shape = "line", count = 1 } } }
    assert.matches("bad argument #2 to 'set_target' %(entry 1 %('formation'%): 'formation' must be a steer.Formation, got number",
      error_of(a.set_target, a, 1, 5))
  end)

  it("a missing parameter is named in quotes", function()
    local w = steer.world{}
    local a = w:add{}
    assert.are.equal("bad argument #1 to 'program' (entry 1 ('flow'): missing 'field' (a steer.FlowField))",
      program_error{ { "flow" } })
    assert.matches("entry 1 %('separation'%): missing 'radius'", program_error{ { "separation" } })
    assert.matches("entry 1 %('seek'%): missing 'target'", program_error{ { "seek" } })
    assert.matches("entry 1 %('formation'%): missing 'formation'", program_error{ { "formation" } })
    assert.matches("entry 1 %('interpose'%): missing 'between'", program_error{ { "interpose" } })
    assert.matches("entry 1 %('offset_pursuit'%): missing 'offset'",
      error_of(a.set_behaviors, a, { { "offset_pursuit", target = { 0, 0 } } }))
  end)
end)

describe("interpose's set_target (rev_nav #5, #7)", function()
  local function setup()
    local w = steer.world{}
    local charge = w:add{ x = 0, y = 0 }
    local wolf = w:add{ x = 4, y = 0 }
    local g = w:add{ x = 2, y = -4, max_speed = 2, max_force = 10 }
    g:set_behaviors{ { "wander" }, { "interpose", between = { charge, wolf }, slowing_radius = 2 } }
    return g
  end

  it("takes numbers for each end, as a:interpose does", function()
    local g = setup()
    g:set_target(2, 0, 0, 4, 0)
    assert.are.same({ { 0, 0 }, { 4, 0 } }, g:behaviors()[2].between)
    g:set_target("interpose", { 1, 1 }, 3, 5)
    assert.are.same({ { 1, 1 }, { 3, 5 } }, g:behaviors()[2].between)
    g:set_target(2, -2, 6, { x = 8, y = 6 })
    assert.are.same({ { -2, 6 }, { 8, 6 } }, g:behaviors()[2].between)
    -- the force is the method's with the same ends: both at rest, M = (3, 6),
    -- M - p = (1, 10), beyond sr: desired 2 (1, 10) / sqrt(101)
    local fx, fy = g:interpose(-2, 6, 8, 6)
    g:set_behaviors{ { "interpose", between = { { 0, 0 }, { 0, 0 } } } }
    g:set_target(1, -2, 6, 8, 6)
    local sx, sy = g:steering()
    assert.are.equal(fx, sx); assert.are.equal(fy, sy)
    support.close(fx, 2 / math.sqrt(101), 1e-15, "fx")
    support.close(fy, 20 / math.sqrt(101), 1e-15, "fy")
  end)

  it("raises on a third end instead of dropping it", function()
    local g = setup()
    local msg = error_of(g.set_target, g, 2, { 0, 0 }, { 1, 0 }, { 2, 0 })
    assert.are.equal("bad argument #4 to 'set_target' (entry 2 ('interpose'): interpose takes two ends, "
      .. "got a third (table))", msg)
    assert.matches("bad argument #6 to 'set_target' %(entry 2 %('interpose'%): interpose takes two ends, got a third %(number%)",
      error_of(g.set_target, g, 2, 0, 0, 1, 0, 7))
    assert.matches("bad argument #3 to 'set_target' %(number expected, got no value%)",
      error_of(g.set_target, g, 2, 0))
    -- nothing changed
    local b = g:behaviors()[2]
    assert.are.equal("userdata", type(b.between[1]))
  end)
end)

describe("steer.formation (rev_nav #6, #7, #9)", function()
  it("refuses a shape whose slots lie beyond 1e150", function()
    local w = steer.world{}
    local msg = error_of(steer.formation, { anchor = w:add{}, shape = "column", count = 4096, spacing = 1e150 })
    assert.are.equal("bad argument #1 to 'formation' (spacing: 1e+150 puts slot 2 of the column beyond 1e150)", msg)
    -- a line of 23: slot 1 at y = 11 s
    assert.matches("spacing: 1e%+149 puts slot 1 of the line beyond 1e150",
      error_of(steer.formation, { anchor = w:add{}, shape = "line", count = 23, spacing = 1e149 }))
    assert.are.equal(21, #steer.formation{ anchor = w:add{}, shape = "line", count = 21, spacing = 1e149 })
    -- within the limit: accepted, every slot reads back finite
    local f = steer.formation{ anchor = w:add{}, shape = "column", count = 100, spacing = 1e148 }
    assert.are.equal(-1e150, (f:slot(100)))
  end)

  it("refuses huge and fractional counts with a message", function()
    local w = steer.world{}
    for _, count in ipairs({ 1e150, 4097, 2 ^ 64, 1.5 }) do
      assert.matches("count must be an integer 0..4096",
        error_of(steer.formation, { anchor = w:add{}, shape = "line", count = count }))
    end
  end)

  it("refuses spacing or count with listed slots", function()
    local w = steer.world{}
    local a = w:add{}
    assert.are.equal("bad argument #1 to 'formation' ('spacing' is for a shape: give either slots or shape, "
      .. "spacing and count)", error_of(steer.formation, { anchor = a, slots = { { -1, 0 } }, spacing = 5 }))
    assert.matches("'count' is for a shape",
      error_of(steer.formation, { anchor = a, slots = { { -1, 0 } }, count = 4 }))
    assert.are.equal(1, #steer.formation{ anchor = a, slots = { { -1, 0 } } })
  end)

  it("slot_position is nil while the anchor agent is removed", function()
    local w = steer.world{}
    local leader = w:add{ x = 100, y = 50 }
    local f = steer.formation{ anchor = leader, slots = { { -2, 1 } } }
    local x, y = f:slot_position(1)
    assert.are.equal(98, x); assert.are.equal(51, y)
    w:remove(leader)
    assert.is_nil(f:slot_position(1))
    assert.are.equal(1, select("#", f:slot_position(1)))
    x, y = f:slot(1)                      -- the offset itself stays
    assert.are.equal(-2, x); assert.are.equal(1, y)
    -- a point anchor is never gone
    local g = steer.formation{ anchor = { 5, 5 }, world = w, slots = { { -2, 1 } } }
    x, y = g:slot_position(1)
    assert.are.equal(3, x); assert.are.equal(6, y)
  end)
end)

describe("turn = 'velocity' and angular entries (rev_crowd #3)", function()
  it("raises naming the angular entry, in every way a program is compiled", function()
    local w = steer.world{}
    local a = w:add{}
    local b = w:add{ x = 5 }
    assert.are.equal("bad argument #1 to 'program' (entry 2 ('face'): an angular entry cannot be combined "
      .. "with turn = 'velocity' (both would turn the agent))",
      program_error{ turn = "velocity", { "seek", target = { 100, 0 } }, { "face", target = { 0, 100 } } })
    assert.matches("bad argument #1 to 'set_behaviors' %(entry 1 %('look_where_going'%): an angular entry",
      error_of(a.set_behaviors, a, { turn = "velocity", { "look_where_going" } }))
    assert.matches("entry 3 %('match_orientation'%): an angular entry",
      error_of(a.set_behaviors, a, { turn = "velocity", { "wander" }, { "seek", target = b },
        { "match_orientation", target = b } }))
    assert.matches("bad argument #2 to 'add_many' %(entry 1 %('face'%): an angular entry",
      error_of(w.add_many, w, { n = 2 }, { turn = "velocity", { "face", target = b } }))
    -- each alone is fine, and the face entry turns the agent
    a:set_behaviors{ { "seek", target = { 100, 0 } }, { "face", target = { 0, 100 } } }
    w:step(0.1)
    assert.are.equal(math.pi / 2, a.angle)
    b:set_behaviors{ turn = "velocity", { "seek", target = { 5, 100 } } }
    w:step(0.1)
    assert.are.equal(math.pi / 2, b.angle)
  end)
end)

describe("follow's look_ahead (rev_crowd #6)", function()
  it("must be positive, in the entry and the method", function()
    local w = steer.world{}
    local a = w:add{ x = 1, y = 0.5 }
    local p = steer.path{ { 0, 0 }, { 100, 0 } }
    assert.are.equal("bad argument #1 to 'set_behaviors' (entry 1 ('follow'): look_ahead: positive number "
      .. "expected, got 0)",
      error_of(a.set_behaviors, a, { { "follow", path = p, path_radius = 1, look_ahead = 0 } }))
    assert.are.equal("bad argument #2 to 'follow' (look_ahead: positive number expected, got 0)",
      error_of(a.follow, a, p, { path_radius = 1, look_ahead = 0 }))
    assert.matches("look_ahead: positive number expected, got %-1",
      error_of(a.follow, a, p, { look_ahead = -1 }))
    -- a small positive one moves the agent
    a:set_behaviors{ { "follow", path = p, path_radius = 1, look_ahead = 0.5 } }
    for _ = 1, 30 do w:step(0.1) end
    assert.is_true(a.x > 2)
  end)
end)

describe("probability on angular entries (rev_crowd #8)", function()
  it("raises as an unknown parameter; behaviors() leaves it out", function()
    for _, e in ipairs({ { "face", target = { 0, 10 } }, { "look_where_going" } }) do
      e.probability = 0
      assert.matches("entry 2 %('" .. e[1] .. "'%): unknown parameter 'probability' %(angular entries take weight and tag%)",
        program_error{ combine = "dither", { "seek", target = { 1, 0 } }, e })
    end
    local w = steer.world{}
    local a = w:add{}
    local def = { combine = "dither", { "seek", target = { 10, 0 }, probability = 0.5 },
      { "face", target = { 0, 10 }, weight = 2 } }
    a:set_behaviors(def)
    local back = a:behaviors()
    assert.are.equal(0.5, back[1].probability)
    assert.is_nil(back[2].probability)
    a:set_behaviors(back)                 -- round trip
    assert.are.equal(2, a:behaviors()[2].weight)
  end)
end)

describe("did you mean (rev_crowd #11)", function()
  it("suggests entry parameters", function()
    assert.are.equal("bad argument #1 to 'program' (entry 1 ('avoid_agents'): unknown parameter "
      .. "'time_horzion': did you mean 'time_horizon'?)",
      program_error{ { "avoid_agents", time_horzion = 2 } })
    assert.matches("unknown parameter 'Slowing_Radius': did you mean 'slowing_radius'%?",
      program_error{ { "arrive", target = { 0, 0 }, Slowing_Radius = 2 } })
    assert.matches("unknown parameter 'wieght': did you mean 'weight'%?",
      program_error{ { "wander", wieght = 2 } })
    assert.matches("unknown parameter 'probabilty': did you mean 'probability'%?",
      program_error{ { "wander", probabilty = 1 } })
    -- no likely name: the plain message
    assert.matches("unknown parameter 'radius'%)$", program_error{ { "wander", radius = 1 } })
    assert.matches("unknown program field 'combin': did you mean 'combine'%?",
      program_error{ combin = "priority" })
  end)

  it("suggests orca fields and orca_velocity options", function()
    assert.are.equal("bad argument #1 to 'program' (unknown field 'orca.time_horizn': did you mean "
      .. "'orca.time_horizon'?)", program_error{ orca = { time_horizn = 2 } })
    -- a misspelt boolean is a typo, not a wrong type
    assert.matches("unknown field 'orca.detuor': did you mean 'orca.detour'%?",
      program_error{ orca = { detuor = false } })
    assert.matches("unknown field 'orca.horizon'%)$", program_error{ orca = { horizon = 1 } })
    local a = steer.world{}:add{}
    assert.are.equal("bad argument #3 to 'orca_velocity' (unknown field 'opts.DT': did you mean 'opts.dt'?)",
      error_of(a.orca_velocity, a, 1, 0, { DT = 0.1 }))
    assert.matches("unknown field 'opts.max_neighbours': did you mean 'opts.max_neighbors'%?",
      error_of(a.orca_velocity, a, 1, 0, { max_neighbours = 3 }))
  end)
end)

describe("messages say what they got (rev_crowd #11)", function()
  it("shared point fields, ghost, group", function()
    local p = steer.point(1, 2)
    assert.matches("cannot set field 'x' of steer.SharedPoint: number expected, got string$",
      error_of(function() p.x = "3" end))
    local w = steer.world{}
    local a = w:add{}
    assert.matches("cannot set field 'ghost' of steer.Agent: boolean expected, got number$",
      error_of(function() a.ghost = 1 end))
    assert.matches("cannot set field 'group' of steer.Agent: integer 0..31 expected, got 32$",
      error_of(function() a.group = 32 end))
    assert.matches("cannot set field 'group' of steer.Agent: integer 0..31 expected, got 1.5$",
      error_of(function() a.group = 1.5 end))
    assert.matches("cannot set field 'group' of steer.Agent: integer 0..31 expected, got nan$",
      error_of(function() a.group = 0 / 0 end))
    assert.are.equal("bad argument #1 to 'add' (field 'ghost': boolean expected, got number)",
      error_of(w.add, w, { ghost = 1 }))
    assert.are.equal("bad argument #1 to 'add' (field 'group': integer 0..31 expected, got -1)",
      error_of(w.add, w, { group = -1 }))
    assert.are.equal("bad argument #1 to 'add_many' (field 'group'[2]: integer 0..31 expected, got 40)",
      error_of(w.add_many, w, { group = { 1, 40 } }))
    assert.are.equal("bad argument #2 to 'neighbors' (field 'groups'[1]: integer 0..31 expected, got 99)",
      error_of(a.neighbors, a, 1, { groups = { 99 } }))
    assert.are.equal("bad argument #2 to 'neighbors' (field 'fov': number expected, got string)",
      error_of(a.neighbors, a, 1, { fov = "wide" }))
  end)

  it("snapshots keep offset_pursuit, interpose and hide entries (refused before version 10)", function()
    local w = steer.world{}
    local l = w:add{}
    local a = w:add{}
    for _, e in ipairs{ { "offset_pursuit", target = l, offset = { -1, 0 } },
                        { "interpose", between = { l, { 1, 1 } } },
                        { "hide", target = l } } do
      a:set_behaviors{ e }
      local got = assert(steer.restore(w:snapshot())):get(2):behaviors()[1]
      assert.are.equal(e[1], got[1])
      assert.are.same(a:behaviors()[1].offset, got.offset)
      assert.are.equal(a:behaviors()[1].distance, got.distance)
    end
  end)
end)

describe("steer.SharedPoint identity (rev_crowd #4)", function()
  it("a:behaviors() gives back the very handle", function()
    local w = steer.world{}
    local mouse = steer.point(5, 5)
    local a = w:add{}
    a:set_behaviors{ { "seek", target = mouse }, { "face", target = mouse } }
    local def = a:behaviors()
    assert.is_true(rawequal(def[1].target, mouse))
    assert.is_true(rawequal(def[2].target, mouse))
    assert.is_true(rawequal(a:behaviors()[1].target, a:behaviors()[1].target))
    local f = steer.formation{ anchor = a, shape = "line", count = 2 }
    local b = w:add{}
    b:set_behaviors{ { "interpose", between = { mouse, a } } }
    assert.is_true(rawequal(b:behaviors()[1].between[1], mouse))
    assert.is_not_nil(f)
  end)

  it("a handle dropped by the game is remade, and keeps the point alive", function()
    local w = steer.world{}
    local a = w:add{}
    a:set_behaviors{ { "seek", target = steer.point(7, 8) } }
    collectgarbage(); collectgarbage()
    local p = a:behaviors()[1].target
    assert.are.equal("steer.SharedPoint", steer.type and steer.type(p) or tostring(p):match("^[%w%.]+"))
    assert.are.equal(7, p.x); assert.are.equal(8, p.y)
    assert.is_true(rawequal(p, a:behaviors()[1].target))
    p.x = 70                              -- the program's point moves
    a.x, a.y = 0, 8
    local fx, fy = a:steering()
    assert.is_true(fx > 0 and fy == 0)
    p = nil
    for _ = 1, 3 do collectgarbage() end
    local q = a:behaviors()[1].target    -- a fresh handle of the same point
    assert.are.equal(70, q.x)
    -- many points made and dropped: every handle still reads its own point
    for k = 1, 200 do
      local pt = steer.point(k, -k)
      a:set_behaviors{ { "seek", target = pt } }
      if k % 7 == 0 then collectgarbage() end
      local back = a:behaviors()[1].target
      assert.is_true(rawequal(back, pt))
      assert.are.equal(k, back.x)
    end
  end)
end)
