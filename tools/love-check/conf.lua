-- The screenshot checker needs no window, graphics or sound: only love.image.
function love.conf(t)
  t.identity = "steer-love-check"
  t.window = false
  for _, m in ipairs{ "audio", "sound", "graphics", "window", "joystick",
      "video", "physics", "mouse", "keyboard", "touch", "font" } do
    t.modules[m] = false
  end
end
