--- Extra contestant: steer as it is today, driven from Lua per agent.
--
-- No world:step: every step calls a:separation, a:alignment, a:cohesion and
-- steer.weighted for each agent (all forces first), then a:apply for each.
-- Shows what the per-agent API costs (4-5 C calls per agent per step, three
-- grid walks) and checks steer's flocking math against the workload now,
-- before world:step lands.
local M = {
  name = "steer_calls",
  title = "(a0) steer per-agent calls",
}

local function load_steer()
  local ok, steer = pcall(require, "steer")
  if not ok then return nil, "cannot load steer: " .. tostring(steer) end
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
  local agents, fx, fy = {}, {}, {}
  for i = 1, st.n do
    agents[i] = w:add{ x = st.x[i], y = st.y[i], vx = st.vx[i], vy = st.vy[i],
                       max_speed = 2.5, max_force = 4 }
    fx[i], fy[i] = 0.0, 0.0
  end
  return setmetatable({ world = w, agents = agents, fx = fx, fy = fy,
                        weighted = steer.weighted }, Sim)
end

function Sim:step()
  local agents, fx, fy, weighted = self.agents, self.fx, self.fy, self.weighted
  for i = 1, #agents do
    local a = agents[i]
    local sx, sy = a:separation(1.5)
    local ax, ay = a:alignment(5)
    local cx, cy = a:cohesion(5)
    fx[i], fy[i] = weighted(4, sx, sy, 1.5, ax, ay, 1, cx, cy, 1)
  end
  for i = 1, #agents do
    agents[i]:apply(fx[i], fy[i], 0.1)
  end
end

function Sim:state()
  local x, y, vx, vy = {}, {}, {}, {}
  for i, a in ipairs(self.agents) do
    x[i], y[i], vx[i], vy[i] = a.x, a.y, a.vx, a.vy
  end
  return x, y, vx, vy
end

return M
