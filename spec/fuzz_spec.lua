-- The randomized API fuzzer (spec/fuzz/): seeded random sequences of every
-- public function and method with valid and hostile arguments, checking
-- after every call that steer did not crash, raised only string messages
-- naming a function, kept every agent finite, and that #world, iteration and
-- queries agree with what the fuzzer tracks and with brute force.
-- STEER_FUZZ_CALLS raises the number of calls per seed (default 2500);
-- STEER_FUZZ_SEED runs that one seed only (to replay a reported failure).
local steer = require "steer"
local E = require "fuzz.engine"
local M = require "fuzz.model"

local calls = tonumber(os.getenv("STEER_FUZZ_CALLS") or "") or 2500
local seeds = { 1, 2, 3 }
if os.getenv("STEER_FUZZ_SEED") then seeds = { tonumber(os.getenv("STEER_FUZZ_SEED")) } end

describe("API fuzzer", function()
  for _, seed in ipairs(seeds) do
    it(("survives %d random calls from seed %s"):format(calls, tostring(seed)), function()
      local report, state = E.run(steer, seed, calls,
        { trace_from = tonumber(os.getenv("STEER_FUZZ_TRACE") or "") })
      if report then error(report, 0) end
      assert.is_true(state.call_index >= calls)
      -- the mix reached the world and agent operations, not only the
      -- stateless functions
      assert.is_true((state.stats.ops["query"] or 0) > 0)
      assert.is_true((state.stats.ops["a:apply"] or 0) > 0)
      assert.is_true(state.stats.err > 0 and state.stats.ok > state.stats.err)
    end)
  end

  it("replays a seed identically", function()
    local _, a = E.run(steer, 77, 400)
    local _, b = E.run(steer, 77, 400)
    assert.are.equal(a.op_index, b.op_index)
    assert.are.equal(a.stats.err, b.stats.err)
    assert.are.same(a.ring, b.ring)
  end)
end)

describe("fuzzer self-checks", function()
  it("notices #world differing from the tracked agents", function()
    local w = steer.world{}
    local rec = M.new_record(w, "w", "free")
    M.add_live(rec, w:add{})
    w:add{} -- an agent the record does not know about
    assert.matches("tracks 1 live", M.check_count(rec))
    assert.matches("tracks 1 live", M.check_world(rec))
    -- the right count, the wrong agent
    local w2 = steer.world{}
    local rec2 = M.new_record(w2, "w2", "free")
    w2:add{}
    M.add_live(rec2, w:add{})
    assert.is_nil(M.check_count(rec2))
    assert.matches("untracked", M.check_world(rec2))
  end)

  it("notices a non-finite field and a position outside a torus", function()
    local w = steer.world{ bounds = { 10, 10 }, wrap = true }
    local rec = M.new_record(w, "w", "wrap", 10, 10)
    local a = w:add{ x = 3, y = 4 }
    M.add_live(rec, a)
    assert.is_nil(M.check_world(rec))
    rec.W = 2 -- the record now thinks the torus is smaller
    assert.matches("outside wrap world", M.check_agent(rec, a))
  end)

  it("brute force agrees with the wrapped distance rule", function()
    local w = steer.world{ bounds = { 10, 10 }, wrap = true }
    local rec = M.new_record(w, "w", "wrap", 10, 10)
    local a, b = w:add{ x = 0.5, y = 5 }, w:add{ x = 9.5, y = 5 }
    M.add_live(rec, a)
    M.add_live(rec, b)
    local set, n = M.brute_query(rec, 0.5, 5, 1)
    assert.are.equal(2, n)
    assert.is_true(set[b])
    set, n = M.brute_query(rec, 0.5, 5, 0.99)
    assert.are.equal(1, n)
  end)

  it("fails a call whose outcome breaks the expectation", function()
    local F = E.new(steer, 1)
    assert.has_error(function()
      F:call("accepts anything", function() end, { 0 / 0 }, 1, false, { name = "x" })
    end)
    assert.has_error(function()
      F:call("raises nameless", function() error("boom", 0) end, {}, 0, nil, {})
    end)
    assert.has_error(function()
      F:call("raises a table", function() error({}) end, {}, 0, nil, {})
    end)
    assert.has_error(function()
      F:call("returns nan", function() return 0 / 0 end, {}, 0, true, { numbers = true })
    end)
    local ok = F:call("steer.clamp", steer.clamp, { 1, 0 / 0, 1 }, 3, false,
      { name = "clamp", argn = 2 })
    assert.is_false(ok)
  end)
end)
