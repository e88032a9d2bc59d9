/* world_ops.h - agents, fields, queries, single behaviors, obstacles,
 * walls, paths and the stateless functions, each against an oracle, and
 * the checks run after every operation (part of fuzz_core.c). */

/* ---- checks ------------------------------------------------------------------ */

static const char *field_names[] = {
    "x", "y", "vx", "vy", "max_speed", "max_force", "radius", "wander_radius",
    "wander_distance", "wander_jitter", "wander_angle", "angle",
    "angular_velocity", "max_turn_rate", "max_angular_acceleration",
    "min_speed", "group", "ghost", "turn_velocity"};

/* Every field finite, the position inside the world (def's bounds). */
static void check_agent_in(const steer_world *w, const steer_world_def *def,
                           size_t i) {
  for (int f = 0; f < STEER_FIELD_COUNT; f++) {
    double v = steer_agent_get(w, i, (steer_field)f);
    CHECK(isfinite(v), "agent %zu field %s = %g", i, field_names[f], v);
    /* every stored number within the limit: a velocity clamped to a
       max_speed of STEER_LIMIT too */
    CHECK(fabs(v) <= STEER_LIMIT, "agent %zu field %s = %.17g beyond the limit",
          i, field_names[f], v);
  }
  steer_vec2 p = steer_agent_position(w, i);
  switch (world_mode(def)) {
  case 1:
    CHECK(p.x >= 0 && p.x < def->width && p.y >= 0 && p.y < def->height,
          "agent %zu at (%.17g, %.17g) outside the torus %g x %g", i, p.x, p.y,
          def->width, def->height);
    break;
  case 2:
    CHECK(p.x >= 0 && p.x <= def->width && p.y >= 0 && p.y <= def->height,
          "agent %zu at (%.17g, %.17g) outside the box", i, p.x, p.y);
    break;
  default:
    CHECK(fabs(p.x) <= STEER_LIMIT && fabs(p.y) <= STEER_LIMIT,
          "agent %zu at (%g, %g) beyond the limit", i, p.x, p.y);
  }
}

/* The program bookkeeping any agent exposes is consistent. */
static void check_program_view(const steer_world *w, size_t i) {
  const steer_program *p = steer_agent_program(w, i);
  long active = steer_agent_active_entry(w, i);
  CHECK(active >= -1 && (!p ? active == -1 : active < (long)steer_program_count(p)),
        "agent %zu: active entry %ld", i, active);
  size_t k;
  const steer_path *path = steer_agent_path(w, i, NULL, &k);
  if (path)
    CHECK(k < steer_path_count(path), "agent %zu: waypoint %zu of %zu", i, k,
          steer_path_count(path));
  else
    CHECK(k == 0, "agent %zu: waypoint %zu without a path", i, k);
}

/* The mirror and the world agree: count, ids, iteration, every field,
   every program (and the programs shared with others stay unchanged). */
static void check_world(const harness *h) {
  CHECK(steer_world_count(h->w) == h->n, "count %zu, mirror %zu",
        steer_world_count(h->w), h->n);
  for (size_t k = 0; k < h->n; k++) {
    long i = steer_world_index(h->w, h->ag[k].id);
    CHECK(i >= 0 && (size_t)i < h->n, "live id %llu has no index",
          (unsigned long long)h->ag[k].id);
    CHECK(steer_world_id_at(h->w, (size_t)i) == h->ag[k].id, "id round trip");
    const steer_program *p = steer_agent_program(h->w, (size_t)i);
    const steer_program *want = h->ag[k].shadow;
    CHECK((p == NULL) == (want == NULL), "agent %zu has %s program", (size_t)i,
          p ? "an unexpected" : "lost its");
    if (p)
      CHECK(steer_program_equal(p, want), "agent %zu: program changed",
            (size_t)i);
    CHECK(steer_agent_get(h->w, (size_t)i, STEER_MAX_FORCE) <= h->ag[k].mf_high,
          "mirror max_force");
  }
  for (size_t k = 0; k < h->ndead; k++)
    CHECK(steer_world_index(h->w, h->dead[k]) < 0, "removed id still live");
  size_t seen = 0;
  for (steer_id id = steer_world_next_id(h->w, 0); id;
       id = steer_world_next_id(h->w, id)) {
    CHECK(steer_world_index(h->w, id) >= 0, "iteration yields a dead id");
    CHECK(++seen <= h->n, "iteration yields more ids than agents");
  }
  CHECK(seen == h->n, "iteration yields %zu of %zu agents", seen, h->n);
  const double *x, *y, *vx, *vy;
  CHECK(steer_world_columns(h->w, &x, &y, &vx, &vy) == h->n, "columns count");
  for (size_t i = 0; i < h->n; i++) {
    check_agent_in(h->w, &h->def, i);
    check_program_view(h->w, i);
    steer_vec2 p = steer_agent_position(h->w, i), v = steer_agent_velocity(h->w, i);
    CHECK(x[i] == p.x && y[i] == p.y && vx[i] == v.x && vy[i] == v.y,
          "columns differ from agent %zu", i);
  }
  CHECK(steer_world_memory(h->w) > 0, "world memory");
  for (int s = 0; s < SLOTS; s++)
    if (h->progs[s])
      CHECK(steer_program_equal(h->progs[s], h->shadows[s]),
            "shared program %d changed", s);
}

/* ---- queries against brute force ---------------------------------------- */

typedef struct found {
  unsigned char hit[MAX_AGENTS];
  size_t count;
} found;

static int visit(void *ud, size_t index) {
  found *f = ud;
  CHECK(index < MAX_AGENTS, "query visits index %zu", index);
  CHECK(!f->hit[index], "query visits index %zu twice", index);
  f->hit[index] = 1;
  f->count++;
  return 0;
}

static void check_query(const harness *h, double x, double y, double r,
                        long exclude) {
  found got;
  memset(&got, 0, sizeof got);
  steer_world_query(h->w, x, y, r, exclude, visit, &got);
  steer_vec2 q = {x, y};
  if (h->mode == 1) {
    q.x = wrap_coord(x, h->def.width);
    q.y = wrap_coord(y, h->def.height);
  }
  double r2 = r * r;
  for (size_t i = 0; i < h->n; i++) {
    steer_vec2 d = steer_world_offset(h->w, q, steer_agent_position(h->w, i));
    int want = (long)i != exclude && d.x * d.x + d.y * d.y <= r2 &&
               !steer_agent_get(h->w, i, STEER_GHOST); /* never found */
    steer_vec2 p = steer_agent_position(h->w, i);
    CHECK(want == got.hit[i],
          "query (%.17g, %.17g, r %.17g) %s agent %zu at (%.17g, %.17g), mode %d",
          x, y, r, want ? "misses" : "wrongly yields", i, p.x, p.y, h->mode);
  }
}

/* ---- operations ------------------------------------------------------------ */

/* An agent definition: each field default or drawn. */
static steer_agent_def decode_agent(reader *r) {
  steer_agent_def d = steer_agent_def_default();
  uint8_t mask = u8(r);
  if (mask & 1) d.x = num(r);
  if (mask & 2) d.y = num(r);
  if (mask & 4) d.vx = num(r);
  if (mask & 8) d.vy = num(r);
  if (mask & 16) d.max_speed = nonneg(r);
  if (mask & 32) d.max_force = nonneg(r);
  if (mask & 64) d.radius = nonneg(r);
  if (mask & 128) { /* custom wander: the agent gets its cold state now */
    d.wander_radius = nonneg(r);
    d.wander_distance = nonneg(r);
    d.wander_jitter = nonneg(r);
  }
  return d;
}

static void op_add(reader *r, harness *h) {
  if (h->n >= MAX_AGENTS) return;
  steer_agent_def d = decode_agent(r);
  steer_id id = 0;
  steer_status s = steer_world_add(h->w, &d, &id);
  if (s == STEER_ENOMEM) {
    /* check_world() after the operation: nothing changed */
    CHECK(h->a->odds != 0, "ENOMEM without a failing allocator");
    return;
  }
  CHECK(s == STEER_OK && id != 0, "add failed: %d", (int)s);
  for (size_t k = 0; k < h->n; k++) CHECK(h->ag[k].id != id, "id reused");
  for (size_t k = 0; k < h->ndead; k++) CHECK(h->dead[k] != id, "dead id reused");
  long i = steer_world_index(h->w, id);
  CHECK(i >= 0 && steer_agent_program(h->w, (size_t)i) == NULL &&
            steer_agent_active_entry(h->w, (size_t)i) == -1,
        "a new agent has a program");
  mirror m;
  memset(&m, 0, sizeof m);
  m.id = id;
  m.mf_high = d.max_force;
  h->ag[h->n++] = m;
}

static void op_remove(reader *r, harness *h) {
  if (h->n == 0 || (u8(r) & 3) == 0) {
    /* a stale or made-up id must be refused without a trace */
    steer_id id = h->ndead ? h->dead[u8(r) % h->ndead] : (steer_id)u32(r) + 1;
    if (steer_world_index(h->w, id) < 0)
      CHECK(steer_world_remove(h->w, id) == STEER_EINVAL, "stale remove accepted");
    return;
  }
  size_t k = u8(r) % h->n;
  steer_id id = h->ag[k].id;
  CHECK(steer_world_remove(h->w, id) == STEER_OK, "remove of a live id failed");
  steer_program_release(h->ag[k].shadow);
  h->ag[k] = h->ag[--h->n];
  h->dead[h->ndead < 8 ? h->ndead++ : (size_t)(u8(r) % 8)] = id;
}

static void op_set(reader *r, harness *h) {
  if (h->n == 0) return;
  size_t i = pick(r, h);
  steer_field f = (steer_field)(u8(r) % STEER_FIELD_COUNT);
  if (f >= STEER_ANGLE) { /* issue 14's fields (turn_ops.h) */
    set_body_field(r, h, i, f);
    return;
  }
  double v = (f <= STEER_VY || f == STEER_WANDER_ANGLE) ? num(r) : nonneg(r);
  if (steer_agent_set(h->w, i, f, v) != STEER_OK) return; /* ENOMEM */
  double back = steer_agent_get(h->w, i, f);
  if (f == STEER_X || f == STEER_Y) {
    double e = f == STEER_X ? h->def.width : h->def.height;
    double want = h->mode == 1   ? wrap_coord(v, e)
                  : h->mode == 2 ? fmin(fmax(v, 0), e)
                                 : v;
    CHECK(back == want || (want == 0 && back == 0), "set %d to %.17g reads %.17g",
          (int)f, v, back);
  } else {
    CHECK(back == v, "field %d set to %.17g reads %.17g", (int)f, v, back);
  }
  if (f == STEER_MAX_FORCE) {
    mirror *m = mirror_of(h, i);
    m->mf_high = fmax(m->mf_high, v);
  }
}

static void op_query(reader *r, harness *h) {
  double x, y;
  if (h->n && (u8(r) & 1)) {
    steer_vec2 p = steer_agent_position(h->w, pick(r, h));
    x = p.x + num(r) * 1e-3;
    y = p.y + num(r) * 1e-3;
    if (fabs(x) > STEER_LIMIT) x = p.x;
    if (fabs(y) > STEER_LIMIT) y = p.y;
  } else {
    x = num(r);
    y = num(r);
  }
  double radius = nonneg(r);
  long exclude = h->n && (u8(r) & 1) ? (long)pick(r, h) : -1;
  check_query(h, x, y, radius, exclude);
}

static void op_apply(reader *r, harness *h) {
  if (h->n == 0) return;
  size_t i = pick(r, h);
  steer_vec2 f = {num(r), num(r)};
  double dt = positive(r);
  steer_agent_apply(h->w, i, f, dt);
  check_agent_in(h->w, &h->def, i);
  steer_vec2 v = steer_agent_velocity(h->w, i);
  check_bound("apply velocity", v, steer_agent_get(h->w, i, STEER_MAX_SPEED));
}

static steer_vec2 point(reader *r, const harness *h) {
  if (h->n && (u8(r) & 1)) return steer_agent_position(h->w, pick(r, h));
  steer_vec2 t = {num(r), num(r)};
  return t;
}

/* steer_agent_flock: with the default filter the method's force bit for
   bit; with other groups, a view cone or a falloff, finite */
static void check_flock(reader *r, const harness *h, size_t i,
                        steer_behavior b, double radius, steer_vec2 plain) {
  steer_entry e = steer_entry_default(b);
  e.radius = radius;
  steer_vec2 f = steer_agent_flock(h->w, i, &e);
  CHECK(f.x == plain.x && f.y == plain.y,
        "flock entry (%g, %g), method (%g, %g)", f.x, f.y, plain.x, plain.y);
  uint8_t mask = u8(r);
  if (mask & 1) e.groups = u32(r);
  if (mask & 2) e.fov = 1 + u8(r) % 360;
  if ((mask & 4) && b == STEER_SEPARATION)
    e.falloff = (steer_falloff)(u8(r) % STEER_FALLOFF_COUNT);
  f = steer_agent_flock(h->w, i, &e);
  CHECK(finite2(f), "filtered flock (%g, %g)", f.x, f.y);
}

/* evade: bounded, and zero when the pursuer is beyond the panic radius */
static void check_evade(reader *r, const harness *h, size_t i, double mf) {
  size_t t = pick(r, h);
  double panic = (u8(r) & 1) ? nonneg(r) : -1;
  steer_vec2 f = steer_agent_evade(h->w, i, t, panic);
  check_bound("evade", f, mf);
  steer_vec2 p = steer_agent_position(h->w, i);
  steer_vec2 d = steer_world_offset(h->w, p, steer_agent_position(h->w, t));
  /* the core measures (p + d) - p: allow its rounding */
  double d_len = sqrt(d.x * d.x + d.y * d.y);
  double slack = 1e-12 * (fabs(p.x) + fabs(p.y) + d_len);
  if (panic >= 0 && d_len > panic + slack)
    CHECK(f.x == 0 && f.y == 0, "evade beyond the panic radius (%g, %g)", f.x,
          f.y);
}

static void op_behavior(reader *r, harness *h) {
  if (h->n == 0) return;
  size_t i = pick(r, h);
  double mf = steer_agent_get(h->w, i, STEER_MAX_FORCE);
  steer_vec2 f = {0, 0};
  steer_status s;
  switch (u8(r) % 15) {
  case 0: check_bound("seek", steer_agent_seek(h->w, i, point(r, h)), mf); break;
  case 1: {
    steer_vec2 t = point(r, h);
    double panic = (u8(r) & 1) ? nonneg(r) : -1;
    check_bound("flee", steer_agent_flee(h->w, i, t, panic), mf);
    break;
  }
  case 2: {
    steer_vec2 t = point(r, h);
    check_bound("arrive", steer_agent_arrive(h->w, i, t, nonneg(r)), mf);
    break;
  }
  case 3: check_bound("pursue", steer_agent_pursue(h->w, i, pick(r, h)), mf); break;
  case 4: check_evade(r, h, i, mf); break;
  case 5:
    s = steer_agent_wander(h->w, i, &f);
    if (s == STEER_OK) CHECK(finite2(f), "wander (%g, %g)", f.x, f.y);
    break;
  case 6:
    check_bound("avoid_obstacles", steer_agent_avoid_obstacles(h->w, i, nonneg(r)), mf);
    break;
  case 7: {
    double feeler = nonneg(r);
    steer_vec2 plain = steer_agent_avoid_walls(h->w, i, feeler);
    check_bound("avoid_walls", plain, feeler);
    /* the deepest of three feelers pushes, the one ahead among them: never
       shorter (but for the rounding of the walls' normals) */
    f = steer_agent_avoid_walls_whiskers(h->w, i, feeler);
    check_bound("avoid_walls_whiskers", f, feeler);
    CHECK(len2d(f) >= len2d(plain) * (1 - 1e-12),
          "avoid_walls_whiskers |f| = %.17g < avoid_walls' %.17g", len2d(f),
          len2d(plain));
    break;
  }
  case 8: {
    double radius = nonneg(r);
    f = steer_agent_separation(h->w, i, radius);
    CHECK(finite2(f), "separation (%g, %g)", f.x, f.y);
    check_flock(r, h, i, STEER_SEPARATION, radius, f);
    break;
  }
  case 9: {
    double radius = nonneg(r);
    f = steer_agent_alignment(h->w, i, radius);
    CHECK(finite2(f), "alignment (%g, %g)", f.x, f.y);
    check_flock(r, h, i, STEER_ALIGNMENT, radius, f);
    break;
  }
  case 10: {
    double radius = nonneg(r);
    f = steer_agent_cohesion(h->w, i, radius);
    CHECK(finite2(f), "cohesion (%g, %g)", f.x, f.y);
    check_flock(r, h, i, STEER_COHESION, radius, f);
    break;
  }
  case 12: { /* ORCA: finite, never faster than max_speed */
    steer_orca o = steer_orca_default();
    o.time_horizon = positive(r);
    o.obstacle_time_horizon = positive(r);
    o.neighbor_radius = nonneg(r);
    o.max_neighbors = u8(r) % (STEER_ORCA_MAX_NEIGHBORS + 1);
    o.margin = (u8(r) % 101) / 100.0;
    o.push = u8(r) % (STEER_ORCA_MAX_PUSH + 1); /* the step's, not this call's */
    o.detour = u8(r) & 1;                       /* likewise */
    steer_vec2 pref = {num(r), num(r)};
    f = steer_agent_orca_velocity(h->w, i, pref, &o, positive(r));
    double ms = steer_agent_get(h->w, i, STEER_MAX_SPEED);
    CHECK(finite2(f) && len2d(f) <= ms * (1 + 1e-9), "orca_velocity (%g, %g)",
          f.x, f.y);
    break;
  }
  case 13: {
    double horizon = positive(r), radius = nonneg(r);
    f = steer_agent_avoid_agents(h->w, i, horizon, radius, nonneg(r));
    CHECK(finite2(f), "avoid_agents (%g, %g)", f.x, f.y);
    break;
  }
  case 11: {
    steer_path *p = h->paths[u8(r) % SLOTS];
    if (!p) break;
    double arrival = nonneg(r), slowing = nonneg(r);
    s = steer_agent_follow(h->w, i, p, arrival, slowing, &f);
    if (s == STEER_OK) {
      check_bound("follow", f, mf);
      size_t k;
      CHECK(steer_agent_path(h->w, i, NULL, &k) == p && k < steer_path_count(p),
            "follow progress %zu", k);
    }
    break;
  }
  default:
    steer_agent_seed(h->w, i, u32(r));
    break;
  }
}

/* ---- the LuaJIT FFI entry points (flat.c) ---------------------------------- */

/* An id that is live, removed or made up. */
static steer_id any_id(reader *r, const harness *h) {
  uint8_t how = u8(r);
  if (h->n && how % 4) return h->ag[u8(r) % h->n].id;
  if (h->ndead && how % 4 == 0 && (how & 4)) return h->dead[u8(r) % h->ndead];
  return (steer_id)u64(r);
}

/* By id: a stale one is refused with STEER_EINVAL and out untouched; a live one
   answers exactly as the function by index. */
static void op_flat(reader *r, harness *h) {
  steer_id id = any_id(r, h);
  long i = steer_world_index(h->w, id);
  size_t j = (size_t)i; /* when live */
  double out[2] = {NAN, NAN};
  steer_vec2 want = {NAN, NAN};
  int status, compare = 1, live = i >= 0;
  switch (u8(r) % 10) {
  case 0: {
    double x = num(r), y = num(r);
    status = steer_flat_seek(h->w, id, x, y, out);
    if (live) want = steer_agent_seek(h->w, (size_t)i, (steer_vec2){x, y});
    break;
  }
  case 1: {
    double x = num(r), y = num(r), panic = num(r);
    status = steer_flat_flee(h->w, id, x, y, panic, out);
    if (live) want = steer_agent_flee(h->w, (size_t)i, (steer_vec2){x, y}, panic);
    break;
  }
  case 2: {
    double x = num(r), y = num(r), slowing = nonneg(r);
    status = steer_flat_arrive(h->w, id, x, y, slowing, out);
    if (live)
      want = steer_agent_arrive(h->w, (size_t)i, (steer_vec2){x, y}, slowing);
    break;
  }
  case 3: {
    steer_id target = any_id(r, h);
    long t = steer_world_index(h->w, target);
    int evade = u8(r) & 1;
    status = steer_flat_pursue(h->w, id, target, evade, out);
    live = live && t >= 0;
    if (live)
      want = evade ? steer_agent_evade(h->w, (size_t)i, (size_t)t, -1)
                   : steer_agent_pursue(h->w, (size_t)i, (size_t)t);
    break;
  }
  case 4: /* advances the generator: no second opinion */
    status = steer_flat_wander(h->w, id, out);
    compare = 0;
    if (live && status == STEER_ENOMEM) return; /* out of memory, nothing changed */
    if (live) CHECK(isfinite(out[0]) && isfinite(out[1]), "flat wander");
    break;
  case 5: {
    int rule = STEER_SEPARATION + u8(r) % 3;
    double radius = nonneg(r);
    status = steer_flat_flock(h->w, id, rule, radius, out);
    if (live)
      want = rule == STEER_SEPARATION  ? steer_agent_separation(h->w, j, radius)
             : rule == STEER_ALIGNMENT ? steer_agent_alignment(h->w, j, radius)
                                       : steer_agent_cohesion(h->w, j, radius);
    break;
  }
  case 6: {
    int walls = u8(r) & 1;
    double feeler = nonneg(r);
    status = steer_flat_avoid(h->w, id, walls, feeler, out);
    if (live)
      want = walls ? steer_agent_avoid_walls(h->w, (size_t)i, feeler)
                   : steer_agent_avoid_obstacles(h->w, (size_t)i, feeler);
    break;
  }
  case 7: { /* check_world follows */
    double fx = num(r), fy = num(r), dt = positive(r);
    status = steer_flat_apply(h->w, id, fx, fy, dt);
    compare = 0;
    break;
  }
  case 8: {
    static const int pseudo[] = {STEER_FLAT_SPEED, STEER_FLAT_HEADING,
                                 STEER_FLAT_POSITION, STEER_FLAT_VELOCITY};
    int k = u8(r) % (STEER_FIELD_COUNT + 4);
    int field = k < STEER_FIELD_COUNT ? k : pseudo[k - STEER_FIELD_COUNT];
    status = steer_flat_get(h->w, id, field, out);
    if (!live) break;
    steer_vec2 p = steer_agent_position(h->w, (size_t)i);
    steer_vec2 v = steer_agent_velocity(h->w, (size_t)i);
    if (field == STEER_FLAT_POSITION) want = p;
    else if (field == STEER_FLAT_VELOCITY) want = v;
    else {
      want.x = field == STEER_FLAT_SPEED     ? steer_length(v)
               : field == STEER_FLAT_HEADING ? atan2(v.y, v.x)
                                             : steer_agent_get(h->w, j, k);
      want.y = out[1] = 0; /* one number only */
      CHECK(steer_agent_speed(h->w, j) == steer_length(v) &&
                steer_agent_heading(h->w, j) == atan2(v.y, v.x),
            "steer_agent_speed/heading");
    }
    break;
  }
  default: {
    /* the plain numbers (lua/steer/ffi.lua sets no group, ghost or
       turn_velocity); the position is contained, the angle wrapped */
    steer_field f = (steer_field)(u8(r) % STEER_GROUP);
    double v = (f <= STEER_VY || f == STEER_WANDER_ANGLE || f == STEER_ANGLE ||
                f == STEER_ANGULAR_VELOCITY)
                   ? num(r)
                   : nonneg(r);
    status = steer_flat_set(h->w, id, (int)f, v);
    compare = 0;
    if (live && status == STEER_OK && f == STEER_MAX_FORCE) {
      mirror *m = mirror_of(h, (size_t)i);
      m->mf_high = fmax(m->mf_high, v);
    }
    if (live && status == STEER_OK && f != STEER_X && f != STEER_Y &&
        f != STEER_ANGLE)
      CHECK(steer_agent_get(h->w, (size_t)i, f) == v, "flat set %d", (int)f);
    if (live && status == STEER_ENOMEM) return; /* out of memory, nothing changed */
  }
  }
  CHECK(steer_status_message((steer_status)status)[0] != '\0',
        "status %d has a message", status);
  if (!live) {
    CHECK(status == STEER_EINVAL && isnan(out[0]) && isnan(out[1]),
          "flat call on a stale id: status %d", status);
    return;
  }
  CHECK(status == STEER_OK, "flat call on a live id: status %d", status);
  if (compare)
    CHECK(out[0] == want.x && out[1] == want.y,
          "flat call gives (%.17g, %.17g), by index (%.17g, %.17g)", out[0],
          out[1], want.x, want.y);
}

/* A wall longer than a wrapped world along an axis (refused). */
static int too_long(harness *h, steer_vec2 a, steer_vec2 b) {
  const steer_world_def d = steer_world_get_def(h->w);
  return d.wrap && (fabs(b.x - a.x) > d.width || fabs(b.y - a.y) > d.height);
}

/* Level geometry (issue 12): polygons, removing and moving shapes, ray
   casts, line of sight, box queries, tile maps and containment; every
   answer finite and consistent with the counts. */
static void op_level(reader *r, harness *h) {
  uint8_t what = u8(r) % 9;
  steer_vec2 a = {num(r), num(r)}, b = {num(r), num(r)};
  if (what == 0) {
    steer_vec2 pts[6] = {a, b, {num(r), num(r)}, {num(r), num(r)}, a, b};
    steer_shape s;
    steer_world_add_polygon(h->w, pts, 2 + u8(r) % 5, u8(r) & 1, &s);
  } else if (what == 1 || what == 2) { /* remove or move a shape */
    size_t n = what == 1 ? steer_world_obstacle_count(h->w)
                         : steer_world_wall_count(h->w);
    if (n) {
      size_t k = u8(r) % n, at;
      steer_shape s = what == 1 ? steer_world_obstacle_shape(h->w, k)
                                : steer_world_wall_shape(h->w, k);
      steer_shape_kind kind = steer_world_shape(h->w, s, &at);
      CHECK(kind != STEER_SHAPE_NONE, "a listed shape is live");
      if (u8(r) & 1) {
        CHECK(steer_world_remove_shape(h->w, s) == STEER_OK &&
                  steer_world_shape(h->w, s, NULL) == STEER_SHAPE_NONE &&
                  steer_world_remove_shape(h->w, s) == STEER_EINVAL,
              "a removed shape is stale");
      } else if (kind == STEER_SHAPE_OBSTACLE) {
        steer_world_set_obstacle(h->w, at, a.x, a.y, nonneg(r));
      } else if (kind == STEER_SHAPE_WALL || kind == STEER_SHAPE_POLYGON) {
        /* a polygon's edge too, by its dense number: its polygon's solid
           side follows (and a snapshot works out the same) */
        steer_status st = steer_world_set_wall(
            h->w, kind == STEER_SHAPE_WALL ? at : k, a, b);
        CHECK((st == STEER_EINVAL) == too_long(h, a, b), "set_wall status %d",
              (int)st);
      }
    }
  } else if (what == 3 || what == 4) {
    steer_ray_hit hit;
    unsigned kinds = u8(r) & 7;
    steer_id ignore = h->n ? h->ag[u8(r) % h->n].id : 0;
    /* a shape the ray passes through: a wall's (or polygon's), an
       obstacle's, or none */
    size_t walls = steer_world_wall_count(h->w);
    size_t obstacles = steer_world_obstacle_count(h->w);
    uint8_t pick = u8(r);
    steer_shape skip = (pick & 1) && walls
                           ? steer_world_wall_shape(h->w, pick % walls)
                       : (pick & 2) && obstacles
                           ? steer_world_obstacle_shape(h->w, pick % obstacles)
                           : 0;
    if (steer_world_raycast_ignoring(h->w, a, b, kinds, ignore, skip, &hit)) {
      CHECK(hit.kind == STEER_HIT_AGENT || hit.shape != skip,
            "the ignored shape was hit");
      CHECK(hit.fraction >= 0 && hit.fraction <= 1 && finite2(hit.point) &&
                finite2(hit.normal) && fabs(len2d(hit.normal) - 1) < 1e-9,
            "ray hit at %g", hit.fraction);
      CHECK(hit.kind != STEER_HIT_AGENT || hit.agent != ignore,
            "the ignored agent was hit");
      long at = hit.kind == STEER_HIT_AGENT ? steer_world_index(h->w, hit.agent)
                                            : -1;
      CHECK(at < 0 || !steer_agent_get(h->w, (size_t)at, STEER_GHOST),
            "a ghost was hit"); /* a ghost has no body */
    }
    int sight = steer_world_line_of_sight(h->w, a, b);
    CHECK(sight == !steer_world_raycast(h->w, a, b,
                                        STEER_RAY_WALLS | STEER_RAY_OBSTACLES,
                                        0, &hit),
          "line of sight disagrees with the ray cast");
  } else if (what == 5) { /* box query against every agent */
    found got;
    size_t want = 0;
    memset(&got, 0, sizeof got);
    steer_world_query_box(h->w, a.x, a.y, b.x, b.y, visit, &got);
    const steer_world_def def = steer_world_get_def(h->w);
    if (world_mode(&def) != 1) {
      for (size_t i = 0; i < h->n; i++) {
        steer_vec2 p = steer_agent_position(h->w, i);
        want += p.x >= fmin(a.x, b.x) && p.x <= fmax(a.x, b.x) &&
                p.y >= fmin(a.y, b.y) && p.y <= fmax(a.y, b.y) &&
                !steer_agent_get(h->w, i, STEER_GHOST); /* never found */
      }
      CHECK(got.count == want, "query_box found %zu of %zu", got.count, want);
    }
  } else if (what == 8) { /* a loop that adds shapes visits the ones before */
    unsigned kinds = 1u + u8(r) % 15;
    uint64_t births = steer_world_shape_births(h->w);
    size_t before = 0, visited = 0;
    for (steer_shape s = steer_world_next_shape(h->w, kinds, 0); s;
         s = steer_world_next_shape(h->w, kinds, s))
      before++;
    for (steer_shape s = steer_world_next_shape_born(h->w, kinds, 0, births);
         s; s = steer_world_next_shape_born(h->w, kinds, s, births)) {
      CHECK(++visited <= before, "a loop visits a shape added during it");
      CHECK(steer_world_shape(h->w, s, NULL) != STEER_SHAPE_NONE,
            "a loop yields a removed shape");
      if (u8(r) & 1) steer_world_add_obstacle(h->w, a.x, a.y, nonneg(r), NULL);
      if (u8(r) & 1) steer_world_remove_shape(h->w, s); /* the next is found after it */
    }
  } else if (what == 6) { /* a tile map into walls */
    unsigned char tiles[36];
    size_t w = 1 + u8(r) % 6, hh = 1 + u8(r) % 6;
    for (size_t k = 0; k < w * hh; k++) tiles[k] = u8(r) & 1;
    steer_vec2 seg[2 * 84];
    /* the far corner within STEER_LIMIT, as steer.walls_from_tiles asks:
       the walls' ends are numbers handed to steer */
    double cell = fmin(positive(r), STEER_LIMIT / 6);
    size_t n = steer_walls_from_tiles(tiles, w, hh, cell, 0, 0, seg, 84);
    CHECK(n <= 84, "%zu segments for %zu tiles", n, w * hh);
    for (size_t k = 0; k < n && k < 84; k++)
      if ((seg[2 * k].x != seg[2 * k + 1].x ||
           seg[2 * k].y != seg[2 * k + 1].y) &&
          steer_world_add_wall(h->w, seg[2 * k], seg[2 * k + 1], NULL) ==
              STEER_OK) /* solid on the left, as the tiles are (collide) */
        steer_world_set_wall_solid_left(h->w, steer_world_wall_count(h->w) - 1,
                                        (int)(k & 1) || cell > 1);
  } else if (h->n) { /* containment */
    steer_vec2 box[4] = {a, {b.x, a.y}, b, {a.x, b.y}};
    size_t i = pick(r, h);
    steer_vec2 f = steer_agent_contain(h->w, i, box, 4, nonneg(r));
    CHECK(finite2(f), "contain is not finite");
  }
  h->obstacles = steer_world_obstacle_count(h->w);
  h->walls = steer_world_wall_count(h->w);
}

static void op_obstacle(reader *r, harness *h) {
  size_t number;
  uint8_t what = u8(r) % 5;
  if (what == 4) {
    op_level(r, h);
    return;
  }
  if (what == 0) {
    double x = num(r), y = num(r);
    if (steer_world_add_obstacle(h->w, x, y, nonneg(r), &number) == STEER_OK)
      CHECK(number == ++h->obstacles, "obstacle number %zu", number);
  } else if (what == 1) {
    steer_vec2 p = {num(r), num(r)}, q = {num(r), num(r)};
    steer_status s = steer_world_add_wall(h->w, p, q, &number);
    CHECK((s == STEER_EINVAL) == too_long(h, p, q), "add_wall status %d",
          (int)s);
    if (s == STEER_OK) CHECK(number == ++h->walls, "wall number %zu", number);
  } else if (what == 2) {
    steer_world_clear_obstacles(h->w);
    h->obstacles = 0;
  } else {
    steer_world_clear_walls(h->w);
    h->walls = 0;
  }
  CHECK(steer_world_obstacle_count(h->w) == h->obstacles, "obstacle count");
  CHECK(steer_world_wall_count(h->w) == h->walls, "wall count");
}

static void op_path(reader *r, harness *h) {
  steer_vec2 pts[MAX_PATH_POINTS];
  size_t n = 1 + u8(r) % MAX_PATH_POINTS;
  for (size_t k = 0; k < n; k++) {
    pts[k].x = num(r);
    pts[k].y = num(r);
  }
  steer_path *p = steer_path_create(pts, n, u8(r) & 1);
  if (!p) {
    CHECK(global_alloc.odds != 0, "path_create failed without a failing allocator");
    return;
  }
  size_t slot = u8(r) % SLOTS;
  /* agents following it and programs aiming at it keep it alive */
  steer_path_release(h->paths[slot]);
  h->paths[slot] = p;
}

/* The stateless functions on domain values, and the vector helpers on any
   finite double at all. */
static void op_stateless(reader *r) {
  steer_vec2 p = {num(r), num(r)}, v = {num(r), num(r)}, t = {num(r), num(r)};
  steer_vec2 tv = {num(r), num(r)};
  double ms = nonneg(r), mf = nonneg(r), sr = nonneg(r);
  check_bound("steer_seek", steer_seek(p, v, t, ms, mf), mf);
  check_bound("steer_flee", steer_flee(p, v, t, ms, mf), mf);
  check_bound("steer_arrive", steer_arrive(p, v, t, ms, mf, sr), mf);
  check_bound("steer_pursue", steer_pursue(p, v, t, tv, ms, mf), mf);
  check_bound("steer_evade", steer_evade(p, v, t, tv, ms, mf), mf);
  CHECK(finite2(steer_lerp(p, v, num(r))), "lerp");
  CHECK(finite2(steer_wander_force(v, num(r), nonneg(r), nonneg(r))), "wander force");

  steer_vec2 forces[6];
  double weights[6];
  size_t n = u8(r) % 7;
  for (size_t k = 0; k < n; k++) {
    forces[k].x = num(r);
    forces[k].y = num(r);
    weights[k] = num(r);
  }
  check_bound("steer_weighted", steer_weighted(mf, forces, weights, n), mf);
  check_bound("steer_priority", steer_priority(mf, forces, n), mf);
  check_bound("steer_prioritized_sum", steer_prioritized_sum(mf, forces, n), mf);

  steer_vec2 pp = p, vv = v;
  steer_integrate(&pp, &vv, t, ms, mf, positive(r));
  CHECK(finite2(pp) && finite2(vv), "integrate");

  /* beyond the domain: any finite double */
  steer_vec2 any = {raw_double(r), raw_double(r)};
  double max = fabs(raw_double(r));
  if (isfinite(any.x) && isfinite(any.y) && isfinite(max)) {
    CHECK(!isnan(steer_length(any)), "steer_length NaN");
    steer_vec2 nrm = steer_normalize(any), cl = steer_clamp(any, max);
    CHECK(!isnan(nrm.x) && !isnan(nrm.y), "steer_normalize NaN");
    CHECK(!isnan(cl.x) && !isnan(cl.y), "steer_clamp NaN");
  }
}
