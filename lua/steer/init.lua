--- steer: steering behaviors and flocking for game AI.
-- The C part (steer.core) does the work; this module is what users require.
local core = require "steer.core"

local steer = {}
for k, v in pairs(core) do steer[k] = v end

--- The LuaJIT FFI fast path for per-agent calls (lua/steer/ffi.lua): its
-- control table where it is active, false elsewhere (Lua 5.x, JIT off).
steer.ffi = require "steer.ffi"

return steer
