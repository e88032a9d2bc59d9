-- Segment tests shared by the scenes (line of sight, picking a waypoint):
-- steer's own ray cast, against walls only.
local geometry = {}

local WALLS_ONLY = { obstacles = false }

--- Whether segment p..q crosses a wall of `world`.
function geometry.blocked(world, px, py, qx, qy)
  return world:raycast(px, py, qx, qy, WALLS_ONLY) ~= nil
end

return geometry
