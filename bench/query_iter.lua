--- bench/query_iter.lua - iterating world:query from game code: ns per agent
-- visited over 2,000 queries of radius 150 among 1,000 agents, and
-- world:nearest's cost per call (not in `make bench`). Run it under each
-- interpreter, and under LuaJIT with -joff too:
--
--   LUA_PATH='lua/?.lua;lua/?/init.lua;;' LUA_CPATH='build/luajit/?.so;;' luajit bench/query_iter.lua
local steer = require "steer"
local w = steer.world{ bounds = { 1000, 1000 } }
for i = 1, 1000 do w:add{ x = (i * 37) % 1000, y = (i * 91) % 1000 } end
local clock = steer.testing.clock
local t = clock()
local visits = 0
for k = 1, 2000 do
  for _ in w:query((k * 13) % 1000, (k * 7) % 1000, 150) do visits = visits + 1 end
end
local per_visit = (clock() - t) / visits * 1e9
t = clock()
local found = 0
for k = 1, 2000 do
  if w:nearest((k * 13) % 1000, (k * 7) % 1000, 150) then found = found + 1 end
end
local per_call = (clock() - t) / 2000 * 1e9
print(("%s: query %.0f ns per agent visited (%d visits); nearest %.0f ns per call (%d found)")
  :format(jit and jit.version or _VERSION, per_visit, visits, per_call, found))
