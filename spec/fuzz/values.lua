--- Values for the fuzzer: valid numbers of every scale steer accepts, and
-- hostile values of every type, with the predicates that say which is which
-- (the binding's rules: finite, |x| <= steer.limit, sign where it matters).
local V = {}

local LIMIT = 1e150
local HUGE = math.huge
local NAN = 0 / 0
local JUST_OVER = 1.0000000000000002e150 -- the next double above the limit
V.LIMIT = LIMIT

function V.finite(v)
  return type(v) == "number" and v == v and v ~= HUGE and v ~= -HUGE
end

function V.is_num(v)
  return V.finite(v) and v <= LIMIT and v >= -LIMIT
end
function V.is_nonneg(v) return V.is_num(v) and v >= 0 end
function V.is_pos(v) return V.is_num(v) and v > 0 end
function V.is_integral(v)
  return type(v) == "number" and v == math.floor(v) and v <= 2 ^ 53
    and v >= -(2 ^ 53)
end

-- valid numbers worth trying: signed zeros, denormals, the limit itself,
-- the edges of the library's own thresholds (1e-5, 1e-4)
local edge_valid = { 0, -0.0, 1, -1, 0.5, 2, 1e-300, -1e-300, 5e-324,
  -5e-324, 1e-310, 1e-5, -1e-5, 1e-4, 1.00001e-5, 9.9999e-6, 1e150, -1e150,
  1e149, -1e149, 1e-150, 2 ^ 53, 4294967296, 0.1, 3, 1e10, -1e10, 1e75 }

-- numbers that must be refused
local bad_numbers = { NAN, -NAN, HUGE, -HUGE, 1e300, -1e300, JUST_OVER,
  -JUST_OVER, 1e151, 1.7976931348623157e308 }

--- v brought into [-limit, limit] (for values made by scaling).
function V.cap(v)
  if v > LIMIT then return LIMIT end
  if v < -LIMIT then return -LIMIT end
  return v
end

--- A valid number: mostly ordinary game-sized values, sometimes extremes.
function V.num(rng)
  local r = rng:float()
  if r < 0.55 then return rng:range(-20, 20) end
  if r < 0.7 then return rng:int(-50, 50) end
  if r < 0.8 then return rng:range(-1e6, 1e6) end
  if r < 0.9 then return rng:pick(edge_valid) end
  -- any magnitude from 1e-300 to 1e150
  local e = rng:range(-300, 150)
  local v = 10 ^ e
  if v > LIMIT then v = LIMIT end
  return rng:chance(0.5) and -v or v
end

function V.nonneg(rng)
  local v = V.num(rng)
  if v < 0 then v = -v end
  return v
end

function V.pos(rng)
  local v = V.nonneg(rng)
  if v == 0 then v = 1 end
  return v
end

--- A modest positive size (radii, speeds) so that worlds stay interesting.
function V.size(rng)
  local r = rng:float()
  if r < 0.8 then return rng:range(0, 8) end
  if r < 0.9 then return rng:pick({ 0, 1e-300, 1e-5, 1e3, 1e6 }) end
  return V.nonneg(rng)
end

--- A bad number (non-finite or out of range), or a valid one of the wrong
-- sign for `kind` ("nonneg", "pos").
function V.bad_number(rng, kind)
  if kind and rng:chance(0.3) then
    if kind == "pos" and rng:chance(0.5) then return rng:pick({ 0, -0.0 }) end
    return -rng:pick({ 1, 1e-300, 5e-324, 1e150, 0.5 })
  end
  return rng:pick(bad_numbers)
end

local function a_function() return 1 end
local a_thread = coroutine.create(a_function)
local mt_trap = setmetatable({}, {
  __index = function() error("trap: __index on a fuzzer table") end,
  __len = function() return 1e9 end })

--- Anything at all. `pools` may offer steer objects: a list of lists of
-- agents, worlds and paths to draw from.
function V.any(rng, pools)
  local r = rng:float()
  if r < 0.35 then return V.bad_number(rng) end
  if r < 0.55 then return V.num(rng) end
  if r < 0.62 then return nil end
  if r < 0.67 then return rng:pick({ "1", "", "nan", "0x10", "inf" }) end
  if r < 0.70 then return rng:chance(0.5) end
  if r < 0.74 then return {} end
  if r < 0.76 then return mt_trap end
  if r < 0.78 then return a_function end
  if r < 0.79 then return a_thread end
  if r < 0.81 then
    if math.maxinteger then
      return rng:pick({ math.maxinteger, math.mininteger, 0, -1 })
    end
    return 2 ^ 63
  end
  if pools then
    local pool = rng:pick(pools)
    if pool and #pool > 0 then return rng:pick(pool) end
  end
  return nil
end

--- Short printable form of a value for logs and repros.
function V.show(v, names, depth)
  local t = type(v)
  if t == "number" then
    if v ~= v then return "0/0" end
    if v == HUGE then return "math.huge" end
    if v == -HUGE then return "-math.huge" end
    if v == 0 and 1 / v < 0 then return "-0.0" end
    if math.type and math.type(v) == "integer" then return tostring(v) end
    return string.format("%.17g", v)
  end
  if t == "string" then return string.format("%q", v) end
  if names and names[v] then return names[v] end
  if t == "table" and depth ~= 2 then
    if getmetatable(v) then return "<trap table>" end
    local parts, keys = {}, {}
    for k in pairs(v) do keys[#keys + 1] = k end
    table.sort(keys, function(a, b)
      if type(a) == type(b) and (type(a) == "number" or type(a) == "string") then return a < b end
      return type(a) < type(b)
    end)
    for _, k in ipairs(keys) do
      local val = V.show(v[k], names, (depth or 0) + 1)
      if type(k) == "number" and k == #parts + 1 then parts[#parts + 1] = val
      elseif type(k) == "string" and k:match("^[%a_][%w_]*$") then parts[#parts + 1] = k .. " = " .. val
      else parts[#parts + 1] = "[" .. V.show(k, names, 2) .. "] = " .. val end
    end
    return "{ " .. table.concat(parts, ", ") .. " }"
  end
  if t == "table" then return "{...}" end
  if t == "nil" or t == "boolean" then return tostring(v) end
  return "<" .. t .. ">"
end

return V
