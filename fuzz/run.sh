#!/bin/sh
# make fuzz-c: replays every input of the committed seed corpus (fuzz/corpus)
# through the libFuzzer harness, one test each, then fuzzes for SECONDS
# (default 60) starting from it, as one more test. New inputs go to
# fuzz/corpus-run/ (not committed), crashes to build/fuzz/crash-*.
# With FUZZ_RUNS=n (make fuzz-c-ci, what `make check` runs) it makes n runs
# from the seed FUZZ_RANDOM_SEED instead, from the committed corpus alone,
# so a check tries (nearly) the same inputs on every machine.
# Ends with the line "N passed, N failed".
cd "$(dirname "$0")/.." || exit 1
seconds=${1:-60}
bin=build/fuzz/fuzz_core
[ -x "$bin" ] || { echo "missing $bin (make build/fuzz/fuzz_core)"; echo "0 passed, 1 failed"; exit 1; }
# the harness includes fuzz/*.h, which an older mk/sanitize.mk does not list
for h in fuzz/*.h; do
  if [ "$h" -nt "$bin" ]; then
    echo "$bin is older than $h: rm $bin and make it again"
    echo "0 passed, 1 failed"
    exit 1
  fi
done
passed=0
failed=0
for f in fuzz/corpus/*; do
  [ -f "$f" ] || continue
  if "$bin" "$f" >build/fuzz/replay.log 2>&1; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "== seed input $f fails:"
    grep -E 'runtime error|check failed|^  |ERROR' build/fuzz/replay.log | head -5
  fi
done
echo "== replayed the seed corpus: $passed passed, $failed failed"
# slow inputs get less energy (crowds of 4096 agents, run twice); with
# FUZZ_RUNS which inputs run is then a matter of speed too, but rarely:
# every run mutates by the same seed, and the timeout is loose, so a slow
# machine fails no input a fast one passes
if [ -n "$FUZZ_RUNS" ]; then
  echo "== fuzzing: $FUZZ_RUNS runs from seed ${FUZZ_RANDOM_SEED:=1}"
  corpus=build/fuzz/corpus-ci
  rm -rf "$corpus"
  limits="-runs=$FUZZ_RUNS -seed=$FUZZ_RANDOM_SEED -timeout=30"
else
  echo "== fuzzing for $seconds s"
  corpus=fuzz/corpus-run
  limits="-max_total_time=$seconds -timeout=10"
fi
mkdir -p "$corpus"
# $limits holds several options: split on purpose
"$bin" $limits -rss_limit_mb=2048 -entropic_scale_per_exec_time=1 \
  -artifact_prefix=build/fuzz/ -print_final_stats=1 "$corpus" fuzz/corpus \
  >build/fuzz/session.log 2>&1
rc=$?
grep -E 'runtime error|check failed|^  [a-z]|ERROR|Test unit written|Done [0-9]+ runs|stat::number_of_executed_units|stat::average_exec_per_sec' \
  build/fuzz/session.log | head -20
if [ "$rc" -eq 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
