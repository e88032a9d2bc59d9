-- Every ```lua block of README.md runs without error (each in a fresh
-- environment), so the documentation stays true.
local function blocks()
  local f = assert(io.open("README.md"))
  local text = f:read("*a")
  f:close()
  local found = {}
  for code in text:gmatch("\n```lua\n(.-)\n```") do found[#found + 1] = code end
  return found
end

describe("README.md", function()
  local all = blocks()

  it("has runnable examples", function()
    assert.is_true(#all >= 6)
  end)

  for k, code in ipairs(all) do
    local title = code:match("^[^\n]*\n[^\n]*\n([^\n]*)") or ""
    it(("block %d runs (%s)"):format(k, title:sub(1, 40)), function()
      local env = setmetatable({ print = function() end }, { __index = _G })
      local chunk = assert((loadstring or load)(code, "README block " .. k))
      if setfenv then setfenv(chunk, env) else
        chunk = assert(load(code, "README block " .. k, "t", env))
      end
      chunk()
    end)
  end
end)
