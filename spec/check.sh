#!/usr/bin/env bash
# Runs each make target named on the command line as one suite. Every suite
# ends its output with a line "N passed, N failed"; this adds them up and
# prints the total the same way as its own last line. A suite that prints
# no such line, or fails without counting a failure, counts as one failure.
cd "$(dirname "$0")/.." || exit 1
passed=0
failed=0
summary=""
for target in "$@"; do
  echo "=== make $target"
  log=$(mktemp)
  make --no-print-directory "$target" 2>&1 | tee "$log"
  status=${PIPESTATUS[0]}
  last=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 1)
  rm -f "$log"
  if [ -z "$last" ]; then
    p=0
    f=1
    echo "=== make $target printed no summary (exit $status): one failure"
  else
    p=${last%% passed*}
    f=${last#*, }
    f=${f%% failed}
    if [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then
      f=1
      echo "=== make $target exited $status: one failure"
    fi
  fi
  passed=$((passed + p))
  failed=$((failed + f))
  summary="$summary$(printf '  %-14s %6d passed, %d failed' "$target" "$p" "$f")\n"
done
echo "=== summary"
printf "$summary"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
