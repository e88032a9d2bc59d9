-- world:add_many{ ..., spread = r } (docs/API.md section 7): n agents spread
-- over a disc of radius r around their x, y (a sunflower spiral), so that a
-- crowd spawned at one door does not stack on one point, where separation
-- (which ignores a neighbor on the agent's own point) would never part it.
local steer = require "steer"

local GOLDEN = math.pi * (3 - math.sqrt(5))

describe("add_many spread", function()
  it("puts agent k at r sqrt((k + 1/2) / n) from its point, k golden angles round", function()
    local w = steer.world{}
    assert.equal(4, w:add_many{ n = 4, x = 10, y = -5, spread = 2 })
    local ids = w:ids()
    for k = 0, 3 do
      local a = w:get(ids[k + 1])
      local d, t = 2 * math.sqrt((k + 0.5) / 4), GOLDEN * k
      assert.is_true(math.abs(a.x - (10 + d * math.cos(t))) < 1e-12, "x of agent " .. k)
      assert.is_true(math.abs(a.y - (-5 + d * math.sin(t))) < 1e-12, "y of agent " .. k)
    end
    -- by hand: agent 0 at 2 sqrt(1/8) = 0.7071 straight along +x
    assert.is_true(math.abs(w:get(ids[1]).x - (10 + math.sqrt(0.5))) < 1e-12)
    assert.equal(-5, w:get(ids[1]).y)
  end)

  it("adds the offset to each agent's own x, y (columns too), and 0 leaves them", function()
    local w = steer.world{}
    w:add_many{ x = { 0, 100 }, y = 7, spread = 1 }
    local ids = w:ids()
    local b = w:get(ids[2])
    local d = math.sqrt(1.5 / 2)
    assert.is_true(math.abs(b.x - (100 + d * math.cos(GOLDEN))) < 1e-12)
    assert.is_true(math.abs(b.y - (7 + d * math.sin(GOLDEN))) < 1e-12)
    w:add_many{ n = 3, x = 5, y = 5, spread = 0 }
    for _, id in ipairs(w:ids()) do
      local a = w:get(id)
      if id ~= ids[1] and id ~= ids[2] then assert.are.same({ 5, 5 }, { a.x, a.y }) end
    end
  end)

  it("keeps n agents apart inside the disc", function()
    local w = steer.world{}
    local n, r = 200, 10
    w:add_many{ n = n, x = 0, y = 0, spread = r }
    local pos = w:positions()
    local closest = math.huge
    for i = 1, 2 * n, 2 do
      assert.is_true(math.sqrt(pos[i] ^ 2 + pos[i + 1] ^ 2) < r)
      for j = i + 2, 2 * n, 2 do
        closest = math.min(closest, math.sqrt((pos[i] - pos[j]) ^ 2 + (pos[i + 1] - pos[j + 1]) ^ 2))
      end
    end
    -- an even spread gives each agent about pi r^2 / n of area: 1.57 here
    assert.is_true(closest > 0.5, "closest pair " .. closest)
  end)

  it("parts a crowd at a door that stays stacked without it", function()
    local function crowd(spread)
      local w = steer.world{ bounds = { 400, 200 }, cell_size = 16 }
      w:add_many({ n = 10, x = 20, y = 100, spread = spread, radius = 5, max_speed = 30, max_force = 200 },
        steer.program{ { "seek", target = { 380, 100 } },
                       { "separation", radius = 12, falloff = "linear", weight = 2 } })
      for _ = 1, 300 do w:step(1 / 60) end
      local pos, closest = w:positions(), math.huge
      for i = 1, #pos, 2 do
        for j = i + 2, #pos, 2 do
          closest = math.min(closest, math.sqrt((pos[i] - pos[j]) ^ 2 + (pos[i + 1] - pos[j + 1]) ^ 2))
        end
      end
      return closest
    end
    assert.equal(0, crowd(nil))           -- one point: separation never parts them
    assert.is_true(crowd(6) > 10)         -- two radii apart and more after 5 s
  end)

  it("checks spread and adds nothing on an error", function()
    local w = steer.world{}
    local function refused(pattern, t)
      local ok, err = pcall(w.add_many, w, t)
      assert.is_false(ok)
      assert.matches(pattern, err)
      assert.equal(0, #w)
    end
    refused("field 'spread': non%-negative number expected, got %-1", { n = 2, spread = -1 })
    refused("field 'spread': number expected, got string", { n = 2, spread = "1" })
    refused("field 'spread': non%-negative number expected, got inf", { n = 2, spread = 1 / 0 })
    refused("field 'spread': 1e%+149 puts agent 1 beyond 1e150", { n = 2, x = 1e150, spread = 1e149 })
    refused("unknown field 'sprad': did you mean 'spread'%?", { n = 2, sprad = 1 })
    refused("unknown field 'bogus' %(columns: the fields of world:add; n, spread%)", { n = 2, bogus = 1 })
  end)
end)
