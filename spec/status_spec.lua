-- One way to say what went wrong (issue 10 point 4): the core's
-- steer_status codes, the flat (FFI) entry points returning them, and the
-- binding's messages for them.
local steer = require "steer"
local support = require "support"
local error_of = support.error_of

local has_ffi, ffi = pcall(require, "ffi")
local C
if has_ffi then
  C = ffi.load(package.searchpath("steer.core", package.cpath))
  pcall(ffi.cdef, [[
typedef struct steer_world steer_world;
typedef struct { steer_world *w; } steer_status_lworld;
int steer_flat_set(steer_world *w, uint64_t id, int field, double value);
int steer_flat_get(const steer_world *w, uint64_t id, int field, double *out);
int steer_flat_wander(steer_world *w, uint64_t id, double *out);
int steer_flat_flock(steer_world *w, uint64_t id, int rule, double radius, double *out);
const char *steer_status_message(int s);
]])
end

-- steer.h's numbers, written out: the spec fails if they ever change
local OK, ENOMEM, EINVAL = 0, 1, 2
local X, WANDER_RADIUS, FIELD_COUNT = 0, 7, 19
local SEPARATION = 9

local function world_ptr(world)
  return ffi.cast("steer_status_lworld *", world).w
end

describe("steer_status", function()
  it("has one message per status (LuaJIT FFI)", function()
    if not has_ffi then return pending("LuaJIT only") end
    assert.are.equal("ok", ffi.string(C.steer_status_message(OK)))
    assert.are.equal("not enough memory", ffi.string(C.steer_status_message(ENOMEM)))
    assert.are.equal("invalid argument", ffi.string(C.steer_status_message(EINVAL)))
    assert.are.equal("unknown status", ffi.string(C.steer_status_message(3)))
  end)

  it("the flat API: a stale id and an unknown field are STEER_EINVAL (LuaJIT FFI)", function()
    if not has_ffi then return pending("LuaJIT only") end
    local world = steer.world{ seed = 1 }
    local a = world:add{ x = 1, y = 2 }
    local b = world:add{ x = 3, y = 4 }
    local w, out = world_ptr(world), ffi.new("double[2]")
    local stale = b.id
    world:remove(b)
    assert.are.equal(EINVAL, C.steer_flat_set(w, stale, X, 5))
    assert.are.equal(EINVAL, C.steer_flat_get(w, stale, X, out))
    assert.are.equal(EINVAL, C.steer_flat_set(w, a.id, FIELD_COUNT, 5))
    assert.are.equal(EINVAL, C.steer_flat_set(w, a.id, -1, 5))
    assert.are.equal(EINVAL, C.steer_flat_get(w, a.id, FIELD_COUNT, out))
    assert.are.equal(EINVAL, C.steer_flat_flock(w, a.id, SEPARATION + 3, 2, out))
    assert.are.equal(1, a.x) -- nothing changed
    assert.are.equal(OK, C.steer_flat_set(w, a.id, X, 5))
    assert.are.equal(5, a.x)
    assert.are.equal(OK, C.steer_flat_get(w, a.id, X, out))
    assert.are.equal(5, out[0])
  end)

  it("the flat API: out of memory is STEER_ENOMEM and changes nothing (LuaJIT FFI)", function()
    if not has_ffi then return pending("LuaJIT only") end
    local world = steer.world{ seed = 1 }
    local a = world:add{ x = 1, y = 2 } -- default wander: no cold state yet
    local w, out = world_ptr(world), ffi.new("double[2]")
    steer.testing.fail_allocations(0)
    local set = C.steer_flat_set(w, a.id, WANDER_RADIUS, 3)
    local wander = C.steer_flat_wander(w, a.id, out)
    steer.testing.fail_allocations(nil)
    assert.are.equal(ENOMEM, set)
    assert.are.equal(ENOMEM, wander)
    assert.are.equal(1.2, a.wander_radius)
    assert.are.equal(OK, C.steer_flat_set(w, a.id, WANDER_RADIUS, 3))
    assert.are.equal(3, a.wander_radius)
  end)

  it("the binding reports out of memory as such (check_status)", function()
    local world = steer.world{ seed = 1 }
    local a = world:add{ x = 1, y = 2 }
    steer.testing.fail_allocations(0)
    local err = error_of(function() a.wander_radius = 3 end)
    steer.testing.fail_allocations(nil)
    assert.matches("not enough memory", err)
    assert.are.equal(1.2, a.wander_radius)
  end)
end)
