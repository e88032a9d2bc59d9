-- Behavior programs for the scenes: a:set_behaviors{...} + world:step(dt)
-- when the library has them, otherwise the same program run here in Lua
-- with the per-agent methods, steer.weighted/priority/prioritized_sum and
-- a:apply. Everything marked FALLBACK can go once programs are on main.
local steer = require "steer"

local programs = {}

local unpack = table.unpack or unpack

--- Set to false to run the Lua fallback even when the library has programs
--- (tools/programs-check.lua compares the two).
programs.use_native = true

--- Whether `world` runs programs in C (world:step exists).
function programs.native(world)
  return programs.use_native and world.step ~= nil
end

-- FALLBACK: an agent's program lives in its own data (a.program_state =
-- { program = the table given to set, smoothed = {fx, fy} | nil }), which
-- lives as long as the agent, whoever holds its handle.

--- Gives `agent` a program (the table a:set_behaviors takes), or clears it (nil).
function programs.set(agent, program)
  if programs.use_native and agent.set_behaviors then
    agent:set_behaviors(program)
  else
    agent.program_state = program and { program = program } or nil
  end
end

--- Retargets the entries of agent's program named or tagged `which`.
function programs.set_target(agent, which, target)
  if programs.use_native and agent.set_target then return agent:set_target(which, target) end
  local state = agent.program_state
  for _, entry in ipairs(state and state.program or {}) do
    if entry.tag == which or entry[1] == which then entry.target = target end
  end
end

-- FALLBACK: one entry's force, from the method of the same name
local function entry_force(a, e)
  local name, t = e[1], e.target
  if name == "seek" or name == "flee" or name == "arrive" then
    if type(t) == "table" then
      if name == "arrive" then return a:arrive(t[1], t[2], e.slowing_radius) end
      if name == "flee" then return a:flee(t[1], t[2], e.panic_radius) end
      return a:seek(t[1], t[2])
    end
    if name == "arrive" then return a:arrive(t, e.slowing_radius) end
    if name == "flee" then return a:flee(t, e.panic_radius) end
    return a:seek(t)
  elseif name == "pursue" or name == "evade" then
    return a[name](a, t)
  elseif name == "wander" then
    return a:wander()
  elseif name == "avoid_obstacles" or name == "avoid_walls" then
    return a[name](a, e.feeler_length)
  elseif name == "follow" then
    return a:follow(e.path, e)
  elseif name == "separation" or name == "alignment" or name == "cohesion" then
    return a[name](a, e.radius)
  end
  error("programs: behavior '" .. tostring(name) .. "' has no Lua fallback")
end

-- FALLBACK: the program's combined force, as world:step would compute it
local args = {}
local function program_force(a, state)
  local p = state.program
  local combine = p.combine or "weighted"
  local n = 1
  args[1] = a.max_force
  for _, e in ipairs(p) do
    local fx, fy = entry_force(a, e)
    local w = e.weight or 1
    if combine == "weighted" then
      args[n + 1], args[n + 2], args[n + 3] = fx, fy, w
      n = n + 3
    else
      args[n + 1], args[n + 2] = fx * w, fy * w
      n = n + 2
    end
  end
  local fx, fy = steer[combine](unpack(args, 1, n))
  local s = p.smoothing
  if s then
    local last = state.smoothed
    if last then
      fx, fy = steer.lerp(last[1], last[2], fx, fy, s)
      last[1], last[2] = fx, fy
    else
      state.smoothed = {fx, fy}
    end
  end
  return fx, fy
end

local list, fxs, fys = {}, {}, {}

--- Steps `world` by dt. `view` (a steer.debug view, optional) is told the
-- force of each agent it watches.
function programs.step(world, dt, view)
  if programs.native(world) then
    -- programs run in C; show the acceleration each watched agent got
    local before = {}
    if view then
      for a in pairs(view.watched) do
        if a.alive and a:world() == world then before[a] = {a:velocity()} end
      end
    end
    world:step(dt)
    for a, v in pairs(before) do
      local vx, vy = a:velocity()
      view:set_force(a, (vx - v[1]) / dt, (vy - v[2]) / dt)
    end
    return
  end
  -- FALLBACK: every force from the same snapshot first, then every
  -- integration, like world:step; agents without a program coast
  local n = 0
  for a in world:agents() do
    n = n + 1
    list[n] = a
    local state = a.program_state
    if state then
      fxs[n], fys[n] = program_force(a, state)
      if view and view.watched[a] then view:set_force(a, fxs[n], fys[n]) end
    else
      fxs[n], fys[n] = 0, 0
    end
  end
  for i = 1, n do
    list[i]:apply(fxs[i], fys[i], dt)
    list[i] = nil
  end
end

return programs
