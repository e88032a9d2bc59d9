-- Issue 14's pictures (called by tools/pictures.lua with its helpers):
-- a vehicle with a turn limit vs an agent without one, a corridor follow vs
-- waypoints, and a mixed flock of wolves and sheep (groups).
return function(pictures, h)
  local steer, canvas, record, draw_trail, COLORS, DT =
    h.steer, h.canvas, h.record, h.draw_trail, h.colors, h.dt

  function pictures.turn_limit()
    local world = steer.world{}
    local free = world:add{ x = 4, y = 11, vx = 4, max_speed = 4, max_force = 8, turn_velocity = true }
    local car = world:add{ x = 4, y = 11, vx = 4, max_speed = 4, max_force = 8,
      max_turn_rate = 1.2, turn_velocity = true }
    local tx, ty = 6, 4
    local agents = { free, car }
    local function step()
      for _, a in ipairs(agents) do
        local fx, fy = a:seek(tx, ty)
        a:apply(fx, fy, DT)
      end
    end
    local c = canvas("turn limit", "seek a target behind-left while heading right at full speed: max_turn_rate unlimited (orange) turns on the spot; max_turn_rate 1.2 rad/s with turn_velocity (blue) drives a wide arc; arrows show the angle every 0.5 s (5 s)", 24, 16, 22)
    c:target(tx, ty, "#1d2230")
    local trails = record(agents, 150, step)
    for k, t in ipairs(trails) do draw_trail(c, t, COLORS[k]) end
    for k, a in ipairs(agents) do
      c:arrow(a.x, a.y, math.cos(a.angle), math.sin(a.angle), 0.9, COLORS[k])
    end
    c:save("turn-limit.svg")
  end

  function pictures.corridor()
    local world = steer.world{}
    local points = { {2, 13}, {6, 3}, {12, 12}, {17, 3}, {22, 12} }
    local path = steer.path(points)
    local waypoints = world:add{ x = 2, y = 14, max_speed = 5, max_force = 6 }
    local corridor = world:add{ x = 2, y = 14, max_speed = 5, max_force = 6 }
    waypoints:set_behaviors{ { "follow", path = path, arrival_radius = 1 } }
    corridor:set_behaviors{ { "follow", path = path, path_radius = 1.2, look_ahead = 0.5 } }
    local trails = record({ waypoints, corridor }, 300, function() world:step(DT) end)
    local c = canvas("corridor", "follow: waypoint by waypoint (orange, arrival_radius 1) vs a corridor of path_radius 1.2, look_ahead 0.5 s (blue): it steers only when its prediction leaves the band, cutting no corner outside it (10 s)", 24, 16, 22)
    c:polyline(points, "#e3e8f1", 1.2 * 2 * 22)
    c:polyline(points, "#b8c0cf", 1.5, "6,4")
    for k, t in ipairs(trails) do draw_trail(c, t, COLORS[k]) end
    c:save("follow-corridor.svg")
  end

  function pictures.groups()
    local W, H = 40, 26
    local world = steer.world{ bounds = { W, H }, wrap = true, seed = 5, cell_size = 4 }
    local rng = 4242
    local function random()
      rng = rng * 16807 % 2147483647
      return rng / 2147483647
    end
    local sheep = steer.program{ turn = "velocity",
      { "separation", radius = 1.2, weight = 6 },
      { "separation", radius = 5, groups = { 1 }, weight = 12 }, -- wolves
      { "alignment", radius = 4, groups = { 0 } },
      { "cohesion", radius = 4, groups = { 0 }, weight = 0.5 },
      { "wander", weight = 0.5 } }
    local wolves = steer.program{ turn = "velocity",
      { "cohesion", radius = 8, groups = { 0 }, weight = 2 },
      { "separation", radius = 3, groups = { 1 }, weight = 4 },
      { "wander", weight = 0.5 } }
    local agents, colors = {}, {}
    for k = 1, 54 do
      local wolf = k > 50
      local a = world:add{ x = random() * W, y = random() * H, vx = random() * 2 - 1,
        vy = random() * 2 - 1, max_speed = wolf and 3.2 or 3, max_force = 6,
        group = wolf and 1 or 0 }
      a:set_behaviors(wolf and wolves or sheep)
      agents[k], colors[k] = a, wolf and "#d43a3a" or "#2a7fd4"
    end
    for _ = 1, 180 do world:step(DT) end
    local trails = record(agents, 90, function() world:step(DT) end)
    local c = canvas("wolves and sheep", "groups: sheep (blue) align and cohere with sheep only, keep apart from everyone and far from wolves; wolves (red) cohere toward sheep and keep apart from wolves; the last 3 s after 6 s", W, H, 15)
    for k, t in ipairs(trails) do draw_trail(c, t, colors[k], W, H) end
    c:save("flock-groups.svg")
  end
end
