--- steer: steering behaviors and flocking for game AI.
-- The C part (steer.core) does the work; this module is what users require.

-- Which build of steer.core this interpreter needs, and the make target that
-- gives it: LuaJIT (and so LÖVE) loads build/luajit/, Lua 5.4 build/lua5.4/.
local function wanted_build()
  if jit then return "luajit", jit.version end
  local v = _VERSION:match("%d+%.%d+") or "?"
  return "lua" .. v, _VERSION
end

-- The Lua API symbol a module built for another interpreter lacks, named in
-- the loader's message (Linux: "undefined symbol: x", macOS: "symbol not
-- found ... '_x'"), or nil.
local function missing_symbol(message)
  return message:match("undefined symbol: ([%w_]+)")
    or message:match("[Ss]ymbol not found.-'_?([%w_]+)'")
end

--- What to do when steer.core does not load: `problem` (the message of
-- require) turned into advice. `love` is LÖVE's module table, when in LÖVE.
local function advice(problem, love)
  local build, interpreter = wanted_build()
  local so = "steer/core.so (core.dll on Windows)"
  local make = ("`make` in steer's checkout builds it as build/%s/steer/core.so"):format(build)
  if build == "lua5.1" then make = make .. " (`make LUAS=lua5.1`)" end
  local fs = type(love) == "table" and love.filesystem or nil
  local lines = {}
  local function say(fmt, ...) lines[#lines + 1] = fmt:format(...) end

  local file = problem:match("error loading module 'steer%.core' from file '([^']*)'")
  if not file and fs and fs.getRealDirectory then
    -- LÖVE's own loader reports a module of the game folder that fails to
    -- load as "not found": load it by hand to learn why
    local source = fs.getSource and fs.getSource() or ""
    local zipped = (fs.isFused and fs.isFused()) or source:match("%.love$")
    local dir = not zipped and fs.getRealDirectory("steer/core.so")
    if dir then
      file = dir .. "/steer/core.so"
      local _, err = package.loadlib(file, "luaopen_steer_core")
      problem = tostring(err or problem)
    elseif zipped then
      say("steer: steer.core was not found: LÖVE cannot load a C module from inside a zipped .love")
      say("or a fused game (%s). Ship the game as a folder with steer/core.so in it, or put", source)
      say("steer/core.so beside the .love or the executable and add")
      say("love.filesystem.getSourceBaseDirectory() .. \"/?.so\" to package.cpath before require \"steer\".")
    else
      say("steer: steer.core was not found in the game folder (%s).", source)
      say("Copy the LuaJIT build, build/luajit/steer/core.so, to steer/core.so in the game folder.")
    end
  end

  local symbol = file and missing_symbol(problem)
  if symbol then
    say("steer: %s was built for another Lua than this %s (it lacks %s).", file, interpreter, symbol)
    if fs then
      say("LÖVE runs LuaJIT: copy the LuaJIT build, build/luajit/steer/core.so, to steer/core.so in the game folder.")
    else
      say("Use the %s build: %s; put it on package.cpath as %s.", build, make, so)
    end
  elseif file then
    say("steer: %s could not be loaded: is it built for another platform, or damaged?", file)
    say("Build it on this platform: %s.", make)
  elseif #lines == 0 then
    say("steer: the C module steer.core, %s, was not found on package.cpath.", so)
    say("This is %s: %s; add build/%s/?.so to package.cpath (LUA_CPATH),", interpreter, make, build)
    say("or install the rock (README, Install), or copy it to steer/core.so beside steer/init.lua")
    say("in a folder on package.cpath.")
  end
  say("(require said: %s)", problem)
  return table.concat(lines, "\n")
end

local loaded, core = pcall(require, "steer.core")
if not loaded then
  -- loaded, but refused: a different build is in this Lua state already
  local twice = tostring(core):match("steer%.core: (another build of steer .*)")
  if twice then
    error(("steer: %s; its types share their names with this one's, so load steer from one"
      .. " place per Lua state (clearing package.loaded does not unload a C module)."):format(twice), 0)
  end
  error(advice(tostring(core), rawget(_G, "love")), 0)
end

local steer = {}
for k, v in pairs(core) do
  if type(k) ~= "string" or k:sub(1, 1) ~= "_" then steer[k] = v end -- _ffi: internal
end

--- The LuaJIT FFI fast path for per-agent calls (lua/steer/ffi.lua): its
-- control table where it is active, false elsewhere (Lua 5.x, JIT off).
steer.ffi = require "steer.ffi"

return steer
