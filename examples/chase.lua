-- A pursuer catches a wanderer, steering around a rock on the way; a line
-- is printed each time the pursuer's winning behavior changes.
-- Run from the repository root:  make demo
local steer = require "steer"

local world = steer.world{ seed = 7 }
local rock = { x = 8, y = 0.3, radius = 2 }
world:add_obstacle(rock)

local wanderer = world:add{ x = 14, y = 0, vx = 1, max_speed = 1.2, max_force = 2,
                            name = "wanderer" }
local pursuer = world:add{ x = 0, y = 0, max_speed = 2.2, max_force = 4, radius = 0.5,
                           name = "pursuer" }

-- the wanderer strolls about and keeps clear of the rock
wanderer:set_behaviors{ { "avoid_obstacles", weight = 3 }, { "wander" } }
-- the pursuer predicts where the wanderer will be; the rock comes first
pursuer:set_behaviors{ combine = "priority", hold = 0.3,
  { "avoid_obstacles", feeler_length = 3, hysteresis = 0.5, tag = "dodge rock" },
  { "pursue", target = wanderer, tag = "chase" } }

local function distance(a, b) return math.sqrt((a.x - b.x) ^ 2 + (a.y - b.y) ^ 2) end

-- one line when the pursuer's winning behavior changes (the rock dodge
-- lasts a fraction of a second), and the catch
local dt = 0.1
print(("%5s  %-16s %-16s %8s %8s  %s"):format("t", "pursuer", "wanderer", "gap", "to rock", "pursuer now does"))
local closest_to_rock, doing_before = math.huge, nil
for step = 0, 600 do
  local gap = distance(pursuer, wanderer)
  local to_rock = distance(pursuer, rock) - rock.radius
  closest_to_rock = math.min(closest_to_rock, to_rock)
  if gap < pursuer.radius + wanderer.radius then
    print(("caught the %s at t = %.1f s; closest the %s came to the rock's edge: %.2f"):format(
      wanderer.name, step * dt, pursuer.name, closest_to_rock))
    return
  end
  local _, doing = pursuer:active_behavior()
  doing = doing or "nothing yet"
  if doing ~= doing_before then
    print(("%5.1f  (%6.2f,%6.2f)  (%6.2f,%6.2f)  %8.2f %8.2f  %s"):format(step * dt,
      pursuer.x, pursuer.y, wanderer.x, wanderer.y, gap, to_rock, doing))
    doing_before = doing
  end
  world:step(dt)
end
print("the wanderer got away")
os.exit(1)
