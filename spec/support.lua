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

--- Asserts vector (ax, ay) is (bx, by), to the bit (-0 and 0 alike); the
-- expected parts last, so that a call's two results fit there.
function support.same_vec(what, ax, ay, bx, by)
  if ax ~= bx or ay ~= by then
    error(("%s: (%.17g, %.17g) against (%.17g, %.17g)"):format(what, ax, ay, bx, by), 2)
  end
end

--- Round `round` of the specs that fit slots on random levels (rand:
-- support.random's): a 40 x 40 world (a torus in even rounds, else bounded
-- every third round, unbounded otherwise) with 40 obstacles (radius 0.2 to
-- 2.2) and 40 walls of length 6 at random, and a moving, turned leader.
-- Returns the world, the leader, whether it wraps and its side.
function support.fit_level(steer, rand, round)
  local side, wrap = 40, round % 2 == 0
  local w = steer.world{ bounds = (wrap or round % 3 == 0) and { side, side } or nil, wrap = wrap }
  for _ = 1, 40 do
    w:add_obstacle{ x = rand() * side, y = rand() * side, radius = 0.2 + rand() * 2 }
  end
  for _ = 1, 40 do
    local x, y, a = rand() * side, rand() * side, rand() * 2 * math.pi
    w:add_wall{ x1 = x, y1 = y, x2 = x + 6 * math.cos(a), y2 = y + 6 * math.sin(a) }
  end
  local leader = w:add{ x = rand() * side, y = rand() * side, vx = rand() * 2 - 1, vy = rand() * 2 - 1,
    angle = rand() * 6.3 }
  return w, leader, wrap, side
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

--- One step of the wander generator of docs/API.md section 3.5,
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


--- The interpreter running the specs (busted --lua=X runs X).
function support.interpreter()
  local i = 0
  while arg and arg[i - 1] do i = i - 1 end
  return (arg and arg[i]) or (jit and "luajit" or "lua5.4")
end

--- Runs `code` in a child interpreter (the same one, with this process's
-- package paths), so that a crash cannot take the spec run down with it.
-- Returns true when the child exited with status 0, and its output.
function support.run_child(code)
  local file = os.tmpname()
  local f = assert(io.open(file, "w"))
  f:write(("package.path = %q\npackage.cpath = %q\n"):format(package.path,
    package.cpath), code)
  f:close()
  local p = assert(io.popen(("%s %s 2>&1; echo \"EXIT=$?\""):format(
    support.interpreter(), file)))
  local out = p:read("*a")
  p:close()
  os.remove(file)
  local status = out:match("EXIT=(%d+)%s*$")
  return status == "0", out
end


--- The brute-force answer to a query: sorted ids of the live agents of
-- `world` within r of (qx, qy) (dx*dx + dy*dy <= r*r), skipping `exclude`.
-- kind: "free", "torus" (shortest wrapped offsets; the centre is wrapped
-- first, so pass centres that wrap exactly) or "clamped"; W, H the bounds.
function support.brute_ids(world, kind, W, H, qx, qy, r, exclude)
  if kind == "torus" then qx, qy = qx % W, qy % H end
  local ids = {}
  for a in world:agents() do
    if a ~= exclude then
      local dx, dy = support.brute_offset(kind, W, H, qx, qy, a)
      if dx * dx + dy * dy <= r * r then ids[#ids + 1] = a.id end
    end
  end
  table.sort(ids)
  return ids
end

--- The offset from (qx, qy) to agent a as brute_ids measures it (on a
-- torus: the shortest, sign dropped; qx, qy already wrapped).
function support.brute_offset(kind, W, H, qx, qy, a)
  local dx, dy = a.x - qx, a.y - qy
  if kind == "torus" then
    dx, dy = math.abs(dx), math.abs(dy)
    if dx > W / 2 then dx = W - dx end
    if dy > H / 2 then dy = H - dy end
  end
  return dx, dy
end

--- Asserts two sorted id lists are equal.
function support.same_ids(expected, actual, what)
  if #expected ~= #actual then
    error(("%s: expected %d agents, got %d"):format(what, #expected, #actual), 2)
  end
  for k = 1, #expected do
    if expected[k] ~= actual[k] then
      error(("%s: agent %s expected, got %s"):format(what, tostring(expected[k]),
        tostring(actual[k])), 2)
    end
  end
end

--- Lua source that evaluates to v (numbers round-trip exactly).
function support.literal(v)
  local t = type(v)
  if t == "number" then
    -- always a float literal: Lua 5.4 integers would overflow in r * r
    local s = ("%.17g"):format(v)
    if not s:find("[%.eEn]") then s = s .. ".0" end
    return s
  elseif t == "string" then return ("%q"):format(v)
  elseif t == "table" then
    local parts = {}
    for k, x in pairs(v) do
      parts[#parts + 1] = "[" .. support.literal(k) .. "] = " .. support.literal(x)
    end
    table.sort(parts)
    return "{ " .. table.concat(parts, ", ") .. " }"
  end
  return tostring(v)
end

--- Builds the C oracle build/spec/<name> and runs it (both without the ASan
-- runtime that `make asan` preloads into busted); asserts that its last
-- "N passed, N failed" has no failure and more than `least` checks.
--- The first difference between two lists of agents' states (rows of
-- `fields` numbers each), compared bit for bit: "agent K field F: A vs B",
-- or nil when they are the same.
function support.first_difference(want, got, fields)
  for k = 1, #want do
    for f = 1, fields do
      if want[k][f] ~= got[k][f] then
        return ("agent %d field %d: %.17g vs %.17g"):format(k, f, want[k][f], got[k][f])
      end
    end
  end
end

function support.run_oracle(name, least)
  local ok = os.execute("env -u LD_PRELOAD make -s build/spec/" .. name .. " >/dev/null")
  assert(ok == true or ok == 0, "building the oracle " .. name .. " failed")
  local p = assert(io.popen("env -u LD_PRELOAD build/spec/" .. name .. " 2>&1"))
  local out = p:read("*a")
  p:close()
  local good, bad = out:match("(%d+) passed, (%d+) failed")
  assert(good, out)
  assert(bad == "0", out)
  assert(tonumber(good) > least, out)
end

--- FNV-1a 64 over the string s, as 8 little-endian bytes: the snapshot's
-- checksum (docs/SNAPSHOT.md), so that specs can forge snapshots whose
-- checksum is right but whose content is not. nil where the interpreter
-- has no 64-bit integers (Lua 5.4 and LuaJIT have; each dialect's code is
-- compiled only by the VM that understands it).
if _VERSION == "Lua 5.4" then
  support.fnv = assert(load([[
    local s = ...
    local h = -3750763034362895579 -- 0xCBF29CE484222325
    for k = 1, #s do h = (h ~ s:byte(k)) * 1099511628211 end
    return string.pack("<i8", h)
  ]]))
elseif jit then
  support.fnv = assert(loadstring([[
    local s = ...
    local ffi, bit = require "ffi", require "bit"
    local h = ffi.new("uint64_t", 0xCBF29CE4ULL * 0x100000000ULL + 0x84222325ULL)
    for k = 1, #s do h = bit.bxor(h, s:byte(k)) * 0x100000001B3ULL end
    local out = {}
    for k = 0, 7 do
      out[k + 1] = string.char(tonumber(bit.band(bit.rshift(h, 8 * k), 0xFF)))
    end
    return table.concat(out)
  ]]))
end

--- Snapshot s with `bytes` written at byte pos of its body and the checksum
-- made right again: a snapshot whose content is wrong (snapshot specs).
function support.forge(s, pos, bytes)
  local body = s:sub(1, #s - 8)
  body = body:sub(1, pos - 1) .. bytes .. body:sub(pos + #bytes)
  return body .. support.fnv(body)
end

--- A small count (below 2^53) at byte `at` of snapshot s, little-endian.
function support.u64(s, at)
  local v = 0
  for k = 7, 0, -1 do v = v * 256 + s:byte(at + k) end
  return v
end

--- Where version-12 (or later) snapshot s's table of navigation grids starts (its
-- count), past the slots, paths, shared points and formations
-- (docs/SNAPSHOT.md).
function support.grids_at(s)
  local u64 = support.u64
  -- magic, version, definition (8 + 4 + 8 + 8 + 4 bytes), then the slots,
  -- the paths and the shared points
  local at = 13 + 32
  at = at + 12 + 8 * u64(s, at)
  local paths = u64(s, at)
  at = at + 8
  for _ = 1, paths do at = at + 12 + 16 * u64(s, at) end
  at = at + 8 + 16 * u64(s, at)
  -- the formations: an end (36 bytes), fit (4), slots (8 + 16 each)
  local formations = u64(s, at)
  at = at + 8
  for _ = 1, formations do at = at + 40 + 8 + 16 * u64(s, at + 40) end
  return at
end

--- Version-15 snapshot s of a world without flow fields and without
-- whiskers as version 14 wrote it (checksum recomputed when the interpreter
-- can): without the empty table of avoid_walls entries with whiskers, after
-- the table of entries whose fit is false.
function support.before_whiskers(s)
  assert(s:sub(9, 12) == "\15\0\0\0", "a version-15 snapshot expected")
  local at = support.grids_at(s)
  assert(s:sub(at, at + 15) == ("\0"):rep(16), "a world without flow fields expected")
  at = at + 24 + 16 * support.u64(s, at + 16) -- past the unfitted entries
  assert(s:sub(at, at + 7) == ("\0"):rep(8), "a world without whiskers expected")
  local v14 = s:sub(1, 8) .. "\14\0\0\0" .. s:sub(13, at - 1) .. s:sub(at + 8, #s - 8)
  return v14 .. (support.fnv and support.fnv(v14) or s:sub(#s - 7))
end

--- Version-14 (or 15, as before_whiskers takes it) snapshot s as version 13
-- wrote it (checksum recomputed when the interpreter can): the same bytes;
-- only their reading differs, version 13's follow_leader entries restoring
-- with fit false, as they ran.
function support.before_follow_fit(s)
  if s:sub(9, 12) == "\15\0\0\0" then s = support.before_whiskers(s) end
  assert(s:sub(9, 12) == "\14\0\0\0", "a version-14 snapshot expected")
  local v13 = s:sub(1, 8) .. "\13\0\0\0" .. s:sub(13, #s - 8)
  return v13 .. (support.fnv and support.fnv(v13) or s:sub(#s - 7))
end

--- Version-13 (or later, as before_follow_fit takes it) snapshot s of a world
-- without flow fields whose entries all fit as version 12 wrote it
-- (checksum recomputed when the interpreter can): without the empty table
-- of entries that keep their slot, before the programs. Version 12 reads
-- offset_pursuit and follow_leader entries with fit 0 (as they ran then).
function support.before_fit(s)
  if s:byte(9) > 13 then s = support.before_follow_fit(s) end
  assert(s:sub(9, 12) == "\13\0\0\0", "a version-13 snapshot expected")
  local at = support.grids_at(s)
  assert(s:sub(at, at + 23) == ("\0"):rep(24),
    "a world without flow fields and without entries whose fit is false expected")
  local v12 = s:sub(1, 8) .. "\12\0\0\0" .. s:sub(13, at + 15) .. s:sub(at + 24, #s - 8)
  return v12 .. (support.fnv and support.fnv(v12) or s:sub(#s - 7))
end

--- Version-12 (or later, as before_fit takes them) snapshot s of a world without flow fields as version 11
-- wrote it (checksum recomputed when the interpreter can): without the two
-- empty tables, of navigation grids and of flow fields, after the
-- formations.
function support.before_flows(s)
  if s:byte(9) > 12 then s = support.before_fit(s) end
  assert(s:sub(9, 12) == "\12\0\0\0", "a version-12 snapshot expected")
  local at = support.grids_at(s)
  assert(s:sub(at, at + 15) == ("\0"):rep(16), "a world without flow fields expected")
  local v11 = s:sub(1, 8) .. "\11\0\0\0" .. s:sub(13, at - 1) .. s:sub(at + 16, #s - 8)
  return v11 .. (support.fnv and support.fnv(v11) or s:sub(#s - 7))
end

--- Version-11 (or 12, without flow fields) snapshot s of a world without formations as version 10 wrote
-- it (checksum recomputed when the interpreter can): without the empty
-- table of formations after the shared points (its members, at the end,
-- are then none either).
function support.before_formations(s)
  if s:byte(9) > 11 then s = support.before_flows(s) end
  assert(s:sub(9, 12) == "\11\0\0\0", "a version-11 snapshot expected")
  local function u64(at) -- a small count, little-endian
    local v = 0
    for k = 7, 0, -1 do v = v * 256 + s:byte(at + k) end
    return v
  end
  -- magic, version, definition (8 + 4 + 8 + 8 + 4 bytes), then the slots,
  -- the paths and the shared points
  local at = 13 + 32
  at = at + 12 + 8 * u64(at)
  local paths = u64(at)
  at = at + 8
  for _ = 1, paths do at = at + 12 + 16 * u64(at) end
  at = at + 8 + 16 * u64(at)
  assert(s:sub(at, at + 7) == ("\0"):rep(8), "a world without formations expected")
  local v10 = s:sub(1, 8) .. "\10\0\0\0" .. s:sub(13, at - 1) .. s:sub(at + 8, #s - 8)
  return v10 .. (support.fnv and support.fnv(v10) or s:sub(#s - 7))
end

--- Version-10 (or later, without formations and flow fields) snapshot s as version 9 wrote it
-- (checksum recomputed when the interpreter can): each of its `entries`
-- entries without version 10's tail. The entries must not be tactics
-- entries: their tail is then the defaults, offset (0, 0), distance 3, no
-- second end (60 bytes, no other place of a snapshot holds them; asserted
-- by count).
function support.before_tactics(s, entries)
  if s:byte(9) > 10 then s = support.before_formations(s) end
  assert(s:sub(9, 12) == "\10\0\0\0", "a version-10 snapshot expected")
  local tail = ("\0"):rep(16) .. "\0\0\0\0\0\0\8\64" .. ("\0"):rep(36)
  local body, parts, at = s:sub(13, #s - 8), {}, 1
  while true do
    local hit = body:find(tail, at, true)
    if not hit then break end
    parts[#parts + 1] = body:sub(at, hit - 1)
    at = hit + #tail
  end
  assert(#parts == entries, ("%d entry tails found, %d expected"):format(#parts, entries))
  local v9 = s:sub(1, 8) .. "\9\0\0\0" .. table.concat(parts) .. body:sub(at)
  return v9 .. (support.fnv and support.fnv(v9) or s:sub(#s - 7))
end

return support
