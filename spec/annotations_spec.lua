-- Every public function, method and field of the loaded module must carry
-- LuaCATS annotations (lua/steer/meta.lua; steer.debug annotates itself).
-- Names are discovered at run time from the module table and the types'
-- metatables, so adding a method to the binding without annotating it
-- fails here.
local steer = require "steer"
local sdebug = require "steer.debug"

-- ---- reading annotations ----------------------------------------------------

local function read(path)
  local f = assert(io.open(path, "r"))
  local text = f:read("*a")
  f:close()
  return text
end

local function trim(s) return (s:gsub("^%s+", ""):gsub("%s+$", "")) end

--- The type at the start of "TYPE description": up to the first blank
-- outside brackets, going on after a "fun(...):" return colon.
local function type_of(s)
  s = trim(s)
  local depth = 0
  for i = 1, #s do
    local c = s:sub(i, i)
    if c:match("[%(%{%[<]") then
      depth = depth + 1
    elseif c:match("[%)%}%]>]") then
      depth = depth - 1
    elseif c:match("%s") and depth == 0 and s:sub(i - 1, i - 1) ~= ":" and
        s:sub(i - 1, i - 1) ~= "," and s:sub(i - 1, i - 1) ~= "|" then
      return s:sub(1, i - 1)
    end
  end
  return s
end

--- Parses LuaCATS text into
--   classes[name] = { fields = {name = type}, operators = {op = true} }
--   aliases[name] = true
--   functions[full name] = { doc = bool, params = {name = type},
--     param_order = {...}, returns = n, signature = {...}, line = n }
-- Full names read "steer.seek", "steer.World:add": the class of the local
-- table a function is defined on, then "." or ":", then the name.
local function parse(text, source)
  local classes, aliases, functions, locals = {}, {}, {}, {}
  local block, class = {}, nil
  local n = 0
  for line in (text .. "\n"):gmatch("(.-)\r?\n") do
    n = n + 1
    local doc = line:match("^%s*%-%-%-(.*)$")
    if doc then
      block[#block + 1] = doc
      local name = doc:match("^@class%s+([%w_%.]+)")
      if name then
        class = name
        classes[name] = classes[name] or { fields = {}, operators = {} }
      end
      local alias = doc:match("^@alias%s+([%w_%.]+)")
      if alias then aliases[alias] = true end
      local field, ftype = doc:match("^@field%s+([%w_]+%??)%s+(.+)$")
      if not field then field, ftype = doc:match("^@field%s+(%[[^%]]+%])%s+(.+)$") end
      if field and class then classes[class].fields[field:gsub("%?$", "")] = type_of(ftype) end
      local op = doc:match("^@operator%s+([%w_]+)")
      if op and class then classes[class].operators[op] = true end
    else
      local var = line:match("^local%s+([%w_]+)%s*=")
      if var and class then locals[var] = class end
      local owner, sep, name, args = line:match("^function%s+([%w_]+)([%.:])([%w_]+)%s*%(([^)]*)%)")
      if owner then
        local full = (locals[owner] or owner) .. sep .. name
        local f = { doc = false, params = {}, param_order = {}, returns = 0,
          signature = {}, line = n, source = source }
        for arg in args:gmatch("[^,%s]+") do f.signature[#f.signature + 1] = arg end
        for _, d in ipairs(block) do
          local pname, ptype = d:match("^@param%s+([%w_%.]+%??)%s+(%S.*)$")
          if pname then
            pname = pname:gsub("%?$", "")
            f.params[pname] = type_of(ptype)
            f.param_order[#f.param_order + 1] = pname
          elseif d:match("^@return%s") then
            f.returns = f.returns + 1
          elseif not d:match("^@") and trim(d) ~= "" then
            f.doc = true
          end
        end
        functions[full] = f
      end
      block, class = {}, nil
    end
  end
  return { classes = classes, aliases = aliases, functions = functions }
end

--- Merges parsed annotation sets.
local function merge(...)
  local all = { classes = {}, aliases = {}, functions = {} }
  for _, set in ipairs{...} do
    for _, part in ipairs{ "classes", "aliases", "functions" } do
      for k, v in pairs(set[part]) do all[part][k] = v end
    end
  end
  return all
end

-- ---- what the loaded module exposes -------------------------------------------

-- the key table behind a C __index closure (steer.Agent keeps its methods
-- and field codes there), or the __index table itself
local function index_table(mt)
  local idx = mt.__index
  if type(idx) == "table" then return idx end
  if type(idx) ~= "function" then return nil end -- no methods (steer.Program)
  for i = 1, 10 do
    local name, value = debug.getupvalue(idx, i)
    if name == nil then break end
    if type(value) == "table" then return value end
  end
  -- Lua 5.1's debug.getupvalue cannot read a C closure's upvalues: the
  -- module's internal table names the agent's methods too
  local codes = require("steer.core")._ffi
  if codes and mt == codes.agent_mt then return codes.methods end
  return nil
end

-- metamethods that have a LuaCATS @operator
local OPERATORS = { __len = "len", __add = "add", __sub = "sub", __mul = "mul",
  __div = "div", __mod = "mod", __pow = "pow", __unm = "unm", __concat = "concat",
  __call = "call", __idiv = "idiv", __band = "band", __bor = "bor",
  __bxor = "bxor", __shl = "shl", __shr = "shr", __bnot = "bnot" }

-- Agent fields, in case the key table cannot be reached on some VM
local AGENT_FIELDS = { "x", "y", "vx", "vy", "max_speed", "max_force", "radius",
  "wander_radius", "wander_distance", "wander_jitter", "wander_angle",
  "id", "speed", "heading", "alive" }

-- the behavior-program API (docs/API.md section 4):
-- annotated whether or not the loaded build has it yet
local COMING = { "steer.program", "steer.restore",
  "steer.World:step", "steer.World:stats", "steer.World:snapshot",
  "steer.World:close", "steer.World:positions",
  "steer.Agent:set_behaviors", "steer.Agent:set_target", "steer.Agent:set_weight",
  "steer.Agent:steering", "steer.Agent:active_behavior" }

-- functions that return nothing: the only ones allowed no @return
local NO_RESULT = {}
for _, name in ipairs{ "steer.World:remove", "steer.World:clear_obstacles",
    "steer.World:clear_walls", "steer.World:step", "steer.World:close",
    "steer.Agent:apply", "steer.Agent:seed", "steer.Agent:set_behaviors",
    "steer.Agent:set_target", "steer.Agent:set_weight", "steer.Agent:set_path_index",
    "steer.DebugView:watch", "steer.DebugView:unwatch", "steer.DebugView:show_world",
    "steer.DebugView:set_force", "steer.DebugView:draw_agent",
    "steer.DebugView:draw_geometry", "steer.DebugView:draw",
    "steer.Obstacle:remove", "steer.Wall:remove", "steer.Polygon:remove",
    "steer.Formation:set_fit", "steer.Formation:set_anchor" } do
  NO_RESULT[name] = true
end

--- What the module exposes: functions (full names), fields[class] = {names},
-- operators[class] = {ops}.
local function discover()
  local found = { functions = {}, fields = {}, operators = {} }
  local function add_field(class, name)
    found.fields[class] = found.fields[class] or {}
    found.fields[class][name] = true
  end
  local function scan_table(t, prefix, class)
    for k, v in pairs(t) do
      if type(v) == "function" then
        found.functions[#found.functions + 1] = prefix .. k
      elseif class and type(k) == "string" then
        add_field(class, k)
      end
    end
  end
  local function scan_type(object, class)
    local mt = getmetatable(object)
    local keys = index_table(mt)
    for k, v in pairs(keys or {}) do
      if type(k) == "string" and k:match("^__") then -- metamethods: below
      elseif type(v) == "function" then
        found.functions[#found.functions + 1] = class .. ":" .. k
      else -- steer.Agent: a field code
        add_field(class, k)
      end
    end
    for meta, op in pairs(OPERATORS) do
      if mt[meta] then
        found.operators[class] = found.operators[class] or {}
        found.operators[class][op] = true
      end
    end
    return keys
  end
  scan_table(steer, "steer.", "steer")
  for k, v in pairs(steer) do -- steer.testing, steer.ffi, ...
    if type(v) == "table" then scan_table(v, "steer." .. k .. ".", "steer." .. k) end
  end
  local world = steer.world{}
  scan_type(world, "steer.World")
  -- the LuaJIT fast path replaces steer.Agent's __index with a Lua function;
  -- the binding's own one (with every method and field) is behind it
  local fast = steer.ffi
  if fast then fast.enable(false) end
  local ok, keys = pcall(scan_type, world:add{}, "steer.Agent")
  if fast then fast.enable(true) end
  assert(ok, keys)
  assert(keys and keys.seek, "could not reach steer.Agent's methods")
  for _, f in ipairs(AGENT_FIELDS) do add_field("steer.Agent", f) end
  scan_type(steer.path{ {0, 0} }, "steer.Path")
  -- the other types with methods a call hands out (a shape handle's
  -- __index is a C function that keeps its names to itself)
  local nav = steer.navgrid{ width = 2, height = 2 }
  for _, t in ipairs{
    { nav, "steer.NavGrid", "path" },
    { nav:flow(0.5, 0.5), "steer.FlowField", "distance" },
    { steer.formation{ anchor = world:add{}, shape = "line", count = 1 }, "steer.Formation", "slot_of" },
  } do
    local keys = scan_type(t[1], t[2])
    assert(keys and keys[t[3]], "could not reach " .. t[2] .. "'s methods")
  end
  scan_table(sdebug, "steer.debug.", "steer.debug")
  scan_type(sdebug.new{ line = function() end, circle = function() end }, "steer.DebugView")
  table.sort(found.functions)
  return found
end

-- ---- the checks ------------------------------------------------------------------

--- Problems of annotation set `ann` against the names in `found`
-- (functions, fields, operators) and the COMING list.
local function problems(ann, found, coming)
  local out = {}
  local function bad(fmt, ...) out[#out + 1] = fmt:format(...) end
  -- every type named steer.X must be declared
  local function check_types(where, t)
    for name in t:gmatch("steer%.[%w_%.]*[%w_]") do
      if not ann.classes[name] and not ann.aliases[name] then
        bad("%s: unknown type %s", where, name)
      end
    end
  end
  local wanted = {}
  for _, name in ipairs(found.functions) do wanted[name] = true end
  for _, name in ipairs(coming or {}) do wanted[name] = true end
  for name in pairs(wanted) do
    if not ann.functions[name] then bad("%s has no annotation", name) end
  end
  for class, fields in pairs(found.fields) do
    local c = ann.classes[class]
    for field in pairs(fields) do
      if not (c and c.fields[field]) then
        bad("%s.%s has no ---@field in ---@class %s", class, field, class)
      end
    end
  end
  for class, ops in pairs(found.operators) do
    for op in pairs(ops) do
      local c = ann.classes[class]
      if not (c and c.operators[op]) then bad("%s has no ---@operator %s", class, op) end
    end
  end
  for name, f in pairs(ann.functions) do
    local where = ("%s (%s:%d)"):format(name, f.source or "?", f.line)
    if not f.doc then bad("%s: no description", where) end
    local in_signature = {}
    for _, arg in ipairs(f.signature) do
      in_signature[arg] = true
      if not f.params[arg] then bad("%s: parameter '%s' has no ---@param", where, arg) end
    end
    for _, pname in ipairs(f.param_order) do
      if not in_signature[pname] then bad("%s: ---@param '%s' is not a parameter", where, pname) end
      check_types(where, f.params[pname])
    end
    if f.returns == 0 and not NO_RESULT[name] then bad("%s: no ---@return", where) end
  end
  for class, c in pairs(ann.classes) do
    for field, t in pairs(c.fields) do check_types(class .. "." .. field, t) end
  end
  table.sort(out)
  return out
end

local function lua_file(module)
  return assert(package.searchpath(module, package.path), "cannot find " .. module)
end

describe("LuaCATS annotations", function()
  local meta_path = lua_file("steer.meta")
  local debug_path = lua_file("steer.debug")
  local ann = merge(parse(read(meta_path), "meta.lua"), parse(read(debug_path), "debug.lua"))
  local found = discover()

  it("meta.lua is valid Lua that defines nothing at run time", function()
    local chunk = assert(loadfile(meta_path))
    local stubs = chunk()
    assert.are.equal("table", type(stubs))
    assert.is_nil(rawget(_G, "World"))
  end)

  it("discovers the module's names at run time", function()
    local set = {}
    for _, name in ipairs(found.functions) do set[name] = true end
    -- one name of each kind, so an empty discovery cannot pass
    for _, name in ipairs{ "steer.seek", "steer.World:add", "steer.Agent:follow",
        "steer.Path:point", "steer.debug.new", "steer.DebugView:draw" } do
      assert.is_true(set[name], name .. " not discovered")
    end
    assert.is_true(found.fields["steer.Agent"].wander_angle)
    assert.is_true(found.fields.steer.version)
    assert.is_true(found.operators["steer.World"].len)
    assert.is_true(#found.functions >= 55)
  end)

  it("annotates every public function, method, field and operator", function()
    local list = problems(ann, found, COMING)
    assert(#list == 0, "annotation problems:\n  " .. table.concat(list, "\n  "))
  end)

  it("annotates the behavior-program API before it lands", function()
    for _, name in ipairs(COMING) do
      assert.is_not_nil(ann.functions[name], name)
    end
    assert.is_not_nil(ann.classes["steer.ProgramDef"])
    assert.is_not_nil(ann.classes["steer.BehaviorSpec"].fields.weight)
  end)

  describe("the checker", function()
    -- a method added to the binding, a parameter and a result forgotten,
    -- a field, an operator and a type name missing: each must be reported
    local text = table.concat({
      "---@class steer.World",
      "local World = {}",
      "---Adds an agent.",
      "---@param def? steer.AgentDefs",
      "function World:add(def, extra) end",
      "---@class steer.Agent",
      "---@field x number",
      "local Agent = {}",
      "---Seek.",
      "---@param x number",
      "---@return number fx",
      "function Agent:seek(x) end",
    }, "\n")
    local fake = { functions = { "steer.World:add", "steer.Agent:seek", "steer.Agent:wobble" },
      fields = { ["steer.Agent"] = { x = true, y = true } },
      operators = { ["steer.World"] = { len = true } } }

    it("reports every gap", function()
      local list = problems(parse(text, "fake"), fake, {})
      assert.are.same({
        "steer.Agent.y has no ---@field in ---@class steer.Agent",
        "steer.Agent:wobble has no annotation",
        "steer.World has no ---@operator len",
        "steer.World:add (fake:5): no ---@return",
        "steer.World:add (fake:5): parameter 'extra' has no ---@param",
        "steer.World:add (fake:5): unknown type steer.AgentDefs",
      }, list)
    end)

    it("reports a missing description and a stale ---@param", function()
      local list = problems(parse(table.concat({
        "---@class steer",
        "local steer = {}",
        "---@param x number",
        "---@param y number",
        "---@return number",
        "function steer.length(x) end",
      }, "\n"), "fake"), { functions = { "steer.length" }, fields = {}, operators = {} }, {})
      assert.are.same({
        "steer.length (fake:6): ---@param 'y' is not a parameter",
        "steer.length (fake:6): no description",
      }, list)
    end)
  end)
end)
