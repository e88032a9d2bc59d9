-- require "steer" without a loadable steer.core says what to do: which build,
-- where to put it (plain Lua and LÖVE, whose loader is faked here). Each case
-- runs in a child interpreter with its own package.cpath.
local support = require "support"

local this = jit and "luajit" or ("lua" .. _VERSION:match("%d+%.%d+"))
-- a build the running interpreter cannot load (5.4 lacks lua_tointeger, LuaJIT
-- and 5.1 lua_absindex); nil when it was not built
local other = this == "lua5.4" and "luajit" or "lua5.4"
local other_so = "build/" .. other .. "/steer/core.so"
do
  local f = io.open(other_so, "rb")
  if f then f:close() else other_so = nil end
end

-- The message of require "steer" in a child whose package.cpath is `cpath`
-- and whose global `love` is built by the Lua source `love` (or absent).
local function message(cpath, love)
  local code = ([[
package.cpath = %q
%s
local ok, err = pcall(require, "steer")
if ok then print("LOADED") os.exit(1) end
io.write(tostring(err))
]]):format(cpath, love and ("love = " .. love) or "")
  local ok, out = support.run_child(code)
  assert(ok, out)
  return out
end

local function has(text, fragment)
  assert(text:find(fragment, 1, true), ("%q\nlacks %q"):format(text, fragment))
end

describe('require "steer" without a loadable steer.core', function()
  it("not found: names the build for this interpreter and package.cpath", function()
    local out = message("/nonexistent/?.so")
    has(out, "steer: the C module steer.core, steer/core.so (core.dll on Windows), was not found on package.cpath.")
    has(out, ("`make` in steer's checkout builds it as build/%s/steer/core.so"):format(this))
    has(out, ("add build/%s/?.so to package.cpath (LUA_CPATH)"):format(this))
    has(out, "(require said: module 'steer.core' not found")
    has(out, "/nonexistent/steer/core.so")
  end)

  it("a build for another interpreter: says so and names the right build", function()
    if not other_so then return pending(other .. " was not built") end
    local out = message("build/" .. other .. "/?.so")
    has(out, ("steer: %s was built for another Lua than this"):format(other_so))
    has(out, this == "lua5.4" and "(it lacks lua_tointeger)" or "(it lacks lua_absindex)")
    has(out, ("Use the %s build: `make` in steer's checkout builds it as build/%s/steer/core.so"):format(this, this))
    has(out, "(require said: error loading module 'steer.core' from file '" .. other_so .. "'")
  end)

  it("a second build in one Lua state: refused, where it would have taken over the first's types", function()
    -- a copy of this build in another folder is another build to the loader
    local dir = os.tmpname()
    os.remove(dir)
    assert(os.execute(("mkdir -p %s/steer && cp build/%s/steer/core.so %s/steer/"):format(dir, this, dir)))
    local code = ([[
package.cpath = "build/%s/?.so;;"
local first = require "steer"
local w = first.world{}
w:add{ x = 1 }
for k in pairs(package.loaded) do if k:match("^steer") then package.loaded[k] = nil end end
package.cpath = %q
local ok, err = pcall(require, "steer")
if ok then print("LOADED") os.exit(1) end
w:step(0.1) -- the first build's world still steps with its own methods
assert(#w == 1)
io.write(tostring(err))
]]):format(this, dir .. "/?.so")
    local ok, out = support.run_child(code)
    os.execute(("rm -rf %s"):format(dir))
    assert(ok, out)
    has(out, "steer: another build of steer is already loaded in this Lua state; its types share their names")
    has(out, "load steer from one place per Lua state")
    -- the same build again (package.loaded cleared) loads
    ok, out = support.run_child(([[
package.cpath = "build/%s/?.so;;"
require "steer"
for k in pairs(package.loaded) do if k:match("^steer") then package.loaded[k] = nil end end
local again = require "steer"
io.write(type(again.world))
]]):format(this))
    assert(ok, out)
    assert.matches("^function", out)
  end)

  it("a file that is no shared object: another platform or damaged", function()
    local dir = os.tmpname()
    os.remove(dir)
    assert(os.execute(("mkdir -p %s/steer"):format(dir)))
    local f = assert(io.open(dir .. "/steer/core.so", "w"))
    f:write("not an ELF file\n")
    f:close()
    local out = message(dir .. "/?.so")
    os.execute(("rm -rf %s"):format(dir))
    has(out, ("steer: %s/steer/core.so could not be loaded: is it built for another platform, or damaged?"):format(dir))
    has(out, "Build it on this platform: `make`")
  end)

  describe("in LÖVE", function()
    local function fake_love(source, real_dir)
      return ([[{ filesystem = {
  getSource = function() return %q end,
  isFused = function() return false end,
  getRealDirectory = function(path) assert(path == "steer/core.so") return %s end,
} }]]):format(source, real_dir and ("%q"):format(real_dir) or "nil")
    end

    it("a game folder without steer/core.so: copy the LuaJIT build there", function()
      local out = message("/nonexistent/?.so", fake_love("/games/guard"))
      has(out, "steer: steer.core was not found in the game folder (/games/guard).")
      has(out, "Copy the LuaJIT build, build/luajit/steer/core.so, to steer/core.so in the game folder.")
    end)

    it("a zipped .love: no C module from inside it; ship a folder or beside it", function()
      local out = message("/nonexistent/?.so", fake_love("/games/guard.love", "/games/guard.love"))
      has(out, "LÖVE cannot load a C module from inside a zipped .love")
      has(out, "or a fused game (/games/guard.love).")
      has(out, 'love.filesystem.getSourceBaseDirectory() .. "/?.so" to package.cpath')
    end)

    it("a game folder holding a build for another Lua: the LuaJIT build", function()
      if not other_so then return pending(other .. " was not built") end
      local dir = os.tmpname()
      os.remove(dir)
      assert(os.execute(("mkdir -p %s/steer && cp %s %s/steer/core.so"):format(dir, other_so, dir)))
      local out = message("/nonexistent/?.so", fake_love(dir, dir))
      os.execute(("rm -rf %s"):format(dir))
      has(out, ("steer: %s/steer/core.so was built for another Lua than this"):format(dir))
      has(out, this == "lua5.4" and "(it lacks lua_tointeger)" or "(it lacks lua_absindex)")
      has(out, "LÖVE runs LuaJIT: copy the LuaJIT build, build/luajit/steer/core.so, to steer/core.so in the game folder.")
    end)
  end)
end)
