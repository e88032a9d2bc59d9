rockspec_format = "3.0"
package = "steer"
version = "scm-1"
-- steer is not published: there is no public repository or release archive
-- to fetch. Build the rock from a checkout with `luarocks make` (README,
-- "Install"), which uses the files in place and never reads source.url.
-- `luarocks build` and `luarocks pack` do fetch it: for them, replace the
-- path below by the absolute path of your clone (they take its committed
-- HEAD), e.g. "git+file:///home/me/steer".
source = {
  url = "git+file:///path/to/your/clone/of/steer",
}
description = {
  summary = "Steering behaviors and flocking for game AI, in C, for Lua",
  detailed = [[
    Seek, flee, arrive, pursue, evade, wander, obstacle and wall avoidance, path
    following and flocking, combined by weight, priority, prioritized sum or
    dithering, with a spatial grid and whole-world steps in C. Lua 5.1-5.4, LuaJIT.
  ]],
  license = "MIT",
}
dependencies = {
  "lua >= 5.1",
}
build = {
  type = "builtin",
  modules = {
    ["steer"] = "lua/steer/init.lua",
    ["steer.ffi"] = "lua/steer/ffi.lua",
    ["steer.debug"] = "lua/steer/debug.lua",
    ["steer.meta"] = "lua/steer/meta.lua",
    ["steer.core"] = {
      sources = {
        "csrc/agent.c", "csrc/agent_program.c", "csrc/alloc.c", "csrc/astar.c",
        "csrc/batch_quad.c", "csrc/behaviors.c", "csrc/collide.c", "csrc/contain.c", "csrc/contain_index.c",
        "csrc/corridor.c",
        "csrc/crowd.c", "csrc/crowd_quad.c", "csrc/flat.c", "csrc/flocking.c",
        "csrc/flow_steer.c", "csrc/flowfield.c", "csrc/formation.c", "csrc/formation_fit.c", "csrc/geo_halo.c", "csrc/geo_index.c",
        "csrc/geo_sides.c", "csrc/geometry.c", "csrc/grid.c", "csrc/level.c", "csrc/navgrid.c",
        "csrc/navinflate.c", "csrc/navmap.c", "csrc/navsight.c", "csrc/nearest.c", "csrc/neighbors.c", "csrc/obstacles.c",
        "csrc/orca.c", "csrc/orca_agent.c", "csrc/orca_batch.c", "csrc/orca_cells.c",
        "csrc/orca_push.c", "csrc/orca_quad.c", "csrc/orca_shapes.c", "csrc/orientation.c",
        "csrc/path.c", "csrc/point.c", "csrc/program.c", "csrc/program_batch.c",
        "csrc/program_priority.c", "csrc/random.c", "csrc/raycast.c", "csrc/snapshot.c",
        "csrc/sort.c", "csrc/states.c", "csrc/status.c", "csrc/step.c", "csrc/tactics.c",
        "csrc/threads.c", "csrc/tiles.c", "csrc/ttc.c", "csrc/world.c",
        "csrc/binding/agent.c", "csrc/binding/base.c", "csrc/binding/check.c",
        "csrc/binding/compat.c", "csrc/binding/ffi_entry.c", "csrc/binding/forces.c",
        "csrc/binding/formation.c", "csrc/binding/guard.c", "csrc/binding/hooks.c",
        "csrc/binding/level.c", "csrc/binding/module.c", "csrc/binding/nav.c",
        "csrc/binding/orca.c", "csrc/binding/path.c", "csrc/binding/point.c",
        "csrc/binding/program.c", "csrc/binding/snapshot.c", "csrc/binding/turn.c",
        "csrc/binding/world.c",
      },
      libraries = { "m", "pthread" },
    },
  },
}
