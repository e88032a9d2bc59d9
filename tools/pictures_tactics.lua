-- Issue 15's pictures (called by tools/pictures.lua with its helpers):
-- escorts in offset pursuit, followers of a leader, a wedge formation, a
-- bodyguard interposing, hiding behind rocks and a queue at a door.
return function(pictures, h)
  local steer, canvas, record, draw_trail, COLORS, DT =
    h.steer, h.canvas, h.record, h.draw_trail, h.colors, h.dt

  -- a leader driving a loop path waypoint by waypoint
  local function leader_on(world, points, speed)
    local path = steer.path(points)
    local leader = world:add{ x = points[1][1], y = points[1][2], max_speed = speed, max_force = 3 }
    -- turn = "velocity": its frame (its angle) turns with its motion
    leader:set_behaviors{ turn = "velocity", { "follow", path = path, arrival_radius = 1.5 } }
    return leader, path
  end

  -- the members' trails, then formation f's slots now as dashed rings
  local function trails_and_slots(c, trails, f, ring)
    for k, t in ipairs(trails) do draw_trail(c, t, COLORS[k]) end
    for s = 1, #f do
      local x, y = f:slot_position(s)
      c:circle(x, y, ring, "none", "#8b96ad", "2,2")
    end
  end

  function pictures.offset_pursuit()
    local world = steer.world{}
    local points = { { 3, 12 }, { 12, 4 }, { 21, 12 } }
    local leader = leader_on(world, points, 2.5)
    local escorts = {}
    for k, off in ipairs{ { -2, 2 }, { -2, -2 }, { 2, 0 } } do
      escorts[k] = world:add{ x = 2 + k, y = 14, max_speed = 4, max_force = 6 }
      escorts[k]:set_behaviors{ { "offset_pursuit", target = leader, offset = off } }
    end
    local agents = { leader, escorts[1], escorts[2], escorts[3] }
    local trails = record(agents, 300, function() world:step(DT) end)
    local c = canvas("offset pursuit", "a leader (orange) follows a path; escorts hold (-2, 2), (-2, -2) and (2, 0) in its frame (x ahead, y left), which turns with its facing (turn = \"velocity\"); the leader's velocity is fed forward, so they sit on their slots with no lag (10 s)", 24, 16, 22)
    c:polyline(points, "#b8c0cf", 1.5, "6,4")
    for k, t in ipairs(trails) do draw_trail(c, t, COLORS[k]) end
    c:save("tactics-offset-pursuit.svg")
  end

  function pictures.follow_leader()
    local world = steer.world{}
    local points = { { 3, 4 }, { 21, 4 }, { 21, 12 }, { 3, 12 } }
    local leader = leader_on(world, points, 2)
    local agents = { leader }
    for k = 1, 4 do
      local f = world:add{ x = 8 + 3 * k, y = 5 + (k % 2), max_speed = 3, max_force = 6 }
      f:set_behaviors{ { "follow_leader", target = leader, distance = 1.5, radius = 1.2 } }
      agents[#agents + 1] = f
    end
    local trails = record(agents, 330, function() world:step(DT) end)
    local c = canvas("follow the leader", "four followers start in front of a leader (orange) on a path: they step aside out of its way, then trail 1.5 behind it, keeping 1.2 apart (11 s)", 24, 16, 22)
    c:polyline(points, "#b8c0cf", 1.5, "6,4")
    for k, t in ipairs(trails) do draw_trail(c, t, COLORS[k]) end
    c:save("tactics-follow-leader.svg")
  end

  function pictures.formation()
    local world = steer.world{}
    local points = { { 3, 12 }, { 10, 4 }, { 21, 6 } }
    local leader = leader_on(world, points, 2)
    local f = steer.formation{ anchor = leader, shape = "wedge", count = 4, spacing = 1.5 }
    local agents = { leader }
    for k, p in ipairs{ { 2, 2 }, { 8, 15 }, { 1, 8 }, { 14, 14 } } do
      local m = world:add{ x = p[1], y = p[2], max_speed = 4, max_force = 6 }
      m:set_behaviors{ { "formation", formation = f } }
      agents[#agents + 1] = m
    end
    local trails = record(agents, 300, function() world:step(DT) end)
    local c = canvas("formation", "a wedge of 4 slots behind a leader (orange) on a path; scattered members are assigned the slots that minimize the total distance (Hungarian method) and hold them as the wedge turns (10 s)", 24, 16, 22)
    c:polyline(points, "#b8c0cf", 1.5, "6,4")
    trails_and_slots(c, trails, f, 0.35)
    c:save("tactics-formation.svg")
  end

  function pictures.formation_fit()
    local world = steer.world{}
    local points = { { 2, 8 }, { 22, 8 } }
    local leader = leader_on(world, points, 1.5)
    local f = steer.formation{ anchor = leader, shape = "line", count = 5, spacing = 2 }
    for _, o in ipairs{ { 8, 10.3, 1.1 }, { 14, 12.4, 1.4 } } do
      world:add_obstacle{ x = o[1], y = o[2], radius = o[3] }
    end
    world:add_wall{ x1 = 0, y1 = 4.8, x2 = 24, y2 = 4.8 }
    local agents = { leader }
    for k, y in ipairs{ 5.6, 7.2, 8.8, 10, 12 } do
      local m = world:add{ x = 0.5, y = y, radius = 0.4, max_speed = 3, max_force = 8 }
      m:set_behaviors{ { "formation", formation = f, slowing_radius = 1 },
        { "avoid_obstacles", feeler_length = 1.5, weight = 2 } }
      agents[k + 1] = m
    end
    local trails = record(agents, 420, function() world:step(DT) end)
    local c = canvas("formation fit", "a line of 5 slots abreast, 2 apart, behind a leader (orange) walking beside a wall; fit (on by default) moves a slot out of a rock it falls in and back to the leader's side of a wall: the outer member walks along the wall (its slot lies 0.8 beyond it) and the slots of the others slide round the rocks (members: formation + avoid_obstacles, feeler 1.5, weight 2); dashed circles: the slots at the end (14 s)", 24, 16, 22)
    c:polyline(points, "#b8c0cf", 1.5, "6,4")
    for o in world:obstacles() do c:circle(o.x, o.y, o.radius, "#dfe4ee", "#8b96ad") end
    c:polyline({ { 0, 4.8 }, { 24, 4.8 } }, "#8b96ad", 3)
    trails_and_slots(c, trails, f, 0.4)
    c:save("tactics-formation-fit.svg")
  end

  function pictures.escort_fit()
    local world = steer.world{}
    -- two leaders walk beside a wall, each with an escort whose slot (1 behind,
    -- 3 to the right) lies 0.8 past the wall: fitted (above) and as given (below)
    local lanes = { { y = 5, fit = true }, { y = 12, fit = false } }
    local agents = {}
    for _, lane in ipairs(lanes) do
      local leader = leader_on(world, { { 2, lane.y }, { 22, lane.y } }, 1.5)
      world:add_wall{ x1 = 0, y1 = lane.y - 2.2, x2 = 24, y2 = lane.y - 2.2 }
      local e = world:add{ x = 1, y = lane.y - 1.2, radius = 0.4, max_speed = 3, max_force = 8 }
      e:set_behaviors{ combine = "priority", { "avoid_walls", feeler_length = 1.5 },
        { "offset_pursuit", target = leader, offset = { -1, -3 }, slowing_radius = 1, fit = lane.fit } }
      agents[#agents + 1] = leader
      agents[#agents + 1] = e
    end
    local trails = record(agents, 390, function() world:step(DT) end)
    local c = canvas("escort fit", "two leaders (orange) walk beside a wall; each escort's slot, 1 behind and 3 to the right, lies 0.8 past the wall. Above, fit (the default) pulls the slot back to the leader's side, the escort's radius short of the wall, and the escort walks along it; below, fit = false: the escort (priority of avoid_walls, feeler 1.5, and offset_pursuit) is pulled at the wall, slides along it where its feeler, ahead, does not meet it, slips through and walks beyond it (13 s)", 24, 16, 22)
    for _, lane in ipairs(lanes) do
      c:polyline({ { 0, lane.y - 2.2 }, { 24, lane.y - 2.2 } }, "#8b96ad", 3)
    end
    for k, t in ipairs(trails) do draw_trail(c, t, COLORS[(k - 1) % 2 + 1]) end
    c:save("tactics-escort-fit.svg")
  end

  function pictures.interpose()
    local world = steer.world{}
    local charge = world:add{ x = 5, y = 8, vx = 0.6, max_speed = 0.6 }
    local wolf = world:add{ x = 19, y = 3, max_speed = 1.6, max_force = 2 }
    local guard = world:add{ x = 4, y = 14, max_speed = 4, max_force = 8 }
    wolf:set_behaviors{ { "pursue", target = charge } }
    guard:set_behaviors{ { "interpose", between = { charge, wolf } } }
    local agents = { charge, wolf, guard }
    local trails = record(agents, 240, function() world:step(DT) end)
    local c = canvas("interpose", "a wolf (blue) pursues a slow charge (orange); the bodyguard (green) aims at the midpoint of their positions predicted |midpoint - p| / max_speed ahead and stays between them (8 s)", 24, 16, 22)
    for k, t in ipairs(trails) do draw_trail(c, t, COLORS[k]) end
    c:save("tactics-interpose.svg")
  end

  function pictures.hide()
    local world = steer.world{}
    world:add_obstacle{ x = 8, y = 6, radius = 1.5 }
    world:add_obstacle{ x = 16, y = 11, radius = 2 }
    world:add_obstacle{ x = 6, y = 12, radius = 1 }
    local hunter = world:add{ x = 2, y = 2, vx = 1, max_speed = 1.2, max_force = 2 }
    hunter:set_behaviors{ { "seek", target = { 22, 8 } } }
    local prey = {}
    for k, p in ipairs{ { 11, 8 }, { 14, 4 }, { 3, 9 } } do
      prey[k] = world:add{ x = p[1], y = p[2], max_speed = 3, max_force = 6 }
      prey[k]:set_behaviors{ { "hide", target = hunter, distance = 0.8 } }
    end
    local agents = { hunter, prey[1], prey[2], prey[3] }
    local trails = record(agents, 300, function() world:step(DT) end)
    local c = canvas("hide", "a hunter (orange) walks right; each prey runs to the spot 0.8 behind the obstacle nearest to it as seen from the hunter, and moves round the rock as the hunter passes (10 s)", 24, 16, 22)
    for o in world:obstacles() do c:circle(o.x, o.y, o.radius, "#dfe4ee", "#8b96ad") end
    for k, t in ipairs(trails) do draw_trail(c, t, COLORS[k]) end
    c:save("tactics-hide.svg")
  end

  function pictures.queue()
    local world = steer.world{}
    world:add_wall{ x1 = 16, y1 = 0, x2 = 16, y2 = 7.3 }
    world:add_wall{ x1 = 16, y1 = 8.7, x2 = 16, y2 = 16 }
    local agents = {}
    for k = 1, 6 do
      local a = world:add{ x = 2 + (k % 3) * 2.5, y = 3 + k * 1.8, max_speed = 2 + 0.2 * k,
                           max_force = 4, radius = 0.4 }
      a:set_behaviors{ combine = "priority", turn = "velocity", -- queue looks along the angle
        { "avoid_walls", feeler_length = 1.5, weight = 4 },
        { "queue", distance = 2, fov = 100 },
        { "separation", radius = 0.9, weight = 2 },
        { "seek", target = { 16, 8 } } }
      agents[k] = a
    end
    local door = { 16, 8 }
    local trails = record(agents, 420, function()
      world:step(DT)
      for k, a in ipairs(agents) do -- through the door: spread out
        if a.x > 15.2 then a:set_target("seek", 23, 2 + 2 * k) end
      end
    end)
    local c = canvas("queue", "six agents of different speeds head for a door in a wall; queue (first in a priority program) brakes behind the nearest agent within 2 in a 100 degree cone when it is slower or too close, so they file through one by one (14 s)", 24, 16, 22)
    c:polyline({ { 16, 0 }, { 16, 7.3 } }, "#8b96ad", 3)
    c:polyline({ { 16, 8.7 }, { 16, 16 } }, "#8b96ad", 3)
    c:target(door[1], door[2], "#1d2230")
    for k, t in ipairs(trails) do draw_trail(c, t, COLORS[k]) end
    c:save("tactics-queue.svg")
  end
end
