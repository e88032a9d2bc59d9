-- ORCA (the program field `orca`, a:orca_velocity) and avoid_agents:
-- half-planes and linear programs checked by hand, reciprocity, the kept
-- guarantees (threads, SIMD width, torus, snapshots, no NaN, bad fields).
local steer = require "steer"
local support = require "support"
local near = support.near

local SQRT96 = math.sqrt(96)

describe("ORCA's nearest neighbors (C oracle)", function()
  it("are the brute-force scan's, bit for bit, on every grid", function()
    -- spec/c/nearest_oracle.c: the sorted row-by-row walk and the grid cursor
    -- against a scan of every agent (clamped, wrapped, unbounded worlds,
    -- clusters, ties, ghosts, agents outside the bounds, huge radii); built
    -- and run without the ASan runtime that `make asan` preloads into busted
    require("support").run_oracle("nearest_oracle", 50000)
  end)
end)

describe("ORCA's linear program (C oracle)", function()
  it("clips a line in SSE2 lanes as the scalar loop does, bit for bit", function()
    -- spec/c/orca_clip_oracle.c: random lines built to tie (zeros of both
    -- signs, parallel lines, shared points, infinities, NaN)
    require("support").run_oracle("orca_clip_oracle", 1000000)
  end)
end)

-- agent A at the origin moving (1, 0), B at (10, 0) moving (-1, 0), radii 1
local function head_on(b_program)
  local world = steer.world{}
  local a = world:add{ x = 0, y = 0, vx = 1, vy = 0, radius = 1, max_speed = 2, max_force = 100 }
  local b = world:add{ x = 10, y = 0, vx = -1, vy = 0, radius = 1, max_speed = 2, max_force = 100 }
  if b_program then b:set_behaviors(b_program) end
  return world, a, b
end

describe("orca half-planes", function()
  it("leg: a lone avoider turns onto the right leg, speed kept", function()
    -- rel_pos (10, 0), rel_vel (2, 0), R = 2, tau = 5: w = (0, 0) lies on
    -- neither side, the right leg dir = (-sqrt96, 2) / 10;
    -- u = (rel_vel . dir) dir - rel_vel = (-0.08, -0.04 sqrt96)
    local _, a = head_on(nil)
    local vx, vy = a:orca_velocity(1, 0, { time_horizon = 5, margin = 0 })
    near(vx, 0.92, 1e-12, "vx")
    near(vy, -0.04 * SQRT96, 1e-12, "vy")
    near(vx * vx + vy * vy, 1, 1e-12, "speed^2")
  end)

  it("leg: reciprocal, an avoiding neighbor leaves half of u", function()
    local _, a = head_on{ { "seek", target = { -10, 0 } }, orca = { margin = 0 } }
    local vx, vy = a:orca_velocity(1, 0, { time_horizon = 5, margin = 0 })
    near(vx, 0.96, 1e-12, "vx")
    near(vy, -0.02 * SQRT96, 1e-12, "vy")
  end)

  it("cut-off circle: closing at exactly the gap over the horizon", function()
    -- rel_pos (10, 0), rel_vel (1.8, 0): w = (-0.2, 0), nearest the cut-off
    -- disc (centre (2, 0), radius 0.4): u = (-0.2, 0); v.x <= 1.6
    local world = steer.world{}
    local a = world:add{ x = 0, y = 0, vx = 1.8, radius = 1, max_speed = 3 }
    world:add{ x = 10, y = 0, radius = 1 }
    local vx, vy = a:orca_velocity(1.8, 0, { time_horizon = 5, margin = 0 })
    near(vx, 1.6, 1e-12, "vx")
    near(vy, 0, 1e-12, "vy")
    -- a preferred velocity already permitted is kept as it is
    vx, vy = a:orca_velocity(1.5, 0.3, { time_horizon = 5, margin = 0 })
    assert.are.equal(1.5, vx)
    assert.are.equal(0.3, vy)
  end)

  it("overlap: leave within dt", function()
    -- rel_pos (1, 0), R = 2, dt 0.5: w = (-2, 0), u = (2/0.5 - 2) (-1, 0)
    local world = steer.world{}
    local a = world:add{ x = 0, y = 0, radius = 1, max_speed = 3 }
    world:add{ x = 1, y = 0, radius = 1 }
    local vx, vy = a:orca_velocity(0, 0, { dt = 0.5, margin = 0 })
    near(vx, -2, 1e-12, "vx")
    near(vy, 0, 1e-12, "vy")
  end)

  it("margin: the pair plans (r_i + r_j)(1 + margin) apart", function()
    -- the default margin 0.02: R = 2.04. Overlap, rel_pos (1, 0), dt 0.5:
    -- w = (-2, 0), u = (2.04 / 0.5 - 2) (-1, 0): v.x <= -2.08
    local world = steer.world{}
    local a = world:add{ x = 0, y = 0, radius = 1, max_speed = 3 }
    world:add{ x = 1, y = 0, radius = 1 }
    local vx, vy = a:orca_velocity(0, 0, { dt = 0.5 })
    near(vx, -2.08, 1e-12, "vx, default margin")
    near(vy, 0, 1e-12, "vy, default margin")
    -- the cut-off circle: rel_pos (10, 0), rel_vel (1.8, 0), tau 5, margin
    -- 0.5: R = 3, disc centre (2, 0) radius 0.6, w = (-0.2, 0): v.x <= 1.4
    local w2 = steer.world{}
    local b = w2:add{ x = 0, y = 0, vx = 1.8, radius = 1, max_speed = 3 }
    w2:add{ x = 10, y = 0, radius = 1 }
    vx, vy = b:orca_velocity(1.8, 0, { time_horizon = 5, margin = 0.5 })
    near(vx, 1.4, 1e-12, "vx, margin 0.5")
    near(vy, 0, 1e-12, "vy, margin 0.5")
    -- and with the default: radius 0.408, v.x <= 1.8 - 0.208
    vx = b:orca_velocity(1.8, 0, { time_horizon = 5 })
    near(vx, 1.592, 1e-12, "vx, default margin")
    -- the margin is between agents only: a wall's gap is the body's
    local w3 = steer.world{}
    local c = w3:add{ x = 0, y = 0, vx = 1, radius = 1, max_speed = 5 }
    w3:add_wall{ x1 = 3, y1 = -5, x2 = 3, y2 = 5 }
    vx = c:orca_velocity(2, 0.5, { obstacle_time_horizon = 2, margin = 1 })
    near(vx, 1, 1e-12, "vx beside a wall")
  end)

  it("walls: speed towards one at most gap / obstacle_time_horizon", function()
    local world = steer.world{}
    local a = world:add{ x = 0, y = 0, vx = 1, radius = 1, max_speed = 5 }
    world:add_wall{ x1 = 3, y1 = -5, x2 = 3, y2 = 5 } -- gap 2, horizon 2: v.x <= 1
    local vx, vy = a:orca_velocity(2, 0.5, { obstacle_time_horizon = 2 })
    near(vx, 1, 1e-12, "vx")
    near(vy, 0.5, 1e-12, "vy")
    -- a circle is a disc at rest: rel_pos (0, -4), R = 3, tau = 2, v = (1, 0):
    -- w = (1, 2) lies nearest the cut-off circle, n = w / sqrt5,
    -- u = (1.5 - sqrt5) n: vx + 2 vy >= 1.5 sqrt5 - 4; with vx <= 1 the
    -- optimum for (2, -3) is the corner vx = 1
    world:add_obstacle{ x = 0, y = -4, radius = 2 }
    vx, vy = a:orca_velocity(2, -3, { obstacle_time_horizon = 2 })
    near(vx, 1, 1e-12, "vx")
    near(vy, 0.75 * math.sqrt(5) - 2.5, 1e-12, "vy")
    -- past a wall's end it is a disc too: the end (3, 2) seen from (0, 0)
    -- at v = (1, 0), R = 1, tau = 2: w = (-0.5, -1), nearest the cut-off
    -- circle: vx + 2 vy <= 3.5 - sqrt5 / 2; (3, 0) projects onto that line
    local w2 = steer.world{}
    local b = w2:add{ x = 0, y = 0, vx = 1, radius = 1, max_speed = 5 }
    w2:add_wall{ x1 = 3, y1 = 2, x2 = 3, y2 = 9 }
    vx, vy = b:orca_velocity(3, 0, { obstacle_time_horizon = 2 })
    local over = math.sqrt(5) / 2 - 0.5
    near(vx, 3 - over / 5, 1e-12, "vx past the end")
    near(vy, -2 * over / 5, 1e-12, "vy past the end")
  end)

  it("walls: a way that passes a wall's end is not held back by its line", function()
    -- the ORCA velocity of an agent of radius 1 at the origin moving at
    -- (vx, vy), asking for (px, py), beside the one wall x1..y2, tau 2
    local function beside(x1, y1, x2, y2, vx, vy, px, py)
      local world = steer.world{}
      world:add_wall{ x1 = x1, y1 = y1, x2 = x2, y2 = y2 }
      local a = world:add{ x = 0, y = 0, vx = vx, vy = vy, radius = 1, max_speed = 5 }
      return a:orca_velocity(px, py, { obstacle_time_horizon = 2 })
    end
    -- wall (3, -1)-(3, 10), tau 2. (2, -2) passes the end (3, -1) at
    -- sqrt 2 > 1 (nearest at t = 1): outside the wall's velocity obstacle,
    -- so it stands (the wall's line alone, gap 2 over tau 2, would cut it
    -- to vx = 1)
    local vx, vy = beside(3, -1, 3, 10, 2, -2, 2, -2)
    near(vx, 2, 1e-12, "vx clear of the end")
    near(vy, -2, 1e-12, "vy clear of the end")
    -- (3, -1) aims inside the cone; its nearest boundary is the right leg,
    -- the tangent from the origin to the disc of radius 1 about the end
    -- (3, -1): direction (0.8, -0.6) (|end|^2 = 10, leg 3), touching the
    -- cut-off disc at 3 / tau = 1.5 along it; v projects to 3 along it, at
    -- (2.4, -1.8): the half-plane 0.6 vx + 0.8 vy <= 0, and (3, -1)
    -- projects onto its line at (2.4, -1.8)
    vx, vy = beside(3, -1, 3, 10, 3, -1, 3, -1)
    near(vx, 2.4, 1e-12, "vx on the leg")
    near(vy, -1.8, 1e-12, "vy on the leg")
    -- face on: the wall (3, -5)-(3, 5) at v = (1, 0) gives its cut-off
    -- side, vx <= (3 - 1) / 2, whatever the way along it
    vx, vy = beside(3, -5, 3, 5, 1, 0, 2, 1)
    near(vx, 1, 1e-12, "vx face on")
    near(vy, 1, 1e-12, "vy face on")
    -- a wall 2e150 long gives the same line: its half-plane is placed
    -- where it is nearest the velocity, not at its far ends
    vx, vy = beside(3, -9.9e149, 3, 9.9e149, 1, 0, 2, 1)
    near(vx, 1, 1e-12, "vx, a long wall")
    near(vy, 1, 1e-12, "vy, a long wall")
  end)

  describe("a convex polygon's edges, seen from its solid side", function()
    -- an agent of radius 1 at (ox, oy) + (0, 0) asking for (0, 1.5), tau 2,
    -- inside a square whose top edge runs 1.2 above it: an edge seen from
    -- outside would cut the way up to (1.2 - 1) / 2 = 0.1 (its cut-off
    -- side, as "face on" above); from the polygon's solid side ORCA
    -- leaves the edge to the others, as RVO2 takes an obstacle's edge only
    -- when the agent sees it
    local SQUARE = { -10, -18.8, 10, -18.8, 10, 1.2, -10, 1.2 }
    local function up(points, def, ox, oy)
      ox, oy = ox or 0, oy or 0
      local world = steer.world(def or {})
      local flat = { closed = points.closed ~= false }
      for k = 1, #points, 2 do
        flat[k], flat[k + 1] = points[k] + ox, points[k + 1] + oy
      end
      world:add_polygon(flat)
      local a = world:add{ x = ox, y = oy, radius = 1, max_speed = 5 }
      return a:orca_velocity(0, 1.5, { obstacle_time_horizon = 2 })
    end
    local function reversed(points)
      local r = { closed = points.closed }
      for k = #points - 1, 1, -2 do r[#r + 1], r[#r + 2] = points[k], points[k + 1] end
      return r
    end

    it("leaves the way free, either winding", function()
      local vx, vy = up(SQUARE)
      near(vx, 0, 1e-12, "vx")
      near(vy, 1.5, 1e-12, "vy, counter-clockwise")
      vx, vy = up(reversed(SQUARE))
      near(vy, 1.5, 1e-12, "vy, clockwise")
      -- outside, below the bottom edge, the same polygon holds the agent:
      -- bottom edge 1.2 above it
      local world = steer.world{}
      local flat = { closed = true }
      for k = 1, #SQUARE, 2 do flat[k], flat[k + 1] = SQUARE[k], SQUARE[k + 1] + 20 end
      world:add_polygon(flat)
      local a = world:add{ x = 0, y = 0, radius = 1, max_speed = 5 }
      vx, vy = a:orca_velocity(0, 1.5, { obstacle_time_horizon = 2 })
      near(vx, 0, 1e-12, "vx outside")
      near(vy, 0.1, 1e-12, "vy outside")
    end)

    it("holds it where the polygon is not convex, not closed, or on a torus", function()
      local function held(what, vx, vy)
        near(vx, 0, 1e-12, "vx, " .. what)
        near(vy, 0.1, 1e-12, "vy, " .. what)
      end
      -- a notch up to (0, -5) in the bottom edge: concave, edges two-sided
      held("concave", up{ -10, -18.8, 0, -5, 10, -18.8, 10, 1.2, -10, 1.2 })
      -- open: the same corners as a polyline
      local open = { closed = false }
      for k, v in ipairs(SQUARE) do open[k] = v end
      held("a polyline", up(open))
      -- (a polyline back to its first point closes, and is one-sided)
      open[9], open[10] = SQUARE[1], SQUARE[2]
      local _, vy = up(open)
      near(vy, 1.5, 1e-12, "vy, a polyline that closes")
      -- every corner on the top edge's line
      held("collinear", up{ -10, 1.2, 0, 1.2, 10, 1.2 })
      -- on a torus a polygon's edges are placed one by one
      held("on a torus", up(SQUARE, { bounds = { 100, 100 }, wrap = true }, 50, 50))
      -- the same square in a bounded world is convex again
      local vx, vy = up(SQUARE, { bounds = { 100, 100 } }, 50, 50)
      near(vy, 1.5, 1e-12, "vy, bounded")
      assert.are.equal(0, vx)
    end)

    it("keeps its solid side through a snapshot, its edges moved about", function()
      local world = steer.world{}
      local first = world:add_wall{ x1 = 40, y1 = 40, x2 = 45, y2 = 40 }
      local flat = { closed = true }
      for k, v in ipairs(reversed(SQUARE)) do flat[k] = v end
      world:add_polygon(flat)
      local a = world:add{ x = 0, y = 0, radius = 1, max_speed = 5 }
      -- the polygon's last edge moves into the removed wall's place
      first:remove()
      local copy = assert(steer.restore(world:snapshot()))
      local vx, vy = copy:get(a.id):orca_velocity(0, 1.5, { obstacle_time_horizon = 2 })
      near(vx, 0, 1e-12, "vx restored")
      near(vy, 1.5, 1e-12, "vy restored")
      assert.are.equal(world:snapshot(), copy:snapshot())
      -- an open polyline stays two-sided through a snapshot, though its
      -- edges would pass the convex test
      world = steer.world{}
      -- bottom, right side and top: no left side
      world:add_polygon{ -10, -18.8, 10, -18.8, 10, 1.2, -10, 1.2, closed = false }
      a = world:add{ x = 0, y = 0, radius = 1, max_speed = 5 }
      copy = assert(steer.restore(world:snapshot()))
      vx, vy = copy:get(a.id):orca_velocity(0, 1.5, { obstacle_time_horizon = 2 })
      near(vx, 0, 1e-12, "vx, a U restored")
      near(vy, 0.1, 1e-12, "vy, a U restored")
    end)
  end)
end)

describe("orca linear program", function()
  it("infeasible: the speed disc cannot reach the half-plane, the least violation", function()
    -- v.x <= -2 from the overlap, max_speed 1: the 3-D fallback moves as
    -- far into the half-plane as the disc allows
    local world = steer.world{}
    local a = world:add{ x = 0, y = 0, radius = 1, max_speed = 1 }
    world:add{ x = 1, y = 0, radius = 1 }
    local vx, vy = a:orca_velocity(0, 0, { dt = 0.5 })
    near(vx, -1, 1e-12, "vx")
    near(vy, 0, 1e-12, "vy")
  end)

  it("infeasible: squeezed between two, the violations are balanced", function()
    -- v.x <= -2 and v.x >= 2: any velocity violates one by >= 2; the least
    -- deepest violation is 2, at v.x = 0
    local world = steer.world{}
    local a = world:add{ x = 0, y = 0, radius = 1, max_speed = 1 }
    world:add{ x = 1, y = 0, radius = 1 }
    world:add{ x = -1, y = 0, radius = 1 }
    local vx, vy = a:orca_velocity(0.3, 0.2, { dt = 0.5 })
    near(vx, 0, 1e-12, "vx")
    assert.is_true(vx * vx + vy * vy <= 1 + 1e-12)
  end)

  it("max_neighbors: only the nearest count", function()
    local world = steer.world{}
    local a = world:add{ x = 0, y = 0, radius = 1, max_speed = 3 }
    world:add{ x = 1, y = 0, radius = 1 }  -- overlapping: v.x <= -2
    world:add{ x = -1.5, y = 0, radius = 1 } -- overlapping: v.x >= 1
    local vx = a:orca_velocity(0, 0, { dt = 0.5, max_neighbors = 1, margin = 0 })
    near(vx, -2, 1e-12, "nearest only")
    vx = a:orca_velocity(0, 0, { dt = 0.5, max_neighbors = 0 })
    assert.are.equal(0, vx)
  end)
end)

describe("orca in the step", function()
  local PROGRAM = { { "seek", target = { 0, 0 } }, orca = { time_horizon = 5 } }

  it("two avoiding agents each take half, mirror images", function()
    local world = steer.world{}
    local a = world:add{ x = 0, y = 0, vx = 1, radius = 1, max_speed = 1, max_force = 100 }
    local b = world:add{ x = 10, y = 0, vx = -1, radius = 1, max_speed = 1, max_force = 100 }
    a:set_behaviors{ { "seek", target = { 100, 0 } }, orca = { time_horizon = 5, margin = 0 } }
    b:set_behaviors{ { "seek", target = { -100, 0 } }, orca = { time_horizon = 5, margin = 0 } }
    world:step(0.25)
    near(a.vx, 0.96, 1e-12, "a.vx")
    near(a.vy, -0.02 * SQRT96, 1e-12, "a.vy")
    near(b.vx, -0.96, 1e-12, "b.vx")
    near(b.vy, 0.02 * SQRT96, 1e-12, "b.vy")
  end)

  it("agents without orca are avoided fully and avoid nothing", function()
    local world = steer.world{}
    local a = world:add{ x = 0, y = 0, vx = 1, radius = 1, max_speed = 1, max_force = 100 }
    local b = world:add{ x = 10, y = 0, vx = -1, radius = 1, max_speed = 1, max_force = 100 }
    a:set_behaviors{ { "seek", target = { 100, 0 } }, orca = { time_horizon = 5, margin = 0 } }
    b:set_behaviors{ { "seek", target = { -100, 0 } } }
    world:step(0.25)
    near(a.vx, 0.92, 1e-12, "a.vx")
    near(a.vy, -0.04 * SQRT96, 1e-12, "a.vy")
    assert.are.equal(-1, b.vx)
    assert.are.equal(0, b.vy)
  end)

  it("a crossing crowd (feasible) never overlaps by more than 0.1, all arrive", function()
    local world = steer.world{}
    local agents = {}
    for k = 1, 12 do
      local t = 2 * math.pi * k / 12
      local a = world:add{ x = 20 * math.cos(t) + (k * 0.37) % 0.2 - 0.1, y = 20 * math.sin(t) + (k * 0.61) % 0.2 - 0.1, radius = 1,
                           max_speed = 2, max_force = 1e3 }
      -- goals a little off the antipodes: a perfectly symmetric circle
      -- jams into a slowly turning ring (docs/API.md section 18)
      a:set_behaviors{ { "arrive", target = { 20 * math.cos(t + math.pi + 0.2), 20 * math.sin(t + math.pi + 0.2) } },
                       orca = { time_horizon = 5 } }
      agents[k] = a
    end
    local deepest = 0
    for _ = 1, 200 do
      world:step(0.25)
      for i = 1, #agents do
        for j = i + 1, #agents do
          local dx, dy = agents[i].x - agents[j].x, agents[i].y - agents[j].y
          deepest = math.max(deepest, 2 - math.sqrt(dx * dx + dy * dy))
        end
      end
    end
    assert.is_true(deepest <= 0.1, "deepest " .. deepest)
    for k, a in ipairs(agents) do
      local t = 2 * math.pi * k / 12
      near(a.x, 20 * math.cos(t + math.pi + 0.2), 1, "arrived x")
      near(a.y, 20 * math.sin(t + math.pi + 0.2), 1, "arrived y")
    end
  end)

  it("wraps: avoiding across the seam is avoiding in the middle", function()
    local function pair(x0)
      local world = steer.world{ bounds = { 100, 100 }, wrap = true }
      local a = world:add{ x = x0, y = 50, vx = 1, radius = 1, max_speed = 1, max_force = 100 }
      local b = world:add{ x = (x0 + 10) % 100, y = 50, vx = -1, radius = 1, max_speed = 1, max_force = 100 }
      a:set_behaviors{ { "seek", target = { (x0 + 30) % 100, 50 } }, orca = true }
      b:set_behaviors{ { "seek", target = { (x0 - 20) % 100, 50 } }, orca = true }
      world:step(0.25)
      return a, b
    end
    local a1, b1 = pair(45)
    local a2, b2 = pair(95)
    near(a2.vx, a1.vx, 1e-12, "vx")
    near(a2.vy, a1.vy, 1e-12, "vy")
    near(b2.vy, b1.vy, 1e-12, "b vy")
    assert.is_true(a1.vy < -0.1)
  end)

  local function crowd(threads, orca_program, count)
    local n = count or 4200
    local side = math.sqrt(n) * 3
    local world = steer.world{ bounds = { side, side }, wrap = true, seed = 5, threads = threads }
    local p = steer.program(orca_program)
    for k = 1, n do
      local a = world:add{ x = (k * 7.31) % side, y = (k * 3.77) % side, radius = 0.5,
                           vx = math.cos(k), vy = math.sin(k), max_speed = 1.5, max_force = 3 }
      a:set_behaviors(p)
    end
    for _ = 1, 3 do world:step(0.1) end
    return world
  end

  it("is bit-identical for any thread count and SIMD width", function()
    local programs = {
      { { "wander" }, { "separation", radius = 1 }, orca = { max_neighbors = 6 } },
      { { "wander" }, { "avoid_agents", time_horizon = 2, radius = 4 }, smoothing = 0.5 },
    }
    for _, prog in ipairs(programs) do
      local one = crowd(1, prog):snapshot()
      assert.are.equal(one, crowd(2, prog):snapshot())
      local widest = steer.testing.simd()
      steer.testing.simd(1)
      local narrow = crowd(2, prog):snapshot()
      steer.testing.simd(widest)
      assert.are.equal(one, narrow)
    end
    -- from 512 agents with orca a step is split too (below 4,096 agents)
    local prog = { { "seek", target = { 30, 30 } }, orca = { max_neighbors = 8 } }
    assert.are.equal(crowd(1, prog, 700):snapshot(), crowd(2, prog, 700):snapshot())
  end)

  it("searches started from the last step's neighbors answer as cold ones", function()
    -- each agent's search starts bounded by where the neighbors it found
    -- the step before are now; a restored world has no such seeds and
    -- starts cold. Step for step the two agree, bit for bit, while agents
    -- leave and new ones (some ghosts) take the freed slots.
    local world = steer.world{ bounds = { 60, 60 }, seed = 3 }
    local prog = steer.program{ { "seek", target = { 30, 30 } },
                                orca = { max_neighbors = 10, neighbor_radius = 8 } }
    local agents = {}
    for k = 1, 300 do
      agents[k] = world:add{ x = (k * 7.31) % 60, y = (k * 3.77) % 60, radius = 0.6,
                             max_speed = 1.5, max_force = 4 }
      agents[k]:set_behaviors(prog)
    end
    for s = 1, 12 do
      if s % 4 == 0 then
        for k = s, 300, 37 do
          if agents[k] then world:remove(agents[k]); agents[k] = nil end
        end
        for k = 1, 6 do
          local a = world:add{ x = 30 + k, y = 30 - k, radius = 0.6, max_speed = 1.5,
                               max_force = 4, ghost = k % 3 == 0 }
          a:set_behaviors(prog)
        end
      end
      local cold = steer.restore(world:snapshot())
      world:step(0.2)
      cold:step(0.2)
      assert.are.equal(cold:snapshot(), world:snapshot())
    end
  end)

  it("walls listed per cell (few walls) follow the level as it changes", function()
    -- with few walls and obstacles the step lists, per grid cell, those
    -- within ORCA's static reach (orca_cells.c) and keeps the lists while
    -- the geometry stands; a restored world builds them afresh. Step for
    -- step the two agree, bit for bit, while walls move, come and go and
    -- the agents' reach grows.
    local world = steer.world{ bounds = { 80, 80 }, cell_size = 2, seed = 4 }
    local prog = steer.program{ { "seek", target = { 40, 40 } },
                                orca = { max_neighbors = 6, obstacle_time_horizon = 4 } }
    local agents = {}
    for k = 1, 120 do
      agents[k] = world:add{ x = (k * 7.31) % 80, y = (k * 3.77) % 80, radius = 0.5,
                             max_speed = 1.5, max_force = 4 }
      agents[k]:set_behaviors(prog)
    end
    local walls = {}
    for k = 1, 8 do
      local x, y = (k * 13.7) % 70 + 5, (k * 29.3) % 70 + 5
      walls[k] = world:add_wall{ x1 = x, y1 = y, x2 = x + 6 * math.cos(k), y2 = y + 6 * math.sin(k) }
    end
    world:add_obstacle{ x = 40, y = 30, radius = 3 }
    for s = 1, 40 do
      if s % 5 == 0 then walls[s % 8 + 1].x1 = walls[s % 8 + 1].x1 + 3 end
      if s == 12 then walls[#walls + 1] = world:add_wall{ x1 = 30, y1 = 50, x2 = 50, y2 = 50 } end
      if s == 18 then walls[2]:remove(); walls[2] = walls[#walls]; walls[#walls] = nil end
      if s == 24 then
        for k = 1, 120, 3 do agents[k].max_speed = 4 end
      end
      if s == 30 then world:add_obstacle{ x = 20, y = 60, radius = 2 } end
      local cold = steer.restore(world:snapshot())
      world:step(0.2)
      cold:step(0.2)
      assert.are.equal(cold:snapshot(), world:snapshot())
    end
  end)

  it("snapshots continue bit-identically and keep the fields", function()
    local world = steer.world{}
    for k = 1, 30 do
      local a = world:add{ x = k % 6 * 3, y = math.floor(k / 6) * 3, radius = 1, max_speed = 2, max_force = 8 }
      a:set_behaviors{ { "seek", target = { 9 - k % 6 * 3, 9 }, weight = 2 },
                       { "avoid_agents", time_horizon = 2.5, radius = 6 },
                       orca = { time_horizon = 4, obstacle_time_horizon = 1.5,
                                neighbor_radius = 8, max_neighbors = 7, margin = 0.3 }, smoothing = 0.7 }
    end
    world:add_wall{ x1 = -5, y1 = -5, x2 = 30, y2 = -5 }
    for _ = 1, 5 do world:step(0.2) end
    local copy = steer.restore(world:snapshot())
    for _ = 1, 10 do world:step(0.2); copy:step(0.2) end
    assert.are.equal(world:snapshot(), copy:snapshot())
    local first
    for a in copy:agents() do first = first or a end
    local b = first:behaviors()
    assert.are.same({ time_horizon = 4, obstacle_time_horizon = 1.5,
                      neighbor_radius = 8, max_neighbors = 7, margin = 0.3, push = 0, detour = true,
                      settle = false }, b.orca)
    assert.are.equal(2.5, b[2].time_horizon)
    assert.are.equal(6, b[2].radius)
  end)
end)

describe("orca and avoid_agents never make NaN", function()
  it("coincident agents, zero radii, zero speeds, huge numbers", function()
    local world = steer.world{}
    local list = {}
    local defs = {
      { x = 0, y = 0 }, { x = 0, y = 0 }, { x = 0, y = 0, radius = 0 },
      { x = 0, y = 0, max_speed = 0 }, { x = 1e150, y = -1e150, vx = 1e150, max_speed = 1e150, max_force = 1e150, radius = 1e150 },
      { x = 1e150, y = -1e150, vx = -1e150, max_speed = 1e150, max_force = 1e150, radius = 1e150 },
    }
    for k, d in ipairs(defs) do
      d.radius = d.radius or 1
      list[k] = world:add(d)
      list[k]:set_behaviors{ { "seek", target = { 5, 5 } }, { "avoid_agents", time_horizon = 1e-300 },
                             orca = { time_horizon = 1e-300, obstacle_time_horizon = 1e150,
                                      neighbor_radius = 1e150, max_neighbors = 64 } }
    end
    world:add_wall{ x1 = 0, y1 = 0, x2 = 0, y2 = 1e-9 }
    world:add_obstacle{ x = 0, y = 0, radius = 0 }
    for _ = 1, 5 do
      world:step(1e-300)
      world:step(1)
      for _, a in ipairs(list) do
        support.all_finite(a.x, a.y, a.vx, a.vy, a:orca_velocity(1e150, -1e150))
        support.all_finite(a:avoid_agents(1e-300, 1e150))
        support.all_finite(a:orca_velocity(0, 0, { dt = 1e-300 }))
      end
    end
    -- two coincident agents at rest part in opposite directions
    local w2 = steer.world{}
    local p = w2:add{ x = 0, y = 0, radius = 1, max_speed = 1, max_force = 100 }
    local q = w2:add{ x = 0, y = 0, radius = 1, max_speed = 1, max_force = 100 }
    p:set_behaviors{ orca = true }
    q:set_behaviors{ orca = true }
    w2:step(0.5)
    assert.is_true(p.vx * q.vx < 0, "opposite")
  end)

  it("a:steering reports the force the step applies: at most max_force", function()
    local world = steer.world{}
    local a = world:add{ x = 0, y = 0, vx = 1, radius = 1, max_speed = 2, max_force = 1 }
    local b = world:add{ x = 2.5, y = 0, vx = -1, radius = 1, max_speed = 2, max_force = 1 }
    a:set_behaviors{ { "seek", target = { 10, 0 } }, orca = true }
    b:set_behaviors{ { "seek", target = { -10, 0 } }, orca = true }
    -- head on, 0.5 apart: ORCA asks for a change of several units within 0.01 s
    local fx, fy = a:steering(0.01)
    local len = math.sqrt(fx * fx + fy * fy)
    assert.is_true(len > 0.999 and len <= 1 + 1e-12, "clamped to max_force: " .. len)
  end)

  it("the smallest step: an agent whose safe velocity is its own gets no force", function()
    -- (v_orca - v) / dt is 0 * inf for dt = 5e-324 (fuzzer seed 20261133)
    local world = steer.world{}
    local a = world:add{ x = 0, y = 0, vx = 0.5, vy = 0.25, max_speed = 1, max_force = 2 }
    a:set_behaviors{ { "flee", target = { 100, 100 } }, combine = "priority", orca = true }
    local fx, fy = a:steering(4.9406564584124654e-324)
    assert.are.equal(0, fx)
    assert.are.equal(0, fy)
    world:step(4.9406564584124654e-324)
    assert.are.same({ 0.5, 0.25 }, { a.vx, a.vy })
  end)
end)

describe("avoid_agents", function()
  it("power law: k exp(-tau/t0) / tau^2 (2/tau + 1/t0) R / sqrt(disc), turned right head-on", function()
    -- x = (-4, 0), v = (1, 0), R = 1: tau = 3, disc = 1, contact (-1, 0);
    -- head-on (cos = 1): the direction (-1, 0) + 3 (0, -1), normalized
    local world = steer.world{}
    local a = world:add{ x = 0, y = 0, vx = 1, radius = 0.5, max_speed = 2, max_force = 10 }
    world:add{ x = 4, y = 0, radius = 0.5 }
    local fx, fy = a:avoid_agents(3)
    local size = 1.5 * math.exp(-1) / 9
    near(fx, -size / math.sqrt(10), 1e-15, "fx")
    near(fy, -3 * size / math.sqrt(10), 1e-15, "fy")
    -- moving apart, or passing wide: no force
    a.vx = -1
    assert.are.same({ 0, 0 }, { a:avoid_agents(3) })
    a.vx, a.vy = 1, 1
    assert.are.same({ 0, 0 }, { a:avoid_agents(3) })
    -- out of radius
    a.vx, a.vy = 1, 0
    assert.are.same({ 0, 0 }, { a:avoid_agents(3, 3.9) })
  end)

  it("turns less the less head-on: cos^16 of the angle, 30 degrees off", function()
    -- R = 3, x = (-4, 0), v = (cos 30, sin 30): c = 7, b = -4 cos 30, a = 1;
    -- 4 is within the personal space (reach 4.5), which adds 8 (4.5 - 4) / 1.5
    -- along (-1, 0): the cap is min(max_force 10, 4 max_speed)
    local world = steer.world{}
    local c30, s30 = math.sqrt(3) / 2, 0.5
    local a = world:add{ x = 0, y = 0, vx = c30, vy = s30, radius = 1.5, max_speed = 2,
      max_force = 10 }
    world:add{ x = 4, y = 0, radius = 1.5 }
    local b, cc = -4 * c30, 7
    local root = math.sqrt(b * b - cc)
    local tau = cc / (root - b)
    local size = 1.5 * math.exp(-tau / 3) * (2 / tau + 1 / 3) * 3 / (tau * tau * root)
    local cx, cy = -4 + c30 * tau, s30 * tau -- the contact offset, length 3
    local h16 = c30 ^ 16                     -- 0.1001
    local tx, ty = cx / 3 + 3 * h16 * s30, cy / 3 - 3 * h16 * c30 -- right of v: (vy, -vx)
    local tl = math.sqrt(tx * tx + ty * ty)
    local fx, fy = a:avoid_agents(3)
    near(fx, size * tx / tl - 8 / 3, 1e-14, "fx")
    near(fy, size * ty / tl, 1e-14, "fy")
  end)

  it("keeps a personal space: half the radii's sum beyond touching, fading to nothing", function()
    -- at rest (no collision to come): only the space pushes, along the centres,
    -- cap (reach - d) / space with R = 2, space 1, reach 3, cap min(10, 4 * 2) = 8
    local world = steer.world{}
    local a = world:add{ x = 0, y = 0, radius = 1, max_speed = 2, max_force = 10 }
    local b = world:add{ x = 2.5, y = 0, radius = 1 }
    assert.are.same({ -4, 0 }, { a:avoid_agents(3) })
    b.x, b.y = 0, -2.75 -- a quarter of the space left: a quarter of the cap, upwards
    assert.are.same({ 0, 2 }, { a:avoid_agents(3) })
    b.x, b.y = 3, 0 -- at the space's edge: nothing
    assert.are.same({ 0, 0 }, { a:avoid_agents(3) })
    b.x = 2 -- touching: the full push, as overlapping
    assert.are.same({ -8, 0 }, { a:avoid_agents(3) })
    b.x = 1.5
    assert.are.same({ -8, 0 }, { a:avoid_agents(3) })
    -- closing in as well: the law's force and the space's push add up, then
    -- the cap. tau = 0.5, so the law is at its cap, 8, turned head-on:
    -- 8 (-1, -3) / sqrt(10); plus (-4, 0); that sum scaled back to length 8
    b.x, a.vx = 2.5, 1
    local sx, sy = -8 / math.sqrt(10) - 4, -24 / math.sqrt(10)
    local sl = math.sqrt(sx * sx + sy * sy)
    local fx, fy = a:avoid_agents(3)
    near(fx, 8 * sx / sl, 1e-14, "fx")
    near(fy, 8 * sy / sl, 1e-14, "fy")
    -- points (radius 0) have no space
    a.radius, b.radius, a.vx = 0, 0, 0
    b.x = 0.1
    assert.are.same({ 0, 0 }, { a:avoid_agents(3) })
  end)

  it("takes its personal space as a share of the radii's sum: 0 is the law alone", function()
    local world = steer.world{}
    local a = world:add{ x = 0, y = 0, radius = 1, max_speed = 2, max_force = 10 }
    local b = world:add{ x = 2.5, y = 0, radius = 1 }
    -- space 1 (share 0.5 of R = 2): 8 (3 - 2.5) / 1; share 1, space 2: 8 (4 - 2.5) / 2
    assert.are.same({ -4, 0 }, { a:avoid_agents(3, 10, 0.5) })
    assert.are.same({ -6, 0 }, { a:avoid_agents(3, 10, 1) })
    assert.are.same({ 0, 0 }, { a:avoid_agents(3, 10, 0) })
    a:set_behaviors{ { "avoid_agents", personal_space = 1 } }
    assert.are.same({ -6, 0 }, { a:steering() })
    assert.are.equal(1, a:behaviors()[1].personal_space)
    a:set_behaviors{ { "avoid_agents" } }
    assert.are.equal(0.5, a:behaviors()[1].personal_space)
    -- 30 degrees off (the spec above) without a space: the law alone
    local c30, s30 = math.sqrt(3) / 2, 0.5
    a.radius, b.radius, a.vx, a.vy, b.x = 1.5, 1.5, c30, s30, 4
    local bb, cc = -4 * c30, 7
    local root = math.sqrt(bb * bb - cc)
    local tau = cc / (root - bb)
    local size = 1.5 * math.exp(-tau / 3) * (2 / tau + 1 / 3) * 3 / (tau * tau * root)
    local cx, cy = -4 + c30 * tau, s30 * tau
    local h16 = c30 ^ 16
    local tx, ty = cx / 3 + 3 * h16 * s30, cy / 3 - 3 * h16 * c30
    local tl = math.sqrt(tx * tx + ty * ty)
    a:set_behaviors{ { "avoid_agents", personal_space = 0 } }
    local fx, fy = a:steering()
    near(fx, size * tx / tl, 1e-14, "fx")
    near(fy, size * ty / tl, 1e-14, "fy")
  end)

  it("no NaN when the closing speed squared underflows", function()
    -- v.v = 0 while x.v < 0: the turn has no direction to take (a NaN once)
    local world = steer.world{}
    local a = world:add{ x = 0, y = 0, vx = 1e-163, vy = 3e-163, radius = 1.5, max_speed = 2,
      max_force = 10 }
    world:add{ x = 1e-6, y = 10, radius = 1.5 }
    local fx, fy = a:avoid_agents(3, 20)
    assert.is_true(fx == fx and fy == fy, "finite: " .. fx .. ", " .. fy)
    a:set_behaviors{ { "avoid_agents", time_horizon = 3, radius = 20 } }
    world:step(0.25)
    assert.is_true(a.x == a.x and a.vx == a.vx, "a finite step")
  end)

  it("no NaN when the time to collision overflows (a far neighbor closing very slowly)", function()
    -- tau = c / (root - b) = 1.1e299 / 2.7e-77 is infinite: the contact point
    -- x + v tau was (inf, 0 * inf) = NaN, and the law's zero size times its
    -- direction NaN (the Lua fuzzer, seed 38040). Nothing that far matters.
    for _, def in ipairs{ {}, { bounds = { 1e150, 135.6 }, wrap = true } } do
      local world = steer.world(def)
      local a = world:add{ x = 3.1559367384761572, y = 1, radius = 0.5 }
      world:add{ x = 3.3686273943167183e149, y = 0, vx = -4.0379349364243172e-227,
        radius = 6.0870880428701639 }
      for _, h in ipairs{ 734516.86836779118, 3, 1e150 } do
        local fx, fy = a:avoid_agents(h, 1e150, 0.105)
        assert.are.equal(0, fx)
        assert.are.equal(0, fy)
      end
      a:set_behaviors{ { "avoid_agents", time_horizon = 734516, radius = 1e150 } }
      world:step(0.1)
      support.all_finite(a.x, a.y, a.vx, a.vy)
    end
  end)

  it("agents on one point with radii whose squares underflow push apart at full strength", function()
    -- R = 1e-163: R^2 underflows to 0, so |x|^2 - R^2 = 0 said "not
    -- overlapping", and the personal space pushed along x / |x| = 0 / 0
    -- (a focused fuzzer of extreme magnitudes)
    local world = steer.world{ bounds = { 87.9, 190.9 } }
    local a = world:add{ x = 5, y = 7, radius = 1e-163, max_speed = 2, max_force = 4 }
    local b = world:add{ x = 5, y = 7, radius = 1.4e-299, vy = -1e150, max_speed = 17, max_force = 3 }
    for _, share in ipairs{ 17, 0.5, 0 } do
      local ax, ay = a:avoid_agents(1e-5, 1e150, share)
      local bx, by = b:avoid_agents(1e-5, 1e150, share)
      -- the overlap's push: the cap (min(4 max_speed, max_force)) along x,
      -- the lower index to the left, each opposite the other
      assert.are.same({ -4, 0 }, { ax, ay })
      assert.are.same({ 3, 0 }, { bx, by })
    end
    -- radii of 0 on one point do not touch: nothing
    local c = world:add{ x = 50, y = 50, radius = 0 }
    world:add{ x = 50, y = 50, radius = 0 }
    local cx, cy = c:avoid_agents(3, 1, 5)
    assert.are.same({ 0, 0 }, { cx, cy })
  end)

  it("a head-on pair turns to opposite sides and passes", function()
    local world = steer.world{}
    local a = world:add{ x = 0, y = 0, vx = 1, radius = 0.5, max_speed = 1, max_force = 4 }
    local b = world:add{ x = 10, y = 0, vx = -1, radius = 0.5, max_speed = 1, max_force = 4 }
    local ax, ay = a:avoid_agents(5)
    local bx, by = b:avoid_agents(5)
    assert.are.equal(-ax, bx) -- reciprocal
    assert.are.equal(-ay, by)
    assert.is_true(ay < 0 and by > 0, "each to its right")
    a:set_behaviors{ { "seek", target = { 20, 0 } }, { "avoid_agents", time_horizon = 5 } }
    b:set_behaviors{ { "seek", target = { -10, 0 } }, { "avoid_agents", time_horizon = 5 } }
    local closest, ay_then = math.huge, nil
    for _ = 1, 400 do
      world:step(0.05)
      local d = math.sqrt((a.x - b.x) ^ 2 + (a.y - b.y) ^ 2)
      if d < closest then closest, ay_then = d, a.y end
    end
    assert.is_true(closest >= 1, "they never touch: " .. closest)
    assert.is_true(ay_then < 0, "A passes on its right (-y): " .. ay_then)
    assert.is_true(a.x > 15 and b.x < -5, "and both get past: " .. a.x .. ", " .. b.x)
  end)

  it("is a program entry, weighted like any other", function()
    local world = steer.world{}
    local a = world:add{ x = 0, y = 0, vx = 1, radius = 0.5, max_speed = 2, max_force = 10 }
    world:add{ x = 4, y = 0, radius = 0.5 }
    a:set_behaviors{ { "avoid_agents", time_horizon = 3, weight = 2 } }
    local fx, fy = a:steering()
    local size = 1.5 * math.exp(-1) / 9
    near(fx, -2 * size / math.sqrt(10), 1e-15, "weighted")
    near(fy, -6 * size / math.sqrt(10), 1e-15, "weighted")
  end)
end)

describe("orca parameters", function()
  local err = support.error_of
  it("raise naming the field", function()
    assert.matches("orca.time_horizon: positive number expected, got %-1",
      err(steer.program, { orca = { time_horizon = -1 } }))
    assert.matches("orca.max_neighbors: integer in %[0, 64%] expected, got 65",
      err(steer.program, { orca = { max_neighbors = 65 } }))
    assert.matches("orca.margin: number in %[0, 1%] expected, got 1.5",
      err(steer.program, { orca = { margin = 1.5 } }))
    assert.matches("orca.margin: number in %[0, 1%] expected, got %-0.1",
      err(steer.program, { orca = { margin = -0.1 } }))
    assert.matches("orca.margin: number in %[0, 1%] expected, got %-?nan",
      err(steer.program, { orca = { margin = 0 / 0 } }))
    assert.matches("unknown field 'orca.horizon'",
      err(steer.program, { orca = { horizon = 1 } }))
    assert.matches("orca: true or a table expected, got number",
      err(steer.program, { orca = 3 }))
    assert.matches("orca.neighbor_radius: number or 'auto' expected, got string",
      err(steer.program, { orca = { neighbor_radius = "x" } }))
    assert.matches("time_horizon: positive number expected, got 0",
      err(steer.program, { { "avoid_agents", time_horizon = 0 } }))
    local world = steer.world{}
    local a = world:add{}
    assert.matches("opts.dt: positive number expected",
      err(a.orca_velocity, a, 0, 0, { dt = 0 }))
    assert.matches("bad argument #3 to 'orca_velocity' %(opts.margin: number in %[0, 1%]",
      err(a.orca_velocity, a, 0, 0, { margin = 2 }))
    assert.matches("bad argument #1 to 'avoid_agents'",
      err(a.avoid_agents, a, -1))
    assert.matches("bad argument #3 to 'avoid_agents' %(non%-negative number expected, got %-1%)",
      err(a.avoid_agents, a, 3, 10, -1))
    assert.matches("personal_space: non%-negative number expected, got %-0.5",
      err(steer.program, { { "avoid_agents", personal_space = -0.5 } }))
    assert.matches("entry 1 %('separation'%): unknown parameter 'personal_space'",
      err(steer.program, { { "separation", personal_space = 1 } }))
  end)

  it("orca = true takes the defaults, false none", function()
    local world = steer.world{}
    local a = world:add{}
    a:set_behaviors{ orca = true }
    assert.are.same({ time_horizon = 5, obstacle_time_horizon = 2,
                      neighbor_radius = "auto", max_neighbors = 10, margin = 0.02, push = 0, detour = true,
                      settle = false }, a:behaviors().orca)
    a:set_behaviors{ orca = false }
    assert.is_nil(a:behaviors().orca)
  end)

  it("neighbor_radius 'auto' (the default) looks 4 body radii around, at least 10", function()
    -- an agent at the origin heading +x at 1 toward one standing 12 ahead
    -- of it: ORCA acts on it only when the other is its neighbor
    local function first_velocity(radius, nr)
      local w = steer.world{}
      local a = w:add{ vx = 1, radius = radius, max_speed = 1, max_force = 100,
        program = { { "seek", target = { 100, 0 } }, orca = { neighbor_radius = nr, time_horizon = 20 } } }
      w:add{ x = 12 * math.max(1, radius / 0.5), y = 0.01, radius = radius }
      w:step(0.1)
      return a.vx, a.vy
    end
    -- radius 0.5: auto is 10, and the other, 12 away, is out of reach: straight on
    local vx, vy = first_velocity(0.5, "auto")
    assert.are.same({ 1, 0 }, { vx, vy })
    assert.are.same({ vx, vy }, { first_velocity(0.5, 10) })
    -- radius 7 (a soldier in pixels): auto is 28; the other 35 away: straight on;
    -- at 25 away it is seen (the same as neighbor_radius = 28), where 10 sees nothing
    local function at(dist, nr)
      local w = steer.world{}
      local a = w:add{ vx = 80, radius = 7, max_speed = 80, max_force = 1e4,
        program = { { "seek", target = { 1000, 0 } }, orca = { neighbor_radius = nr, time_horizon = 20 } } }
      w:add{ x = dist, y = 0.5, radius = 7 }
      w:step(1 / 60)
      return a.vx, a.vy
    end
    assert.are.same({ at(25, 28) }, { at(25, "auto") })
    assert.are_not.same({ at(25, 10) }, { at(25, "auto") })
    assert.are.same({ at(35, 10) }, { at(35, "auto") })
    assert.are.equal(0, select(2, at(35, "auto")))
    assert.are_not.equal(0, select(2, at(25, "auto")))
    -- radius 2.5 and below: auto is 10 (4 radii reach 10 at 2.5)
    local function big(dist, nr)
      local w = steer.world{}
      local a = w:add{ vx = 2, radius = 2.5, max_speed = 2, max_force = 1e4,
        program = { { "seek", target = { 1000, 0 } }, orca = { neighbor_radius = nr, time_horizon = 20 } } }
      w:add{ x = dist, y = 0.5, radius = 2.5 }
      w:step(0.1)
      return a.vx, a.vy
    end
    assert.are.same({ big(9.5, 10) }, { big(9.5, "auto") })
    assert.are_not.equal(0, select(2, big(9.5, "auto")))
    assert.are.equal(0, select(2, big(10.5, "auto")))
    -- written out, read back, refused otherwise
    a = steer.world{}:add{}
    a:set_behaviors{ orca = { neighbor_radius = "auto" } }
    assert.are.equal("auto", a:behaviors().orca.neighbor_radius)
    assert.matches("orca.neighbor_radius: number or 'auto' expected, got string",
      select(2, pcall(a.set_behaviors, a, { orca = { neighbor_radius = "far" } })))
  end)
end)
