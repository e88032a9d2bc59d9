/* program_ops.h - behavior programs: decoding entries, creating programs,
 * giving them to agents, retargeting (copy on write), steering against an
 * oracle, and world steps compared with a buffered twin (part of
 * fuzz_core.c). */

/* ---- decoding ------------------------------------------------------------ */

/* An id for an agent target: live, removed, the agent itself, or any
   number at all (an id of another world is just a number here). */
static steer_id target_id(reader *r, const harness *h, steer_id self) {
  switch (u8(r) % 5) {
  case 0:
  case 1:
    if (h->n) return h->ag[u8(r) % h->n].id;
    break;
  case 2:
    if (h->ndead) return h->dead[u8(r) % h->ndead];
    break;
  case 3:
    if (self) return self;
    break;
  default: break;
  }
  return (steer_id)u64(r);
}

static steer_target decode_target(reader *r, const harness *h, steer_id self) {
  steer_target t;
  memset(&t, 0, sizeof t);
  switch (u8(r) % 5) {
  case 0: t.kind = STEER_TARGET_NONE; break;
  case 1:
    t.kind = STEER_TARGET_POINT;
    t.point = point(r, h);
    break;
  case 2:
    t.kind = STEER_TARGET_AGENT;
    t.agent = target_id(r, h, self);
    break;
  case 3:
    t.path = h->paths[u8(r) % SLOTS];
    if (t.path) {
      t.kind = STEER_TARGET_PATH;
    } else {
      t.kind = STEER_TARGET_POINT;
      t.point = point(r, h);
    }
    break;
  default: /* one of the harness's shared points, which many entries hold */
    t.shared = h->points[u8(r) % SLOTS];
    if (t.shared) {
      t.kind = STEER_TARGET_SHARED;
    } else {
      t.kind = STEER_TARGET_POINT;
      t.point = point(r, h);
    }
  }
  return t;
}

static double probability(reader *r) {
  static const double some[] = {0, 0.25, 0.5, 1, 1e-300};
  uint8_t how = u8(r);
  return how < 128 ? some[how % 5] : nonneg(r);
}

/* Any behavior but issue 15's six (contiguous, wherever the enum puts
   them): snapshots refuse those, so tactics_ops.h has them to itself. */
static steer_behavior snapshotted_behavior(uint8_t byte) {
  int tactics = STEER_QUEUE - STEER_OFFSET_PURSUIT + 1;
  int b = byte % (STEER_BEHAVIOR_COUNT - tactics);
  return (steer_behavior)(b >= STEER_OFFSET_PURSUIT ? b + tactics : b);
}

static steer_entry decode_entry(reader *r, const harness *h) {
  steer_entry e =
      steer_entry_default(snapshotted_behavior(u8(r)));
  e.target = decode_target(r, h, 0);
  uint8_t mask = u8(r); /* the parameters that differ from the defaults */
  if (mask & 1) e.weight = num(r); /* negative weights are valid */
  if (mask & 2) e.probability = probability(r);
  if (mask & 4) e.radius = nonneg(r);
  if (mask & 8) e.feeler_length = nonneg(r);
  if (mask & 16) e.slowing_radius = nonneg(r);
  if (mask & 32) e.arrival_radius = nonneg(r);
  if (mask & 64) e.panic_radius = num(r);
  if (mask & 128) e.hysteresis = nonneg(r);
  uint8_t more = u8(r); /* issue 14's parameters */
  if (more & 1) e.groups = u32(r);
  if (more & 2) e.fov = fmin(360, fmax(1e-3, nonneg(r)));
  if (more & 4) e.falloff = (steer_falloff)(u8(r) % STEER_FALLOFF_COUNT);
  if (more & 8) e.path_radius = nonneg(r);
  if (more & 16) e.look_ahead = nonneg(r);
  if (more & 32) e.start = (u8(r) & 1) ? STEER_START_NEAREST : (long)u8(r);
  /* avoid_walls' side feelers (a program keeps them on avoid_walls only) */
  if ((more & 64) && e.behavior == STEER_AVOID_WALLS) e.whiskers = 1;
  if (u8(r) & 1) e.time_horizon = positive(r); /* avoid_agents */
  if (u8(r) & 1) e.personal_space = nonneg(r);
  /* a tag of raw bytes, possibly without its terminating NUL */
  size_t len = u8(r) % (STEER_TAG_SIZE + 1);
  for (size_t k = 0; k < len; k++) e.tag[k] = (char)u8(r);
  return e;
}

static double smoothing(reader *r) {
  /* the last three are refused */
  static const double some[] = {0, 1, 0.5, 0.3, 1e-300, -0.0, 5e-324,
                                1.0000000000000002, INFINITY, NAN};
  switch (u8(r) % 4) {
  case 0: return -1;
  case 1: return some[u8(r) % 10];
  case 2: return u8(r) / 255.0;
  default: return -positive(r); /* any negative: none */
  }
}

/* ---- creating programs ----------------------------------------------------- */

static void check_entry_copy(const steer_entry *got, const steer_entry *e) {
  CHECK(got->behavior == e->behavior && got->target.kind == e->target.kind &&
            got->weight == e->weight && got->probability == e->probability &&
            got->radius == e->radius &&
            got->feeler_length == e->feeler_length &&
            got->slowing_radius == e->slowing_radius &&
            got->arrival_radius == e->arrival_radius &&
            got->panic_radius == e->panic_radius &&
            got->hysteresis == e->hysteresis &&
            got->whiskers == e->whiskers &&
            got->time_horizon == e->time_horizon &&
            got->personal_space == e->personal_space,
        "program entry differs from what was given");
  CHECK(got->tag[STEER_TAG_SIZE - 1] == '\0' &&
            strncmp(got->tag, e->tag, STEER_TAG_SIZE - 1) == 0,
        "program entry tag");
  if (e->target.kind == STEER_TARGET_PATH)
    CHECK(got->target.path == e->target.path, "path target");
  if (e->target.kind == STEER_TARGET_AGENT)
    CHECK(got->target.agent == e->target.agent, "agent target");
  if (e->target.kind == STEER_TARGET_SHARED)
    CHECK(got->target.shared == e->target.shared, "shared point target");
  if (e->target.kind == STEER_TARGET_POINT)
    CHECK(got->target.point.x == e->target.point.x &&
              got->target.point.y == e->target.point.y,
          "point target");
}

/* ORCA parameters, now and then out of range (max_neighbors > 64, a margin
   outside [0, 1], push > 256, detour or settle other than 0 or 1). */
static int decode_orca(reader *r, steer_orca *o) {
  if (!(u8(r) & 1)) return 0;
  *o = steer_orca_default();
  uint8_t mask = u8(r);
  if (mask & 1) o->time_horizon = positive(r);
  if (mask & 2) o->obstacle_time_horizon = positive(r);
  if (mask & 4) o->neighbor_radius = nonneg(r);
  if (mask & 128) o->neighbor_radius = -1; /* "auto" (no byte more: the
                                              corpus decodes as before) */
  if (mask & 8) o->max_neighbors = u8(r) % 70;
  if (mask & 16) o->margin = num(r) / 64;
  if (mask & 32) o->push = (size_t)u8(r) * 2; /* up to 510: some too many */
  if (mask & 64) { /* one byte for both: the corpus decodes as before */
    uint8_t b = u8(r);
    o->detour = (int)(b % 5) - 1;  /* -1 .. 3: some invalid */
    o->settle = (int)(b >> 5) % 3; /* 0 .. 2: 2 invalid */
  }
  return 1;
}

/* Gives program p the orca parameters o: refused exactly when invalid. */
static void set_orca(steer_program *p, const steer_orca *o) {
  int valid = o->max_neighbors <= STEER_ORCA_MAX_NEIGHBORS &&
              o->margin >= 0 && o->margin <= 1 &&
              o->push <= STEER_ORCA_MAX_PUSH &&
              (o->detour == 0 || o->detour == 1) &&
              (o->settle == 0 || o->settle == 1);
  steer_status s = steer_program_set_orca(p, o);
  CHECK(s == (valid ? STEER_OK : STEER_EINVAL), "set_orca status %d", (int)s);
  const steer_orca *got = steer_program_orca(p);
  CHECK(valid ? got && got->max_neighbors == o->max_neighbors &&
                    got->time_horizon == o->time_horizon &&
                    got->margin == o->margin && got->push == o->push &&
                    got->detour == o->detour && got->settle == o->settle
              : got == NULL,
        "orca parameters read back");
}

static void op_program(reader *r, harness *h) {
  steer_combine combine = (steer_combine)(u8(r) % STEER_COMBINE_COUNT);
  double smooth = smoothing(r);
  double hold = (u8(r) & 1) ? nonneg(r) : 0;
  size_t n = u8(r) % (MAX_ENTRIES + 1);
  steer_entry e[MAX_ENTRIES];
  for (size_t k = 0; k < n; k++) e[k] = decode_entry(r, h);
  steer_orca orca;
  int with_orca = decode_orca(r, &orca);
  size_t slot = u8(r) % SLOTS;
  steer_program *p = steer_program_create(combine, smooth, hold, e, n);
  if (!(smooth <= 1)) { /* refused, whatever the allocator does */
    CHECK(p == NULL, "smoothing %g taken", smooth);
    return;
  }
  if (!p) {
    CHECK(global_alloc.odds != 0, "program_create failed, allocators do not");
    return;
  }
  pause_alloc(h);
  steer_program *shadow = steer_program_create(combine, smooth, hold, e, n);
  resume_alloc(h);
  CHECK(shadow != NULL, "program_create failed");
  if (with_orca) {
    set_orca(p, &orca);
    set_orca(shadow, &orca);
  }
  if (slot & 1) { /* walls stop bodies (collide.c) */
    steer_program_set_collide(p, 1);
    steer_program_set_collide(shadow, 1);
  }
  CHECK(steer_program_combine(p) == combine && steer_program_hold(p) == hold &&
            steer_program_count(p) == n,
        "program accessors");
  double got = steer_program_smoothing(p);
  CHECK(got == smooth || (smooth < 0 && got < 0), "smoothing %g reads %g", smooth,
        got);
  for (size_t k = 0; k < n; k++) check_entry_copy(steer_program_entry(p, k), &e[k]);
  CHECK(steer_program_equal(p, shadow) && steer_program_equal(shadow, p),
        "equal programs compare unequal");
  steer_program_release(h->progs[slot]); /* agents running it keep it */
  steer_program_release(h->shadows[slot]);
  h->progs[slot] = p;
  h->shadows[slot] = shadow;
}

/* ---- giving programs to agents ------------------------------------------- */

/* After STEER_ENOMEM (or a refused snapshot) the world must read back
   exactly as before. */
static void check_unchanged(harness *h, bytes *before, const char *what) {
  bytes after = snapshot_of(h, h->w);
  CHECK(bytes_equal(before, &after), "%s: the world's snapshot changed (byte %zu)",
        what, bytes_diff(before, &after));
  bytes_free(&after);
}

/* Taking the "before" snapshot sorts the world: indices change. */
static size_t index_of(const harness *h, steer_id id) {
  long i = steer_world_index(h->w, id);
  CHECK(i >= 0, "live agent lost");
  return (size_t)i;
}

static void op_set_program(reader *r, harness *h) {
  if (h->n == 0) return;
  mirror *m = mirror_of(h, pick(r, h));
  size_t slot = u8(r) % (SLOTS + 1);
  steer_program *p = slot < SLOTS ? h->progs[slot] : NULL;
  steer_program *shadow = slot < SLOTS ? h->shadows[slot] : NULL;
  bytes before = {NULL, 0, 0, 0};
  if (failing(h)) before = snapshot_of(h, h->w);
  size_t i = index_of(h, m->id);
  steer_program *old = steer_agent_program(h->w, i);
  steer_status s = steer_agent_set_program(h->w, i, p);
  if (s == STEER_ENOMEM) {
    CHECK(failing(h), "set_program: ENOMEM without a failing allocator");
    DEBUG("set_program: ENOMEM\n");
    CHECK(steer_agent_program(h->w, i) == old, "set_program: ENOMEM replaced it");
    check_unchanged(h, &before, "set_program ENOMEM");
  } else {
    CHECK(s == STEER_OK, "set_program: %d", (int)s);
    CHECK(steer_agent_program(h->w, i) == p, "set_program: another program");
    CHECK(steer_agent_active_entry(h->w, i) == -1, "set_program: stale winner");
    if (shadow) steer_program_retain(shadow);
    steer_program_release(m->shadow);
    m->shadow = shadow;
    m->mf_high = steer_agent_get(h->w, i, STEER_MAX_FORCE);
    known_state fresh = {1, 0, {0, 0}, -1, 0, {0, 0}};
    m->st = fresh;
  }
  bytes_free(&before);
}

/* Does anyone but agent `self` hold program p? */
static int shared(harness *h, const steer_program *p, steer_id self) {
  for (int s = 0; s < SLOTS; s++)
    if (h->progs[s] == p) return 1;
  for (size_t k = 0; k < h->n; k++)
    if (h->ag[k].id != self &&
        steer_agent_program(h->w, index_of(h, h->ag[k].id)) == p)
      return 1;
  return 0;
}

/* After a set_weight (weight_op) or set_target of entry k: what the agent's
   program must equal now. */
static void shadow_retarget(harness *h, mirror *m, size_t k, int weight_op,
                            double weight, steer_target t) {
  const steer_program *sh = m->shadow;
  size_t n = steer_program_count(sh);
  steer_entry e[MAX_ENTRIES];
  for (size_t q = 0; q < n; q++) e[q] = *steer_program_entry(sh, q);
  if (weight_op)
    e[k].weight = weight;
  else
    e[k].target = t;
  pause_alloc(h);
  steer_program *next = steer_program_create(steer_program_combine(sh),
                                             steer_program_smoothing(sh),
                                             steer_program_hold(sh), e, n);
  resume_alloc(h);
  CHECK(next != NULL, "program_create failed");
  steer_program_set_orca(next, steer_program_orca(sh)); /* copies keep it */
  steer_program_set_collide(next, steer_program_collide(sh));
  steer_program_release(m->shadow);
  m->shadow = next;
}

/* set_target or set_weight on entry k (maybe out of range) of an agent's
   program: copy on write when others share it, EINVAL without a program. */
static void op_retarget(reader *r, harness *h) {
  if (h->n == 0) return;
  mirror *m = mirror_of(h, pick(r, h));
  int weight_op = u8(r) & 1;
  size_t k = u8(r) % (MAX_ENTRIES + 1);
  steer_target t;
  memset(&t, 0, sizeof t);
  double weight = 0;
  if (weight_op) {
    int same = m->shadow && k < steer_program_count(m->shadow) && (u8(r) & 1);
    weight = same ? steer_program_entry(m->shadow, k)->weight : num(r);
  } else {
    t = decode_target(r, h, m->id);
  }
  bytes before = {NULL, 0, 0, 0};
  if (failing(h)) before = snapshot_of(h, h->w);
  size_t i = index_of(h, m->id);
  steer_program *old = steer_agent_program(h->w, i);
  int was_shared = old && shared(h, old, m->id);
  steer_status s = weight_op ? steer_agent_set_weight(h->w, i, k, weight)
                             : steer_agent_set_target(h->w, i, k, t);
  if (!old || k >= steer_program_count(old)) {
    CHECK(s == STEER_EINVAL, "retarget of a missing entry: %d", (int)s);
    CHECK(steer_agent_program(h->w, i) == old, "retarget: EINVAL changed it");
    bytes_free(&before);
    return;
  }
  if (s == STEER_ENOMEM) {
    CHECK(failing(h), "retarget: ENOMEM without a failing allocator");
    DEBUG("%s: ENOMEM\n", weight_op ? "set_weight" : "set_target");
    CHECK(steer_agent_program(h->w, i) == old, "retarget: ENOMEM replaced it");
    check_unchanged(h, &before,
                    weight_op ? "set_weight ENOMEM" : "set_target ENOMEM");
    bytes_free(&before);
    return;
  }
  bytes_free(&before);
  CHECK(s == STEER_OK, "retarget: %d", (int)s);
  /* setting the weight it has changes nothing, so copies nothing */
  int same_weight =
      weight_op && steer_program_entry(m->shadow, k)->weight == weight;
  if (was_shared && !same_weight)
    CHECK(steer_agent_program(h->w, i) != old, "retarget wrote a shared program");
  shadow_retarget(h, m, k, weight_op, weight, t);
}

/* ---- steering against an oracle -------------------------------------------- */

/* The force of entry e for agent i from the per-agent functions, when it
   depends on nothing but the world now (no path progress, generator,
   hysteresis or neighbor walk); 0 for the other entries. */
static int plain_entry_force(const steer_world *w, size_t i, const steer_entry *e,
                             steer_vec2 *f) {
  steer_vec2 zero = {0, 0}, t = e->target.point;
  long other = -1;
  *f = zero;
  if (e->target.kind == STEER_TARGET_SHARED) return 0; /* turn_ops.h */
  if (e->target.kind == STEER_TARGET_AGENT) {
    other = steer_world_index(w, e->target.agent);
    if (other >= 0) t = steer_agent_position(w, (size_t)other);
  }
  int aims = e->target.kind == STEER_TARGET_POINT || other >= 0;
  switch (e->behavior) {
  case STEER_SEEK:
  case STEER_ARRIVE:
  case STEER_FOLLOW:
    if (e->target.kind == STEER_TARGET_PATH) return 0;
    if (!aims) return 1;
    *f = e->behavior == STEER_SEEK ? steer_agent_seek(w, i, t)
                                   : steer_agent_arrive(w, i, t, e->slowing_radius);
    return 1;
  case STEER_FLEE:
    if (aims) *f = steer_agent_flee(w, i, t, e->panic_radius);
    return 1;
  case STEER_PURSUE:
  case STEER_EVADE:
    if (other >= 0)
      *f = e->behavior == STEER_PURSUE ? steer_agent_pursue(w, i, (size_t)other)
                                       : steer_agent_evade(w, i, (size_t)other,
                                                           e->panic_radius);
    return 1;
  case STEER_AVOID_OBSTACLES:
    if (e->hysteresis > 0) return 0;
    *f = steer_agent_avoid_obstacles(w, i, e->feeler_length);
    return 1;
  case STEER_AVOID_WALLS:
    if (e->hysteresis > 0) return 0;
    *f = e->whiskers ? steer_agent_avoid_walls_whiskers(w, i, e->feeler_length)
                     : steer_agent_avoid_walls(w, i, e->feeler_length);
    return 1;
  case STEER_CONTAIN: { /* the entry reads its region's index, this every edge */
    if (e->target.kind != STEER_TARGET_PATH) return 1;
    size_t m = steer_path_count(e->target.path);
    steer_vec2 *pts = malloc(m * sizeof *pts);
    if (!pts) return 0;
    for (size_t k = 0; k < m; k++) pts[k] = steer_path_point(e->target.path, k);
    *f = steer_agent_contain(w, i, pts, m, e->feeler_length);
    free(pts);
    return 1;
  }
  default: return 0; /* wander, follow a path, flocking */
  }
}

static steer_vec2 scaled(steer_vec2 f, double s) {
  steer_vec2 v = {f.x * s, f.y * s};
  return v;
}

/* What steer_agent_steering(dt) must return for agent i, from docs/API.md
   section 4 and the per-agent functions, given the bookkeeping *st (which
   it advances as the core must); *winner: the entry that must be active
   after. 0 when the result depends on more than the model follows
   (dither, or an entry plain_entry_force cannot compute). */
static int oracle(const steer_world *w, size_t i, double dt, known_state *st,
                  steer_vec2 *out, long *winner) {
  const steer_program *p = steer_agent_program(w, i);
  if (!p || !st->valid || steer_program_orca(p)) return 0; /* ORCA: not modelled */
  double mf = steer_agent_get(w, i, STEER_MAX_FORCE);
  steer_vec2 sum = {0, 0}, f;
  size_t n = steer_program_count(p);
  *winner = -1;
  switch (steer_program_combine(p)) {
  case STEER_WEIGHTED:
    for (size_t k = 0; k < n; k++) {
      const steer_entry *e = steer_program_entry(p, k);
      if (!plain_entry_force(w, i, e, &f)) return 0;
      f = scaled(f, e->weight);
      sum.x = sum.x + f.x;
      sum.y = sum.y + f.y;
    }
    sum = steer_clamp(sum, mf);
    break;
  case STEER_PRIORITY: {
    /* the holder keeps control: entries after it are not consulted; once
       silent it keeps its force for `hold` seconds */
    int holding = st->held >= 0 && st->hold_left > 0, won = 0;
    for (size_t k = 0; k < n && !(holding && (long)k > st->held); k++) {
      const steer_entry *e = steer_program_entry(p, k);
      if (!plain_entry_force(w, i, e, &f)) return 0;
      f = scaled(f, e->weight);
      if (f.x * f.x + f.y * f.y > 1e-4) {
        sum = steer_clamp(f, mf);
        st->held = (long)k;
        st->hold_left = steer_program_hold(p);
        st->held_force = sum;
        *winner = (long)k;
        won = 1;
        break;
      }
    }
    if (!won && holding) {
      st->hold_left -= dt;
      sum = st->held_force;
      *winner = st->held;
    }
    break;
  }
  case STEER_PRIORITIZED_SUM:
    for (size_t k = 0; k < n; k++) {
      const steer_entry *e = steer_program_entry(p, k);
      if (!plain_entry_force(w, i, e, &f)) return 0;
      if (!steer_accumulate(&sum, scaled(f, e->weight), mf)) break;
    }
    break;
  default: return 0;
  }
  if (steer_program_smoothing(p) >= 0) {
    if (st->has_smoothed)
      sum = steer_lerp(st->smoothed, sum, steer_program_smoothing(p));
    st->has_smoothed = 1;
    st->smoothed = sum;
  }
  *out = sum;
  return 1;
}

static void op_steering(reader *r, harness *h) {
  if (h->n == 0) return;
  size_t i = pick(r, h);
  mirror *m = mirror_of(h, i);
  double dt = (u8(r) & 1) ? nonneg(r) : 0;
  steer_vec2 want;
  long winner;
  known_state next = m->st;
  int known = oracle(h->w, i, dt, &next, &want, &winner);
  long before = steer_agent_active_entry(h->w, i);
  steer_vec2 f = steer_agent_steering(h->w, i, dt);
  if (!m->shadow) {
    CHECK(f.x == 0 && f.y == 0, "steering without a program: (%g, %g)", f.x, f.y);
    return;
  }
  /* a held or smoothed force was clamped with the max_force of its time */
  check_bound("steering", f, m->mf_high);
  m->st = next;
  m->st.valid = known;
  if (!known) return;
  CHECK(f.x == want.x && f.y == want.y,
        "steering (%.17g, %.17g), docs/API.md says (%.17g, %.17g)", f.x, f.y,
        want.x, want.y);
  /* only priority and dither name a winner */
  long active = steer_agent_active_entry(h->w, i);
  if (steer_program_combine(steer_agent_program(h->w, i)) == STEER_PRIORITY)
    CHECK(active == winner, "active entry %ld, want %ld", active, winner);
  else
    CHECK(active == before, "active entry changed from %ld to %ld", before, active);
}

/* ---- steps ------------------------------------------------------------------- */

/* Every public number of the world, hashed: what the 1-thread and the
   2-thread run must agree on after each step. */
static uint64_t world_digest(const steer_world *w) {
  uint64_t d = FNV_START;
  size_t n = steer_world_count(w);
  d = fnv(d, &n, sizeof n);
  for (size_t i = 0; i < n; i++) {
    steer_id id = steer_world_id_at(w, i);
    d = fnv(d, &id, sizeof id);
    for (int f = 0; f < STEER_FIELD_COUNT; f++) {
      double v = steer_agent_get(w, i, (steer_field)f);
      d = fnv(d, &v, sizeof v);
    }
    long active = steer_agent_active_entry(w, i);
    size_t k;
    int has_path = steer_agent_path(w, i, NULL, &k) != NULL;
    d = fnv(d, &active, sizeof active);
    d = fnv(d, &k, sizeof k);
    d = fnv(d, &has_path, sizeof has_path);
  }
  steer_stats s = steer_world_stats(w);
  return fnv(d, &s, sizeof s);
}

/* The public state by id, whatever the agents' internal order: what a
   step that fails with STEER_ENOMEM must leave as it was (a snapshot would
   sort the world and make room for the step first). */
static uint64_t state_digest(const steer_world *w) {
  uint64_t d = FNV_START;
  for (steer_id id = steer_world_next_id(w, 0); id;
       id = steer_world_next_id(w, id)) {
    size_t i = (size_t)steer_world_index(w, id), k;
    d = fnv(d, &id, sizeof id);
    for (int f = 0; f < STEER_FIELD_COUNT; f++) {
      double v = steer_agent_get(w, i, (steer_field)f);
      d = fnv(d, &v, sizeof v);
    }
    long active = steer_agent_active_entry(w, i);
    const void *program = steer_agent_program(w, i);
    const void *path = steer_agent_path(w, i, NULL, &k);
    d = fnv(d, &active, sizeof active);
    d = fnv(d, &program, sizeof program);
    d = fnv(d, &path, sizeof path);
    d = fnv(d, &k, sizeof k);
  }
  return d;
}

static void log_digest(harness *h, uint64_t d) {
  if (h->nlog < MAX_LOG)
    h->log[h->nlog++] = d;
  else
    h->log[MAX_LOG - 1] = fnv(h->log[MAX_LOG - 1], &d, sizeof d);
}

/* A stale id no world here ever reaches (generation 2^27 - 1). */
#define NEVER_ID (((steer_id)((1u << 27) - 1) << 26) + 1)

/* Behaviors that ignore their entry's target (not flow, which reads its
   field there, nor face and match_orientation, which turn toward theirs). */
static int targetless(steer_behavior b) {
  return b == STEER_WANDER || b == STEER_AVOID_OBSTACLES ||
         b == STEER_AVOID_WALLS ||
         (b >= STEER_SEPARATION && b <= STEER_COHESION) ||
         b == STEER_LOOK_WHERE_GOING;
}

/* Makes agent i of world c read an agent target that changes none of its
   forces: a program aiming at an agent that does not exist, if it has
   none, else its first entry whose behavior ignores targets aims at one
   (the bookkeeping stays). 0 when neither applies. */
static int force_buffering(steer_world *c, size_t i, steer_program *stale) {
  const steer_program *p = steer_agent_program(c, i);
  if (!p) return steer_agent_set_program(c, i, stale) == STEER_OK;
  for (size_t k = 0; k < steer_program_count(p); k++)
    if (targetless(steer_program_entry(p, k)->behavior)) {
      steer_target t = steer_program_entry(stale, 0)->target;
      return steer_agent_set_target(c, i, k, t) == STEER_OK;
    }
  return 0;
}

/* A copy of the world (restored from its snapshot) whose step cannot
   stream: one agent reads an agent target that changes none of its forces
   (force_buffering), when one can be made to. */
static steer_world *buffered_twin(harness *h) {
  bytes s = snapshot_of(h, h->w);
  const char *err = NULL;
  pause_alloc(h);
  steer_world *c = steer_world_restore(s.p, s.n, NULL, NULL, &err);
  steer_entry e = steer_entry_default(STEER_SEEK);
  e.target.kind = STEER_TARGET_AGENT;
  e.target.agent = NEVER_ID;
  steer_program *stale = steer_program_create(STEER_WEIGHTED, -1, 0, &e, 1);
  CHECK(c != NULL, "restore of a fresh snapshot: %s", err);
  CHECK(stale != NULL, "program_create failed");
  int forced = 0;
  /* an agent without a program first: that changes nothing at all */
  for (int pass = 0; pass < 2 && !forced; pass++)
    for (size_t i = 0; i < steer_world_count(c) && !forced; i++)
      if ((steer_agent_program(c, i) == NULL) == (pass == 0))
        forced = force_buffering(c, i, stale);
  resume_alloc(h);
  bytes_free(&s);
  steer_program_release(stale);
  return c;
}

/* Does agent i's program have ORCA's push (docs/API.md 18.1.2)? */
static int pushes(const steer_world *w, size_t i) {
  const steer_program *p = steer_agent_program(w, i);
  const steer_orca *o = p ? steer_program_orca(p) : NULL;
  return o && o->push > 0;
}

static int any_pusher(const steer_world *w) {
  for (size_t i = 0; i < steer_world_count(w); i++)
    if (pushes(w, i)) return 1;
  return 0;
}

/* Pusher i of world a, whose step may have had no push (its list of pairs
   could not grow: docs/API.md 18.1.2 - the step succeeds without it),
   stands where pusher j of twin b stands, or as far from it as one step's
   push can move a body: half its radius (velocities are compared as
   always: the push moves positions only). */
static void check_push_skipped(const steer_world *a, size_t i,
                               const steer_world *b, size_t j) {
  steer_vec2 p = steer_agent_position(a, i), q = steer_agent_position(b, j);
  if (p.x == q.x && p.y == q.y) return;
  double most = 0.5 * steer_agent_get(a, i, STEER_RADIUS);
  double d = len2d(steer_world_offset(a, q, p));
  double slack = 1e-9 * (1 + fmax(fmax(fabs(p.x), fabs(p.y)),
                                  fmax(fabs(q.x), fabs(q.y))));
  CHECK(d <= most * (1 + 1e-9) + slack,
        "the buffered twin's push (the world's could not list its pairs) moved "
        "agent %zu %.17g, more than half its radius %.17g", i, d, 2 * most);
}

/* Does agent i's program stop its body at walls (collide.c)? */
static int collides(const steer_world *w, size_t i) {
  const steer_program *p = steer_agent_program(w, i);
  return p && steer_program_collide(p);
}

static int has_geometry(const steer_world *w) {
  return steer_world_wall_count(w) || steer_world_obstacle_count(w);
}

/* Where each agent stood before a step, by id (crowds too: thousands). */
typedef struct starts {
  size_t n;
  steer_id *id;
  steer_vec2 *p;
} starts;

static void record_starts(const steer_world *w, starts *s) {
  s->n = steer_world_count(w);
  s->id = malloc((s->n + 1) * sizeof *s->id);
  s->p = malloc((s->n + 1) * sizeof *s->p);
  CHECK(s->id && s->p, "out of memory for %zu starts", s->n);
  for (size_t i = 0; i < s->n; i++) {
    s->id[i] = steer_world_id_at(w, i);
    s->p[i] = steer_agent_position(w, i);
  }
}

static void starts_free(starts *s) {
  free(s->id);
  free(s->p);
}

/* Is agent i of w where it stood before the step? */
static int at_start(const steer_world *w, size_t i, const starts *s) {
  steer_id id = steer_world_id_at(w, i);
  steer_vec2 p = steer_agent_position(w, i);
  for (size_t k = 0; k < s->n; k++)
    if (s->id[k] == id) return p.x == s->p[k].x && p.y == s->p[k].y;
  return 0;
}

/* The twin moved exactly as the world (a zero's sign aside). Agents are
   matched by id: a world whose programs read no other agent sorts them by
   cell only now and then, so the two internal orders may differ.
   may_fail: the world stepped with a failing allocator (the twin never
   does): a pusher may have gone without its push, and a collider near
   walls or obstacles that could not list them stays where the step found
   it (docs/API.md 3.6, collide), with the velocity the step gave it. */
static void check_same_values(const steer_world *a, const steer_world *b,
                              int may_fail, const starts *before) {
  size_t n = steer_world_count(a);
  CHECK(steer_world_count(b) == n, "twin count");
  int push_may_fail = may_fail && any_pusher(a);
  int collide_may_fail = may_fail && has_geometry(a);
  for (size_t i = 0; i < n; i++) {
    long j = steer_world_index(b, steer_world_id_at(a, i));
    CHECK(j >= 0, "agent %zu of the world is missing from its twin", i);
    if (collide_may_fail && collides(a, i) && at_start(a, i, before)) continue;
    int skip = push_may_fail && pushes(a, i);
    CHECK(skip == (push_may_fail && pushes(b, (size_t)j)), "twin pushers differ");
    if (skip) check_push_skipped(a, i, b, (size_t)j);
    for (int f = 0; f < STEER_FIELD_COUNT; f++) {
      if (skip && (f == STEER_X || f == STEER_Y)) continue;
      double x = steer_agent_get(a, i, (steer_field)f);
      double y = steer_agent_get(b, (size_t)j, (steer_field)f);
      CHECK(x == y,
            "the buffered 1-thread twin (restored from a snapshot) differs: "
            "agent %zu %s %.17g vs %.17g", i, field_names[f], x, y);
    }
    CHECK(steer_agent_active_entry(a, i) ==
              steer_agent_active_entry(b, (size_t)j),
          "twin active entry");
  }
}

static size_t programs_in(const steer_world *w) {
  size_t n = 0;
  for (size_t i = 0; i < steer_world_count(w); i++)
    n += steer_agent_program(w, i) != NULL;
  return n;
}

/* ---- what a step must do (docs/API.md sections 1 and 4) -------------------- */

typedef struct expectation {
  int known;
  steer_vec2 p, v; /* after the step */
  known_state st;
} expectation;

/* A position brought inside the world as csrc/world.c does. */
static steer_vec2 contain(const harness *h, steer_vec2 p) {
  if (h->mode == 1) {
    p.x = wrap_coord(p.x, h->def.width);
    p.y = wrap_coord(p.y, h->def.height);
  } else if (h->mode == 2) {
    p.x = fmin(fmax(p.x, 0), h->def.width);
    p.y = fmin(fmax(p.y, 0), h->def.height);
  } else {
    p.x = fmin(fmax(p.x, -STEER_LIMIT), STEER_LIMIT);
    p.y = fmin(fmax(p.y, -STEER_LIMIT), STEER_LIMIT);
  }
  return p;
}

/* Before a step: every agent whose force the oracle knows (or that has no
   program) must end where the pipeline of docs/API.md section 1 takes it from
   the world as it is now - all forces first, then every move. */
static void expect_step(harness *h, double dt, expectation *x) {
  for (size_t k = 0; k < h->n; k++) {
    size_t i = index_of(h, h->ag[k].id);
    steer_vec2 f = {0, 0};
    long winner;
    x[k].st = h->ag[k].st;
    x[k].known = !h->ag[k].shadow || oracle(h->w, i, dt, &x[k].st, &f, &winner);
    if (bends_velocity(h->w, i)) x[k].known = 0; /* turn_ops.h */
    /* collide's corrections are not modelled here */
    if (collides(h->w, i) && has_geometry(h->w)) x[k].known = 0;
    if (!x[k].known) continue;
    steer_vec2 p = steer_agent_position(h->w, i), v = steer_agent_velocity(h->w, i);
    steer_integrate(&p, &v, f, steer_agent_get(h->w, i, STEER_MAX_SPEED),
                    steer_agent_get(h->w, i, STEER_MAX_FORCE), dt);
    if (h->mode == 2) { /* a clamped world stops the outward component */
      if (p.x < 0 || p.x > h->def.width) v.x = 0;
      if (p.y < 0 || p.y > h->def.height) v.y = 0;
    }
    x[k].p = contain(h, p);
    x[k].v = v;
  }
}

static void check_step(harness *h, const expectation *x) {
  for (size_t k = 0; k < h->n; k++) {
    h->ag[k].st = x[k].st;
    h->ag[k].st.valid = x[k].known && h->ag[k].shadow;
    if (!x[k].known) continue;
    size_t i = index_of(h, h->ag[k].id);
    steer_vec2 p = steer_agent_position(h->w, i), v = steer_agent_velocity(h->w, i);
    CHECK(p.x == x[k].p.x && p.y == x[k].p.y && v.x == x[k].v.x && v.y == x[k].v.y,
          "agent %zu stepped to (%.17g, %.17g) at (%.17g, %.17g); docs/API.md says "
          "(%.17g, %.17g) at (%.17g, %.17g)",
          i, p.x, p.y, v.x, v.y, x[k].p.x, x[k].p.y, x[k].v.x, x[k].v.y);
  }
}

/* One step, compared with a buffered twin when `twin`; checks the stats
   and that every speed is within max_speed (per-agent checks follow in
   check_world, or here for crowds). */
static void step_world(harness *h, double dt, int twin) {
  size_t n = steer_world_count(h->w);
  size_t programs = programs_in(h->w);
  uint64_t before = state_digest(h->w);
  steer_world *c = twin ? buffered_twin(h) : NULL;
  /* the twin steps with the allocators paused: a push or a collide pass
     this step lacks for memory, it has (check_same_values) */
  int may_fail = c && failing(h);
  starts start = {0, NULL, NULL};
  if (may_fail && has_geometry(h->w)) record_starts(h->w, &start);
  expectation x[MAX_AGENTS];
  expect_step(h, dt, x);
  steer_status s = steer_world_step(h->w, dt);
  if (s == STEER_ENOMEM) {
    CHECK(failing(h), "step: ENOMEM without a failing allocator");
    DEBUG("step: ENOMEM\n");
    CHECK(state_digest(h->w) == before, "step: ENOMEM changed the world");
    steer_world_destroy(c);
    starts_free(&start);
    return;
  }
  CHECK(s == STEER_OK, "step: %d", (int)s);
  steer_stats st = steer_world_stats(h->w);
  DEBUG("step n=%zu programs=%zu candidates=%zu neighbors=%zu twin=%d\n",
        st.agents, st.programs, st.candidates, st.neighbors, c != NULL);
  CHECK(st.agents == n && st.programs == programs,
        "stats: %zu agents, %zu programs; want %zu, %zu", st.agents, st.programs,
        n, programs);
  CHECK(st.neighbors <= st.candidates * 3, "stats: %zu neighbors of %zu candidates",
        st.neighbors, st.candidates);
  for (size_t i = 0; i < n; i++) {
    double ms = steer_agent_get(h->w, i, STEER_MAX_SPEED);
    check_bound("speed after a step", steer_agent_velocity(h->w, i), ms);
    /* only an agent whose program settles comes to rest so (18.1.4) */
    const steer_program *p = steer_agent_program(h->w, i);
    const steer_orca *o = p ? steer_program_orca(p) : NULL;
    CHECK(!steer_agent_settled(h->w, i) || (o && o->settle),
          "agent %zu settled without orca.settle", i);
  }
  if (c) {
    pause_alloc(h);
    CHECK(steer_world_step(c, dt) == STEER_OK, "twin step failed");
    resume_alloc(h);
    check_same_values(h->w, c, may_fail, &start);
    starts_free(&start);
    CHECK(steer_world_stats(c).programs == programs_in(c), "twin stats");
    steer_world_destroy(c);
  }
  check_step(h, x);
  if (n >= FUZZ_THREADED_MIN) h->threaded = 1;
  log_digest(h, world_digest(h->w));
}

static void op_step(reader *r, harness *h) {
  double dt = positive(r);
  step_world(h, dt, u8(r) & 1);
}

/* ---- adding many agents at once --------------------------------------- */

typedef struct many {
  steer_agent_def d[MAX_AGENTS];
  int calls[MAX_AGENTS];
  size_t n;
} many;

static void many_def(void *ud, size_t k, steer_agent_def *out) {
  many *m = ud;
  CHECK(k < m->n, "add_many asks for definition %zu of %zu", k, m->n);
  m->calls[k]++;
  *out = m->d[k];
}

/* Is agent i as definition d made it? */
static int made_from(const harness *h, size_t i, const steer_agent_def *d) {
  steer_vec2 want = contain(h, (steer_vec2){d->x, d->y});
  steer_vec2 at = steer_agent_position(h->w, i), v = steer_agent_velocity(h->w, i);
  return at.x == want.x && at.y == want.y && v.x == d->vx && v.y == d->vy &&
         steer_agent_get(h->w, i, STEER_MAX_SPEED) == d->max_speed &&
         steer_agent_get(h->w, i, STEER_MAX_FORCE) == d->max_force &&
         steer_agent_get(h->w, i, STEER_RADIUS) == d->radius &&
         steer_agent_get(h->w, i, STEER_WANDER_RADIUS) == d->wander_radius &&
         steer_agent_get(h->w, i, STEER_WANDER_DISTANCE) == d->wander_distance &&
         steer_agent_get(h->w, i, STEER_WANDER_JITTER) == d->wander_jitter;
}

/* steer_world_add_many: all or none (STEER_ENOMEM changes nothing, also for
   counts no world can hold), each agent as defined and given the program,
   with fresh bookkeeping. */
static void op_add_many(reader *r, harness *h) {
  static many m; /* large: off the stack */
  uint8_t how = u8(r);
  size_t n = how == 0xFF   ? SIZE_MAX - u8(r)
             : how == 0xFE ? (size_t)1 << (24 + u8(r) % 32) /* > 1 GiB */
                           : how % (MAX_AGENTS - h->n + 1);
  size_t slot = u8(r) % (SLOTS + 1);
  steer_program *p = slot < SLOTS ? h->progs[slot] : NULL;
  steer_program *shadow = slot < SLOTS ? h->shadows[slot] : NULL;
  memset(&m, 0, sizeof m);
  m.n = n < MAX_AGENTS ? n : MAX_AGENTS;
  for (size_t k = 0; k < m.n; k++) m.d[k] = decode_agent(r);
  steer_id ids[MAX_AGENTS];
  int with_ids = u8(r) & 1;
  size_t count = steer_world_count(h->w);
  uint64_t before = state_digest(h->w);
  steer_status s =
      steer_world_add_many(h->w, n, many_def, &m, p, with_ids ? ids : NULL);
  if (s != STEER_OK) {
    CHECK(s == STEER_ENOMEM && (n > MAX_AGENTS || failing(h)),
          "add_many of %zu: %d", n, (int)s);
    CHECK(steer_world_count(h->w) == count && state_digest(h->w) == before,
          "a failed add_many changed the world");
    return;
  }
  CHECK(n <= MAX_AGENTS, "add_many of %zu agents succeeded", n);
  CHECK(steer_world_count(h->w) == count + n, "add_many count");
  if (!with_ids) { /* the new ones: live ids the mirror does not know */
    size_t found = 0;
    for (steer_id id = steer_world_next_id(h->w, 0); id;
         id = steer_world_next_id(h->w, id)) {
      int known = 0;
      for (size_t k = 0; k < h->n; k++) known |= h->ag[k].id == id;
      if (!known) ids[found++] = id;
    }
    CHECK(found == n, "add_many: %zu new ids for %zu agents", found, n);
    /* iteration is by slot, not by order of adding: match by definition */
    for (size_t k = 0; k < n; k++) {
      size_t q = k;
      while (q < n && !made_from(h, index_of(h, ids[q]), &m.d[k])) q++;
      CHECK(q < n, "add_many: no agent for definition %zu", k);
      steer_id t = ids[k];
      ids[k] = ids[q];
      ids[q] = t;
    }
  }
  for (size_t k = 0; k < n; k++) {
    CHECK(m.calls[k] >= 1 && m.calls[k] <= 2, "definition %zu asked %d times",
          k, m.calls[k]);
    for (size_t q = 0; q < h->n; q++) CHECK(h->ag[q].id != ids[k], "id reused");
    for (size_t q = 0; q < h->ndead; q++)
      CHECK(h->dead[q] != ids[k], "dead id reused");
    size_t i = index_of(h, ids[k]);
    const steer_agent_def *d = &m.d[k];
    CHECK(made_from(h, i, d), "add_many: agent %zu differs from its definition",
          k);
    CHECK(steer_agent_program(h->w, i) == p &&
              steer_agent_active_entry(h->w, i) == -1,
          "add_many: agent %zu has not the program", k);
    mirror a;
    memset(&a, 0, sizeof a);
    a.id = ids[k];
    a.mf_high = d->max_force;
    if (shadow) {
      steer_program_retain(shadow);
      a.shadow = shadow;
      known_state fresh = {1, 0, {0, 0}, -1, 0, {0, 0}};
      a.st = fresh;
    }
    h->ag[h->n++] = a;
  }
}
