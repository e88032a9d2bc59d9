#!/bin/sh
# Runs the busted suite under a checking tool, once per interpreter, like
# spec/run.sh, and ends with one line "N passed, N failed".
#   sh spec/fuzz/run.sh MODE [lua...]       (default: lua5.4 luajit)
# MODE picks the module build and the wrapper around the interpreter:
#   asan      build/asan-<lua>/, the ASan runtime preloaded (the interpreters
#             are not instrumented, the module is)
#   valgrind  build/vg-<lua>/, under valgrind memcheck
#   plain     build/<lua>/, as spec/run.sh
# The interpreter runs busted itself (--ignore-lua), so the wrapper sees the
# very process that loads the module. A run that dies, or whose process
# reports a memory error after busted's summary, counts as one failure.
# Extra busted options may come in BUSTED_OPTS; STEER_FUZZ_* pass through.
cd "$(dirname "$0")/../.." || exit 1
mode=${1:-asan}
[ $# -gt 0 ] && shift
[ $# -gt 0 ] || set -- lua5.4 luajit
. spec/fuzz/env.sh || exit 1

passed=0
failed=0
for lua in "$@"; do
  dir=$(build_dir "$mode" "$lua") || exit 1
  if [ ! -f "$dir/steer/core.so" ]; then
    echo "missing $dir/steer/core.so (run make first): one failure"
    failed=$((failed + 1))
    continue
  fi
  echo "== busted under $lua ($mode, $dir)"
  out=$(mktemp)
  rcfile=$(mktemp)
  {
    LUA_PATH="lua/?.lua;lua/?/init.lua;spec/?.lua;;" LUA_CPATH="$dir/?.so;;" \
      run_wrapped "$mode" "$lua" /usr/bin/busted --ignore-lua -o plainTerminal \
      $BUSTED_OPTS spec
    echo $? >"$rcfile"
  } 2>&1 | tee "$out"
  rc=$(cat "$rcfile")
  summary=$(grep -E '[0-9]+ success(es)? / [0-9]+ failures? / [0-9]+ errors?' "$out" | tail -n 1)
  tool_error=$(grep -cE '^(==[0-9]+==ERROR|SUMMARY: (Address|Undefined|Leak)|.*runtime error:)|ERROR SUMMARY: [1-9]' "$out")
  rm -f "$out" "$rcfile"
  if [ -z "$summary" ]; then
    echo "no busted summary under $lua (exit $rc): counting the run as one failure"
    failed=$((failed + 1))
    continue
  fi
  ok=$(echo "$summary" | grep -oE '[0-9]+ success' | grep -oE '[0-9]+')
  bad=$(echo "$summary" | grep -oE '[0-9]+ failure' | grep -oE '[0-9]+')
  err=$(echo "$summary" | grep -oE '[0-9]+ error' | grep -oE '[0-9]+')
  passed=$((passed + ok))
  failed=$((failed + bad + err))
  if [ "$tool_error" -gt 0 ] || { [ "$rc" -ne 0 ] && [ $((bad + err)) -eq 0 ]; }; then
    echo "$mode reported an error under $lua (exit $rc): one more failure"
    failed=$((failed + 1))
  fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
