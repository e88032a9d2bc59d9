--- bench/level_setup.lua - the level, crowd and programs of bench/level
-- (issue 12), shared by bench/level.lua and bench/level_ab.lua so that the
-- A/B runner measures exactly the cases the benchmark does.
local M = {}

M.DT = 0.1

-- a portable generator (the same level under every interpreter)
local state = 12345
function M.seed(s) state = s end
function M.rand()
  state = (state * 1103515245 + 12345) % 4294967296
  return state / 4294967296
end
local rand = M.rand

--- N agents spread over a side x side square, headings at random, speed 2.
function M.crowd(n, side)
  M.seed(12345)
  local crowd = { x = {}, y = {}, vx = {}, vy = {}, max_speed = 2.5, max_force = 4 }
  for i = 1, n do
    crowd.x[i], crowd.y[i] = rand() * side, rand() * side
    local a = rand() * 2 * math.pi
    crowd.vx[i], crowd.vy[i] = math.cos(a) * 2, math.sin(a) * 2
  end
  return crowd
end

--- A wall of length 1 to 6 at a random place and angle (next numbers of
-- the generator).
function M.random_wall(side)
  local x, y, a, l = rand() * side, rand() * side, rand() * 2 * math.pi, 1 + rand() * 5
  return { x1 = x, y1 = y, x2 = x + math.cos(a) * l, y2 = y + math.sin(a) * l }
end

--- count obstacles (radius 0.5 to 2) and count walls; every call makes the
-- same level for a count.
function M.add_geometry(w, count, side)
  M.seed(777)
  for _ = 1, count do
    w:add_obstacle{ x = rand() * side, y = rand() * side, radius = 0.5 + rand() * 1.5 }
  end
  for _ = 1, count do w:add_wall(M.random_wall(side)) end
end

--- The looped path the level program follows.
function M.loop(steer, side)
  return steer.path{ { side * 0.2, side * 0.2 }, { side * 0.8, side * 0.2 },
    { side * 0.8, side * 0.8 }, { side * 0.2, side * 0.8 }, loop = true }
end

--- Program tables by name: "level" (priority of avoid_walls,
-- avoid_obstacles, separation 1.5, follow of `path`), "flocking" (bench/'s
-- flocking program), its mixes "flocking + wander", "separation + seek",
-- "wander", and the level's parts "level without separation",
-- "separation, follow".
function M.programs(side, path)
  local AW, AO = { "avoid_walls" }, { "avoid_obstacles" }
  local S, F = { "separation", radius = 1.5 }, { "follow", path = path }
  local sep, ali, coh = { "separation", radius = 1.5, weight = 1.5 },
    { "alignment", radius = 5 }, { "cohesion", radius = 5 }
  return {
    level = { combine = "priority", AW, AO, S, F },
    ["level without separation"] = { combine = "priority", AW, AO, F },
    ["separation, follow"] = { combine = "priority", S, F },
    flocking = { combine = "weighted", sep, ali, coh },
    ["flocking + wander"] = { combine = "weighted", sep, ali, coh, { "wander" } },
    ["separation + seek"] = { combine = "weighted", sep,
      { "seek", target = { side / 2, side / 2 } } },
    wander = { { "wander" } },
  }
end

return M
