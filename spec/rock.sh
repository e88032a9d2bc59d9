#!/bin/sh
# Installs the rockspec with luarocks into a scratch tree per Lua version and
# checks that the installed module loads and computes; ends "N passed, N failed".
cd "$(dirname "$0")/.." || exit 1
passed=0
failed=0
for v in 5.4 5.1; do
  tree=$(mktemp -d)
  lua=lua$v
  if luarocks --lua-version=$v --tree="$tree" make rockspec/steer-scm-1.rockspec >"$tree.log" 2>&1 &&
    LUA_PATH="$tree/share/lua/$v/?.lua;$tree/share/lua/$v/?/init.lua" \
    LUA_CPATH="$tree/lib/lua/$v/?.so" $lua -e '
      local steer = require "steer"
      local fx = steer.seek(0, 0, 0, 0, 3, 4, 5, 10)
      assert(fx == 3, "seek through the installed rock")
      local w = steer.world{}
      w:add{}:set_behaviors{ { "wander" } }
      w:step(0.1)'; then
    echo "ok: luarocks make for Lua $v"
    passed=$((passed + 1))
  else
    echo "FAILED: luarocks make for Lua $v"
    cat "$tree.log"
    failed=$((failed + 1))
  fi
  rm -rf "$tree" "$tree.log"
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
