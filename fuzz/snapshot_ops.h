/* snapshot_ops.h - snapshots and restore: round trips that continue bit
 * for bit, writers and allocators that fail, and restores of damaged
 * snapshots whose checksum was recomputed so that the deep validation
 * judges them (part of fuzz_core.c). */

/* ---- judging a restored world ------------------------------------------- */

static void check_program_sane(const steer_program *p) {
  CHECK((unsigned)steer_program_combine(p) < STEER_COMBINE_COUNT, "combine");
  double s = steer_program_smoothing(p), hold = steer_program_hold(p);
  CHECK(isfinite(s) && s <= 1 && isfinite(hold) && hold >= 0,
        "smoothing %g, hold %g", s, hold);
  for (size_t k = 0; k < steer_program_count(p); k++) {
    const steer_entry *e = steer_program_entry(p, k);
    CHECK((unsigned)e->behavior < STEER_BEHAVIOR_COUNT &&
              (unsigned)e->target.kind <= STEER_TARGET_FORMATION,
          "entry %zu: behavior %d, target %d", k, (int)e->behavior,
          (int)e->target.kind);
    if (e->target.kind == STEER_TARGET_PATH)
      CHECK(e->target.path && steer_path_count(e->target.path) > 0, "path target");
    if (e->target.kind == STEER_TARGET_FLOW)
      CHECK(e->target.field != NULL, "flow field target");
    if (e->target.kind == STEER_TARGET_SHARED)
      CHECK(e->target.shared && finite2(steer_point_get(e->target.shared)),
            "shared point target");
    const double sizes[] = {e->probability, e->radius, e->feeler_length,
                            e->slowing_radius, e->arrival_radius, e->hysteresis,
                            e->personal_space};
    for (int q = 0; q < 7; q++)
      CHECK(isfinite(sizes[q]) && sizes[q] >= 0 && sizes[q] <= STEER_LIMIT,
            "entry %zu: size %d = %g", k, q, sizes[q]);
    CHECK(isfinite(e->weight) && isfinite(e->panic_radius) &&
              isfinite(e->target.point.x) && isfinite(e->target.point.y),
          "entry %zu numbers", k);
    CHECK(memchr(e->tag, 0, STEER_TAG_SIZE) != NULL, "tag without its NUL");
    CHECK(e->time_horizon > 0 && e->time_horizon <= STEER_LIMIT,
          "entry %zu: time_horizon %g", k, e->time_horizon);
  }
  const steer_orca *o = steer_program_orca(p);
  CHECK(!o || steer_orca_check(o) == STEER_OK, "orca parameters");
}

/* A world steer_world_restore accepted: consistent ids, every number in
   the domain, every program well formed; it snapshots into bytes that
   restore to the same bytes; it steps (and steers) without NaN and with
   every agent inside it; agents can still be added and removed. ra is its
   allocator's state (held off for the round trip). */
/* w's snapshot, restored, snapshots to the same bytes; returns the
   restored world (the caller destroys it; allocation failures are the
   caller's to pause). */
static steer_world *restored_same_bytes(steer_world *w, const char *what) {
  bytes s1 = {NULL, 0, 0, 0}, s2 = {NULL, 0, 0, 0};
  CHECK(steer_world_snapshot(w, bytes_write, &s1) == STEER_OK, "%s: snapshot", what);
  const char *err = NULL;
  steer_world *again = steer_world_restore(s1.p, s1.n, NULL, NULL, &err);
  CHECK(again != NULL, "%s: its snapshot is refused: %s", what, err);
  CHECK(steer_world_snapshot(again, bytes_write, &s2) == STEER_OK,
        "%s: snapshot of the restored world", what);
  CHECK(bytes_equal(&s1, &s2), "%s: restore(snapshot(w)) differs from w at byte %zu",
        what, bytes_diff(&s1, &s2));
  bytes_free(&s1);
  bytes_free(&s2);
  return again;
}

static void check_restored(steer_world *w, alloc_state *ra, double dt) {
  steer_world_def def = steer_world_get_def(w);
  CHECK(def.cell_size > 0 && def.width >= 0 && def.height >= 0 &&
            (def.width > 0) == (def.height > 0) && (!def.wrap || def.width > 0),
        "restored definition: cell %g, %g x %g, wrap %d", def.cell_size,
        def.width, def.height, def.wrap);
  size_t n = steer_world_count(w), seen = 0;
  for (steer_id id = steer_world_next_id(w, 0); id;
       id = steer_world_next_id(w, id)) {
    long i = steer_world_index(w, id);
    CHECK(i >= 0 && (size_t)i < n && steer_world_id_at(w, (size_t)i) == id,
          "restored id %llu", (unsigned long long)id);
    CHECK(++seen <= n, "iteration yields more ids than agents");
  }
  CHECK(seen == n, "iteration yields %zu of %zu agents", seen, n);
  for (size_t i = 0; i < n; i++) {
    check_agent_in(w, &def, i);
    check_program_view(w, i);
    if (steer_agent_program(w, i)) check_program_sane(steer_agent_program(w, i));
  }
  for (size_t k = 0; k < steer_world_obstacle_count(w); k++) {
    double o[3];
    steer_world_obstacle(w, k, o);
    CHECK(isfinite(o[0]) && isfinite(o[1]) && o[2] >= 0 && o[2] <= STEER_LIMIT,
          "restored obstacle");
  }
  for (size_t k = 0; k < steer_world_wall_count(w); k++) {
    double s[4];
    steer_world_wall(w, k, s);
    for (int q = 0; q < 4; q++) CHECK(fabs(s[q]) <= STEER_LIMIT, "restored wall");
  }

  /* normalised by one round trip, it then stays the same */
  ra->paused++;
  global_alloc.paused++;
  steer_world_destroy(restored_same_bytes(w, "a restored world"));
  ra->paused--;
  global_alloc.paused--;

  const double dts[] = {dt, 1.0};
  for (int k = 0; k < 2; k++) {
    steer_status s = steer_world_step(w, dts[k]);
    if (s != STEER_OK) {
      CHECK(s == STEER_ENOMEM && (ra->odds || global_alloc.odds),
            "restored world's step: %d", (int)s);
      continue;
    }
    n = steer_world_count(w);
    for (size_t i = 0; i < n; i++) {
      check_agent_in(w, &def, i);
      check_program_view(w, i);
      check_bound("speed after a step", steer_agent_velocity(w, i),
                  steer_agent_get(w, i, STEER_MAX_SPEED));
    }
  }
  for (size_t i = 0; i < n && i < 16; i++) {
    steer_vec2 f = steer_agent_steering(w, i, dt);
    CHECK(finite2(f), "restored agent %zu steers (%g, %g)", i, f.x, f.y);
  }
  steer_id id = 0;
  if (steer_world_add(w, NULL, &id) == STEER_OK) {
    CHECK(steer_world_index(w, id) >= 0, "added agent missing");
    CHECK(steer_world_remove(w, id) == STEER_OK, "remove");
    CHECK(steer_world_index(w, id) < 0, "removed agent live");
  }
  id = steer_world_next_id(w, 0);
  if (id) {
    CHECK(steer_world_remove(w, id) == STEER_OK, "remove a restored agent");
    CHECK(steer_world_count(w) + 1 == n || n == 0, "count after remove");
  }
}

/* Untrusted bytes: refused with a message, or a world check_restored
   accepts. */
static void judge_restore(const unsigned char *p, size_t n, alloc_state *ra,
                          double dt) {
  const char *err = NULL;
  steer_world *w = steer_world_restore(p, n, test_alloc, ra, &err);
  DEBUG("restore of %zu bytes: %s\n", n, w ? "a world" : err);
  if (!w) {
    CHECK(err != NULL && *err != '\0', "restore refused without a message");
    return;
  }
  check_restored(w, ra, dt);
  steer_world_destroy(w);
}

/* ---- damaging a snapshot --------------------------------------------------- */

static const uint64_t special_words[] = {
    0, 1, 2, 3, 0xFFFFFFFFull, 0x100000000ull, ~0ull, 1ull << 63, 1ull << 26,
    1ull << 27, (1ull << 26) + 1, 48, 1000, 0xFFFFFFFFFFFFFFFEull};
static const uint32_t special_u32s[] = {0,          1,          2,
                                        3,          4,          11,
                                        12,         0xFFFFFFFFu, 0xFFFFFFFEu,
                                        1u << 26,   (1u << 27) - 1, 1u << 27};

static double special_double(uint8_t k) {
  const double some[] = {NAN, INFINITY, -INFINITY, -1.0, -0.0, 5e-324,
                         1e150, 1.0000000000000002e150, 1e151, 2.0, 0.5,
                         1e-300, 1.7976931348623157e308, -1e-300};
  return some[k % (sizeof some / sizeof some[0])];
}

static void put_le(unsigned char *p, uint64_t v, int bytes) {
  for (int k = 0; k < bytes; k++) p[k] = (unsigned char)(v >> (8 * k));
}

/* Damages p[0..n) (the last 8 bytes are the checksum slot) in a few places;
   cap is the buffer's size. Returns the new length. */
static size_t mutate(reader *r, unsigned char *p, size_t n, size_t cap) {
  int count = 1 + u8(r) % 4;
  for (int c = 0; c < count && n > 20; c++) {
    size_t body = n - 8;
    size_t off = u16(r) % body, word = off & ~(size_t)3;
    size_t len = 1 + u8(r) % 16;
    switch (u8(r) % 7) {
    case 0: p[off] ^= (unsigned char)(u8(r) | 1); break;
    case 1:
      if (word + 8 <= body)
        put_le(p + word, special_words[u8(r) % (sizeof special_words / 8)], 8);
      break;
    case 2:
      if (word + 4 <= body)
        put_le(p + word, special_u32s[u8(r) % (sizeof special_u32s / 4)], 4);
      break;
    case 3:
      if (word + 8 <= body) {
        double v = special_double(u8(r));
        uint64_t bits;
        memcpy(&bits, &v, 8);
        put_le(p + word, bits, 8);
      }
      break;
    case 4: /* cut the body short; the checksum slot follows it */
      n = off + 8;
      break;
    case 5:
      if (off + len <= body) {
        memmove(p + off, p + off + len, n - off - len);
        n -= len;
      }
      break;
    default: /* insert a copy of other bytes */
      if (n + len <= cap && len <= body) {
        size_t from = u16(r) % (body - len + 1);
        unsigned char tmp[16];
        memcpy(tmp, p + from, len);
        memmove(p + off + len, p + off, n - off);
        memcpy(p + off, tmp, len);
        n += len;
      }
    }
  }
  return n;
}

/* ---- operations ------------------------------------------------------------ */

/* The shared points of w and of c, its restored copy, in pairs (from[j] of
   w is to[j] of c; at most `most`): the same agents in the same order run
   equal programs, so their shared entries meet in the same order. Entries
   that shared a point must share one again, and no other entry's. */
static size_t point_pairs(steer_world *w, steer_world *c, steer_point **from,
                          steer_point **to, size_t most) {
  size_t n = 0;
  for (size_t i = 0; i < steer_world_count(w); i++) {
    const steer_program *p = steer_agent_program(w, i);
    const steer_program *q = steer_agent_program(c, i);
    if (!p) continue;
    CHECK(q && steer_program_count(q) == steer_program_count(p),
          "agent %zu: restored program", i);
    for (size_t k = 0; k < steer_program_count(p); k++) {
      const steer_target *a = &steer_program_entry(p, k)->target;
      const steer_target *b = &steer_program_entry(q, k)->target;
      if (a->kind != STEER_TARGET_SHARED) continue;
      CHECK(b->kind == STEER_TARGET_SHARED && b->shared != a->shared,
            "agent %zu entry %zu: restored without a point of its own", i, k);
      size_t j = 0;
      while (j < n && from[j] != a->shared && to[j] != b->shared) j++;
      if (j < n)
        CHECK(from[j] == a->shared && to[j] == b->shared,
              "agent %zu entry %zu: shared points restored apart or joined", i, k);
      else if (n < most) {
        from[n] = a->shared;
        to[n] = b->shared;
        n++;
      }
    }
  }
  return n;
}

/* restore(snapshot(w)) snapshots to the same bytes and continues bit for
   bit with w for a few steps. */
static void snapshot_continues(reader *r, harness *h) {
  bytes s = snapshot_of(h, h->w);
  const char *err = NULL;
  pause_alloc(h);
  steer_world *c = steer_world_restore(s.p, s.n, NULL, NULL, &err);
  resume_alloc(h);
  CHECK(c != NULL, "restore of a fresh snapshot refused: %s", err);
  steer_world_def d = steer_world_get_def(c);
  CHECK(d.cell_size == h->def.cell_size && d.seed == h->def.seed &&
            d.width == h->def.width && d.height == h->def.height &&
            d.wrap == h->def.wrap,
        "restored definition differs");
  CHECK(steer_world_obstacle_count(c) == h->obstacles &&
            steer_world_wall_count(c) == h->walls,
        "restored obstacles and walls");
  bytes again = snapshot_of(h, c);
  CHECK(bytes_equal(&s, &again), "restore(s) snapshots differently at byte %zu",
        bytes_diff(&s, &again));
  bytes_free(&again);
  bytes_free(&s);
  CHECK(d.threads == 1, "a restored world starts with 1 thread, not %d", d.threads);
  /* its threads given back (any count, out of range ones clamped): results
     never depend on them */
  int threads = (int)(int8_t)u8(r);
  steer_world_set_threads(c, threads);
  d = steer_world_get_def(c);
  CHECK(d.threads == (threads < 1 ? 1 : threads > STEER_MAX_THREADS ? STEER_MAX_THREADS : threads),
        "set_threads(%d) gave %d", threads, d.threads);
  steer_point *from[64], *to[64];
  size_t pairs = point_pairs(h->w, c, from, to, 64);
  DEBUG("snapshot continues with %zu shared points\n", pairs);
  int steps = 1 + u8(r) % 3;
  double dt = positive(r);
  /* the restored world may take each dt under a max_step: its one call must
     equal `parts` calls of dt / parts in the original, bit for bit */
  int parts = 1;
  uint8_t split = u8(r);
  if (split & 1) { /* a few parts (cheap inputs), rarely the cap of 64 */
    double most = split == 255 ? dt / 100 : dt / (1 + (split >> 1) % 4);
    steer_world_set_max_step(c, most);
    CHECK(steer_world_get_def(c).max_step == most, "set_max_step");
    if (most > 0 && dt > most) { /* a most of 0 (dt / 100 underflows): one step */
      double n = ceil(dt / most);
      parts = n < STEER_MAX_SUBSTEPS ? (int)n : STEER_MAX_SUBSTEPS;
    }
  }
  for (int k = 0; k < steps; k++) {
    if (k == 1 && (u8(r) & 1)) steer_world_set_threads(c, 1 + u8(r) % 3);
    if (pairs && (u8(r) & 1)) { /* the game moves a point: in both worlds */
      size_t j = u8(r) % pairs;
      double x = num(r), y = num(r);
      steer_point_set(from[j], x, y);
      steer_point_set(to[j], x, y);
    }
    pause_alloc(h);
    for (int p = 0; p < parts; p++) step_world(h, dt / parts, 0);
    CHECK(steer_world_step(c, dt) == STEER_OK, "restored world's step failed");
    resume_alloc(h);
    bytes a = snapshot_of(h, h->w), b = snapshot_of(h, c);
    CHECK(bytes_equal(&a, &b),
          "step %d: restored world diverges at byte %zu of %zu", k + 1,
          bytes_diff(&a, &b), a.n);
    bytes_free(&a);
    bytes_free(&b);
  }
  steer_world_destroy(c);
}

/* A snapshot with recomputed checksum after damage: the deep validation
   refuses it with a message or builds a sound world. */
static void snapshot_damaged(reader *r, harness *h) {
  bytes s = snapshot_of(h, h->w);
  size_t cap = s.n + 64;
  unsigned char *p = malloc(cap);
  CHECK(p != NULL, "out of memory in the harness");
  memcpy(p, s.p, s.n);
  size_t n = mutate(r, p, s.n, cap);
  fix_checksum(p, n);
  alloc_state ra = {u32(r), 0, 0};
  if (u8(r) & 1) ra.odds = 2 + u8(r) % 30;
  judge_restore(p, n, &ra, positive(r));
  free(p);
  bytes_free(&s);
}

/* A writer that fails part way: EINVAL, and the world is untouched. */
static void snapshot_cut(reader *r, harness *h) {
  bytes before = snapshot_of(h, h->w);
  bytes b = {NULL, 0, 0, 1 + u16(r) % (before.n + 16)};
  steer_status s = steer_world_snapshot(h->w, bytes_write, &b);
  if (s == STEER_ENOMEM) {
    CHECK(failing(h), "snapshot: ENOMEM without a failing allocator");
    DEBUG("snapshot: ENOMEM\n");
  } else if (b.fail_after >= before.n) {
    CHECK(s == STEER_OK && bytes_equal(&b, &before), "snapshot: %d", (int)s);
  } else {
    CHECK(s == STEER_EINVAL, "snapshot through a failing writer: %d", (int)s);
  }
  check_unchanged(h, &before, "a failed snapshot");
  bytes_free(&b);
  bytes_free(&before);
}

/* Restoring a valid snapshot with a failing allocator: "not enough memory"
   or the same world. */
static void snapshot_low_memory(reader *r, harness *h) {
  bytes s = snapshot_of(h, h->w);
  alloc_state ra = {u32(r), 2 + u8(r) % 30, 0};
  const char *err = NULL;
  steer_world *c = steer_world_restore(s.p, s.n, test_alloc, &ra, &err);
  if (!c) {
    CHECK(err && strcmp(err, "not enough memory") == 0,
          "a valid snapshot refused: %s", err ? err : "(no message)");
  } else {
    ra.paused++;
    bytes again = snapshot_of(h, c);
    CHECK(bytes_equal(&s, &again), "restore with a failing allocator differs");
    bytes_free(&again);
    steer_world_destroy(c);
  }
  bytes_free(&s);
}

static void op_snapshot(reader *r, harness *h) {
  switch (u8(r) % 4) {
  case 0: snapshot_continues(r, h); break;
  case 1: snapshot_damaged(r, h); break;
  case 2: snapshot_cut(r, h); break;
  default: snapshot_low_memory(r, h); break;
  }
}

/* Raw input bytes as a snapshot. "STEERSNP..." is restored as it is (the
   checksum then rejects nearly every mutation); any other eighth byte is
   made a 'P' and the checksum recomputed, so the body is judged. */
static void restore_raw(const uint8_t *data, size_t size) {
  unsigned char *p = malloc(size);
  CHECK(p != NULL, "out of memory in the harness");
  memcpy(p, data, size);
  if (p[7] != 'P') {
    p[7] = 'P';
    fix_checksum(p, size);
  }
  alloc_state ra = {0, 0, 0};
  judge_restore(p, size, &ra, 0.25);
  free(p);
}
