--- The garbage collector as hostile Lua code uses it (issue 11): shared by
-- spec/reentrancy_spec.lua and the fuzzer's hostile ops.
local G = {}

local LUAJIT = type(jit) == "table"

--- On: every allocation runs a whole collection cycle, finalizers included.
function G.hair_trigger(on)
  if LUAJIT then
    collectgarbage("setpause", on and 0 or 200)
    collectgarbage("setstepmul", on and 1e8 or 200)
  elseif on then
    collectgarbage("incremental", 1, 1000, 64) -- 0 would mean "unchanged"
  else
    collectgarbage("incremental", 200, 100, 13)
  end
end

--- An unreachable object whose finalizer runs `action` (made in its own
-- frame, so no stack slot keeps it alive). LuaJIT finalizes userdata only.
function G.drop_finalizer(action)
  if newproxy then
    getmetatable(newproxy(true)).__gc = action
  else
    setmetatable({}, { __gc = action })
  end
end

return G
