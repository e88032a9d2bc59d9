-- The rockspec stays in step with the sources and the Lua modules.
describe("rockspec/steer-scm-1.rockspec", function()
  local spec = {}
  local chunk = assert(loadfile("rockspec/steer-scm-1.rockspec", "t", spec))
  if setfenv then setfenv(chunk, spec) end
  chunk()

  local function listing(cmd)
    local found = {}
    for line in assert(io.popen(cmd)):lines() do found[#found + 1] = line end
    table.sort(found)
    return found
  end

  it("builds steer.core from every C file of csrc/", function()
    local sources = {}
    for _, s in ipairs(spec.build.modules["steer.core"].sources) do sources[#sources + 1] = s end
    table.sort(sources)
    assert.are.same(listing("ls csrc/*.c csrc/binding/*.c"), sources)
  end)

  it("installs every Lua module of lua/", function()
    local modules = {}
    for name, src in pairs(spec.build.modules) do
      if type(src) == "string" then modules[#modules + 1] = src end
      if type(src) == "string" then
        local expected = name:gsub("%.", "/")
        assert.is_true(src == "lua/" .. expected .. ".lua" or src == "lua/" .. expected .. "/init.lua",
          name .. " -> " .. src)
      end
    end
    table.sort(modules)
    assert.are.same(listing("find lua -name '*.lua'"), modules)
  end)
end)
