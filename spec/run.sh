#!/bin/sh
# Runs the busted suite once per interpreter named on the command line
# (default: lua5.4 luajit), each against its own build/<lua>/ module, and
# ends with one line "N passed, N failed" over all of them.
# Extra busted options may come in BUSTED_OPTS (e.g. --filter=seek).
cd "$(dirname "$0")/.." || exit 1
[ $# -gt 0 ] || set -- lua5.4 luajit
passed=0
failed=0
for lua in "$@"; do
  echo "== busted under $lua"
  out=$(mktemp)
  # each interpreter finds its own build first ("?" patterns, ";;" = defaults)
  LUA_PATH="lua/?.lua;lua/?/init.lua;spec/?.lua;;" LUA_CPATH="build/$lua/?.so;;" \
    busted --lua="$lua" -o plainTerminal $BUSTED_OPTS spec 2>&1 | tee "$out"
  # busted's summary: "12 successes / 0 failures / 1 error / 0 pending"
  summary=$(grep -E '[0-9]+ success(es)? / [0-9]+ failures? / [0-9]+ errors?' "$out" | tail -n 1)
  rm -f "$out"
  if [ -z "$summary" ]; then
    echo "no busted summary under $lua: counting the run as one failure"
    failed=$((failed + 1))
    continue
  fi
  ok=$(echo "$summary" | grep -oE '[0-9]+ success' | grep -oE '[0-9]+')
  bad=$(echo "$summary" | grep -oE '[0-9]+ failure' | grep -oE '[0-9]+')
  err=$(echo "$summary" | grep -oE '[0-9]+ error' | grep -oE '[0-9]+')
  passed=$((passed + ok))
  failed=$((failed + bad + err))
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
