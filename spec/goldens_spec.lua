-- The textbook's worked examples (spec/goldens), reproduced within their
-- printed tolerance: once through the stateless functions, once through
-- agent methods and a:apply.
local steer = require "steer"
local support = require "support"
local golden, near = support.golden, support.near

-- Runs `g` for its steps; force(state) gives the force for one update
-- ({x =, y =, vx =, vy =} in, fx, fy out) and check(row, state) compares a
-- printed row with the state before update row.step.
local function replay(g, force, integrate, check)
  local s = { x = g.initial_state.pos[1], y = g.initial_state.pos[2],
              vx = g.initial_state.vel[1], vy = g.initial_state.vel[2] }
  local rows = {}
  for _, row in ipairs(g.rows) do rows[row.step] = row end
  local steps = g.parameters.steps or #g.rows
  for k = 0, steps - 1 do
    if rows[k] then check(rows[k], s) end
    local fx, fy = force(s)
    integrate(s, fx, fy)
  end
  local checked = 0
  for _ in pairs(rows) do checked = checked + 1 end
  assert.is_true(checked > 0)
end

-- the pipeline of docs/API.md section 1 written out in Lua, for the stateless runs
local function lua_integrate(p)
  return function(s, fx, fy)
    fx, fy = steer.clamp(fx, fy, p.maxForce)
    s.vx, s.vy = steer.clamp(s.vx + fx * p.dt, s.vy + fy * p.dt, p.maxSpeed)
    s.x, s.y = s.x + s.vx * p.dt, s.y + s.vy * p.dt
  end
end

-- the same through an agent: a:apply integrates, the state is read back
local function agent_run(p)
  local world = steer.world{}
  local a
  local function sync(s)
    if not a then
      a = world:add{ x = s.x, y = s.y, vx = s.vx, vy = s.vy,
                     max_speed = p.maxSpeed, max_force = p.maxForce }
    end
  end
  local function integrate(s, fx, fy)
    a:apply(fx, fy, p.dt)
    s.x, s.y, s.vx, s.vy = a.x, a.y, a.vx, a.vy
  end
  return sync, function() return a end, integrate
end

local function check_rows(g, columns)
  return function(row, s)
    local tol = g.tolerance
    local what = g.id .. " step " .. row.step
    columns(row, s, tol, what)
  end
end

local function pos_vel_columns(row, s, tol, what)
  if row.pos then
    near(s.x, row.pos[1], tol, what .. " pos.x")
    near(s.y, row.pos[2], tol, what .. " pos.y")
  end
  if row.vel then
    near(s.vx, row.vel[1], tol, what .. " vel.x")
    near(s.vy, row.vel[2], tol, what .. " vel.y")
  end
  if row.pos_x then near(s.x, row.pos_x, tol, what .. " pos_x") end
  if row.vel_x then near(s.vx, row.vel_x, tol, what .. " vel_x") end
end

describe("golden 01: apply steering with a constant force", function()
  local g = golden("01_apply_steering_constant_force")
  local p = g.parameters

  it("matches through steer.clamp (the pipeline in Lua)", function()
    replay(g, function() return p.force[1], p.force[2] end, lua_integrate(p),
      check_rows(g, pos_vel_columns))
  end)

  it("matches through a:apply", function()
    local sync, _, integrate = agent_run(p)
    replay(g, function(s) sync(s) return p.force[1], p.force[2] end,
      integrate, check_rows(g, pos_vel_columns))
  end)
end)

describe("golden 02: seek", function()
  local g = golden("02_seek")
  local p = g.parameters
  local tx, ty = p.target[1], p.target[2]
  local function columns(row, s, tol, what)
    pos_vel_columns(row, s, tol, what)
    near(math.sqrt((tx - s.x) ^ 2 + (ty - s.y) ^ 2), row.dist, tol, what .. " dist")
  end

  it("matches through steer.seek", function()
    replay(g, function(s)
      return steer.seek(s.x, s.y, s.vx, s.vy, tx, ty, p.maxSpeed, p.maxForce)
    end, lua_integrate(p), check_rows(g, columns))
  end)

  it("matches through a:seek and a:apply", function()
    local sync, agent, integrate = agent_run(p)
    replay(g, function(s) sync(s) return agent():seek(tx, ty) end,
      integrate, check_rows(g, columns))
  end)
end)

describe("golden 03: flee", function()
  local g = golden("03_flee")
  local p = g.parameters
  local tx, ty = p.threat[1], p.threat[2]
  local function columns(row, s, tol, what)
    pos_vel_columns(row, s, tol, what)
    near(math.sqrt((s.x - tx) ^ 2 + (s.y - ty) ^ 2), row.dist, tol, what .. " dist")
  end

  it("matches through steer.flee", function()
    replay(g, function(s)
      return steer.flee(s.x, s.y, s.vx, s.vy, tx, ty, p.maxSpeed, p.maxForce)
    end, lua_integrate(p), check_rows(g, columns))
  end)

  it("matches through a:flee and a:apply", function()
    local sync, agent, integrate = agent_run(p)
    replay(g, function(s) sync(s) return agent():flee(tx, ty) end,
      integrate, check_rows(g, columns))
  end)
end)

describe("golden 04: arrive", function()
  local g = golden("04_arrive")
  local p = g.parameters
  local tx, ty = p.target[1], p.target[2]
  local function columns(row, s, tol, what)
    pos_vel_columns(row, s, tol, what)
    local dist = math.sqrt((tx - s.x) ^ 2 + (ty - s.y) ^ 2)
    near(dist, row.dist, tol, what .. " dist")
    -- the desired speed arrive uses is what the force implies when the
    -- force clamp does not fire: |desired| = |force + v|
    local fx, fy = steer.arrive(s.x, s.y, s.vx, s.vy, tx, ty, p.maxSpeed,
      1e9, p.slowingRadius)
    near(math.sqrt((fx + s.vx) ^ 2 + (fy + s.vy) ^ 2), row.desiredSpeed, tol,
      what .. " desiredSpeed")
  end

  it("matches through steer.arrive", function()
    replay(g, function(s)
      return steer.arrive(s.x, s.y, s.vx, s.vy, tx, ty, p.maxSpeed, p.maxForce,
        p.slowingRadius)
    end, lua_integrate(p), check_rows(g, columns))
  end)

  it("matches through a:arrive and a:apply", function()
    local sync, agent, integrate = agent_run(p)
    replay(g, function(s) sync(s) return agent():arrive(tx, ty, p.slowingRadius) end,
      integrate, check_rows(g, columns))
  end)
end)

describe("golden 08: weighted combination", function()
  local g = golden("08_weighted_combination")
  local p, e = g.parameters, g.expected
  local b1, b2 = p.behaviors[1], p.behaviors[2]

  it("clamps the weighted sum like the textbook", function()
    local rx, ry = steer.weighted(1e9, b1.force[1], b1.force[2], b1.weight,
      b2.force[1], b2.force[2], b2.weight)
    near(rx, e.raw_sum[1], g.tolerance, "raw x")
    near(ry, e.raw_sum[2], g.tolerance, "raw y")
    near(steer.length(rx, ry), e.raw_length, g.tolerance, "raw length")
    local fx, fy = steer.weighted(p.maxForce, b1.force[1], b1.force[2], b1.weight,
      b2.force[1], b2.force[2], b2.weight)
    near(fx, e.clamped[1], g.tolerance, "clamped x")
    near(fy, e.clamped[2], g.tolerance, "clamped y")
    near(steer.length(fx, fy), e.clamped_length, g.tolerance, "clamped length")
  end)
end)

describe("golden 11: lerp smoothing", function()
  local g = golden("11_lerp_smoothing")
  local p = g.parameters

  it("starts at the first raw sample and lerps toward each next one", function()
    local sx, sy
    for k, row in ipairs(g.rows) do
      local raw = p.raw_sequence[k]
      near(raw[1], row.raw[1], 0, "raw x")
      if not sx then
        sx, sy = raw[1], raw[2]
      else
        sx, sy = steer.lerp(sx, sy, raw[1], raw[2], p.smoothing)
      end
      near(sx, row.smoothed[1], g.tolerance, "frame " .. row.frame .. " x")
      near(sy, row.smoothed[2], g.tolerance, "frame " .. row.frame .. " y")
    end
  end)
end)

describe("the golden copies", function()
  it("equal ../shared/goldens where that folder exists", function()
    local names = { "01_apply_steering_constant_force", "02_seek", "03_flee",
      "04_arrive", "08_weighted_combination", "11_lerp_smoothing" }
    for _, name in ipairs(names) do
      local ours = assert(io.open("spec/goldens/" .. name .. ".json")):read("*a")
      local f = io.open("../shared/goldens/" .. name .. ".json")
      if f then
        assert.are.equal(f:read("*a"), ours)
        f:close()
      end
    end
  end)
end)
