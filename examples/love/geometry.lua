-- Segment tests shared by the scenes (line of sight, picking a waypoint).
local geometry = {}

local function cross(ax, ay, bx, by) return ax * by - ay * bx end

--- Whether segment p..q crosses a wall of `world`.
function geometry.blocked(world, px, py, qx, qy)
  local dx, dy = qx - px, qy - py
  for _, s in ipairs(world:walls()) do
    local ex, ey = s.x2 - s.x1, s.y2 - s.y1
    local denom = cross(dx, dy, ex, ey)
    if denom ~= 0 then
      local t = cross(s.x1 - px, s.y1 - py, ex, ey) / denom
      local u = cross(s.x1 - px, s.y1 - py, dx, dy) / denom
      if t >= 0 and t <= 1 and u >= 0 and u <= 1 then return true end
    end
  end
  return false
end

return geometry
