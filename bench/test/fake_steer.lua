--- A stand-in for `require "steer"`, used by `make bench-smoke` only to
-- exercise the steer slot (bench/contestants/steer_world.lua) before steer
-- has world:step. It is NOT steer: its step is the naive contestant's.
-- Loaded as "steer" by putting bench/test/?.lua first on LUA_PATH with the
-- module name mapped: bench/test/steer.lua requires this file.
local naive = require "contestants.naive"

local steer = {}

local Agent = {}
Agent.__index = Agent

-- checks the program the slot passes has the announced shape
function Agent:set_behaviors(p)
  assert(type(p) == "table" and p.combine == "weighted", "weighted program expected")
  assert(p[1][1] == "separation" and p[1].radius == 1.5 and p[1].weight == 1.5)
  assert(p[2][1] == "alignment" and p[2].radius == 5)
  assert(p[3][1] == "cohesion" and p[3].radius == 5)
  self.program = p
end

local World = {}
World.__index = World

function steer.world(def)
  assert(def.wrap and def.bounds[1] == def.bounds[2], "square torus expected")
  return setmetatable({ L = def.bounds[1], agents = {} }, World)
end

function World:add(d)
  local a = setmetatable({ x = d.x or 0, y = d.y or 0, vx = d.vx or 0, vy = d.vy or 0,
    fx = 0, fy = 0, max_speed = d.max_speed, max_force = d.max_force }, Agent)
  self.agents[#self.agents + 1] = a
  return a
end

function World:step(dt)
  assert(dt == 0.1)
  for _, a in ipairs(self.agents) do
    assert(a.program, "agent without behaviors")
    assert(a.max_speed == 2.5 and a.max_force == 4, "max_speed 2.5, max_force 4 expected")
  end
  if not self.flock then
    self.flock = naive.new{ n = 0, L = self.L, x = {}, y = {}, vx = {}, vy = {} }
    self.flock.agents = self.agents
  end
  self.flock:step()
end

return steer
