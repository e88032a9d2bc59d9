-- Helpers shared by the specs.
local json = require "dkjson"

local support = {}

local here = debug.getinfo(1, "S").source:match("^@(.*)support%.lua$") or "spec/"

--- The golden example `name` (a file of spec/goldens, copied from the
-- textbook traces in ../shared/goldens).
function support.golden(name)
  local f = assert(io.open(here .. "goldens/" .. name .. ".json", "r"))
  local text = f:read("*a")
  f:close()
  local value, _, err = json.decode(text)
  assert(value, err)
  return value
end

--- Asserts |actual - expected| <= tol, naming what is compared on failure.
function support.near(actual, expected, tol, what)
  if type(actual) ~= "number" or math.abs(actual - expected) > tol then
    error(("%s: expected %.6f (+-%g), got %s"):format(what or "value",
      expected, tol, tostring(actual)), 2)
  end
end

function support.finite(v)
  return type(v) == "number" and v == v and v ~= math.huge and v ~= -math.huge
end

--- Asserts every value passed is a finite number.
function support.all_finite(...)
  for i = 1, select("#", ...) do
    local v = select(i, ...)
    if not support.finite(v) then
      error(("value #%d is not a finite number: %s"):format(i, tostring(v)), 2)
    end
  end
end

--- The message of the error `fn` raises (fails when it raises none).
function support.error_of(fn, ...)
  local ok, err = pcall(fn, ...)
  if ok then error("expected an error, got none", 2) end
  return tostring(err)
end


-- ---- helpers added for the behavior/world/query/error/path specs ----------

--- Asserts a finite number within an absolute tolerance of expected
-- (written with <= so that NaN fails, unlike support.near).
function support.close(actual, expected, tol, what)
  if not (support.finite(actual) and math.abs(actual - expected) <= tol) then
    error(("%s: expected %.17g (+-%g), got %s"):format(what or "value",
      expected, tol, tostring(actual)), 2)
  end
end

--- Asserts two finite vectors agree within an absolute tolerance.
function support.vec_near(ax, ay, ex, ey, tol, what)
  what = what or "vector"
  if not (support.finite(ax) and support.finite(ay)
      and math.abs(ax - ex) <= tol and math.abs(ay - ey) <= tol) then
    error(("%s: expected (%.17g, %.17g) +-%g, got (%s, %s)"):format(what, ex,
      ey, tol, tostring(ax), tostring(ay)), 2)
  end
end

--- Asserts |actual - expected| <= rel * |expected| (or == when expected is
-- 0): for values at the limits (1e150, 1e-300) where an absolute tolerance
-- means nothing.
function support.rel_near(actual, expected, rel, what)
  local ok = type(actual) == "number" and support.finite(actual)
  if ok then
    if expected == 0 then ok = actual == 0
    else ok = math.abs(actual - expected) <= rel * math.abs(expected) end
  end
  if not ok then
    error(("%s: expected %.17g (rel %g), got %s"):format(what or "value",
      expected, rel, tostring(actual)), 2)
  end
end

--- The error message of fn(...) must contain every fragment (plain text).
function support.raises(fragments, fn, ...)
  local ok, err = pcall(fn, ...)
  if ok then error("expected an error, got none", 2) end
  err = tostring(err)
  if type(fragments) == "string" then fragments = { fragments } end
  for _, f in ipairs(fragments) do
    if not err:find(f, 1, true) then
      error(("error message %q lacks %q"):format(err, f), 2)
    end
  end
  return err
end

--- One step of the wander generator of API.md section 3,
-- s = s * 1103515245 + 12345 (mod 2^32), exact under Lua 5.4 and LuaJIT:
-- the multiplier is split in 16-bit halves so that no product passes 2^53.
function support.lcg_next(s)
  local lo, hi = 1103515245 % 65536, math.floor(1103515245 / 65536)
  local p = s * lo + ((s * hi) % 65536) * 65536 + 12345
  return p % 4294967296
end

--- r = -1 + 2 * (s / 4294967295) for a generator state s.
function support.lcg_signed(s)
  return -1 + 2 * (s / 4294967295)
end

--- A deterministic source of numbers in [0, 1) for random worlds (the same
-- on every interpreter; not the library's generator).
function support.random(seed)
  local s = seed % 4294967296
  return function(lo, hi)
    s = support.lcg_next(s)
    local u = s / 4294967296
    if lo then return lo + (hi - lo) * u end
    return u
  end
end

--- The ids an iterator of agents yields, sorted; also fails on duplicates.
function support.ids_of(iter)
  local ids, seen = {}, {}
  for a in iter do
    local id = a.id
    if seen[id] then error("agent " .. tostring(id) .. " yielded twice", 2) end
    seen[id] = true
    ids[#ids + 1] = id
  end
  table.sort(ids)
  return ids
end

return support
