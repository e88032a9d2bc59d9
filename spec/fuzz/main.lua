--- Long fuzzing runs outside busted (make fuzz):
--   lua spec/fuzz/main.lua [calls] [seed]
-- Runs `calls` API calls (default STEER_FUZZ_CALLS or 100000) split into
-- rounds of STEER_FUZZ_ROUND (20000) calls, each with its own seed, the
-- first being `seed` (default STEER_FUZZ_SEED or a fresh one). Prints one
-- line per round and a failure report with the replay command; exits 1 on
-- failure.
package.path = "lua/?.lua;lua/?/init.lua;spec/?.lua;" .. package.path
local steer = require "steer"
local E = require "fuzz.engine"

local calls = tonumber(arg[1] or os.getenv("STEER_FUZZ_CALLS") or "") or 100000
local seed = tonumber(arg[2] or os.getenv("STEER_FUZZ_SEED") or "")
  or (os.time() % 1000000) * 97 + 13
local round = tonumber(os.getenv("STEER_FUZZ_ROUND") or "") or 20000
local trace = tonumber(os.getenv("STEER_FUZZ_TRACE") or "")
-- replaying one seed: a single round of exactly `calls`
if os.getenv("STEER_FUZZ_SEED") and not arg[2] then round = calls end

local done, rounds, failures = 0, 0, 0
local t0 = os.clock()
while done < calls do
  local n = math.min(round, calls - done)
  local s = seed + rounds
  -- for a hard crash, the runner replays this round with a trace
  io.stdout:write(("round seed %d, %d calls\n"):format(s, n))
  io.stdout:flush()
  local report, state = E.run(steer, s, n, { trace_from = trace })
  rounds = rounds + 1
  done = done + state.call_index
  if report then
    print(report)
    failures = failures + 1
    break
  end
  print(E.summary(state))
  io.stdout:flush()
end
print(("%s: %d calls in %d rounds, %.1f s CPU"):format(_VERSION .. (jit and (" " .. jit.version) or ""),
  done, rounds, os.clock() - t0))
print(("%d passed, %d failed"):format(rounds - failures, failures))
os.exit(failures == 0 and 0 or 1, true)
