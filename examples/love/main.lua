-- steer demo for LÖVE 11: nine scenes of steering behaviors.
--   love examples/love                 (from the repository, after `make`)
--   love examples/love --test DIR      (scripted run that saves screenshots)
-- Keys: 1-9 scenes (6: f draws the field, 8: m switches the avoidance), space pause, d debug overlay, r restart, esc quit;
-- click adds agents.

-- Find steer: first beside main.lua (a shipped copy holds steer/core.so and
-- steer/*.lua), then in the repository (build/luajit/ and lua/).
local src = love.filesystem.getSource()
package.cpath = table.concat({
  src .. "/?.so",
  src .. "/../../build/luajit/?.so",
  package.cpath,
}, ";")
package.path = table.concat({
  src .. "/?.lua", src .. "/?/init.lua",
  src .. "/../../lua/?.lua", src .. "/../../lua/?/init.lua",
  package.path,
}, ";")

local options = { seed = 1 }
do
  local i = 1
  while arg[i] do
    local a = arg[i]
    if a == "--test" then
      options.test, i = arg[i + 1], i + 1
    elseif a == "--frames" then
      options.frames, i = tonumber(arg[i + 1]), i + 1 -- for every scene
    elseif a == "--only" then
      options.only, i = tonumber(arg[i + 1]), i + 1
    elseif a == "--seed" then
      options.seed, i = tonumber(arg[i + 1]), i + 1
    end
    i = i + 1
  end
end

if options.test then
  -- a test run must end, never wait on LÖVE's error screen
  function love.errorhandler(msg)
    io.stderr:write("steer demo error: ", tostring(msg), "\n",
      debug.traceback("", 2), "\n")
    io.stderr:flush()
    os.exit(3)
  end
end

local loaded, steer = pcall(require, "steer")
if not loaded then
  local message = "steer not found: " .. tostring(steer) ..
    "\n\nBuild it with `make` at the repository root, or ship steer/core.so" ..
    " (the LuaJIT build) and steer/*.lua beside main.lua."
  if options.test then love.errorhandler(message) end
  function love.draw() love.graphics.printf(message, 20, 20, 920) end
  return
end
print("steer " .. steer.version .. ": steer.core from " ..
  tostring(package.searchpath("steer.core", package.cpath)))

local sdebug = require "steer.debug"
local gfx = require "gfx"

local scenes = {
  require "scenes.flock",
  require "scenes.chase",
  require "scenes.path",
  require "scenes.combine",
  require "scenes.guard",
  require "scenes.nav",
  require "scenes.tactics",
  require "scenes.crowds",
  require "scenes.pasture",
}

local current, index, paused, debug_on

-- a moving average over the last 30 frames
local function average()
  local samples, sum = {}, 0
  return function(v)
    samples[#samples + 1] = v
    sum = sum + v
    if #samples > 30 then sum = sum - table.remove(samples, 1) end
    return sum / #samples
  end
end
local step_ms, draw_ms, step_average, draw_average = 0, 0, average(), average()

-- the debug overlay of the current scene on or off
local function set_debug(on)
  debug_on = on
  local def = scenes[index]
  current:set_debug(on and sdebug.new{
    line_width = 1.2 / current.cam.scale,
    vector_scale = def.vector_scale or 0.4,
    force_scale = def.force_scale or 0.25,
  } or nil)
end

local function load_scene(k, want_debug)
  index = k
  current = scenes[k].new(love.math.newRandomGenerator(options.seed))
  current.scripted = options.test ~= nil -- no mouse in a test run
  if want_debug == nil then want_debug = scenes[k].debug_default end
  set_debug(want_debug and true or false)
  step_ms, draw_ms, step_average, draw_average = 0, 0, average(), average()
end

-- ---- the scripted test run ------------------------------------------------

local test = { frame = 0, captures = {} }

local function save_png(image, path)
  local file = assert(io.open(path, "wb"))
  file:write(image:encode("png"):getString())
  file:close()
end

-- in test runs: a click at frame 10, the scene's test keys at their frames,
-- captures at half the scene's frames and at the end
local function test_frame()
  test.frame = test.frame + 1
  local f = test.frame
  local frames = options.frames or scenes[index].test_frames or 240
  if f == 10 then
    local at = scenes[index].test_click or {480, 270}
    current:click(at[1], at[2], 1)
  end
  local keys = scenes[index].test_keys -- a scene's own keys, pressed on cue
  if keys and keys[f] then current:key(keys[f]) end
  if f == math.floor(frames / 2) or f == frames then
    local which = f == frames and "b" or "a"
    local name = ("%s/scene%d-%s.png"):format(options.test, index, which)
    love.graphics.captureScreenshot(function(image)
      save_png(image, name)
      print(("captured %s (scene %d %s, %d agents, step %.2f ms, draw %.2f ms, frame %.1f ms)")
        :format(name, index, scenes[index].name, current:count(), step_ms, draw_ms,
          love.timer.getAverageDelta() * 1000))
      if which == "b" then test.next_scene = true end
    end)
  end
end

-- ---- LÖVE callbacks ---------------------------------------------------------

function love.load()
  love.graphics.setBackgroundColor(gfx.background)
  print("crowds drawn " .. (gfx.zero_copy and "from world:columns() (zero copy)"
    or "agent by agent (no FFI fast path: JIT off or not LuaJIT)"))
  load_scene(options.only or 1)
end

function love.update(dt)
  if options.test then
    dt = 1 / 60
    if test.next_scene then
      test.next_scene, test.frame = false, 0
      if index == #scenes or options.only then
        print("test run done")
        love.event.quit(0)
        return
      end
      load_scene(index + 1)
    end
  end
  if paused then return end
  dt = math.min(dt, 1 / 30) -- a slow frame must not tunnel agents through walls
  local t0 = love.timer.getTime()
  current:update(dt)
  step_ms = step_average((love.timer.getTime() - t0) * 1000)
end

local function hud()
  local lg = love.graphics
  -- bands under both lines, opaque enough that walls and agents do not
  -- cut through the text
  lg.setColor(0, 0, 0, 0.85)
  lg.rectangle("fill", 0, 0, lg.getWidth(), 22)
  lg.rectangle("fill", 0, lg.getHeight() - 24, lg.getWidth(), 24)
  local names = {}
  for k, s in ipairs(scenes) do
    names[k] = (k == index and "[" .. s.title .. "]") or s.title
  end
  gfx.text(table.concat(names, "  "), 8, 4)
  local status = ("agents %d   step %.2f ms   draw %.2f ms   %d FPS%s"):format(
    current:count(), step_ms, draw_ms, love.timer.getFPS(), paused and "   PAUSED" or "")
  gfx.text(status, lg.getWidth() - 8 - lg.getFont():getWidth(status), 4)
  local info = current.info and current:info()
  local help = "space pause  d debug  r restart  click add"
  gfx.text(help .. (info and "   |   " .. info or ""), 8, lg.getHeight() - 20, gfx.colors.dim)
end

function love.draw()
  local t0 = love.timer.getTime()
  current:draw()
  draw_ms = draw_average((love.timer.getTime() - t0) * 1000)
  hud()
  if options.test then test_frame() end
end

function love.keypressed(key)
  local k = tonumber(key)
  if k and scenes[k] then
    load_scene(k)
  elseif key == "space" then
    paused = not paused
  elseif key == "d" then
    set_debug(not debug_on)
  elseif key == "r" then
    load_scene(index, debug_on)
  elseif key == "escape" then
    love.event.quit()
  elseif current.key then -- the scene's own keys (scene 6: f, s and l, scene 7: f, scene 8: m, t, g and s)
    current:key(key)
  end
end

function love.mousepressed(x, y, button)
  if button == 1 then current:click(x, y, button) end
end
