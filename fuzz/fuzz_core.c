/* fuzz_core.c - libFuzzer harness over the C core (csrc/steer.h).
 *
 * An input starting with "STEERSN" is a snapshot for steer_world_restore
 * (snapshot_ops.h). Any other input is decoded as a little program: a
 * world definition, then operations on up to MAX_AGENTS agents - add,
 * remove, set, query, apply, single behaviors, obstacles, walls, paths
 * (world_ops.h); behavior programs, giving them to agents, retargeting,
 * steering, steps (program_ops.h); snapshots and restores (snapshot_ops.h);
 * and, ending the input, a crowd big enough for a second thread
 * (crowd_op.h); op 0xFE: a navigation grid, paths and a flow field
 * (nav_ops.h); op 0xFD: the group and tactical behaviors in a scratch
 * world of their own (tactics_ops.h). Every number is mapped into the
 * core's documented domain
 * (finite, |x| <= STEER_LIMIT, sizes >= 0, valid enums), so anything the
 * sanitizers or the checks report is a core bug; only snapshot bytes are
 * left untrusted.
 *
 * After every operation: the live count, ids and programs match a mirror
 * kept here, every agent field is finite and inside the world, programs
 * shared with others are unchanged. Allocators that fail on demand (the
 * world's and the process-wide one) check that STEER_ENOMEM leaves the
 * world as it was, byte for byte in its snapshot. An input with steps is
 * run again with the scalar kernel (steer_set_simd(1)) and, when its steps
 * could use two threads, threads = 2; both runs must agree bit for bit
 * after every step.
 */
#include "fuzz.h"
#include "turn_fields.h"
#include "world_ops.h"
#include "program_ops.h"
#include "snapshot_ops.h"
#include "crowd_op.h"
#include "nav_ops.h"
#include "turn_ops.h"
#include "tactics_ops.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The world definition at the start of the input. */
static void decode_world(reader *r, harness *h, alloc_state *a) {
  h->def = steer_world_def_default();
  uint8_t kind = u8(r);
  h->mode = kind % 3;
  if (kind & 4) h->def.cell_size = extent(r);
  if (h->mode) {
    h->def.width = extent(r);
    h->def.height = extent(r);
    h->def.wrap = h->mode == 1;
  }
  h->def.seed = u32(r);
  if (kind & 8) {
    a->rng = u32(r);
    a->odds = 2 + u8(r) % 30;
  }
  if (kind & 16) { /* paths and programs may fail to be made too */
    global_alloc.rng = u32(r);
    global_alloc.odds = 2 + u8(r) % 30;
  }
  if (kind & 32) h->def.capacity = u8(r) % 64;
  /* A step, a sort and a snapshot walk every cell of a dense grid (up to
     4M cells, however few the agents): coarser cells keep inputs fast.
     Worlds with more cells than that are hashed and stay as drawn. */
  double w = h->def.width, ht = h->def.height;
  double cells = axis_cells(w, h->def.cell_size) * axis_cells(ht, h->def.cell_size);
  if (h->mode && cells > MAX_DENSE_CELLS && cells <= 4194304) {
    double c = sqrt(w / MAX_DENSE_CELLS * ht); /* square cells of the area */
    if (w < c || ht < c) c = fmax(w, ht) / MAX_DENSE_CELLS; /* a thin world */
    h->def.cell_size = fmax(h->def.cell_size, c);
    while (axis_cells(w, h->def.cell_size) * axis_cells(ht, h->def.cell_size) >
           MAX_DENSE_CELLS)
      h->def.cell_size *= 2; /* rounding */
  }
  h->def.alloc = test_alloc;
  h->def.alloc_ud = a;
}

static void release_all(harness *h) {
  steer_world_destroy(h->w);
  for (size_t k = 0; k < h->n; k++) steer_program_release(h->ag[k].shadow);
  for (int s = 0; s < SLOTS; s++) {
    steer_path_release(h->paths[s]);
    steer_point_release(h->points[s]);
    steer_program_release(h->progs[s]);
    steer_program_release(h->shadows[s]);
  }
}

/* Runs the input with a world of `threads` threads; h keeps the log. */
static void run(const uint8_t *data, size_t size, int threads, harness *h) {
  reader r = {data, size, 0};
  alloc_state a = {0, 0, 0};
  memset(h, 0, sizeof *h);
  memset(&global_alloc, 0, sizeof global_alloc);
  h->a = &a;
  decode_world(&r, h, &a);
  h->def.threads = threads;
  h->w = steer_world_create(&h->def);
  if (!h->w) {
    CHECK(a.odds != 0, "world_create failed");
    release_all(h);
    return;
  }
  /* the run's width, asked for this world alone (steer_world_set_simd) */
  int width = steer_world_set_simd(NULL, 0);
  CHECK(steer_world_set_simd(h->w, width) == width, "world SIMD width %d", width);
  while (more(&r)) {
    uint8_t op = u8(&r);
    if (op == 0xFF) { /* the crowd: rarely drawn, and it ends the input */
      op_crowd(&r, h);
      break;
    }
    if (op == 0xFE) { /* navigation: a grid of its own */
      op_nav(&r, h);
      continue;
    }
    if (op == 0xFD) { /* issue 15's behaviors, in a world of their own */
      op_tactics(&r, h);
      continue;
    }
    switch (op % 16) {
    case 0: op_add(&r, h); break;
    case 1: (u8(&r) & 3) ? op_add(&r, h) : op_add_many(&r, h); break;
    case 2: op_remove(&r, h); break;
    case 3: op_set(&r, h); break;
    case 4: op_query(&r, h); break;
    case 5: op_apply(&r, h); break;
    case 6: op_behavior(&r, h); break;
    case 7: op_obstacle(&r, h); break;
    case 8: op_path(&r, h); break;
    case 9: {
      uint8_t which = u8(&r) % 3;
      if (which == 2) op_turn(&r, h);
      else which ? op_stateless(&r) : op_flat(&r, h);
      break;
    }
    case 10: op_program(&r, h); break;
    case 11: op_set_program(&r, h); break;
    case 12: op_retarget(&r, h); break;
    case 13: op_steering(&r, h); break;
    case 14: op_step(&r, h); break;
    default: op_snapshot(&r, h); break;
    }
    check_world(h);
  }
  release_all(h);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  steer_set_allocator(test_alloc, &global_alloc);
  if (size >= 8 && memcmp(data, "STEERSN", 7) == 0) {
    memset(&global_alloc, 0, sizeof global_alloc);
    restore_raw(data, size);
    return 0;
  }
  static harness one, two; /* large: off the stack */
  steer_set_simd(0); /* the widest kernel the CPU has */
  run(data, size, 1, &one);
  if (one.nlog > 0) {
    /* again with the scalar kernel (and two threads for a crowd) */
    int threads = one.threaded ? 2 : 1;
    steer_set_simd(1);
    run(data, size, threads, &two);
    steer_set_simd(0);
    CHECK(one.nlog == two.nlog, "%zu steps, then %zu", one.nlog, two.nlog);
    for (size_t k = 0; k < one.nlog; k++)
      CHECK(one.log[k] == two.log[k],
            "step %zu: the widest kernel and 1 thread differ from the scalar "
            "kernel and %d", k + 1, threads);
  }
  return 0;
}
