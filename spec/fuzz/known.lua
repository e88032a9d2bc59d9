--- Open findings in code the fuzzer does not own, each with its proposed
-- patch under notes/patches/. While one is open the fuzzer steers clear of
-- its trigger (or accepts its message), so the suite stays useful for
-- everything else; STEER_FUZZ_STRICT=1 exercises them all regardless.
-- Set open = false once the fix has landed.
local K = {
  thin_cells = { open = false, patch = "02-grid-nan-cells.patch",
    what = "cell_size, or bounds per cell, below 1e-150: a NaN cell index "
      .. "(UB; segfault or missed query results)" },
  torus_offsets = { open = false, patch = "03-world-wrap-delta-overflow.patch",
    what = "torus offsets d - extent * floor(d / extent + 0.5): inf/NaN for an "
      .. "extent below ~1e-158, and wrong by up to ulp(d) for targets far "
      .. "outside the torus (flee's panic test, seek direction)" },
  clamp_subnormal = { open = false, patch = "05-vec-clamp-subnormal-ratio.patch",
    what = "clamp scales by a subnormal max / l: results up to 2x longer than max" },
  accumulate_subnormal = { open = false, patch = "06-accumulate-subnormal-room.patch",
    what = "prioritized_sum with max_force below ~1e-154: the total passes max_force" },
  seed_cast = { open = false, patch = "07-world-seed-cast-range.patch",
    what = "steer.world{seed = s} with |s| >= 2^63 casts to long long: UB" },
  point_cast = { open = false, patch = "08-path-point-index-cast.patch",
    what = "path:point(i) with an integral |i| >= 2^31 formats (int)i: UB" },
  world_bad_self = { open = false, patch = "04-agent-world-bad-self-message.patch",
    what = "Agent.world(non-agent) raises \"bad argument #1 to '?'\"" },
}

local strict = os.getenv("STEER_FUZZ_STRICT") == "1"

--- True when the fuzzer should keep away from finding `name`.
function K.avoid(name)
  return not strict and K[name].open
end

return K
