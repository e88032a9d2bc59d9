-- Checks the screenshots of a test run of examples/love:
--   love tools/love-check DIR SCENES
-- For each scene k in 1..SCENES it reads DIR/scene<k>-a.png and -b.png
-- (taken some frames apart) and checks, from the pixels alone, that agents
-- were drawn in both (the demo draws agents, and nothing else, in warm
-- orange/yellow) and that they moved (the agent pixels differ). Prints one
-- line per check and "N passed, N failed" last; exits 1 on any failure.
local dir, scenes
local MIN_AGENT_PIXELS = 40 -- a couple of agents drawn
local MIN_MOVED_PIXELS = 20 -- some agent pixels changed place
local HUD_TOP, HUD_BOTTOM = 24, 24 -- text bars (the timings change every run)

local function load_png(path)
  local file = io.open(path, "rb")
  if not file then return nil, "missing " .. path end
  local bytes = file:read("*a")
  file:close()
  local ok, image = pcall(love.image.newImageData,
    love.filesystem.newFileData(bytes, path))
  if not ok then return nil, "not a PNG: " .. path .. " (" .. tostring(image) .. ")" end
  return image
end

-- agents are warm: red high, blue low, green between (not the red of
-- the debug force lines, not the white of text, not the blue of obstacles)
local function warm(r, g, b)
  return r >= 0.7 and g >= 0.3 and g <= 0.9 and b <= 0.45 and r - b >= 0.4
end

-- a boolean map of warm pixels, and their count, outside the text bars
local function agent_pixels(image)
  local w, h = image:getDimensions()
  local map, count = {}, 0
  for y = HUD_TOP, h - 1 - HUD_BOTTOM do
    for x = 0, w - 1 do
      local r, g, b = image:getPixel(x, y)
      if warm(r, g, b) then
        map[y * w + x] = true
        count = count + 1
      end
    end
  end
  return map, count
end

local passed, failed = 0, 0
local function check(ok, what)
  if ok then passed = passed + 1 else failed = failed + 1 end
  print((ok and "ok   " or "FAIL ") .. what)
end

function love.load(args)
  dir, scenes = args[1], tonumber(args[2] or "5")
  if not dir then
    print("usage: love tools/love-check DIR [SCENES]")
    print("0 passed, 1 failed")
    love.event.quit(1)
    return
  end
  for k = 1, scenes do
    local a, err_a = load_png(("%s/scene%d-a.png"):format(dir, k))
    local b, err_b = load_png(("%s/scene%d-b.png"):format(dir, k))
    if not (a and b) then
      check(false, ("scene %d: %s"):format(k, err_a or err_b))
      check(false, ("scene %d: cannot tell whether agents moved"):format(k))
    else
      local map_a, count_a = agent_pixels(a)
      local map_b, count_b = agent_pixels(b)
      check(count_a >= MIN_AGENT_PIXELS and count_b >= MIN_AGENT_PIXELS,
        ("scene %d: agents drawn (%d and %d agent pixels, need %d)"):format(
          k, count_a, count_b, MIN_AGENT_PIXELS))
      local moved = 0
      for i in pairs(map_a) do if not map_b[i] then moved = moved + 1 end end
      for i in pairs(map_b) do if not map_a[i] then moved = moved + 1 end end
      check(moved >= MIN_MOVED_PIXELS,
        ("scene %d: agents moved between the captures (%d agent pixels differ, need %d)")
          :format(k, moved, MIN_MOVED_PIXELS))
    end
  end
  print(("%d passed, %d failed"):format(passed, failed))
  love.event.quit(failed == 0 and 0 or 1)
end
