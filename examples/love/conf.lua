-- LÖVE 11 configuration of the steer demo.
local testing = false
for _, a in ipairs(arg or {}) do
  if a == "--test" then testing = true end
end

function love.conf(t)
  t.identity = "steer-demo"
  t.version = "11.4"
  t.window.title = "steer - steering behaviors"
  t.window.width = 960
  t.window.height = 540
  t.window.msaa = 4
  -- the test run steps a fixed dt per frame: waiting for vsync only slows it
  t.window.vsync = testing and 0 or 1
  -- no sound here (and none needed): keeps LÖVE from opening an audio device
  t.modules.audio = false
  t.modules.sound = false
  t.modules.joystick = false
  t.modules.video = false
  t.modules.physics = false
end
