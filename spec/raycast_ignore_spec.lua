-- world:raycast's filter `ignore` naming a shape: the ray passes through a
-- tower's own polygon, a wall or an obstacle, as if it were not there. And
-- on a torus a ray runs between its ends' images however far out they are.

local steer = require "steer"

local function err_of(f, ...)
  local ok, err = pcall(f, ...)
  assert.is_false(ok)
  return err
end

describe("world:raycast ignoring a shape", function()
  it("passes through the tower's own polygon and stops at the next wall", function()
    local w = steer.world{}
    -- a 2 x 2 tower around (0, 0), a wall at x = 5
    local tower = w:add_polygon{ -1, -1, 1, -1, 1, 1, -1, 1 }
    local wall = w:add_wall{ x1 = 5, y1 = -5, x2 = 5, y2 = 5 }
    -- from the tower's middle the ray meets its own far edge at x = 1 first
    local f, hx, hy, nx, ny, kind, h = w:raycast(0, 0, 10, 0)
    assert.are.same({ 0.1, 1, 0, -1, 0, "wall" }, { f, hx, hy, nx, ny, kind })
    assert.are.equal(tower, h)
    f, hx, hy, nx, ny, kind, h = w:raycast(0, 0, 10, 0, { ignore = tower })
    assert.are.same({ 0.5, 5, 0, -1, 0, "wall" }, { f, hx, hy, nx, ny, kind })
    assert.are.equal(wall, h)
    -- ignoring the wall too (one at a time): nothing left on the way
    assert.is_nil((w:raycast(2, 0, 10, 0, { ignore = wall })))
    -- an obstacle, and the list form with an agent
    local rock = w:add_obstacle{ x = 3, y = 0, radius = 0.5 }
    local creep = w:add{ x = 8, y = 0, radius = 0.5 }
    assert.are.equal(rock, select(7, w:raycast(2, 0, 10, 0, { agents = true })))
    f, _, _, _, _, kind, h = w:raycast(2, 0, 10, 0, { agents = true, ignore = rock })
    assert.are.same({ 0.375, "wall" }, { f, kind })
    assert.are.equal(wall, h)
    assert.are.equal(creep, select(7, w:raycast(6, 0, 10, 0, { agents = true, ignore = { rock } })))
    assert.is_nil((w:raycast(6, 0, 10, 0, { agents = true, ignore = { creep, rock } })))
    -- the start agent is still left out when ignore names a shape
    local guard = w:add{ x = 2, y = 0, radius = 0.5 }
    assert.are.equal(wall, select(7, w:raycast(guard, 10, 0, { agents = true, ignore = rock })))
  end)

  it("gives what the same level without that shape gives (random levels, torus)", function()
    local seed = 4242
    local function rand()
      seed = (seed * 1103515245 + 12345) % 2147483648
      return seed / 2147483648
    end
    for _, def in ipairs{ {}, { bounds = { 60, 60 }, wrap = true } } do
      for round = 1, 20 do
        -- the level as a list of shape tables, built twice: once whole,
        -- once without shape `skip`
        local shapes = {}
        for k = 1, 30 do
          local x, y = rand() * 60, rand() * 60
          local r = rand()
          if r < 0.4 then
            shapes[k] = { "obstacle", { x = x, y = y, radius = 0.3 + rand() * 3 } }
          elseif r < 0.8 then
            local a, l = rand() * 2 * math.pi, 1 + rand() * 12
            shapes[k] = { "wall", { x1 = x, y1 = y, x2 = x + math.cos(a) * l, y2 = y + math.sin(a) * l } }
          else
            local s = 1 + rand() * 4
            shapes[k] = { "polygon", { x, y, x + s, y, x + s * 0.5, y + s } }
          end
        end
        local skip = 1 + math.floor(rand() * #shapes)
        local whole, without = steer.world(def), steer.world(def)
        local handle
        for k, s in ipairs(shapes) do
          local h = whole["add_" .. s[1]](whole, s[2])
          if k == skip then handle = h else without["add_" .. s[1]](without, s[2]) end
        end
        for _ = 1, 40 do
          local x1, y1, x2, y2 = rand() * 60, rand() * 60, rand() * 60, rand() * 60
          local a = { whole:raycast(x1, y1, x2, y2, { ignore = handle }) }
          local b = { without:raycast(x1, y1, x2, y2) }
          assert.are.equal(#b, #a)
          -- the same numbers and kind; the handles are each world's own
          for i = 1, 6 do assert.are.equal(b[i], a[i]) end
          if a[7] then assert.are_not.equal(handle, a[7]) end
        end
      end
    end
  end)

  it("raises for what it cannot ignore", function()
    local w = steer.world{}
    local rock = w:add_obstacle{ x = 3, y = 0, radius = 0.5 }
    local rock2 = w:add_obstacle{ x = 6, y = 0, radius = 0.5 }
    local a, b = w:add{ x = 1, y = 1 }, w:add{ x = 2, y = 2 }
    assert.matches("bad argument #5 to 'raycast' %(field 'ignore': steer.Agent, steer.Obstacle, steer.Wall, steer.Polygon or a list of them expected, got number%)",
      err_of(w.raycast, w, 0, 0, 1, 1, { ignore = 5 }))
    assert.matches("%(field 'ignore': at most one agent and one shape, got two shapes%)",
      err_of(w.raycast, w, 0, 0, 1, 1, { ignore = { rock, rock2 } }))
    assert.matches("%(field 'ignore': at most one agent and one shape, got two agents%)",
      err_of(w.raycast, w, 0, 0, 1, 1, { ignore = { a, b } }))
    local other = steer.world{}:add_wall{ x1 = 0, y1 = 0, x2 = 1, y2 = 0 }
    assert.matches("%(field 'ignore': shape belongs to another world%)",
      err_of(w.raycast, w, 0, 0, 1, 1, { ignore = other }))
    rock2:remove()
    assert.matches("%(field 'ignore': shape has been removed%)",
      err_of(w.raycast, w, 0, 0, 1, 1, { ignore = rock2 }))
    assert.matches("%(field 'ignore': steer.Agent, steer.Obstacle, steer.Wall, steer.Polygon or a list of them expected, got string%)",
      err_of(w.raycast, w, 0, 0, 1, 1, { ignore = { rock, "x" } }))
  end)
end)

describe("world:raycast on a torus", function()
  it("on a torus, runs between the ends' images however far outside they are given", function()
    -- (5, 1e20) is (5, 0) on a 100 x 100 torus: 1e20 is a multiple of 100;
    -- the offset 45 - 1e20 would keep none of the 45
    local w = steer.world{ bounds = { 100, 100 }, wrap = true }
    local wall = w:add_wall{ x1 = 0, y1 = 40, x2 = 10, y2 = 40 }
    local f, hx, hy, nx, ny, kind, h = w:raycast(5, 1e20, 5, 45)
    assert.are.same({ 40 / 45, 5, 40, 0, -1, "wall" }, { f, hx, hy, nx, ny, kind })
    assert.are.equal(wall, h)
    f, hx, hy, nx, ny, kind = w:raycast(5, 45, 5, 1e20)
    assert.are.same({ 5 / 45, 5, 40, 0, 1, "wall" }, { f, hx, hy, nx, ny, kind })
    assert.is_false(w:line_of_sight(5, 1e20, 5, 45))
    assert.is_true(w:line_of_sight(5, 1e20, 5, 30))
    -- world:nearest's `visible` agrees: the agent behind the wall is not seen
    local behind = w:add{ x = 5, y = 45 }
    assert.are.equal(behind, w:nearest(5, 1e20, 50))
    assert.is_nil(w:nearest(5, 1e20, 50, { visible = true }))
    local near = w:add{ x = 5, y = 30 }
    assert.are.equal(near, w:nearest(5, 1e20, 50, { visible = true }))
  end)
end)
