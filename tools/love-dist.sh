#!/bin/sh
# Makes the folder a user ships: the demo of examples/love with steer beside
# main.lua (steer/core.so from the LuaJIT build, steer/*.lua), so it runs
# with `love DEST` from anywhere, without this repository.
#   sh tools/love-dist.sh DEST        (make love-dist: build/love-dist/steer-demo)
set -eu
dest=${1:?usage: love-dist.sh DEST}
root=$(cd "$(dirname "$0")/.." && pwd)
so="$root/build/luajit/steer/core.so"
[ -f "$so" ] || { echo "love-dist: $so missing: run make first" >&2; exit 1; }
rm -rf "$dest"
mkdir -p "$dest/steer"
cp -R "$root/examples/love/." "$dest/"
cp "$so" "$dest/steer/core.so"
# every Lua module of steer but meta.lua (annotations, no code)
for f in "$root"/lua/steer/*.lua; do
  [ "$(basename "$f")" = meta.lua ] || cp "$f" "$dest/steer/"
done
echo "love-dist: $dest (run it with: love $dest)"
