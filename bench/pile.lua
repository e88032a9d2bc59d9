--- bench/pile.lua - agents spawned on one point (a barracks door), with
-- orca's push and without: ms of CPU per step for the first step, the next
-- ten and the hundred after (csrc/orca_push.c PUSH_PILE; not in `make bench`).
--
--   LUA_PATH='lua/?.lua;lua/?/init.lua;;' LUA_CPATH='build/lua5.4/?.so;;' lua5.4 bench/pile.lua
local steer = require "steer"
local goal = { "arrive", target = { 800, 500 }, slowing_radius = 40, weight = 4 }
local programs = {
  { "orca", { orca = { neighbor_radius = 30 }, goal } },
  { "orca + push", { orca = { neighbor_radius = 30, push = true }, goal } },
  { "separation", { goal, { "separation", radius = 16, weight = 2, falloff = "linear" } } },
}
for _, n in ipairs{ 100, 250, 500, 1000 } do
  for _, p in ipairs(programs) do
    local w = steer.world{ bounds = { 1600, 1000 }, cell_size = 32 }
    w:add_many({ n = n, x = 800, y = 500, radius = 7, max_speed = 80, max_force = 400 },
      steer.program(p[2]))
    local t = os.clock()
    w:step(1 / 60)
    local first = (os.clock() - t) * 1000
    t = os.clock()
    for _ = 1, 10 do w:step(1 / 60) end
    local next10 = (os.clock() - t) * 100
    t = os.clock()
    for _ = 1, 100 do w:step(1 / 60) end
    local later = (os.clock() - t) * 10
    print(("%-12s n = %4d: step 1 %8.1f ms, steps 2-11 %7.1f ms each, 12-111 %6.2f ms each"):format(
      p[1], n, first, next10, later))
    w:close()
  end
end
