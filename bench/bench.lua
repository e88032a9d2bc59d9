--- bench/bench.lua - the boids benchmark: times every contestant under every
-- interpreter side by side, checks they compute the same thing, reports.
--
--   LUA_PATH='bench/?.lua;;' lua5.4 bench/bench.lua full|smoke [--n '1000 10000']
--
-- Run through `make bench` / `make bench-smoke`, which build the C tools and
-- the state files first (build/bench/). Every run is its own process (see
-- bench/run.lua and bench/c/main.c for what it measures). Per N and regime
-- the contestants run in turn, R rounds, the starting contestant rotating
-- each round; a ratio to (d) is taken within each round, then the median.
-- Ends with "N passed, N failed" over the checks; exits non-zero on failure.
local W = require "workload"

local MODE = arg[1]
assert(MODE == "full" or MODE == "smoke", "usage: bench.lua full|smoke [--n 'N ...']")
local N_LIST = {}
for i = 2, #arg, 2 do
  if arg[i] == "--n" then
    for n in arg[i + 1]:gmatch("%d+") do N_LIST[#N_LIST + 1] = tonumber(n) end
  else
    error("unknown option " .. arg[i])
  end
end
if #N_LIST == 0 then N_LIST = MODE == "full" and { 1000, 10000, 100000 } or { 200 } end

local OUT = "build/bench"
local STATE = OUT .. "/state"
local RUNS = OUT .. "/runs"
local POS_TOL = 1e-9       -- positions after CHECK_STEPS steps
local STAT_TOL = 0.01      -- relative, mean speed and neighbors after the timed steps
local BRUTE_MAX = 2000     -- the O(N^2) reference only up to this N

-- rounds per N: more where a run is short and noisy; the slow contestants
-- ((b): 45 s a run under Lua 5.4 at N = 100,000) get one there, for the budget
local function rounds(n, c)
  if MODE == "smoke" or c.check_only then return 1 end
  if n <= 1000 then return 7 end
  if n <= 10000 then return 5 end
  if n >= 100000 and c.slow then return 1 end
  return 3
end

-- combinations left out on purpose (none now: with the warm state computed
-- once by (d), even naive Lua 5.4 at N = 100,000 fits the time budget);
-- e.g. SKIP["naive lua5.4"] = { min_n = 100000, why = "..." }
local SKIP = {}

-- ---- contestants -------------------------------------------------------

local LUA_PATH = "bench/?.lua;lua/?.lua;lua/?/init.lua;;"

-- a command line for one run; `lean` runs (timing only) write no state
-- and skip the alloc measurement
local function lua_cmd(interp, contestant, path_prefix)
  return function(input, steps, output, lean)
    return string.format("LUA_PATH='%s%s' LUA_CPATH='build/%s/?.so;;' %s bench/run.lua %s %s %d %s%s",
      path_prefix or "", LUA_PATH, interp, interp, contestant, input, steps,
      lean and "-" or output, lean and " --no-alloc" or "")
  end
end

local function c_cmd(bin, extra)
  return function(input, steps, output, lean)
    return string.format("%s/%s %s %d %s%s", OUT, bin, input, steps, lean and "-" or output, extra or "")
  end
end

local COMBOS = {}
local function combo(t) COMBOS[#COMBOS + 1] = t; return t end

-- (a) THE STEER SLOT: bench/contestants/steer_world.lua, skipped (with the
-- reason) until `require "steer"` has world:step and a:set_behaviors.
for _, interp in ipairs{ "lua5.4", "luajit" } do
  combo{ key = "steer " .. interp, title = "(a) steer world:step", interp = interp,
         contestant = "steer_world", cmd = lua_cmd(interp, "steer_world") }
end
-- (a2) the same with steer.world{ threads = 2 } (this machine has 2 cores)
for _, interp in ipairs{ "lua5.4", "luajit" } do
  combo{ key = "steer2 " .. interp, title = "(a2) steer, 2 threads", interp = interp,
         contestant = "steer_world2", cmd = lua_cmd(interp, "steer_world2") }
end
-- (a0) steer today: per-agent behavior calls from Lua, no world:step
for _, c in ipairs{ { "steer_calls", "(a0) steer, per-agent calls" },
                    { "naive", "(b) straightforward Lua" }, { "tuned", "(c) tuned pure Lua" } } do
  for _, interp in ipairs{ "lua5.4", "luajit" } do
    combo{ key = c[1] .. " " .. interp, title = c[2], interp = interp,
           contestant = c[1], cmd = lua_cmd(interp, c[1]), slow = c[1] ~= "tuned" }
  end
end
local C_O2 = combo{ key = "c", title = "(d) C loop, -O2", interp = "-", cmd = c_cmd("boids") }
local C_REF = combo{ key = "c strict", title = "(d) C, -ffp-contract=off", interp = "-",
                     cmd = c_cmd("boids-strict"), reference = true }
-- checks only: grid-free O(N^2) reference
local BRUTE = { key = "brute", title = "(d) O(N^2), no grid", interp = "-",
                cmd = c_cmd("boids-strict", " --brute"), check_only = true, max_n = BRUTE_MAX }
combo(BRUTE)
if MODE == "smoke" then
  -- deliberately wrong contestants: the checks must catch them
  combo{ key = "mutant nudge", title = "(test) agent 1 nudged 1e-7", interp = "lua5.4",
         contestant = "test.mutant_nudge", check_only = true, expect_fail = "positions",
         cmd = lua_cmd("lua5.4", "test.mutant_nudge") }
  combo{ key = "mutant drag", title = "(test) velocities x0.95", interp = "lua5.4",
         contestant = "test.mutant_drag", check_only = true, expect_fail = "speed",
         cmd = lua_cmd("lua5.4", "test.mutant_drag") }
end

-- ---- processes ---------------------------------------------------------

local function sh(cmd)
  local p = assert(io.popen(cmd .. " 2>&1", "r"))
  local out = p:read("a")
  local ok = p:close()
  return ok, out
end

local function run(c, input, steps, output, lean)
  local ok, out = sh(c.cmd(input, steps, output, lean))
  local line = out:match("RESULT ([^\n]*)")
  if not ok or not line then return nil, out end
  local r = {}
  for k, v in line:gmatch("([%w_]+)=(%S+)") do r[k] = tonumber(v) or v end
  return r
end

local function check_tool(...)
  local ok, out = sh(OUT .. "/check " .. table.concat({ ... }, " "))
  assert(ok, out)
  return out
end

local function stats(path)
  local out = check_tool("stats", path)
  local s, nb, cand = out:match("speed (%S+) neighbors (%S+) candidates (%S+)")
  return { speed = tonumber(s), neighbors = tonumber(nb), candidates = tonumber(cand) }
end

local function maxdiff(a, b)
  return tonumber(check_tool("compare", a, b):match("maxdiff (%S+)"))
end

local function median(t)
  local s = {}
  for i, v in ipairs(t) do s[i] = v end
  table.sort(s)
  local m = #s // 2
  return #s % 2 == 1 and s[m + 1] or (s[m] + s[m + 1]) / 2
end

-- ---- report helpers ----------------------------------------------------

local function si(v)
  if v >= 1e6 then return string.format("%.2f M", v / 1e6) end
  if v >= 1e3 then return string.format("%.1f k", v / 1e3) end
  return string.format("%.0f", v)
end

local function row(cols, widths)
  local parts = {}
  for i, c in ipairs(cols) do
    local w = widths[i]
    parts[i] = w < 0 and string.format("%-" .. -w .. "s", c) or string.format("%" .. w .. "s", c)
  end
  print((table.concat(parts, "  "):gsub("%s+$", "")))
end

local passed, failed = 0, 0
local failures = {}
local function verdict(ok, what)
  if ok then
    passed = passed + 1
  else
    failed = failed + 1
    failures[#failures + 1] = what
  end
  return ok
end

local function first_line(cmd)
  local _, out = sh(cmd)
  return (out:match("[^\n]*"))
end

-- ---- main --------------------------------------------------------------

local started = os.time()
os.execute("mkdir -p " .. RUNS)

print(string.format("boids benchmark (%s): %d timed steps per regime, dt %.1f; cold = from the random state,"
  .. " warm = after %d steps of flocking", MODE, W.TIMED_STEPS, W.DT, W.WARM_STEPS))
print("machine: " .. first_line("nproc") .. " CPUs, "
  .. (first_line("grep -m1 'model name' /proc/cpuinfo"):gsub("^.-:%s*", "")) .. "; "
  .. first_line("uname -sr"))
print("interpreters: " .. first_line("lua5.4 -v") .. " | " .. first_line("luajit -v"))
local cflags = os.getenv("BENCH_CFLAGS") or "-O2"
print("C: " .. first_line("${CC:-cc} --version") .. ", " .. cflags .. " (and " .. cflags
  .. " -ffp-contract=off for the reference)")
print("rates are agent-updates per wall-clock second of the timed steps (median of the rounds); 'x (d)' = wall time / (d)'s"
  .. " in the same round, median; 'spread' = (max - min) / median of the rates;")
if MODE == "full" then
  print("rounds: 7 at N <= 1000, 5 at N <= 10000, else 3; at N >= 100000 the slow contestants ((a0), (b))"
    .. " run once, for the time budget")
end
print("peak RSS/agent = (peak resident size during build + steps - resident size before) / N; heap/agent = memory the"
  .. " built world holds (Lua heap, or malloc for C); alloc/step = Lua heap allocated per step / N")

-- which Lua contestants this build can run
for _, c in ipairs(COMBOS) do
  if c.contestant then
    local ok, out = sh(string.format("LUA_PATH='%s%s' LUA_CPATH='build/%s/?.so;;' %s bench/run.lua --probe %s",
      c.path_prefix or "", LUA_PATH,
      c.interp, c.interp, c.contestant))
    if not ok or not out:match("^AVAILABLE") then
      c.unavailable = (out:match("^UNAVAILABLE (.-)\n") or out:gsub("\n", " "))
    end
  end
end

for _, n in ipairs(N_LIST) do
  for _, regime in ipairs{ "cold", "warm" } do
    local input = string.format("%s/%s_%d.txt", STATE, regime, n)
    local tag = string.format("%s_%d", regime, n)
    local st0 = stats(input)
    local R = rounds(n, C_O2)
    local written, failed_before = {}, failed
    print()
    print(string.format("== N = %d, %s: start mean speed %.3f, mean neighbors %.2f (%.1f candidates in the 3x3 cells)",
      n, regime, st0.speed, st0.neighbors, st0.candidates))

    local active = {}
    for _, c in ipairs(COMBOS) do
      local skip = SKIP[c.key]
      c.skip_why = nil
      if c.unavailable then
        c.skip_why = "not available: " .. c.unavailable
      elseif skip and n >= skip.min_n then
        c.skip_why = "skipped: " .. skip.why
      elseif c.max_n and n > c.max_n then
        c.skip_why = "skipped above N = " .. c.max_n
      end
      c.results, c.failed_run = {}, nil
      if not c.skip_why then active[#active + 1] = c end
    end

    -- timed rounds, rotating who goes first; round 1 also keeps the final
    -- state and measures allocation
    for round = 1, R do
      for k = 0, #active - 1 do
        local c = active[(k + round - 1) % #active + 1]
        if not c.failed_run and round <= rounds(n, c) then
          local out = string.format("%s/%s_%s.txt", RUNS, c.key:gsub("%W", "_"), tag)
          written[#written + 1] = out
          local r, err = run(c, input, W.TIMED_STEPS, out, round > 1)
          if r then
            r.out = out
            c.results[#c.results + 1] = r
          else
            c.failed_run = err
          end
        end
      end
    end

    -- the checks: positions after CHECK_STEPS steps, statistics after the timed ones
    local ref5 = string.format("%s/ref5_%s.txt", RUNS, tag)
    written[#written + 1] = ref5
    assert(run(C_REF, input, W.CHECK_STEPS, ref5), "the reference run failed")
    local ref_stats = C_REF.results[1] and stats(C_REF.results[1].out)
    for _, c in ipairs(active) do
      if c.failed_run then
        verdict(false, c.title .. " " .. c.interp .. " N=" .. n .. " " .. regime .. ": run failed")
      elseif not c.reference then
        local out5 = string.format("%s/%s_%s_5.txt", RUNS, c.key:gsub("%W", "_"), tag)
        written[#written + 1] = out5
        local r5, err = run(c, input, W.CHECK_STEPS, out5)
        local what = string.format("%s %s N=%d %s", c.title, c.interp, n, regime)
        if not r5 then
          c.failed_run = err
          verdict(false, what .. ": check run failed")
        else
          c.pos = maxdiff(ref5, out5)
          local s = stats(c.results[1].out)
          c.dspeed = math.abs(s.speed - ref_stats.speed) / ref_stats.speed
          c.dnb = math.abs(s.neighbors - ref_stats.neighbors) / ref_stats.neighbors
          local ok = { positions = c.pos <= POS_TOL, speed = c.dspeed <= STAT_TOL,
                       neighbors = c.dnb <= STAT_TOL }
          if c.expect_fail then
            c.caught = not ok[c.expect_fail]
            verdict(c.caught, what .. ": the " .. c.expect_fail .. " check did not catch it")
          else
            verdict(ok.positions, what .. string.format(": positions after %d steps differ by %.3g",
              W.CHECK_STEPS, c.pos))
            verdict(ok.speed, what .. string.format(": mean speed off by %.2f%%", 100 * c.dspeed))
            verdict(ok.neighbors, what .. string.format(": mean neighbors off by %.2f%%", 100 * c.dnb))
          end
        end
      end
    end

    -- the states the runs wrote are kept only when a check failed
    if failed == failed_before then
      for _, path in ipairs(written) do os.remove(path) end
    end

    -- the table
    local widths = { -28, -7, 4, 11, 7, 8, 10, 9, 10, -24 }
    row({ "contestant", "interp", "runs", "updates/s", "spread", "x (d)", "peak RSS", "heap", "alloc",
          "check vs reference" }, widths)
    row({ "", "", "", "", "", "", "B/agent", "B/agent", "B/ag/step", "" }, widths)
    for _, c in ipairs(COMBOS) do
      if c.skip_why then
        row({ c.title, c.interp, "0", "-", "", "", "", "", "", c.skip_why }, widths)
      elseif c.failed_run then
        row({ c.title, c.interp, "", "FAILED", "", "", "", "", "", "" }, widths)
        print((c.failed_run:gsub("\n+$", ""):gsub("\n", "\n    ")))
      else
        local rates, ratios, peaks = {}, {}, {}
        for i, r in ipairs(c.results) do
          -- wall time: a multi-threaded step's CPU time is the sum of its
          -- threads, so CPU time would hide what threads buy
          rates[i] = n * r.steps / math.max(r.wall or r.cpu, 1e-9)
          peaks[i] = (r.peak_kb - r.base_kb) * 1024 / n
          local d = C_O2.results[i]
          if d then
            ratios[#ratios + 1] = (r.wall or r.cpu) / math.max(d.wall or d.cpu, 1e-9)
          end
        end
        local rate = median(rates)
        local spread = #rates > 1 and (math.max(table.unpack(rates)) - math.min(table.unpack(rates))) / rate or 0
        local r1 = c.results[1]
        local check = c.reference and "reference"
          or string.format("%s %.0e, %.2f%% %.2f%%",
            c.expect_fail and (c.caught and "caught" or "MISSED")
              or ((c.pos <= POS_TOL and c.dspeed <= STAT_TOL and c.dnb <= STAT_TOL) and "ok" or "FAIL"),
            c.pos, 100 * c.dspeed, 100 * c.dnb)
        if c.check_only then
          row({ c.title, c.interp, "", "(check)", "", "", "", "", "", check }, widths)
        else
          row({ c.title, c.interp, tostring(#rates), si(rate),
                #rates > 1 and string.format("%.0f%%", 100 * spread) or "-",
                #ratios > 0 and string.format("%.2f", median(ratios)) or "-",
                string.format("%.0f", median(peaks)), string.format("%.0f", r1.heap_bytes / n),
                string.format("%.1f", r1.garbage_per_step / n), check }, widths)
        end
      end
    end
  end
end

print()
print(string.format("checks: positions after %d steps within %g of the reference (d, -ffp-contract=off);"
  .. " mean speed and mean neighbors after %d steps within %g%% (columns: max |dx|, d speed, d neighbors)",
  W.CHECK_STEPS, POS_TOL, W.TIMED_STEPS, 100 * STAT_TOL))
for _, f in ipairs(failures) do print("FAILED: " .. f) end
print(string.format("total %d s", os.time() - started))
print(string.format("%d passed, %d failed", passed, failed))
os.exit(failed == 0 and 0 or 1)
