--- Contestant (a): steer's own world:step  <<< THE SLOT FOR STEER >>>
--
-- Written against the announced API (API.md section 4); it reports itself
-- unavailable until `require "steer"` has world:step and a:set_behaviors,
-- and then runs with no further change. What it does:
--   local w = steer.world{ bounds = {L, L}, wrap = true }    (cell_size 5)
--   w:add{ x, y, vx, vy, max_speed = 2.5, max_force = 4 } per agent
--   a:set_behaviors(FLOCK), with one shared steer.program(FLOCK) if steer has it
--   w:step(0.1) per step; state read back with a.x, a.y, a.vx, a.vy
-- steer's operation order differs from bench/workload.lua in the last bits
-- (it scales by 1/count and by -1/(dist*dist)), which the checks allow.
local M = {
  name = "steer_world",
  title = "(a) steer world:step",
}

local FLOCK = {
  combine = "weighted",
  { "separation", radius = 1.5, weight = 1.5 },
  { "alignment", radius = 5 },
  { "cohesion", radius = 5 },
}

local function load_steer()
  local ok, steer = pcall(require, "steer")
  if not ok then return nil, "cannot load steer: " .. tostring(steer) end
  local w = steer.world{ bounds = { 20, 20 }, wrap = true }
  if type(w.step) ~= "function" then return nil, "steer has no world:step yet" end
  local a = w:add{ x = 1, y = 1 }
  if type(a.set_behaviors) ~= "function" then
    return nil, "steer has no agent:set_behaviors yet"
  end
  return steer
end

function M.available()
  local steer, why = load_steer()
  if not steer then return false, why end
  return true
end

local Sim = {}
Sim.__index = Sim

function M.new(st)
  local steer = assert(load_steer())
  local w = steer.world{ bounds = { st.L, st.L }, wrap = true }
  local program = steer.program and steer.program(FLOCK) or FLOCK
  local agents = {}
  for i = 1, st.n do
    local a = w:add{ x = st.x[i], y = st.y[i], vx = st.vx[i], vy = st.vy[i],
                     max_speed = 2.5, max_force = 4 }
    a:set_behaviors(program)
    agents[i] = a
  end
  return setmetatable({ world = w, agents = agents, n = st.n }, Sim)
end

function Sim:step()
  self.world:step(0.1)
end

function Sim:state()
  local x, y, vx, vy = {}, {}, {}, {}
  for i, a in ipairs(self.agents) do
    x[i], y[i], vx[i], vy[i] = a.x, a.y, a.vx, a.vy
  end
  return x, y, vx, vy
end

-- bytes steer allocated in C, if world:stats() reports them (name guessed:
-- `memory` or `bytes`); without it heap_bytes counts the Lua side only
function Sim:c_bytes()
  local ok, s = pcall(function() return self.world:stats() end)
  if ok and type(s) == "table" then
    return tonumber(s.memory or s.bytes) or 0
  end
  return 0
end

return M
