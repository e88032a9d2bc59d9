-- docs/API.md is the project's reference (issue 10). Every public name the
-- annotations declare - in lua/steer/meta.lua and in steer.debug's own
-- annotations - must be mentioned in it inside backticks, written the way a
-- caller writes it (`steer.seek`, `world:add`, `a:seek`, `a.max_speed`,
-- `path:point`, `view:draw`; fields of option tables and type names as
-- themselves), and so must every function and type of csrc/steer.h. Its
-- numbered sections 1-5 keep the titles that comments cite ("docs/API.md
-- section 3"), and every ```lua block of it runs.

local function read(path)
  local f = assert(io.open(path, "r"))
  local text = f:read("*a")
  f:close()
  return text
end

-- ---- the names the annotations declare ------------------------------------------

--- Parses LuaCATS text into a list of names:
--   { kind = "class" | "alias" | "field" | "function", class = ..., name = ...,
--     sep = "." | ":" (functions), line = n, source = ... }
-- A function's class is the class of the local table it is defined on
-- (`---@class steer.World` then `local World = {}` then `function World:add`).
local function declared(text, source)
  local names, locals = {}, {}
  local class
  local n = 0
  local function add(entry)
    entry.line, entry.source = n, source
    names[#names + 1] = entry
  end
  for line in (text .. "\n"):gmatch("(.-)\r?\n") do
    n = n + 1
    local doc = line:match("^%s*%-%-%-(.*)$")
    if doc then
      local c = doc:match("^@class%s+([%w_%.]+)")
      if c then
        class = c
        add{ kind = "class", name = c }
      end
      local alias = doc:match("^@alias%s+([%w_%.]+)")
      if alias then add{ kind = "alias", name = alias } end
      local field = doc:match("^@field%s+([%w_]+)%??%s")
      if field and class then add{ kind = "field", class = class, name = field } end
    else
      local var = line:match("^local%s+([%w_]+)%s*=")
      if var and class then locals[var] = class end
      local owner, sep, name = line:match("^function%s+([%w_]+)([%.:])([%w_]+)%s*%(")
      if owner then
        add{ kind = "function", class = locals[owner] or owner, sep = sep, name = name }
      end
      class = nil
    end
  end
  return names
end

-- How callers write a function or field of each class. A class not listed
-- here is accepted as any `something:name` / `something.name`.
local FUNCTION_PREFIX = {
  steer = "steer.", ["steer.testing"] = "steer.testing.", ["steer.ffi"] = "steer.ffi.",
  ["steer.World"] = "world:", ["steer.Agent"] = "a:", ["steer.Path"] = "path:",
  ["steer.debug"] = "sdebug.", ["steer.DebugView"] = "view:",
}
-- Fields of these classes are read on an object; fields of the others
-- (option and definition tables) are keys, mentioned as themselves.
local FIELD_PREFIX = {
  steer = "steer.", ["steer.testing"] = "steer.testing.", ["steer.ffi"] = "steer.ffi.",
  ["steer.Agent"] = "a.", ["steer.debug"] = "sdebug.", ["steer.DebugView"] = "view.",
}

--- The inline code spans of markdown text (fenced blocks left out).
local function code_spans(text)
  text = text:gsub("\n```.-\n```", "\n")
  local spans = {}
  for span in text:gmatch("`([^`\n]+)`") do spans[#spans + 1] = span end
  return spans
end

-- Is `word` in `span`, not glued to other identifier characters? After it:
-- none of [%w_]. Before it: none of [%w_] (nor "." for a dotted type name),
-- or, with `receiver`, exactly one of [%w_] (any `obj:name`).
local function mentions(span, word, dotted, receiver)
  local from = 1
  while true do
    local s, e = span:find(word, from, true)
    if not s then return false end
    local before, after = span:sub(s - 1, s - 1), span:sub(e + 1, e + 1)
    local glued = s > 1 and (before:match("[%w_]") or (dotted and before == "."))
    local fits
    if receiver then fits = s > 1 and before:match("[%w_]") ~= nil else fits = not glued end
    if fits and not after:match("^[%w_]") then return true end
    from = s + 1
  end
end

--- How a name must be written in the reference: its spelling, whether it is a
-- dotted type name, and whether it needs some receiver (`obj:name`,
-- `obj.name`) in front, for classes without a known one.
local function spelling(entry)
  if entry.kind == "class" or entry.kind == "alias" then return entry.name, true, false end
  if entry.kind == "function" then
    local prefix = FUNCTION_PREFIX[entry.class]
    if prefix then return prefix .. entry.name, false, false end
    return entry.sep .. entry.name, false, true
  end
  return (FIELD_PREFIX[entry.class] or "") .. entry.name, false, false
end

--- The names of `names` that `doc` (markdown) does not mention, as
-- readable strings, sorted.
local function missing(names, doc)
  local spans = code_spans(doc)
  local out, seen = {}, {}
  for _, entry in ipairs(names) do
    local word, dotted, receiver = spelling(entry)
    local found = false
    for _, span in ipairs(spans) do
      if mentions(span, word, dotted, receiver) then
        found = true
        break
      end
    end
    if not found then
      local what = entry.kind == "function" and (entry.class .. entry.sep .. entry.name)
        or entry.kind == "field" and (entry.class .. "." .. entry.name)
        or entry.name
      local line = ("%s %s (%s:%d), written `%s%s`"):format(entry.kind, what, entry.source,
        entry.line, receiver and "obj" or "", word)
      if not seen[line] then
        seen[line] = true
        out[#out + 1] = line
      end
    end
  end
  table.sort(out)
  return out
end

-- ---- the ```lua blocks ------------------------------------------------------------

--- Every ```lua block: { code =, line =, pending = reason or nil }. A block
-- right after a line "<!-- pending: reason -->" shows behavior that another
-- branch brings (see the reason); it may fail until that is merged.
local function blocks(doc)
  local found = {}
  local pos = 1
  while true do
    local s, e = doc:find("\n```lua\n", pos, true)
    if not s then break end
    local close = assert(doc:find("\n```", e, true), "unclosed ```lua block")
    local before = doc:sub(1, s - 1):match("([^\n]*)$")
    local _, lines = doc:sub(1, s):gsub("\n", "")
    found[#found + 1] = { code = doc:sub(e + 1, close - 1), line = lines + 2,
      pending = before:match("^<!%-%- pending: (.-) %-%->$") }
    pos = close + 4
  end
  return found
end

local function run_block(code, name)
  local env = setmetatable({ print = function() end }, { __index = _G })
  local chunk, err
  if setfenv then
    chunk, err = loadstring(code, name)
    if chunk then setfenv(chunk, env) end
  else
    chunk, err = load(code, name, "t", env)
  end
  if not chunk then return false, err end
  return pcall(chunk)
end

-- ---- the specs --------------------------------------------------------------------

describe("docs/API.md", function()
  local doc = read("docs/API.md")
  -- the specs run from the repository's root (spec/run.sh)
  local names = declared(read("lua/steer/meta.lua"), "meta.lua")
  for _, entry in ipairs(declared(read("lua/steer/debug.lua"), "debug.lua")) do
    names[#names + 1] = entry
  end

  it("reads the annotations' names", function()
    -- one of each kind, so that an empty parse cannot pass
    local have = {}
    for _, e in ipairs(names) do
      have[e.kind .. " " .. (e.class and e.class .. (e.sep or ".") or "") .. e.name] = true
    end
    for _, key in ipairs{ "function steer.seek", "function steer.World:add",
        "function steer.Agent:set_target", "function steer.Path:point",
        "function steer.testing.simd", "function steer.ffi.enable",
        "function steer.debug.new", "function steer.DebugView:draw",
        "field steer.Agent.wander_angle", "field steer.WorldDef.capacity",
        "field steer.limit", "class steer.BehaviorSpec", "alias steer.Which" } do
      assert.is_true(have[key], key .. " not read from the annotations")
    end
    assert.is_true(#names >= 200)
  end)

  it("mentions every annotated name", function()
    local list = missing(names, doc)
    assert(#list == 0, "docs/API.md does not mention:\n  " .. table.concat(list, "\n  "))
  end)

  it("mentions every function and type of csrc/steer.h", function()
    local header = read("csrc/steer.h"):gsub("\n#[^\n]*", "\n") -- not the macros
    local spans = code_spans(doc)
    local wanted, gaps = {}, {}
    -- STEER_API <result type> <name>(, over one or more lines
    for name in header:gmatch("STEER_API[^;(]-([%w_]+)%s*%(") do wanted[#wanted + 1] = name end
    for name in header:gmatch("typedef[^;]-%f[%w_](steer_[%w_]+)%s*[;{)]") do wanted[#wanted + 1] = name end
    for name in header:gmatch("}%s*(steer_[%w_]+)%s*;") do wanted[#wanted + 1] = name end
    assert.is_true(#wanted >= 100, "read only " .. #wanted .. " names from steer.h")
    for _, name in ipairs(wanted) do
      local found = false
      for _, span in ipairs(spans) do
        if mentions(span, name) then found = true break end
      end
      -- the declarations of section 14 are C blocks: a typedef there counts
      if not found and not doc:find("\n```c\n[^`]-" .. name:gsub("%p", "%%%0"), 1) then
        gaps[#gaps + 1] = name
      end
    end
    table.sort(gaps)
    assert(#gaps == 0, "docs/API.md does not mention:\n  " .. table.concat(gaps, "\n  "))
  end)

  it("keeps the numbered sections that comments cite", function()
    for _, title in ipairs{ "## 1. The model every behavior shares",
        "## 2. Stateless force functions", "## 3. Worlds and agents",
        "## 4. Behavior programs and `world:step`", "## 5. Errors",
        "## 14. The C API: `csrc/steer.h`" } do
      assert.truthy(doc:find("\n" .. title .. "\n", 1, true), "missing heading: " .. title)
    end
  end)

  describe("the checker", function()
    local meta = table.concat({
      "---@alias steer.Point number[]",
      "---@class steer",
      "---@field limit number",
      "local steer = {}",
      "---@class steer.WorldDef",
      "---@field cell_size? number",
      "---@field [string] any",
      "---@class steer.World",
      "local World = {}",
      "---Adds.",
      "function World:add(def) end",
      "---@class steer.Agent",
      "---@field max_speed number",
      "local Agent = {}",
      "function Agent:seek(x, y) end",
      "function steer.seek() end",
      "---@class steer.Group",
      "local Group = {}",
      "function Group:join(a) end",
    }, "\n")
    local names_ = declared(meta, "fake")
    local complete = table.concat({
      "The `steer` module: `steer.seek(...)`, `steer.limit`; `steer.World` and",
      "`steer.Agent` objects, `steer.WorldDef` with `cell_size`; `steer.Point`.",
      "`world:add{}` adds; `a:seek(x, y)`; `a.max_speed`; `g:join(a)`; `steer.Group`.",
    }, "\n")

    it("passes a reference that mentions every name", function()
      assert.are.same({}, missing(names_, complete))
    end)

    it("reports each missing name, and only mentions in backticks count", function()
      local doc_ = complete
        :gsub("`steer.seek%(...%)`", "steer.seek(...)")   -- not in backticks
        :gsub("`a.max_speed`", "`a.max_speeds`")          -- another name
        :gsub("`world:add{}`", "`hunter:add{}`")          -- not how a world is written
        :gsub("`steer.WorldDef`", "`steer.WorldDefs`")
        :gsub("`g:join%(a%)`", "`join(a)`")
      assert.are.same({
        "class steer.WorldDef (fake:5), written `steer.WorldDef`",
        "field steer.Agent.max_speed (fake:13), written `a.max_speed`",
        "function steer.Group:join (fake:19), written `obj:join`",
        "function steer.World:add (fake:11), written `world:add`",
        "function steer.seek (fake:16), written `steer.seek`",
      }, missing(names_, doc_))
    end)

    it("does not count a mention inside a fenced block", function()
      local doc_ = complete:gsub("`steer.limit`", "limit") .. "\n```lua\nprint(steer.limit)\n```\n"
      assert.are.same({ "field steer.limit (fake:3), written `steer.limit`" },
        missing(names_, doc_))
    end)
  end)

  describe("examples", function()
    local all = blocks(doc)

    it("are there", function()
      assert.is_true(#all >= 20)
    end)

    for k, block in ipairs(all) do
      local name = ("docs/API.md block %d (line %d)"):format(k, block.line)
      it(name .. " runs", function()
        local ok, err = run_block(block.code, name)
        if block.pending then
          if ok then
            return pending(name .. " passes now: remove its marker <!-- pending: "
              .. block.pending .. " -->")
          end
          return pending(name .. " waits for " .. block.pending .. ": " .. tostring(err))
        end
        assert(ok, err)
      end)
    end
  end)
end)
