--- steer: steering behaviors and flocking for game AI.
-- The C part (steer.core) does the work; this module is what users require.
local core = require "steer.core"

local steer = {}
for k, v in pairs(core) do steer[k] = v end

return steer
