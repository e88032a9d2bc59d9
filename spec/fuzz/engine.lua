--- The fuzzer's driver: state, the checked call helper, the main loop and
-- failure reports. A run is fully determined by (seed, calls): replay a
-- failure with the same seed and at least as many calls (see README in
-- fuzz/).
local Rng = require "fuzz.rng"
local V = require "fuzz.values"
local M = require "fuzz.model"

local unpack = table.unpack or unpack

local E = {}
local F = {} -- methods of the fuzzer state
F.__index = F
E.State = F

local FAILURE = {} -- marks failure tables raised by F:fail

local function pack(...) return { n = select("#", ...), ... } end
E.pack = pack

function E.new(steer, seed, opts)
  opts = opts or {}
  local self = setmetatable({
    steer = steer,
    seed = seed,
    rng = Rng.new(seed),
    bad = opts.bad or 0.05,      -- chance that one argument is hostile
    trace_from = opts.trace_from, -- print every call from this index on
    call_index = 0,              -- API calls made so far
    op_index = 0,
    worlds = {},                 -- live world records
    paths = {},                  -- { {p = path, n =, loop =, pts = } }
    points = {},                 -- steer.point handles many entries may hold
    orphans = {},                -- handles whose world the fuzzer dropped
    iters = {},                  -- held query iterators
    closed = {},                 -- closed worlds (future world:close)
    names = setmetatable({}, { __mode = "k" }),
    rec_of = setmetatable({}, { __mode = "k" }),
    ring = {},                   -- the last calls, for reports
    known = {},                  -- accepted deviations: pattern -> count
    stats = { ok = 0, err = 0, ops = {} },
    world_count = 0,
  }, F)
  return self
end

function F:fail(msg)
  error({ [FAILURE] = true, msg = msg }, 0)
end

function F:name(obj, text)
  self.names[obj] = text
end

function F:log(text)
  local ring = self.ring
  ring[#ring + 1] = ("#%d %s"):format(self.call_index, text)
  if #ring > 40 then table.remove(ring, 1) end
  if self.trace_from and self.call_index >= self.trace_from then
    io.stderr:write(ring[#ring], "\n")
  end
end

function F:show_args(args, n)
  local parts = {}
  for i = 1, n do parts[i] = V.show(args[i], self.names) end
  return table.concat(parts, ", ")
end

-- Error messages that are Lua's own rather than steer's, accepted but
-- counted so that the report can list them.
local K = require "fuzz.known"
local KNOWN = {
  { "index is nil", "t[nil] = v on an agent: Lua's own 'index is nil'" },
  { "index is NaN", "t[0/0] = v on an agent: Lua's own 'index is NaN'" },
}
if K.avoid("world_bad_self") then
  KNOWN[#KNOWN + 1] = { "bad argument #1 to '?' (steer.Agent expected",
    "Agent.world(non-agent) names '?' (notes/patches/04)" }
end

--- Calls fn(args[1..n]) under pcall and checks the outcome.
-- expect: true = must succeed, false = must raise, nil = either.
-- opts.name: the function name the message must quote ('seek');
-- opts.pattern: a Lua pattern the message must match instead;
-- opts.argn: with expect == false, the argument number the message must
-- name (0 = self); opts.numbers: every result must be a finite number.
-- Returns ok and the packed results (or the message).
function F:call(label, fn, args, n, expect, opts)
  opts = opts or {}
  self.call_index = self.call_index + 1
  self:log(("%s(%s)"):format(label, self:show_args(args, n)))
  local r = pack(pcall(fn, unpack(args, 1, n)))
  local ok = r[1]
  if not ok then
    self.stats.err = self.stats.err + 1
    local msg = r[2]
    if type(msg) ~= "string" then
      self:fail(("%s raised a non-string error (%s)"):format(label, type(msg)))
    end
    if msg:find("trap: __index on a fuzzer table", 1, true) then
      return false, msg -- our own booby trap was read: fine
    end
    for _, k in ipairs(KNOWN) do
      if msg:find(k[1], 1, true) then
        self.known[k[2]] = (self.known[k[2]] or 0) + 1
        return false, msg
      end
    end
    if expect == true then
      self:fail(("%s raised on valid arguments: %s"):format(label, msg))
    end
    if opts.pattern then
      local pats = type(opts.pattern) == "table" and opts.pattern or { opts.pattern }
      local any = false
      for _, pat in ipairs(pats) do any = any or msg:find(pat) ~= nil end
      if not any then
        self:fail(("%s: error message does not match %s: %s"):format(label, table.concat(pats, " or "), msg))
      end
    elseif opts.name then
      if not msg:find("'" .. opts.name .. "'", 1, true) then
        self:fail(("%s: error message does not name '%s': %s"):format(label, opts.name, msg))
      end
    elseif not msg:find("'[%w_]+'") then
      self:fail(("%s: error message names no function: %s"):format(label, msg))
    end
    if expect == false and opts.argn then
      local want = opts.argn == 0 and "on bad self" or ("#" .. opts.argn .. " ")
      if not msg:find(want, 1, true) then
        self:fail(("%s: expected the error to be about argument %s: %s"):format(
          label, opts.argn == 0 and "self" or "#" .. opts.argn, msg))
      end
    end
    return false, msg
  end
  self.stats.ok = self.stats.ok + 1
  if expect == false then
    self:fail(("%s accepted invalid arguments (first bad: #%s)"):format(
      label, tostring(opts.argn)))
  end
  local out = { n = r.n - 1 }
  for i = 2, r.n do out[i - 1] = r[i] end
  if opts.numbers then
    for i = 1, out.n do
      if not V.finite(out[i]) then
        self:fail(("%s returned a non-finite result #%d: %s"):format(label, i, V.show(out[i])))
      end
    end
  end
  return true, out
end

--- Runs an invariant check (a function returning nil or a message).
function F:check(msg)
  if msg then self:fail(msg) end
end

-- ---- the main loop ----

local function pick_op(self, ops, total)
  local r = self.rng:float() * total
  for _, op in ipairs(ops) do
    r = r - op.weight
    if r < 0 then return op end
  end
  return ops[#ops]
end

--- Runs `calls` API calls (at least; an operation may make several).
-- Returns nil, state on success, or a report string and the state.
function E.run(steer, seed, calls, opts)
  local self = E.new(steer, seed, opts)
  local ops = require("fuzz.ops").list(self)
  local total = 0
  for _, op in ipairs(ops) do total = total + op.weight end
  local current
  local ok, err = xpcall(function()
    while self.call_index < calls do
      self.op_index = self.op_index + 1
      current = pick_op(self, ops, total)
      self.stats.ops[current.name] = (self.stats.ops[current.name] or 0) + 1
      current.run(self)
      -- #world of every world after every operation; a full sweep of one
      -- world every few operations and of all of them at the end
      for _, rec in ipairs(self.worlds) do self:check(M.check_count(rec)) end
      if self.op_index % 16 == 0 and #self.worlds > 0 then
        self:check(M.check_world(self.rng:pick(self.worlds)))
      end
    end
    for _, rec in ipairs(self.worlds) do self:check(M.check_world(rec)) end
  end, function(e)
    if type(e) == "table" and e[FAILURE] then return e end
    return { msg = "fuzzer or steer raised outside a checked call: " .. tostring(e),
      trace = debug.traceback("", 2) }
  end)
  if ok then return nil, self end
  local lines = {
    ("FUZZ FAILURE: %s"):format(err.msg),
    ("  seed %s, API call #%d, operation #%d (%s), %s"):format(
      tostring(seed), self.call_index, self.op_index,
      current and current.name or "?", _VERSION .. (jit and (" / " .. jit.version) or "")),
    ("  replay: STEER_FUZZ_SEED=%s STEER_FUZZ_CALLS=%d STEER_FUZZ_TRACE=%d"):format(
      tostring(seed), self.call_index, math.max(0, self.call_index - 30)),
    "  last calls:",
  }
  for _, l in ipairs(self.ring) do lines[#lines + 1] = "    " .. l end
  if err.trace then lines[#lines + 1] = err.trace end
  return table.concat(lines, "\n"), self
end

--- A one-line summary of a finished run.
function E.summary(self)
  local known = {}
  for k, n in pairs(self.known) do known[#known + 1] = ("%s x%d"):format(k, n) end
  table.sort(known)
  return ("seed %s: %d calls (%d returned, %d raised), %d operations%s"):format(
    tostring(self.seed), self.call_index, self.stats.ok, self.stats.err,
    self.op_index, #known > 0 and ("; accepted Lua-own messages: " .. table.concat(known, "; ")) or "")
end

return E
