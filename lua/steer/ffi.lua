--- steer.ffi: the LuaJIT fast path for per-agent calls.
--
-- Under LuaJIT with the JIT on, the agent methods and fields used in
-- per-agent loops (seek, flee, arrive, pursue, evade, wander, separation,
-- alignment, cohesion, avoid_obstacles, avoid_walls, apply, position,
-- velocity, and numeric fields) call the C core directly through the FFI,
-- which the JIT compiles, instead of going through the Lua C API.
-- Everything else, and every call whose arguments are not plain valid
-- numbers, goes to the classic binding - so errors and results are the
-- same either way. `require "steer"` loads this module automatically;
-- require it yourself to switch it: `require("steer.ffi").enable(false)`.
--
-- Returns false where the fast path is unavailable (no FFI, JIT off, or
-- the module's symbols cannot be loaded).

local has_ffi, ffi = pcall(require, "ffi")
if not has_ffi or not jit or not jit.status() then return false end

local core = require "steer.core"
-- the file steer.core was loaded from: on package.cpath, or in LÖVE's game
-- folder or save directory, where LÖVE's own loader finds C modules
local where = package.searchpath and package.searchpath("steer.core", package.cpath)
local love = rawget(_G, "love")
local fs = not where and type(love) == "table" and love.filesystem
if fs and fs.getRealDirectory then
  local dir = fs.getRealDirectory("steer/core.so")
  where = dir and dir .. "/steer/core.so"
end
if not where then return false end
local loaded, C = pcall(ffi.load, where)
if not loaded then return false end

-- the first fields of the binding's userdata (csrc/binding/binding.h)
pcall(ffi.cdef, [[
typedef struct steer_world steer_world;
typedef struct { steer_world *w; } steer_lworld;
typedef struct { steer_lworld *box; uint64_t id; } steer_lagent;
int steer_flat_seek(steer_world *w, uint64_t id, double x, double y, double *out);
int steer_flat_flee(steer_world *w, uint64_t id, double x, double y, double panic, double *out);
int steer_flat_arrive(steer_world *w, uint64_t id, double x, double y, double slowing, double *out);
int steer_flat_pursue(steer_world *w, uint64_t id, uint64_t target, int evade, double *out);
int steer_flat_wander(steer_world *w, uint64_t id, double *out);
int steer_flat_flock(steer_world *w, uint64_t id, int rule, double radius, double *out);
int steer_flat_avoid(steer_world *w, uint64_t id, int walls, double feeler, double *out);
int steer_flat_apply(steer_world *w, uint64_t id, double fx, double fy, double dt);
int steer_flat_get(const steer_world *w, uint64_t id, int field, double *out);
int steer_flat_set(steer_world *w, uint64_t id, int field, double value);
size_t steer_world_columns(const steer_world *w, const double **x, const double **y,
                           const double **vx, const double **vy);
]])
-- the binding's entry points (csrc/binding/ffi_entry.c): the flat calls taking
-- the world's box, so that the world is looked up at the moment of the call
-- (Lua code, a __gc finalizer, may close it between a read and the call);
-- the call sites below use them
pcall(ffi.cdef, [[
int steer_box_seek(steer_lworld *b, uint64_t id, double x, double y, double *out);
int steer_box_flee(steer_lworld *b, uint64_t id, double x, double y, double panic, double *out);
int steer_box_arrive(steer_lworld *b, uint64_t id, double x, double y, double slowing, double *out);
int steer_box_pursue(steer_lworld *b, uint64_t id, uint64_t target, int evade, double *out);
int steer_box_wander(steer_lworld *b, uint64_t id, double *out);
int steer_box_flock(steer_lworld *b, uint64_t id, int rule, double radius, double *out);
int steer_box_avoid(steer_lworld *b, uint64_t id, int walls, double feeler, double *out);
int steer_box_apply(steer_lworld *b, uint64_t id, double fx, double fy, double dt);
int steer_box_get(steer_lworld *b, uint64_t id, int field, double *out);
int steer_box_set(steer_lworld *b, uint64_t id, int field, double value);
long steer_box_columns(steer_lworld *b, const double **x, const double **y,
                       const double **vx, const double **vy);
]])

-- what steer.core tells its fast path: the types' metatables, the classic
-- methods, and the codes of fields, flat pseudo fields and flocking rules
local codes = core._ffi
local agent_mt, world_mt = codes.agent_mt, codes.world_mt
local classic_index, classic_newindex = agent_mt.__index, agent_mt.__newindex

local cast, agent_ptr = ffi.cast, ffi.typeof("steer_lagent *")
local out = ffi.new("double[2]")
local LIMIT = core.limit
local getmetatable, type, select = getmetatable, type, select
local SEPARATION, ALIGNMENT, COHESION = codes.rules.separation, codes.rules.alignment,
  codes.rules.cohesion

-- a finite number within the limit / also not negative
local function ok(v) return type(v) == "number" and v >= -LIMIT and v <= LIMIT end
local function size(v) return type(v) == "number" and v >= 0 and v <= LIMIT end

-- The world's box and the id behind a handle (the box outlives the
-- handle's world; the call finds a closed world itself and reports it stale).
local function handle(a)
  local h = cast(agent_ptr, a)
  return h.box, h.id
end

local methods, classic = {}, {}
for name, f in pairs(codes.methods) do methods[name], classic[name] = f, f end

-- Builds a method taking a point (x, y): fast when a is an agent and x, y
-- (and the optional size argument, when `sized`) are valid numbers and
-- nothing follows (the classic binding raises for an extra argument).
local function point_method(name, call, default, sized)
  local slow = classic[name]
  local most = sized and 4 or 3
  return function(...)
    local a, x, y, r = ...
    if getmetatable(a) == agent_mt and ok(x) and ok(y) and (r == nil or size(r))
      and select("#", ...) <= most then
      local w, id = handle(a)
      if w ~= nil and call(w, id, x, y, r == nil and default or r) == 0 then
        return out[0], out[1]
      end
    end
    return slow(...)
  end
end

methods.seek = point_method("seek", function(w, id, x, y)
  return C.steer_box_seek(w, id, x, y, out)
end, -1)
methods.flee = point_method("flee", function(w, id, x, y, r)
  return C.steer_box_flee(w, id, x, y, r, out)
end, -1, true)
methods.arrive = point_method("arrive", function(w, id, x, y, r)
  return C.steer_box_arrive(w, id, x, y, r, out)
end, 2, true)

local function chase_method(name, evade)
  local slow = classic[name]
  return function(...)
    local a, b = ...
    -- evade's panic radius (or any extra argument) takes the classic path
    if getmetatable(a) == agent_mt and getmetatable(b) == agent_mt and select("#", ...) == 2 then
      local w, id = handle(a)
      local wb, target = handle(b)
      if w ~= nil and w == wb and C.steer_box_pursue(w, id, target, evade, out) == 0 then
        return out[0], out[1]
      end
    end
    return slow(...)
  end
end
methods.pursue = chase_method("pursue", 0)
methods.evade = chase_method("evade", 1)

methods.wander = function(...)
  local a = ...
  if getmetatable(a) == agent_mt and select("#", ...) == 1 then
    local w, id = handle(a)
    if w ~= nil and C.steer_box_wander(w, id, out) == 0 then return out[0], out[1] end
  end
  return classic.wander(...)
end

local function sized_method(name, call, default)
  local slow = classic[name]
  return function(...)
    local a, r = ...
    if r == nil then r = default end
    -- a filter (flocking) or any extra argument takes the classic path
    if getmetatable(a) == agent_mt and size(r) and select("#", ...) <= 2 then
      local w, id = handle(a)
      if w ~= nil and call(w, id, r) == 0 then return out[0], out[1] end
    end
    return slow(...)
  end
end

methods.separation = sized_method("separation", function(w, id, r)
  return C.steer_box_flock(w, id, SEPARATION, r, out)
end)
methods.alignment = sized_method("alignment", function(w, id, r)
  return C.steer_box_flock(w, id, ALIGNMENT, r, out)
end)
methods.cohesion = sized_method("cohesion", function(w, id, r)
  return C.steer_box_flock(w, id, COHESION, r, out)
end)
methods.avoid_obstacles = sized_method("avoid_obstacles", function(w, id, r)
  return C.steer_box_avoid(w, id, 0, r, out)
end, 3)
methods.avoid_walls = sized_method("avoid_walls", function(w, id, r)
  return C.steer_box_avoid(w, id, 1, r, out)
end, 3)

methods.apply = function(...)
  local a, fx, fy, dt, angular = ...
  if angular == nil and getmetatable(a) == agent_mt and ok(fx) and ok(fy) and size(dt) and dt > 0
    and select("#", ...) <= 4 then
    local w, id = handle(a)
    if w ~= nil and C.steer_box_apply(w, id, fx, fy, dt) == 0 then return end
  end
  return classic.apply(...)
end

local flat = codes.flat
local POSITION, VELOCITY, SPEED, HEADING = flat.position, flat.velocity, flat.speed, flat.heading
local function pair_method(name, field)
  local slow = classic[name]
  return function(...)
    local a = ...
    if getmetatable(a) == agent_mt and select("#", ...) == 1 then
      local w, id = handle(a)
      if w ~= nil and C.steer_box_get(w, id, field, out) == 0 then return out[0], out[1] end
    end
    return slow(...)
  end
end
methods.position = pair_method("position", POSITION)
methods.velocity = pair_method("velocity", VELOCITY)

-- numeric fields: code, and whether writes must be sizes (>= 0); the
-- angle, turn limits and min_speed are among them, while group, ghost and
-- turn_velocity (an integer and booleans) go to the classic binding
local readable = { speed = SPEED, heading = HEADING }
local writable, sized = {}, codes.sized
for name, code in pairs(codes.fields) do readable[name], writable[name] = code, code end

local function fast_index(a, k)
  local m = methods[k]
  if m then return m end
  local code = readable[k]
  if code then
    local w, id = handle(a)
    if w ~= nil and C.steer_box_get(w, id, code, out) == 0 then return out[0] end
  end
  return classic_index(a, k)
end

local function fast_newindex(a, k, v)
  local code = writable[k]
  if code and ok(v) and (v >= 0 or not sized[k]) then
    local w, id = handle(a)
    if w ~= nil and C.steer_box_set(w, id, code, v) == 0 then return end
  end
  return classic_newindex(a, k, v)
end

-- world:columns() -> x, y, vx, vy (const double * into the world's arrays,
-- 0-based, internal order), n. Zero copy: valid until agents are added,
-- removed or stepped, or the world is closed. The four pointers returned
-- keep the world alive (a cdata cannot hold a Lua value, so a table with
-- weak keys maps each to its world): a world dropped while its pointers are
-- kept is not freed under them.
local columns = ffi.new("const double *[4]")
local world_ptr = ffi.typeof("steer_lworld *")
local anchors = setmetatable({}, { __mode = "k" })
local function world_columns(world)
  if getmetatable(world) ~= world_mt then
    local mt = getmetatable(world)
    local got = type(mt) == "table" and type(mt.__name) == "string" and mt.__name
      or type(world)
    error(("calling 'columns' on bad self (steer.World expected, got %s)"):format(got), 2)
  end
  local n = C.steer_box_columns(cast(world_ptr, world), columns, columns + 1,
    columns + 2, columns + 3)
  if n < 0 then error("calling 'columns' on bad self (world is closed)", 2) end
  local x, y, vx, vy = columns[0], columns[1], columns[2], columns[3]
  anchors[x], anchors[y], anchors[vx], anchors[vy] = world, world, world, world
  return x, y, vx, vy, tonumber(n)
end

local M = { enabled = false }

--- Switches the fast path on (default once loaded) or off.
function M.enable(on)
  on = on ~= false
  agent_mt.__index = on and fast_index or classic_index
  agent_mt.__newindex = on and fast_newindex or classic_newindex
  M.enabled = on
  return M
end

world_mt.__index.columns = world_columns
return M.enable(true)
