--- Contestant (a): steer's own world:step, the way a crowd is meant to be run:
--   local w = steer.world{ bounds = {L, L}, wrap = true, capacity = n }
--   w:add_many({ x = xs, y = ys, vx = vxs, vy = vys, max_speed = 2.5,
--                max_force = 4 }, FLOCK)      -- one shared program, no handles
--   w:step(0.1) per step; the state is read back with w:positions(),
--   w:velocities() and w:ids() (ids are 1..n in the order agents were added)
-- M.with_threads(k) gives the same contestant on steer.world{ threads = k }.
-- steer's operation order differs from bench/workload.lua in the last bits
-- (it scales by 1/d^2 where the workload divides), which the checks allow.
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
  if type(w.step) ~= "function" or type(w.add_many) ~= "function" then
    return nil, "steer has no world:step or world:add_many"
  end
  return steer
end

local Sim = {}
Sim.__index = Sim

function Sim:step()
  self.world:step(0.1)
end

function Sim:state()
  local pos, vel, ids = self.world:positions(), self.world:velocities(), self.world:ids()
  local x, y, vx, vy = {}, {}, {}, {}
  for k, id in ipairs(ids) do
    x[id], y[id] = pos[2 * k - 1], pos[2 * k]
    vx[id], vy[id] = vel[2 * k - 1], vel[2 * k]
  end
  return x, y, vx, vy
end

-- the bytes steer allocated in C (heap_bytes adds the Lua side)
function Sim:c_bytes()
  return self.world:stats().memory
end

local function contestant(threads)
  local M = {
    name = threads == 1 and "steer_world" or "steer_world" .. threads,
    title = threads == 1 and "(a) steer world:step" or ("(a%d) steer, %d threads"):format(threads, threads),
  }

  function M.available()
    local steer, why = load_steer()
    if not steer then return false, why end
    return true
  end

  function M.new(st)
    local steer = assert(load_steer())
    local w = steer.world{ bounds = { st.L, st.L }, wrap = true, capacity = st.n,
                           threads = threads }
    w:add_many({ x = st.x, y = st.y, vx = st.vx, vy = st.vy, max_speed = 2.5,
                 max_force = 4 }, FLOCK)
    return setmetatable({ world = w, n = st.n }, Sim)
  end

  M.with_threads = contestant
  return M
end

return contestant(1)
