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
  LUA_PATH="lua/?.lua;lua/?/init.lua;spec/?.lua;;" LUA_CPATH="$dir/?.so;;" \
    run_wrapped "$mode" "$lua" spec/fuzz/main.lua "$calls" $seed
  rc=$?
  echo "== $lua: exit $rc after $(( $(date +%s) - start )) s"
  if [ "$rc" -eq 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
