/* tactics_ops.h - the group and tactical behaviors (docs/API.md section
 * 17) in a scratch world of their own: snapshots refuse worlds with a
 * formation entry, so the main world's snapshot-based checks never see
 * these entries; this op snapshots its own world at the end instead.
 *
 * op_tactics (op 0xFD) decodes a world (free, torus or clamped, allocations failing
 * on demand), up to TACTICS_AGENTS agents, obstacles, a formation (an
 * agent or a point anchor, up to 8 slots), and gives agents programs of
 * tactics entries (or avoid_walls, whiskers or not, against its walls)
 * with decoded parameters. It checks: STEER_ENOMEM leaves an agent's
 * program and the formation's membership as they were; members
 * are exactly the agents whose programs name the formation; slots are
 * distinct; with up to 6 members and 6 slots the assignment's total
 * distance equals the brute-force minimum until the next step (joins,
 * leaves and reassign assign; members keep their slots while they move,
 * so a step may leave a better assignment untaken); every force is finite and
 * within max_force; every method form agrees with its entry; steps keep
 * every agent finite; removals leave the formation; a snapshot refuses a
 * world with a formation entry, and otherwise restores to the same bytes
 * and steps on as the world does, bit for bit. */

#define TACTICS_AGENTS 12

static steer_vec2 v2_of(double x, double y) {
  steer_vec2 v = {x, y};
  return v;
}

/* An agent, a point, or (when there is one) the op's shared point. */
static steer_target tactics_target(reader *r, steer_world *w, size_t n,
                                   steer_point *shared) {
  steer_target t;
  memset(&t, 0, sizeof t);
  uint8_t how = u8(r);
  if (n && (how & 1)) {
    t.kind = STEER_TARGET_AGENT;
    t.agent = steer_world_id_at(w, u8(r) % n);
  } else if (shared && (how & 2)) { /* programs and formations retain it */
    t.kind = STEER_TARGET_SHARED;
    t.shared = shared;
  } else {
    t.kind = STEER_TARGET_POINT;
    t.point.x = num(r);
    t.point.y = num(r);
  }
  return t;
}

static steer_pose tactics_pose(steer_world *w, const steer_target *t) {
  steer_pose p;
  memset(&p, 0, sizeof p);
  if (t->kind == STEER_TARGET_AGENT) {
    long j = steer_world_index(w, t->agent);
    if (j >= 0) return steer_agent_pose(w, (size_t)j);
  }
  p.position = t->kind == STEER_TARGET_SHARED ? steer_point_get(t->shared)
                                              : t->point;
  return p;
}

/* The brute-force minimum over injective assignments of members to slots
   (every member placed when n <= m, else every slot filled). */
static void tactics_best(const steer_vec2 *pos, size_t n, const steer_vec2 *slot,
                         size_t m, steer_world *w, size_t k, int *used,
                         double total, size_t placed, double *best) {
  if (k == n) {
    if (placed == (n < m ? n : m) && total < *best) *best = total;
    return;
  }
  for (size_t s = 0; s < m; s++) {
    if (used[s]) continue;
    used[s] = 1;
    double d = len2d(steer_world_offset(w, pos[k], slot[s]));
    tactics_best(pos, n, slot, m, w, k + 1, used, total + d, placed + 1, best);
    used[s] = 0;
  }
  if (n - k > (n < m ? n : m) - placed)
    tactics_best(pos, n, slot, m, w, k + 1, used, total, placed, best);
}

static void tactics_check_formation(steer_world *w, steer_formation *f,
                                    int check_optimal) {
  size_t n = steer_world_count(w), members = 0;
  for (size_t i = 0; i < n; i++) {
    const steer_program *p = steer_agent_program(w, i);
    int names = 0;
    for (size_t k = 0; p && k < steer_program_count(p); k++) {
      const steer_target *t = &steer_program_entry(p, k)->target;
      names |= t->kind == STEER_TARGET_FORMATION && t->formation == f;
    }
    members += names;
    long s = steer_formation_slot_of(f, steer_world_id_at(w, i));
    CHECK(names || s < 0, "agent %zu holds a slot without the entry", i);
  }
  size_t count = steer_formation_member_count(f), m = steer_formation_slot_count(f);
  CHECK(count == members, "formation has %zu members, programs name it %zu times",
        count, members);
  int used[8] = {0};
  steer_vec2 pos[TACTICS_AGENTS], slot[8];
  double total = 0;
  size_t placed = 0;
  /* the assignment uses the slots as given (docs/API.md 17.3) */
  int fit = steer_formation_fit(f);
  steer_formation_set_fit(f, 0);
  for (size_t k = 0; k < m; k++) slot[k] = steer_formation_slot_position(w, f, k);
  steer_formation_set_fit(f, fit);
  for (size_t k = 0; k < m; k++) {
    steer_vec2 fitted = steer_formation_slot_position(w, f, k);
    CHECK(finite2(fitted), "slot %zu fitted to (%g, %g)", k, fitted.x, fitted.y);
    /* nothing in the way (no geometry at all): the slot as given */
    if (!steer_world_obstacle_count(w) && !steer_world_wall_count(w))
      CHECK(fitted.x == slot[k].x && fitted.y == slot[k].y,
            "slot %zu moved in an empty level", k);
  }
  for (size_t k = 0; k < count; k++) {
    steer_id id = steer_formation_member(f, k);
    long i = steer_world_index(w, id);
    CHECK(i >= 0, "member %llu is not alive", (unsigned long long)id);
    pos[k] = steer_agent_position(w, (size_t)i);
    long s = steer_formation_slot_of(f, id);
    CHECK(s < (long)m, "slot %ld of %zu", s, m);
    if (s < 0) continue;
    CHECK(!used[s], "slot %ld held twice", s);
    used[s] = 1;
    placed++;
    total += len2d(steer_world_offset(w, pos[k], slot[s]));
  }
  CHECK(placed == (count < m ? count : m), "%zu of %zu members placed (%zu slots)",
        placed, count, m);
  if (!check_optimal || count > 6 || m > 6) return;
  steer_target anchor = steer_formation_anchor(f);
  if (anchor.kind == STEER_TARGET_AGENT && steer_world_index(w, anchor.agent) < 0)
    return; /* no anchor: member k keeps slot k */
  double best = HUGE_VAL;
  int taken[8] = {0};
  tactics_best(pos, count, slot, m, w, 0, taken, 0, 0, &best);
  if (placed == 0) best = 0;
  CHECK(total <= best * (1 + 1e-9) + 1e-300, "assignment total %.17g > optimum %.17g",
        total, best);
}

/* Agent i's formation entries in w and in its restored copy c name
   formations with the same members, in the same order, in the same slots
   (snapshot version 11). */
static void tactics_same_formations(steer_world *w, steer_world *c, size_t i) {
  const steer_program *p = steer_agent_program(w, i), *q = steer_agent_program(c, i);
  CHECK(!p == !q && (!p || steer_program_count(p) == steer_program_count(q)),
        "tactics: agent %zu's restored program differs", i);
  for (size_t k = 0; p && k < steer_program_count(p); k++) {
    const steer_formation *f = steer_program_entry(p, k)->target.formation;
    const steer_formation *g = steer_program_entry(q, k)->target.formation;
    if (steer_program_entry(p, k)->behavior != STEER_FORMATION) continue;
    size_t n = steer_formation_member_count(f);
    CHECK(g != f && steer_formation_member_count(g) == n,
          "tactics: agent %zu's formation restored with %zu members of %zu", i,
          steer_formation_member_count(g), n);
    for (size_t m = 0; m < n; m++) {
      steer_id id = steer_formation_member(f, m);
      CHECK(steer_formation_member(g, m) == id &&
                steer_formation_slot_of(g, id) == steer_formation_slot_of(f, id),
            "tactics: formation member %zu restored apart", m);
    }
  }
}

/* Snapshots keep the tactics entries (version 10) and formations (11):
   restore(snapshot(w)) snapshots to the same bytes, holds the same
   formations' members and steps on as w. */
static void tactics_check_snapshot(steer_world *w) {
  global_alloc.paused++;
  steer_world *c = restored_same_bytes(w, "tactics");
  for (size_t i = 0; i < steer_world_count(w); i++) tactics_same_formations(w, c, i);
  for (int k = 0; k < 2; k++) {
    CHECK(steer_world_step(w, 0.05) == STEER_OK, "step");
    CHECK(steer_world_step(c, 0.05) == STEER_OK, "step");
    for (size_t i = 0; i < steer_world_count(w); i++) {
      steer_vec2 p = steer_agent_position(w, i), q = steer_agent_position(c, i);
      steer_vec2 v = steer_agent_velocity(w, i), u = steer_agent_velocity(c, i);
      CHECK(p.x == q.x && p.y == q.y && v.x == u.x && v.y == u.y,
            "tactics: the restored world's agent %zu steps apart", i);
    }
  }
  steer_world_destroy(c);
  global_alloc.paused--;
}

static void op_tactics(reader *r, harness *h) {
  (void)h;
  alloc_state fails = {u32(r), 0, 0};
  steer_world_def def = steer_world_def_default();
  uint8_t kind = u8(r);
  if (kind % 3) {
    def.width = extent(r);
    def.height = extent(r);
    def.wrap = kind % 3 == 1;
    def.cell_size = fmax(def.cell_size, sqrt(def.width / MAX_DENSE_CELLS * def.height));
    while (axis_cells(def.width, def.cell_size) * axis_cells(def.height, def.cell_size) >
           MAX_DENSE_CELLS)
      def.cell_size *= 2;
  }
  def.alloc = test_alloc;
  def.alloc_ud = &fails;
  steer_world *w = steer_world_create(&def);
  CHECK(w != NULL, "world_create failed");
  size_t n = 1 + u8(r) % TACTICS_AGENTS;
  for (size_t k = 0; k < n; k++) {
    steer_agent_def a = steer_agent_def_default();
    a.x = num(r);
    a.y = num(r);
    a.vx = (double)(int8_t)u8(r) / 16;
    a.vy = (double)(int8_t)u8(r) / 16;
    a.angle = (double)(int8_t)u8(r) / 32; /* the frame of a leader */
    a.max_speed = nonneg(r);
    a.max_force = nonneg(r);
    a.radius = (double)(u8(r) % 8) / 4;
    CHECK(steer_world_add(w, &a, NULL) == STEER_OK, "add");
  }
  for (size_t k = u8(r) % 4; k > 0; k--)
    CHECK(steer_world_add_obstacle(w, num(r), num(r), nonneg(r), NULL) == STEER_OK,
          "add_obstacle");
  if (kind & 16) /* walls, which fitted slots stay clear of */
    for (size_t k = u8(r) % 4; k > 0; k--) {
      steer_vec2 a = v2_of(num(r), num(r)), b = v2_of(num(r), num(r));
      steer_status s = steer_world_add_wall(w, a, b, NULL);
      /* on a torus a wall longer than the world is refused */
      CHECK(s == STEER_OK || (def.wrap && s == STEER_EINVAL), "add_wall: %d", (int)s);
    }
  steer_vec2 slots[8];
  size_t m = u8(r) % 9;
  for (size_t k = 0; k < m; k++) slots[k] = v2_of(num(r), num(r));
  /* a shared point (steer.point) targets and the anchor may name; NULL
     when the process-wide allocator fails on demand */
  steer_point *shared = steer_point_create(num(r), num(r));
  steer_target anchor = tactics_target(r, w, n, shared);
  steer_formation *f = steer_formation_create(anchor, slots, m);
  if (!f) { /* the process-wide allocator may fail on demand */
    CHECK(global_alloc.odds != 0, "formation_create failed");
    steer_world_destroy(w);
    steer_point_release(shared);
    return;
  }
  fails.odds = u8(r) % 8; /* from here allocations may fail */
  int assigned_now = 1; /* no step since the last join, leave or reassign */
  for (size_t rounds = u8(r) % 16; rounds > 0 && more(r); rounds--) {
    size_t i = u8(r) % n;
    uint8_t what = u8(r);
    if (what & 64) steer_formation_set_fit(f, !steer_formation_fit(f));
    if (shared && (what & 128)) { /* every holder sees it move */
      steer_point_set(shared, num(r), num(r));
      assigned_now = 0; /* an anchor that moved: slots keep until a reassign */
    }
    if ((what & 48) == 48) { /* a new anchor (a leader promoted) */
      steer_target to = tactics_target(r, w, n, shared);
      steer_formation_set_anchor(f, to);
      steer_target now = steer_formation_anchor(f);
      CHECK(memcmp(&now, &to, sizeof now) == 0, /* to was zeroed first */
            "set_anchor: the anchor is not the one set");
      assigned_now = 0; /* members keep their slots until a reassign */
    }
    if (what % 4 == 3 && n > 1) { /* remove an agent */
      size_t members = steer_formation_member_count(f);
      CHECK(steer_world_remove(w, steer_world_id_at(w, i)) == STEER_OK, "remove");
      n--;
      assigned_now |= steer_formation_member_count(f) != members;
      tactics_check_formation(w, f, assigned_now);
      continue;
    }
    /* the six tactics entries, or avoid_walls (with whiskers or not)
       against this level's walls */
    steer_entry e = steer_entry_default(
        what % 7 < 6 ? (steer_behavior)(STEER_OFFSET_PURSUIT + what % 7)
                     : STEER_AVOID_WALLS);
    e.slowing_radius = nonneg(r);
    e.distance = nonneg(r);
    e.radius = nonneg(r);
    e.fov = 1 + u8(r) % 360;
    e.offset = v2_of(num(r), num(r));
    e.fit = !(what & 8); /* offset_pursuit, follow_leader: fitted as
                            formations' slots */
    if (e.behavior == STEER_AVOID_WALLS) {
      e.feeler_length = e.distance;
      e.whiskers = !(what & 8);
    }
    e.target = tactics_target(r, w, n, shared);
    e.other = tactics_target(r, w, n, shared);
    if (e.behavior == STEER_FORMATION) {
      e.target.kind = STEER_TARGET_FORMATION;
      e.target.formation = f;
    }
    steer_program *p = steer_program_create(STEER_WEIGHTED, -1, 0, &e, 1);
    if (!p) continue;
    steer_program *before = steer_agent_program(w, i);
    size_t members = steer_formation_member_count(f);
    steer_status s = steer_agent_set_program(w, i, p);
    if (s == STEER_ENOMEM) {
      CHECK(steer_agent_program(w, i) == before, "ENOMEM changed the program");
      CHECK(steer_formation_member_count(f) == members, "ENOMEM changed the members");
    } else {
      CHECK(s == STEER_OK, "set_program: %d", (int)s);
    }
    steer_program_release(p);
    fails.paused++;
    assigned_now |= steer_formation_member_count(f) != members;
    tactics_check_formation(w, f, assigned_now);
    /* the entry's force against its method's, then the bound */
    steer_vec2 force = steer_agent_steering(w, i, 0.1);
    check_bound("tactics entry", force, steer_agent_get(w, i, STEER_MAX_FORCE));
    if (s == STEER_OK) {
      steer_pose a = tactics_pose(w, &e.target), b = tactics_pose(w, &e.other);
      int gone = e.target.kind == STEER_TARGET_AGENT &&
                 steer_world_index(w, e.target.agent) < 0;
      steer_vec2 want = {0, 0};
      switch (e.behavior) {
      case STEER_OFFSET_PURSUIT:
        want = steer_agent_offset_pursuit(w, i, a, e.offset, e.slowing_radius,
                                          e.fit);
        break;
      case STEER_FOLLOW_LEADER:
        want = steer_agent_follow_leader(w, i, a, e.distance, e.radius,
                                         e.slowing_radius, e.fit);
        break;
      case STEER_FORMATION:
        want = steer_agent_formation(w, i, f, e.slowing_radius);
        break;
      case STEER_AVOID_WALLS: /* aims at nothing: a target gone is fine */
        want = e.whiskers
                   ? steer_agent_avoid_walls_whiskers(w, i, e.feeler_length)
                   : steer_agent_avoid_walls(w, i, e.feeler_length);
        gone = 0;
        break;
      case STEER_INTERPOSE:
        want = steer_agent_interpose(w, i, a, b, e.slowing_radius);
        gone |= e.other.kind == STEER_TARGET_AGENT &&
                steer_world_index(w, e.other.agent) < 0;
        break;
      case STEER_HIDE:
        want = steer_agent_hide(w, i, a, e.distance, e.slowing_radius);
        break;
      default:
        want = steer_agent_queue(w, i, e.distance, e.fov, e.slowing_radius);
        break;
      }
      want = steer_clamp(want, steer_agent_get(w, i, STEER_MAX_FORCE));
      if (!gone)
        CHECK(want.x == force.x && want.y == force.y,
              "entry %d: (%g, %g), method (%g, %g)", (int)e.behavior, force.x,
              force.y, want.x, want.y);
    }
    if (u8(r) & 1) {
      s = steer_world_step(w, 0.05);
      CHECK(s == STEER_OK, "step: %d", (int)s);
      assigned_now = 0;
      for (size_t k = 0; k < steer_world_count(w); k++) {
        steer_vec2 p = steer_agent_position(w, k), v = steer_agent_velocity(w, k);
        CHECK(finite2(p) && finite2(v), "agent %zu not finite after a step", k);
      }
    }
    if (u8(r) & 1) {
      steer_formation_reassign(w, f);
      assigned_now = 1;
    }
    tactics_check_formation(w, f, assigned_now);
    fails.paused--;
  }
  fails.paused++;
  tactics_check_snapshot(w);
  fails.paused--;
  steer_world_destroy(w);
  steer_formation_release(f);
  steer_point_release(shared); /* ours; the last reference when f held it */
}
