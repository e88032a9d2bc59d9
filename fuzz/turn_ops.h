/* turn_ops.h - issue 14 in the harness: the body fields (angle, turn
 * limits, group, ghost), angular behaviors and apply with an angular
 * acceleration, filtered queries, set_path_index, corridor following and
 * shared points (part of fuzz_core.c). */

/* The query with a filter against brute force over the harness's agents. */
static void check_filtered_query(const harness *h, double x, double y,
                                 double r, uint32_t groups, double fov,
                                 double angle) {
  found got;
  memset(&got, 0, sizeof got);
  steer_world_query_filtered(h->w, x, y, r, -1, groups, fov, angle, visit,
                             &got);
  steer_vec2 q = {x, y};
  if (h->mode == 1) {
    q.x = wrap_coord(x, h->def.width);
    q.y = wrap_coord(y, h->def.height);
  }
  double c = cos(fov * (TURN_PI / 360)), fx = cos(angle), fy = sin(angle);
  for (size_t i = 0; i < h->n; i++) {
    steer_vec2 d = steer_world_offset(h->w, q, steer_agent_position(h->w, i));
    double d2 = d.x * d.x + d.y * d.y;
    int g = (int)steer_agent_get(h->w, i, STEER_GROUP);
    int want = d2 <= r * r && !steer_agent_get(h->w, i, STEER_GHOST) &&
               ((groups >> g) & 1) &&
               (fov >= 360 || d.x * fx + d.y * fy >= c * sqrt(d2));
    CHECK(want == got.hit[i], "filtered query %s agent %zu",
          want ? "misses" : "wrongly yields", i);
  }
}

static steer_vec2 turn_vec(double x, double y) {
  steer_vec2 v = {x, y};
  return v;
}

static void op_turn(reader *r, harness *h) {
  if (h->n == 0) return;
  size_t i = pick(r, h);
  double dt = positive(r);
  switch (u8(r) % 7) {
  case 0: { /* face, then apply it */
    double a = steer_agent_face(h->w, i, point(r, h), dt);
    CHECK(isfinite(a), "face gave %g", a);
    if (steer_agent_apply_turning(h->w, i, turn_vec(num(r), num(r)), a, dt) ==
        STEER_OK)
      check_agent_in(h->w, &h->def, i);
    break;
  }
  case 1: {
    double a = steer_agent_look_where_going(h->w, i, dt);
    CHECK(isfinite(a), "look_where_going gave %g", a);
    double m = steer_agent_match_orientation(h->w, i, pick(r, h), dt);
    CHECK(isfinite(m), "match_orientation gave %g", m);
    steer_agent_apply_turning(h->w, i, turn_vec(0, 0), num(r), dt);
    break;
  }
  case 2: {
    uint32_t groups = u32(r);
    double fov = (u8(r) & 1) ? 360 : fmin(360, fmax(1e-3, nonneg(r)));
    steer_vec2 p = point(r, h);
    check_filtered_query(h, p.x, p.y, nonneg(r), groups, fov, num(r));
    break;
  }
  case 3: { /* a corridor, and moving along the path */
    steer_path *path = h->paths[u8(r) % SLOTS];
    if (!path) break;
    steer_vec2 f;
    if (steer_agent_follow_corridor(h->w, i, path, nonneg(r), nonneg(r),
                                    nonneg(r), &f) == STEER_OK) {
      CHECK(finite2(f), "corridor force (%g, %g)", f.x, f.y);
      check_bound("corridor", f, steer_agent_get(h->w, i, STEER_MAX_FORCE));
    }
    size_t k = u8(r);
    steer_status s = steer_agent_set_path_index(h->w, i, k);
    size_t at;
    const steer_path *on = steer_agent_path(h->w, i, NULL, &at);
    if (s == STEER_OK) CHECK(on && at == k, "set_path_index %zu reads %zu", k, at);
    else CHECK(!on || k >= steer_path_count(on), "set_path_index refused %zu", k);
    break;
  }
  case 4: { /* a shared point as the target of the agent's program: one the
               harness holds (other entries may aim at it) or a new one */
    size_t slot = u8(r) % SLOTS;
    steer_point *pt = h->points[slot];
    if (pt && (u8(r) & 1)) steer_point_retain(pt);
    else pt = steer_point_create(num(r), num(r));
    if (!pt) break;
    steer_target t;
    memset(&t, 0, sizeof t);
    t.kind = STEER_TARGET_SHARED;
    t.shared = pt;
    steer_program *p = steer_agent_program(h->w, i);
    size_t k = u8(r);
    if (p && k < steer_program_count(p) &&
        steer_program_entry(p, k)->behavior != STEER_PURSUE &&
        steer_program_entry(p, k)->behavior != STEER_EVADE) {
      steer_id id = steer_world_id_at(h->w, i);
      mirror *m = mirror_of(h, i);
      if (steer_agent_set_target(h->w, i, k, t) == STEER_OK) {
        m->st.valid = 0; /* the oracle knows no shared points */
        shadow_retarget(h, m, k, 0, 0, t); /* check_world compares them */
        (void)id;
      }
    }
    steer_point_set(pt, num(r), num(r));
    steer_vec2 at = steer_point_get(pt);
    CHECK(finite2(at), "shared point");
    if (pt != h->points[slot]) { /* the harness keeps the new one */
      steer_point_release(h->points[slot]);
      h->points[slot] = pt;
    } else {
      steer_point_release(pt);
    }
    break;
  }
  default: { /* a body field */
    steer_field f = (steer_field)(STEER_ANGLE + u8(r) % (STEER_FIELD_COUNT - STEER_ANGLE));
    set_body_field(r, h, i, f);
    break;
  }
  }
  for (size_t k = 0; k < h->n; k++) check_angle(h->w, k);
}
