/* nav_ops.h - navigation grids, paths and flow fields (part of
 * fuzz_core.c): a random grid (1x1 to 16x16, all blocked to all open,
 * costs up to 1e9), paths between random points checked against a brute
 * force Dijkstra, an inflated copy (steer_navgrid_inflated) against a
 * brute force, a flow field toward random goals (outside the grid and
 * on blocked cells too) with set_cost, staleness, update and goals moved
 * (set_goals), and the flow force on the harness's agents. The
 * process-wide allocator may fail: STEER_ENOMEM must then leave the grid
 * and the field as they were. */

#define NAV_MAX_SIDE 16
#define NAV_MAX_CELLS (NAV_MAX_SIDE * NAV_MAX_SIDE)

static double nav_cost(reader *r) {
  switch (u8(r) % 6) {
  case 0:
  case 1: return 0;
  case 2: return 1 + u8(r) / 16.0;
  case 3: return (u8(r) & 1) ? 1e9 : 1 + u16(r);
  default: return 1;
  }
}

/* The cheapest cost from cell s to every cell by plain Dijkstra (no heap),
   with the rules written out again; -1 where unreachable. */
static void nav_oracle(const double *cost, int W, int H, int s, int diagonal,
                       double *dist) {
  int done[NAV_MAX_CELLS] = {0};
  for (int k = 0; k < W * H; k++) dist[k] = -1;
  dist[s] = 0;
  for (;;) {
    int best = -1;
    for (int k = 0; k < W * H; k++)
      if (!done[k] && dist[k] >= 0 && (best < 0 || dist[k] < dist[best])) best = k;
    if (best < 0) return;
    done[best] = 1;
    int x = best % W, y = best / W;
    for (int dy = -1; dy <= 1; dy++)
      for (int dx = -1; dx <= 1; dx++) {
        int nx = x + dx, ny = y + dy, diag = dx && dy;
        if ((!dx && !dy) || (diag && !diagonal)) continue;
        if (nx < 0 || ny < 0 || nx >= W || ny >= H || cost[ny * W + nx] <= 0) continue;
        if (diag && (cost[y * W + nx] <= 0 || cost[ny * W + x] <= 0)) continue;
        int k = ny * W + nx;
        double d = dist[best] + cost[k] * (diag ? 1.4142135623730951 : 1);
        if (!done[k] && (dist[k] < 0 || d < dist[k])) dist[k] = d;
      }
  }
}

/* A world point: a cell centre, a point inside, or anywhere at all. */
static steer_vec2 nav_point(reader *r, const steer_navgrid *g) {
  int W = steer_navgrid_width(g), H = steer_navgrid_height(g);
  steer_vec2 p;
  switch (u8(r) % 4) {
  case 0:
  case 1: return steer_navgrid_center_of(g, u8(r) % W, u8(r) % H);
  case 2: {
    steer_vec2 o = steer_navgrid_origin(g);
    double s = steer_navgrid_cell_size(g);
    p.x = o.x + (u8(r) / 255.0) * W * s;
    p.y = o.y + (u8(r) / 255.0) * H * s;
    return p;
  }
  default:
    p.x = num(r);
    p.y = num(r);
    return p;
  }
}

static void nav_check_path(reader *r, steer_navgrid *g, const double *cost) {
  int W = steer_navgrid_width(g), H = steer_navgrid_height(g);
  steer_vec2 a = nav_point(r, g), b = nav_point(r, g);
  int flags = u8(r), smooth = flags & 1, diagonal = (u8(r) % 4) != 0;
  /* a clearance of up to 0.6 cells, or none through the older call */
  double clearance = (flags & 2) ? u8(r) / 255.0 * 0.6 * steer_navgrid_cell_size(g) : 0;
  steer_path *path;
  double length, c;
  steer_nav_failure why;
  steer_status s =
      (flags & 2) ? steer_navgrid_path_clearance(g, a, b, smooth, diagonal, clearance,
                                                 &path, &length, &c, &why)
                  : steer_navgrid_path(g, a, b, smooth, diagonal, &path, &length, &c, &why);
  if (s == STEER_ENOMEM) {
    CHECK(global_alloc.odds != 0, "nav path: ENOMEM from a working allocator");
    return;
  }
  int ax, ay, bx, by;
  int ina = steer_navgrid_cell_of(g, a, &ax, &ay), inb = steer_navgrid_cell_of(g, b, &bx, &by);
  double dist[NAV_MAX_CELLS];
  if (ina && inb && cost[ay * W + ax] > 0) nav_oracle(cost, W, H, ay * W + ax, diagonal, dist);
  if (why) {
    CHECK(!path, "nav path: a failure with a path");
    if (why == STEER_NAV_UNREACHABLE)
      CHECK(dist[by * W + bx] < 0, "nav path: 'no path' where brute force finds %g",
            dist[by * W + bx]);
    return;
  }
  CHECK(path && ina && inb, "nav path: found without a path or outside");
  double s_ = steer_navgrid_cell_size(g);
  /* the exact endpoints add at most half a cell's diagonal at each end */
  CHECK(isfinite(length) && isfinite(c) && length >= 0 &&
            length <= (c + 1.4142135623730951 * s_) * (1 + 1e-9),
        "nav path: length %g, cost %g", length, c);
  steer_vec2 first = steer_path_point(path, 0);
  steer_vec2 last = steer_path_point(path, steer_path_count(path) - 1);
  CHECK(first.x == a.x && first.y == a.y && last.x == b.x && last.y == b.y,
        "nav path: does not start at from and end at to");
  CHECK(fabs(c - dist[by * W + bx] * s_) <= 1e-9 * fmax(c, 1e-300) + 1e-300,
        "nav path: cost %.17g, brute force %.17g", c, dist[by * W + bx] * s_);
  for (size_t k = 0; k < steer_path_count(path); k++) {
    int cx, cy;
    steer_vec2 q = steer_path_point(path, k);
    CHECK(steer_navgrid_cell_of(g, q, &cx, &cy) && cost[cy * W + cx] > 0,
          "nav path: waypoint %zu on a blocked cell", k);
    if (k > 0) {
      int px, py;
      steer_navgrid_cell_of(g, steer_path_point(path, k - 1), &px, &py);
      CHECK(steer_navgrid_line_of_sight(g, px, py, cx, cy),
            "nav path: segment %zu crosses a blocked cell", k);
    }
  }
  steer_path_release(path);
}

/* Every cell's distance, for comparing a field before and after. */
static void nav_distances(const steer_flowfield *f, const steer_navgrid *g,
                          double *out) {
  int W = steer_navgrid_width(g), H = steer_navgrid_height(g);
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      out[y * W + x] = steer_flowfield_distance(f, steer_navgrid_center_of(g, x, y));
}

/* The goals move (steer_flowfield_set_goals), a few times: the field then
   equals a new one toward the same goals, cell for cell; a failure
   (STEER_ENOMEM) changes nothing. The flow force stays bounded. */
static void nav_check_set_goals(reader *r, harness *h, steer_navgrid *g,
                                steer_flowfield *f) {
  int W = steer_navgrid_width(g), H = steer_navgrid_height(g);
  double before[NAV_MAX_CELLS], after[NAV_MAX_CELLS], fresh[NAV_MAX_CELLS];
  for (int round = 0, rounds = u8(r) % 4; round < rounds; round++) {
    steer_vec2 goals[5];
    size_t n = 1 + u8(r) % 5;
    for (size_t k = 0; k < n; k++) goals[k] = nav_point(r, g);
    nav_distances(f, g, before);
    int stale = steer_flowfield_stale(f);
    steer_status s = steer_flowfield_set_goals(f, goals, n);
    DEBUG("set_goals: %zu goals%s\n", n, s == STEER_ENOMEM ? ": ENOMEM" : "");
    nav_distances(f, g, after);
    if (s == STEER_ENOMEM) {
      CHECK(global_alloc.odds != 0, "set_goals: ENOMEM from a working allocator");
      CHECK(steer_flowfield_stale(f) == stale &&
                memcmp(before, after, sizeof(double) * (size_t)(W * H)) == 0,
            "set_goals: a failed call changed the field");
      continue;
    }
    CHECK(s == STEER_OK && !steer_flowfield_stale(f), "set_goals: status %d", (int)s);
    steer_flowfield *made = steer_flowfield_create(g, goals, n);
    if (made) {
      nav_distances(made, g, fresh);
      CHECK(memcmp(fresh, after, sizeof(double) * (size_t)(W * H)) == 0,
            "set_goals: the field differs from a new one toward its goals");
      steer_flowfield_release(made);
    }
    for (size_t i = 0; i < h->n && i < 4; i++) {
      long k = steer_world_index(h->w, h->ag[i].id);
      if (k < 0) continue;
      steer_vec2 force = steer_agent_flow(h->w, (size_t)k, f, nonneg(r));
      check_bound("flow force after set_goals", force,
                  steer_agent_get(h->w, (size_t)k, STEER_MAX_FORCE));
    }
  }
}

/* A world of its own whose agents follow f (snapshot version 12), f made
   stale by a cost change or not: restore(snapshot(w)) snapshots to the
   same bytes, its field reads as f does, cell by cell, is stale as f is,
   and the two worlds step alike. */
static void nav_check_snapshot(reader *r, steer_navgrid *g, steer_flowfield *f,
                               double *cost) {
  int W = steer_navgrid_width(g), H = steer_navgrid_height(g);
  if (u8(r) % 2) {
    int cx = u8(r) % W, cy = u8(r) % H;
    cost[cy * W + cx] = nav_cost(r);
    steer_navgrid_set_cost(g, cx, cy, cost[cy * W + cx]);
  }
  global_alloc.paused++;
  steer_world_def def = steer_world_def_default();
  steer_world *w = steer_world_create(&def);
  CHECK(w != NULL, "flow snapshot: world");
  steer_entry e[2] = {steer_entry_default(STEER_FLOW),
                      steer_entry_default(STEER_SEPARATION)};
  e[0].target.kind = STEER_TARGET_FLOW;
  e[0].target.field = f;
  e[0].slowing_radius = u8(r) % 3;
  steer_program *p = steer_program_create(STEER_WEIGHTED, -1, 0, e,
                                          1 + (size_t)(u8(r) % 2));
  CHECK(p != NULL, "flow snapshot: program");
  for (int k = 0, n = 1 + u8(r) % 4; k < n; k++) {
    steer_agent_def a = steer_agent_def_default();
    steer_vec2 at = nav_point(r, g);
    a.x = at.x;
    a.y = at.y;
    a.max_speed = 2;
    a.max_force = 4;
    CHECK(steer_world_add(w, &a, NULL) == STEER_OK, "flow snapshot: add");
    CHECK(steer_agent_set_program(w, (size_t)k, p) == STEER_OK, "flow snapshot: program");
  }
  steer_program_release(p);
  CHECK(steer_world_step(w, 0.1) == STEER_OK, "flow snapshot: step");
  steer_world *c = restored_same_bytes(w, "flow fields");
  const steer_flowfield *rf = steer_program_entry(steer_agent_program(c, 0), 0)->target.field;
  CHECK(rf != f && steer_flowfield_stale(rf) == steer_flowfield_stale(f),
        "flow snapshot: the restored field is f itself, or not stale as f is");
  double want[NAV_MAX_CELLS], got[NAV_MAX_CELLS];
  nav_distances(f, g, want);
  nav_distances(rf, steer_flowfield_grid(rf), got);
  CHECK(memcmp(want, got, sizeof(double) * (size_t)(W * H)) == 0,
        "flow snapshot: the restored field reads apart");
  for (int k = 0; k < 2; k++) {
    CHECK(steer_world_step(w, 0.1) == STEER_OK && steer_world_step(c, 0.1) == STEER_OK,
          "flow snapshot: step");
    for (size_t i = 0; i < steer_world_count(w); i++) {
      steer_vec2 a = steer_agent_position(w, i), b = steer_agent_position(c, i);
      CHECK(a.x == b.x && a.y == b.y, "flow snapshot: agent %zu steps apart", i);
    }
  }
  steer_world_destroy(c);
  steer_world_destroy(w);
  global_alloc.paused--;
}

static void nav_check_field(reader *r, harness *h, steer_navgrid *g,
                            double *cost) {
  int W = steer_navgrid_width(g), H = steer_navgrid_height(g);
  steer_vec2 goals[3];
  size_t n = 1 + u8(r) % 3;
  for (size_t k = 0; k < n; k++) goals[k] = nav_point(r, g);
  steer_flowfield *f = steer_flowfield_create(g, goals, n);
  if (!f) {
    CHECK(global_alloc.odds != 0, "flow field: NULL from a working allocator");
    return;
  }
  double before[NAV_MAX_CELLS], after[NAV_MAX_CELLS];
  nav_distances(f, g, before);
  for (int k = 0; k < W * H; k++) {
    CHECK(before[k] == -1 || (isfinite(before[k]) && before[k] >= 0),
          "flow field: distance %g", before[k]);
    if (cost[k] <= 0) CHECK(before[k] == -1, "flow field: a blocked cell has a distance");
    steer_vec2 d = steer_flowfield_direction(f, steer_navgrid_center_of(g, k % W, k / W));
    double l = d.x * d.x + d.y * d.y;
    CHECK(l == 0 || fabs(l - 1) < 1e-9, "flow field: direction of length^2 %g", l);
  }
  /* the force on the harness's agents wherever they are */
  for (size_t i = 0; i < h->n && i < 8; i++) {
    long k = steer_world_index(h->w, h->ag[i].id);
    if (k < 0) continue;
    double slowing = nonneg(r);
    steer_vec2 force = steer_agent_flow(h->w, (size_t)k, f, slowing);
    check_bound("flow force", force,
                steer_agent_get(h->w, (size_t)k, STEER_MAX_FORCE));
  }
  /* a cost changes: stale until updated; a failed update changes nothing */
  int cx = u8(r) % W, cy = u8(r) % H;
  double c = nav_cost(r);
  steer_navgrid_set_cost(g, cx, cy, c);
  cost[cy * W + cx] = c;
  CHECK(steer_flowfield_stale(f), "flow field: not stale after set_cost");
  steer_status s = steer_flowfield_update(f);
  nav_distances(f, g, after);
  if (s == STEER_ENOMEM) {
    CHECK(global_alloc.odds != 0, "flow update: ENOMEM from a working allocator");
    CHECK(steer_flowfield_stale(f) &&
              memcmp(before, after, sizeof(double) * (size_t)(W * H)) == 0,
          "flow update: a failed update changed the field");
  } else {
    CHECK(!steer_flowfield_stale(f), "flow field: stale after update");
    for (int k = 0; k < W * H; k++)
      if (cost[k] <= 0) CHECK(after[k] == -1, "flow update: a blocked cell has a distance");
  }
  nav_check_set_goals(r, h, g, f);
  nav_check_snapshot(r, g, f, cost);
  steer_flowfield_release(f);
}

/* steer_navgrid_inflated with a radius of a few cells (half and whole
   cells, hairs beside them, anything) or any number of the domain, edges
   or not: the new grid has g's shape, its cells match a brute force
   written from the definition (an open cell is blocked when its centre is
   closer than the radius to a blocked cell's square, or with edges to the
   grid's outside), g is unchanged. NULL only from a failing allocator. */
static void nav_check_inflated(reader *r, steer_navgrid *g, const double *cost) {
  int W = steer_navgrid_width(g), H = steer_navgrid_height(g);
  double s = steer_navgrid_cell_size(g);
  double cells;
  switch (u8(r) % 4) {
  case 0: cells = (u8(r) % 8) * 0.5; break;
  case 1: cells = (u8(r) % 8) * 0.5 * (u8(r) & 1 ? 1 + 1e-12 : 1 - 1e-12); break;
  case 2: cells = u16(r) / 4096.0; break;
  default: cells = nonneg(r) / s; break;
  }
  double radius = fmin(cells * s, STEER_LIMIT);
  int edges = u8(r) & 1;
  steer_navgrid *big = steer_navgrid_inflated(g, radius, edges);
  DEBUG("inflated by %g (edges %d)%s\n", radius, edges, big ? "" : ": NULL");
  for (int k = 0; k < W * H; k++)
    CHECK(steer_navgrid_cost(g, k % W, k / W) == cost[k], "inflated: g changed");
  if (!big) {
    CHECK(global_alloc.odds != 0, "inflated: NULL from a working allocator");
    return;
  }
  steer_vec2 o = steer_navgrid_origin(g), bo = steer_navgrid_origin(big);
  CHECK(steer_navgrid_width(big) == W && steer_navgrid_height(big) == H &&
            steer_navgrid_cell_size(big) == s && bo.x == o.x && bo.y == o.y,
        "inflated: another shape");
  double rc = radius / s;
  for (int k = 0; k < W * H; k++) {
    double x = k % W + 0.5, y = k / W + 0.5, want = cost[k];
    for (int j = 0; j < W * H && want > 0; j++) {
      if (cost[j] > 0) continue;
      double bx = j % W, by = j / W;
      double dx = fmax(fmax(bx - x, 0), x - bx - 1);
      double dy = fmax(fmax(by - y, 0), y - by - 1);
      if (dx * dx + dy * dy < rc * rc) want = 0;
    }
    double e = fmin(fmin(x, W - x), fmin(y, H - y));
    if (edges && e * e < rc * rc) want = 0;
    CHECK(steer_navgrid_cost(big, k % W, k / W) == want,
          "inflated: cell %d costs %g, brute force %g (radius %.17g cells)", k,
          steer_navgrid_cost(big, k % W, k / W), want, rc);
  }
  steer_navgrid_release(big);
}

static void op_nav(reader *r, harness *h) {
  int W = 1 + u8(r) % NAV_MAX_SIDE, H = 1 + u8(r) % NAV_MAX_SIDE;
  double cost[NAV_MAX_CELLS];
  int open = u8(r) % 4; /* 0: all blocked, 1: all open, else drawn */
  for (int k = 0; k < W * H; k++) cost[k] = open == 0 ? 0 : open == 1 ? 1 : nav_cost(r);
  /* the whole grid within the limit, its cells wide enough beside the
     origin that each centre lies in its own cell (a cell far narrower than
     the origin's last digit cannot be told from its neighbors) */
  double s = fmin(fmax(extent(r), 1e-290), STEER_LIMIT / 32);
  double far = fmin(s * 1e6, 1e149);
  steer_vec2 o = {fmax(fmin(num(r), far), -far), fmax(fmin(num(r), far), -far)};
  steer_navgrid *g = steer_navgrid_create(W, H, s, o, cost);
  DEBUG("navgrid %d x %d, cell %g%s\n", W, H, s, g ? "" : ": ENOMEM");
  if (!g) {
    CHECK(global_alloc.odds != 0, "navgrid: NULL from a working allocator");
    return;
  }
  for (int k = 0, n = 1 + u8(r) % 4; k < n; k++) nav_check_path(r, g, cost);
  nav_check_inflated(r, g, cost);
  nav_check_field(r, h, g, cost);
  nav_check_path(r, g, cost); /* after set_cost */
  steer_navgrid_release(g);
}
