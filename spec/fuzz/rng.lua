--- A small deterministic generator for the fuzzer, the same on Lua 5.4 and
-- LuaJIT: two 32-bit LCGs whose products stay below 2^53, so plain double
-- arithmetic is exact. Only their high halves are used (LCG low bits are
-- weak).
local Rng = {}
Rng.__index = Rng

local M32 = 4294967296

function Rng.new(seed)
  seed = math.floor(seed) % M32
  local self = setmetatable({ s = seed, t = (seed * 7 + 12345) % M32 }, Rng)
  for _ = 1, 4 do self:u32() end
  return self
end

function Rng:u32()
  self.s = (self.s * 69069 + 1) % M32
  self.t = (self.t * 1664525 + 1013904223) % M32
  return math.floor(self.s / 65536) * 65536 + math.floor(self.t / 65536)
end

--- Uniform in [0, 1).
function Rng:float()
  return self:u32() / M32
end

--- Uniform integer in [lo, hi].
function Rng:int(lo, hi)
  return lo + math.floor(self:float() * (hi - lo + 1))
end

function Rng:chance(p)
  return self:float() < p
end

function Rng:pick(list)
  return list[self:int(1, #list)]
end

--- Uniform in [lo, hi).
function Rng:range(lo, hi)
  return lo + (hi - lo) * self:float()
end

return Rng
