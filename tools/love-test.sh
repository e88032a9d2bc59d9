#!/bin/sh
# make love-test: checks the demo's scenes and their behavior programs
# without LÖVE (tools/programs-check.lua), then runs every scene of
# examples/love under Xvfb for a fixed
# number of frames with a fixed seed, twice - from the repository layout and
# from a shipped copy made by love-dist.sh in a temporary folder - and
# checks from the screenshots that agents were drawn and moved
# (tools/love-check). Ends with "N passed, N failed"; exits 1 on failure.
# The second screenshot of each scene goes to docs/img/love-scene<k>.png
# when that file is missing, or always with LOVE_SHOTS=update.
set -u
cd "$(dirname "$0")/.." || exit 1
SCENES=9
out=build/love-test
passed=0
failed=0
result() { # ok|fail, what
  if [ "$1" = ok ]; then passed=$((passed + 1)); echo "ok   $2"
  else failed=$((failed + 1)); echo "FAIL $2"; fi
}
# adds the "N passed, N failed" line of output $2 to the totals
add_summary() { # label output
  last=$(echo "$2" | grep -E '^[0-9]+ passed, [0-9]+ failed$' | tail -n 1)
  if [ -z "$last" ]; then
    result fail "$1: printed no summary"
    return
  fi
  p=${last%% passed*}
  f=${last#*, }
  f=${f%% failed}
  passed=$((passed + p))
  failed=$((failed + f))
}
finish() {
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
  exit $?
}

# love and Xvfb, installed when missing (Debian 12: LÖVE 11.4)
if ! command -v love >/dev/null 2>&1 || ! command -v xvfb-run >/dev/null 2>&1; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  echo "love-test: installing love and xvfb"
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q love xvfb >/dev/null 2>&1 ||
    { $SUDO apt-get update -q >/dev/null 2>&1 &&
      $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q love xvfb >/dev/null 2>&1; } ||
    { result fail "apt-get install love xvfb"; finish; }
fi
love --version 2>/dev/null | head -n 1

# runs the game in folder $1 with screenshots to $2; then checks the images
run_and_check() { # game_dir shots_dir label [extra game args]
  game=$1 shots=$2 label=$3
  shift 3
  rm -rf "$shots"
  mkdir -p "$shots"
  timeout 600 xvfb-run -a -s "-screen 0 1024x768x24" \
    love "$game" --test "$shots" "$@" >"$shots/game.log" 2>&1
  status=$?
  sed 's/^/  /' "$shots/game.log"
  if [ $status -eq 0 ] && grep -q "^test run done" "$shots/game.log"; then
    result ok "$label: the game ran every scene and quit (exit 0)"
  else
    result fail "$label: the game exited $status (log: $shots/game.log)"
  fi
  check=$(love tools/love-check "$shots" "$SCENES" 2>&1)
  echo "$check" | grep -vE '^[0-9]+ passed, [0-9]+ failed$' | sed "s/^/$label: /"
  add_summary "$label: the screenshot checker" "$check"
}

# 0. the scenes and their programs, without LÖVE (LuaJIT, as in LÖVE)
echo "== tools/programs-check.lua"
check=$(LUA_PATH='lua/?.lua;lua/?/init.lua;;' LUA_CPATH='build/luajit/?.so;;' \
  luajit tools/programs-check.lua 2>&1)
echo "$check" | grep -vE '^[0-9]+ passed, [0-9]+ failed$' | sed 's/^/programs: /'
add_summary "programs: tools/programs-check.lua" "$check"

# 1. from the repository: steer found in build/luajit and lua/
echo "== repository layout: love examples/love"
run_and_check examples/love "$out/repo" repo

# 2. a shipped copy, away from the repository: steer found beside main.lua
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "== shipped copy: love $tmp/steer-demo"
if sh tools/love-dist.sh "$tmp/steer-demo" >/dev/null; then
  run_and_check "$tmp/steer-demo" "$out/dist" shipped --frames 60
  if grep -q "steer.core from $tmp/steer-demo/steer/core.so" "$out/dist/game.log"; then
    result ok "shipped: steer.core loaded from the copy's own steer/core.so"
  else
    result fail "shipped: steer.core not loaded from $tmp/steer-demo/steer/core.so"
  fi
else
  result fail "shipped: love-dist.sh failed"
fi

# one screenshot per scene for the docs
mkdir -p docs/img
for k in $(seq 1 $SCENES); do
  shot="$out/repo/scene$k-b.png"
  doc="docs/img/love-scene$k.png"
  if [ -f "$shot" ] && { [ ! -f "$doc" ] || [ "${LOVE_SHOTS:-}" = update ]; }; then
    cp "$shot" "$doc"
    echo "saved $doc"
  fi
done
finish
