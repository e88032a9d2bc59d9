--- A deliberately wrong contestant for `make bench-smoke`: the tuned one,
-- with every velocity scaled by 0.95 after each step. The statistics check
-- (mean speed within 1%) must catch it.
local tuned = require "contestants.tuned"

local M = { name = "mutant_drag", title = "mutant: velocities x0.95" }
function M.available() return true end

function M.new(st)
  local sim = tuned.new(st)
  local step = sim.step
  sim.step = function(self)
    step(self)
    for i = 1, self.n do
      self.vx[i], self.vy[i] = self.vx[i] * 0.95, self.vy[i] * 0.95
    end
  end
  return sim
end

return M
