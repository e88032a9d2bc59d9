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

  it("passes luarocks lint; its source is a git+file url (no published repository)", function()
    -- (without the sanitizer runtime `make asan` preloads: luarocks's tools
    -- are not ours to check for leaks)
    local out = io.popen("env -u LD_PRELOAD luarocks lint rockspec/steer-scm-1.rockspec 2>&1; echo EXIT=$?")
      :read("*a")
    assert.truthy(out:find("EXIT=0", 1, true), out)
    assert.truthy(spec.source.url:find("^git%+file:///"), spec.source.url)
  end)

  it("the README's install blocks build for the interpreter they run", function()
    local f = assert(io.open("README.md"))
    local install = f:read("*a"):match("\n## Install\n(.-)\n## ")
    f:close()
    local blocks, current = {}, nil
    for line in (install .. "\n"):gmatch("([^\n]*)\n") do
      if line:find("^    ") then
        if not current then current = ""; blocks[#blocks + 1] = true end
        current = current .. line .. "\n"
        blocks[#blocks] = current
      else
        current = nil
      end
    end
    assert.are.equal(2, #blocks)
    local want = {
      ["lua5.4"] = { "--lua-version=5.4 --local make rockspec/steer-scm-1.rockspec\n", "--lua-version=5.4 path" },
      luajit = { "--lua-version=5.1 --local make rockspec/steer-scm-1.rockspec LUA_INCDIR=/usr/include/luajit-2.1\n",
        "--lua-version=5.1 path" },
    }
    for _, block in ipairs(blocks) do
      local lua = block:match("\n    (%S+) %-e [^\n]*\n$")
      assert.truthy(want[lua], block)
      for _, part in ipairs(want[lua]) do assert.truthy(block:find(part, 1, true), part) end
      want[lua] = nil
    end
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
