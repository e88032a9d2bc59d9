/* crowd_op.h - a crowd of at least FUZZ_THREADED_MIN agents, so that a
 * world with two threads really splits its step. An input that steps such
 * a crowd is run a second time with threads = 2, and both runs must log
 * the same digests (fuzz_core.c). The crowd ends the input: the mirror
 * follows no more than MAX_AGENTS agents (part of fuzz_core.c). */

static double crowd_unit(uint32_t *s) {
  *s = *s * 1103515245u + 12345u;
  return (*s >> 8) / 16777216.0; /* [0, 1) */
}

/* Weighted flocking (the crowd kernel's program) with 1 to 3 rules whose
   radii are within a cell, or wider (the general path). */
static steer_program *crowd_program(reader *r, double cell) {
  static const steer_behavior rules[] = {STEER_SEPARATION, STEER_ALIGNMENT,
                                         STEER_COHESION};
  steer_entry e[3];
  size_t n = 1 + u8(r) % 3;
  double wide = (u8(r) % 8) == 0 ? 2 : 1; /* rarely: the general path */
  for (size_t k = 0; k < n; k++) {
    e[k] = steer_entry_default(rules[(k + u8(r)) % 3]);
    e[k].radius = cell * wide * (u8(r) / 255.0);
    e[k].weight = (u8(r) % 9) * 0.5 - 1;
  }
  return steer_program_create(STEER_WEIGHTED, -1, 0, e, n);
}

/* Where the crowd's k-th agent goes: the same answer however often asked
   (steer_world_add_many asks twice). */
typedef struct crowd_place {
  uint32_t seed;
  int bounded;
  double x0, y0, wide, high, speed;
  steer_agent_def base;
} crowd_place;

static void crowd_def(void *ud, size_t k, steer_agent_def *d) {
  const crowd_place *c = ud;
  uint32_t rng = c->seed ^ (uint32_t)(k * 2654435761u);
  double ux = crowd_unit(&rng), uy = crowd_unit(&rng);
  *d = c->base;
  d->x = c->bounded ? ux * c->wide : c->x0 + c->wide * (ux - 0.5);
  d->y = c->bounded ? uy * c->high : c->y0 + c->high * (uy - 0.5);
  d->vx = c->speed * (2 * crowd_unit(&rng) - 1);
  d->vy = c->speed * (2 * crowd_unit(&rng) - 1);
}

static void op_crowd(reader *r, harness *h) {
  uint32_t rng = u32(r);
  size_t want = FUZZ_THREADED_MIN + u8(r) % 64;
  double cell = h->def.cell_size, x0 = 0, y0 = 0, wide, high;
  double spread = 1 + u8(r) / 64.0; /* at most one agent per cell */
  if (h->mode) {
    double cells = axis_cells(h->def.width, cell) * axis_cells(h->def.height, cell);
    if (cells < want / 2.0) return; /* too crowded to step quickly */
    wide = h->def.width;
    high = h->def.height;
  } else {
    if (!(cell >= 1e-100 && cell <= 1e100)) return;
    wide = high = cell * sqrt((double)want) * spread;
    x0 = num(r);
    y0 = num(r);
    if (fabs(x0) > wide * 1e6) x0 = 0; /* the agents must stay apart */
    if (fabs(y0) > high * 1e6) y0 = 0;
  }
  double speed = cell * (u8(r) % 8) / 4;
  steer_program *flock = crowd_program(r, cell);
  if (!flock) CHECK(global_alloc.odds != 0, "program_create failed");

  crowd_place c = {rng, h->mode != 0, x0, y0, wide, high, speed,
                   steer_agent_def_default()};
  c.base.max_speed = speed;
  c.base.max_force = speed * (u8(r) % 4);
  c.base.radius = cell * 0.1;
  /* three quarters at once with the flocking program (all or none) */
  size_t before = steer_world_count(h->w), bulk = (want - before) * 3 / 4;
  steer_status s = steer_world_add_many(h->w, bulk, crowd_def, &c, flock, NULL);
  if (s != STEER_OK) {
    CHECK(s == STEER_ENOMEM && failing(h), "crowd add_many: %d", (int)s);
    CHECK(steer_world_count(h->w) == before, "a failed add_many added agents");
  }
  /* the rest one by one, with a program each */
  steer_agent_def d;
  for (size_t tries = 0, k = bulk;
       steer_world_count(h->w) < want && tries < 2 * want; tries++, k++) {
    crowd_def(&c, k, &d);
    before = steer_world_count(h->w);
    steer_id id;
    s = steer_world_add(h->w, &d, &id);
    if (s != STEER_OK) {
      CHECK(s == STEER_ENOMEM && failing(h), "crowd add: %d", (int)s);
      CHECK(steer_world_count(h->w) == before, "a failed add changed the count");
      continue;
    }
    uint32_t which = (uint32_t)(crowd_unit(&rng) * 8);
    steer_program *p = which < 6 ? flock : h->progs[which % SLOTS];
    if (p && steer_agent_set_program(h->w, index_of(h, id), p) != STEER_OK)
      CHECK(failing(h), "crowd set_program failed");
  }
  steer_program_release(flock);

  int steps = 1 + (u8(r) % 4 == 0); /* crowds are slow: mostly one step */
  double dt = 0.25 * (1 + u8(r) % 4);
  int twin = u8(r) & 1;
  for (int k = 0; k < steps; k++) {
    step_world(h, dt, twin);
    for (size_t i = 0; i < steer_world_count(h->w); i++)
      check_agent_in(h->w, &h->def, i);
  }
  bytes all = snapshot_of(h, h->w);
  log_digest(h, fnv(FNV_START, all.p, all.n));
  bytes_free(&all);
}
