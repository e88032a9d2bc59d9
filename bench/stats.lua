--- bench/stats.lua - figures over a benchmark's rounds, shared by the
-- bench scripts (run from the repository's root: they put bench/ on the
-- module path themselves).
local stats = {}

--- The median of the numbers in t (the upper one of an even count); t is
-- left as it was.
function stats.median(t)
  local s = {}
  for i, v in ipairs(t) do s[i] = v end
  table.sort(s)
  return s[math.ceil(#s / 2)]
end

return stats
