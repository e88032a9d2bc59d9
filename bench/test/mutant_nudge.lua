--- A deliberately wrong contestant for `make bench-smoke`: the tuned one,
-- with agent 1 pushed 1e-7 along x after every step. The position check
-- must catch it (a check that cannot fail would prove nothing).
local tuned = require "contestants.tuned"

local M = { name = "mutant_nudge", title = "mutant: agent 1 nudged 1e-7" }
function M.available() return true end

function M.new(st)
  local sim = tuned.new(st)
  local step = sim.step
  sim.step = function(self)
    step(self)
    self.x[1] = (self.x[1] + 1e-7) % self.L
  end
  return sim
end

return M
