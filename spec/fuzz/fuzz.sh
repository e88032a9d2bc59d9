#!/bin/sh
# Long runs of the Lua API fuzzer (make fuzz), once per interpreter:
#   sh spec/fuzz/fuzz.sh MODE CALLS [SEED] [lua...]
# MODE as in spec/fuzz/run.sh (asan, valgrind, plain). Ends with one line
# "N passed, N failed" over all interpreters (one pass per interpreter).
cd "$(dirname "$0")/../.." || exit 1
mode=${1:-asan}
calls=${2:-1000000}
seed=$3
[ $# -gt 0 ] && shift
[ $# -gt 0 ] && shift
[ $# -gt 0 ] && shift
[ $# -gt 0 ] || set -- lua5.4 luajit
. spec/fuzz/env.sh || exit 1

passed=0
failed=0
for lua in "$@"; do
  dir=$(build_dir "$mode" "$lua") || exit 1
  echo "== fuzzing $calls calls under $lua ($mode, $dir)"
  start=$(date +%s)
  out=$(mktemp)
  rcfile=$(mktemp)
  {
    LUA_PATH="lua/?.lua;lua/?/init.lua;spec/?.lua;;" LUA_CPATH="$dir/?.so;;" \
      run_wrapped "$mode" "$lua" spec/fuzz/main.lua "$calls" $seed
    echo $? >"$rcfile"
  } 2>&1 | tee "$out"
  rc=$(cat "$rcfile")
  echo "== $lua: exit $rc after $(( $(date +%s) - start )) s"
  if [ "$rc" -ne 0 ] && ! grep -q "FUZZ FAILURE" "$out"; then
    # a crash, not a failed check: replay the round with every call traced
    round=$(grep -E '^round seed [0-9]+, [0-9]+ calls' "$out" | tail -n 1)
    rs=$(echo "$round" | sed -E 's/round seed ([0-9]+), ([0-9]+) calls/\1/')
    rn=$(echo "$round" | sed -E 's/round seed ([0-9]+), ([0-9]+) calls/\2/')
    if [ -n "$rs" ]; then
      echo "== the process died in round seed $rs; its last calls (replay:"
      echo "   STEER_FUZZ_SEED=$rs STEER_FUZZ_CALLS=$rn STEER_FUZZ_TRACE=0 $lua spec/fuzz/main.lua):"
      STEER_FUZZ_SEED=$rs STEER_FUZZ_TRACE=0 \
        LUA_PATH="lua/?.lua;lua/?/init.lua;spec/?.lua;;" LUA_CPATH="$dir/?.so;;" \
        run_wrapped "$mode" "$lua" spec/fuzz/main.lua "$rn" >/dev/null 2>"$out.trace"
      grep -E '^#[0-9]+ ' "$out.trace" | tail -n 12
      grep -vE '^#[0-9]+ ' "$out.trace" | head -n 6
      rm -f "$out.trace"
    fi
  fi
  rm -f "$out" "$rcfile"
  if [ "$rc" -eq 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
