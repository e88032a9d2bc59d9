#!/bin/sh
# make rock: the README's install commands, run exactly as written (each
# indented block of its "## Install" section, in a scratch HOME so --local
# installs there), then the installed module computes; and the rockspec
# installs into a scratch tree for plain Lua 5.1. Ends "N passed, N failed".
cd "$(dirname "$0")/.." || exit 1
passed=0
failed=0
ok() { echo "ok: $1"; passed=$((passed + 1)); }
fail() { echo "FAILED: $1"; cat "$2"; failed=$((failed + 1)); }

# what the installed module must do, through the interpreter the block ran
CHECK='
local steer = require "steer"
local fx = steer.seek(0, 0, 0, 0, 3, 4, 5, 10)
assert(fx == 3, "seek through the installed rock")
local w = steer.world{}
w:add{}:set_behaviors{ { "wander" } }
w:step(0.1)
local function where(name, path) -- package.searchpath, which 5.1 lacks
  for template in path:gmatch("[^;]+") do
    local file = template:gsub("%?", (name:gsub("%.", "/")))
    local f = io.open(file)
    if f then f:close() return file end
  end
end
assert(where("steer.core", package.cpath):find(os.getenv("HOME"), 1, true) == 1,
  "steer.core comes from the rock")'

# the README's install blocks, separated by a line "--"
blocks=$(awk '
  /^## / { inside = ($0 == "## Install"); next }
  inside && /^    / { sub(/^    /, ""); print; inblock = 1; next }
  inside && inblock { print "--"; inblock = 0 }' README.md)
[ -n "$blocks" ] || { echo "FAILED: no install commands in README.md"; echo "0 passed, 1 failed"; exit 1; }

count=$(echo "$blocks" | grep -c '^--$')
k=1
while [ "$k" -le "$count" ]; do
  block=$(echo "$blocks" | awk -v k="$k" '/^--$/ { n++; next } n == k - 1')
  lua=$(echo "$block" | tail -n 1 | cut -d' ' -f1)
  home=$(mktemp -d)
  log="$home.log"
  echo "== README install block $k ($lua)"
  echo "$block" | sed 's/^/   /'
  # the block runs in the checkout, as a reader would; the check runs
  # elsewhere, so the module cannot come from the checkout's build files
  if HOME="$home" sh -ec "$block
cd \"\$HOME\" && $lua -e '$CHECK'" >"$log" 2>&1 &&
    grep -qx '[0-9][0-9]*\.[0-9][0-9]*\.[0-9][0-9]*' "$log"; then
    ok "README install block $k ($lua) prints $(grep -x '[0-9.]*' "$log" | tail -n 1)"
  else
    fail "README install block $k ($lua)" "$log"
  fi
  rm -rf "$home" "$log"
  k=$((k + 1))
done

# plain Lua 5.1 (not in the README's blocks): a scratch tree
tree=$(mktemp -d)
if luarocks --lua-version=5.1 --tree="$tree" make rockspec/steer-scm-1.rockspec >"$tree.log" 2>&1 &&
  LUA_PATH="$tree/share/lua/5.1/?.lua;$tree/share/lua/5.1/?/init.lua" \
  LUA_CPATH="$tree/lib/lua/5.1/?.so" HOME="$tree" lua5.1 -e "$CHECK" >>"$tree.log" 2>&1; then
  ok "luarocks make for Lua 5.1"
else
  fail "luarocks make for Lua 5.1" "$tree.log"
fi
rm -rf "$tree" "$tree.log"

# luarocks make builds in place: steer/core.so and the objects
rm -f steer/core.so csrc/*.o csrc/binding/*.o
rmdir steer 2>/dev/null

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
