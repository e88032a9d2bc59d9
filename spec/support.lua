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
  -- "not <=" so that NaN (which compares false with everything) fails
  if type(actual) ~= "number" or not (math.abs(actual - expected) <= tol) then
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

return support
