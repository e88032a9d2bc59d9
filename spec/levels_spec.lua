-- Game levels: static geometry in spatial indexes, handles, polygons, tile
-- maps, ray casts, line of sight, query_box and containment (issue 12).

describe("geometry index (C oracle)", function()
  it("gives the brute force scan's answers bit for bit", function()
    -- spec/c/geometry_oracle.c: random levels, torus seams, degenerate and
    -- huge items, edits, ray casts, tile maps, allocation failures (built and
    -- run without the ASan runtime that `make asan` preloads into busted)
    local ok = os.execute("env -u LD_PRELOAD make -s build/spec/geometry_oracle >/dev/null")
    assert.is_true(ok == true or ok == 0, "building the oracle failed")
    local p = assert(io.popen("env -u LD_PRELOAD build/spec/geometry_oracle 2>&1"))
    local out = p:read("*a")
    p:close()
    local good, bad = out:match("(%d+) passed, (%d+) failed")
    assert.is_truthy(good, out)
    assert.are.equal("0", bad, out)
    assert.is_true(tonumber(good) > 50000, out)
  end)
end)

-- Torus images of circles: a circle whose diameter spans many periods on an
-- axis (a thin torus, a huge radius) is tested through the images nearest
-- the ray on that axis only, so these finish at once, with exact answers.
describe("ray casts on a torus much smaller than the shapes", function()
  local steer = require "steer"

  it("hits an agent of radius 0.5 in a torus 1e-300 wide", function()
    local w = steer.world{ bounds = { 1e-300, 47 }, wrap = true }
    local a = w:add{ x = 0, y = 20, radius = 0.5 }
    -- along y from 10 to 30: the agent's edge at y = 19.5, 9.5 / 20 of the way
    local f, hx, hy, nx, ny, kind, h = w:raycast(0, 10, 0, 30, { agents = true })
    assert.are.equal(0.475, f)
    assert.is_true(math.abs(hy - 19.5) < 1e-12 and hx == 0)
    -- the images along x tie; the first wins, its centre 1e-300 aside
    assert.is_true(math.abs(nx) < 1e-12 and ny == -1 and kind == "agent")
    assert.are.equal(a, h)
    -- (0, 57) is seen at its nearest image (0, 10): the ray goes down
    f, hx, hy, nx, ny, kind = w:raycast(0, 30, 0, 57, { agents = true })
    assert.is_true(math.abs(f - 0.475) < 1e-12 and math.abs(hy - 20.5) < 1e-12)
    assert.is_true(math.abs(nx) < 1e-12 and ny == 1 and kind == "agent")
    -- beside it: nothing (its images along x merge into a band 1 wide in y only)
    assert.is_nil(w:raycast(0, 21, 0, 40, { agents = true }))
  end)

  it("blocks line of sight with an obstacle in a torus 1e-300 wide", function()
    local w = steer.world{ bounds = { 1e-300, 47 }, wrap = true }
    w:add_obstacle{ x = 5, y = 20, radius = 0.5 }
    assert.is_false(w:line_of_sight(3, 10, 7, 30))
    assert.is_true(w:line_of_sight(3, 21, 7, 40))
    local f, _, hy, _, ny, kind = w:raycast(3, 30, 7, 10)
    assert.are.equal(0.475, f)
    assert.is_true(math.abs(hy - 20.5) < 1e-12 and ny == 1 and kind == "obstacle")
  end)

  it("starts inside a circle far wider than the torus: fraction 0, the nearest image's normal", function()
    local w = steer.world{ bounds = { 1e-300, 47 }, wrap = true }
    w:add_obstacle{ x = 0, y = 0, radius = 5e5 }
    local f, hx, hy, nx, ny, kind = w:raycast(0, 10, 0, 30)
    assert.are.same({ 0, 0, 10, 0, 1, "obstacle" }, { f, hx, hy, nx, ny, kind })
    local u = steer.world{ bounds = { 1, 1 }, wrap = true }
    local b = u:add{ x = 0.5, y = 0.5, radius = 5e5 }
    local f2, hx2, hy2, nx2, ny2, kind2, h2 = u:raycast(0.25, 0.5, 0.75, 0.5, { agents = true })
    assert.are.same({ 0, 0.25, 0.5, -1, 0, "agent" }, { f2, hx2, hy2, nx2, ny2, kind2 })
    assert.are.equal(b, h2)
  end)

  it("runs a ray 1e6 long in a world 1 wide to the far end's nearest image", function()
    local w = steer.world{ bounds = { 1, 1 }, wrap = true }
    w:add_obstacle{ x = 0.6, y = 0.5, radius = 0.05 }
    -- (1e6 + 0.75, 0.5) is seen at (0.75, 0.5): the ray is 0.5 long
    local f, hx, hy, nx, ny, kind = w:raycast(0.25, 0.5, 1e6 + 0.75, 0.5)
    assert.is_true(math.abs(f - 0.6) < 1e-12 and math.abs(hx - 0.55) < 1e-12)
    assert.are.same({ 0.5, -1, 0, "obstacle" }, { hy, nx, ny, kind })
    -- a box 1e6 wide holds every agent once
    local a = w:add{ x = 0.2, y = 0.2, radius = 0.5 }
    local b = w:add{ x = 0.9, y = 0.9, radius = 5e5 }
    local seen = {}
    for agent in w:query_box(-5e5, -5e5, 5e5, 5e5) do seen[#seen + 1] = agent.id end
    table.sort(seen)
    assert.are.same({ a.id, b.id }, seen)
  end)
end)
