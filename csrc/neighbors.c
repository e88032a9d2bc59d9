/* neighbors.c - the flocking sums of an agent in one pass over its
 * neighbors on the world's grid.
 *
 * Every rule is a sum over the neighbors j != i of agent i; a program that
 * uses several rules gathers all their sums in one walk over the widest
 * radius. Any walk visits the neighbors of each rule in the same relative
 * order (cells row by row, then index order within a cell), so a rule's
 * sums, and its force, are the same whichever walk produced them.
 */
#include <stddef.h>
#include "neighbors.h"
#include "orientation.h"

void flock_views(const steer_world *w, size_t i, const flock_rules *q,
                 neighbor_filter view[3]) {
  double angle = 0;
  if (q->fov[0] < 360 || q->fov[1] < 360 || q->fov[2] < 360)
    angle = body_of(w, i).angle;
  for (int k = 0; k < 3; k++)
    neighbor_filter_init(&view[k], q->groups[k], q->fov[k], angle);
}

/* Any grid, any radius: the grid cursor and the world's offsets. */
static size_t gather_cursor(const steer_world *w, size_t i,
                            const flock_rules *q, flock_sums *s) {
  steer_vec2 p = world_pos(w, i);
  size_t candidates = 0;
  int filtered = q->filtered || w->ghosts;
  neighbor_filter view[3];
  if (filtered) flock_views(w, i, q, view);
  grid_cursor c;
  grid_cursor_init(&c, &w->grid, w->x, w->y, w->count, p.x, p.y, q->reach);
  for (int32_t j; (j = grid_cursor_next(&c)) >= 0;) {
    if ((size_t)j == i) continue;
    candidates++;
    steer_vec2 d = world_offset(w, p, world_pos(w, (size_t)j));
    if (filtered)
      flock_take_filtered(q, view, s, d.x, d.y, w->vx[j], w->vy[j],
                          w->group_bit[j]);
    else
      flock_take(q, s, d.x, d.y, w->vx[j], w->vy[j]);
  }
  return candidates;
}

/* Dense grids whose agents are sorted by cell (world:step sorts them) and
   radii no wider than a cell: the neighbors of an agent lie in the 3 x 3
   cells around its own, each cell a contiguous range of indices, visited
   in the cursor's order (adjacent cells of a row merge into one span). On
   a torus a cell past the edge is the one on the far side, its agents seen
   shifted by the world's size - the same image, bit for bit, as
   world_offset picks when the grid is at least 4 cells wide
   (checked by flock_fast_ok).
   A hashed grid's box (an unbounded world's crowd, grid_fit_box) holds its
   cells' buckets row by row as a dense grid does, and no agent lies
   outside it: there the rows are cut to the box. */
static int box_spans(const steer_grid *g, int32_t cx, int32_t cy,
                     flock_span out[9]) {
  int n = 0;
  int32_t b0 = g->box_x0, b1 = g->box_x0 + g->box_w - 1;
  int32_t c0 = cx - 1 < b0 ? b0 : cx - 1, c1 = cx + 1 > b1 ? b1 : cx + 1;
  for (int32_t ry = cy - 1; ry <= cy + 1 && c0 <= c1; ry++) {
    if ((uint32_t)(ry - g->box_y0) >= (uint32_t)g->box_h) continue;
    size_t base = (size_t)(ry - g->box_y0) * (size_t)g->box_w;
    flock_span s = {g->starts[base + (size_t)(c0 - b0)],
                    g->starts[base + (size_t)(c1 - b0) + 1], 0, 0};
    out[n++] = s;
  }
  return n;
}

int flock_spans(const steer_world *w, int32_t cx, int32_t cy,
                flock_span out[9]) {
  const steer_grid *g = &w->grid;
  int n = 0;
  if (!g->dense) return box_spans(g, cx, cy, out);
  if (cx > 0 && cx < g->ncx - 1 && cy > 0 && cy < g->ncy - 1) {
    /* away from the edges: each row of three cells is one span */
    size_t b = (size_t)cy * (size_t)g->ncx + (size_t)cx;
    for (int r = -1; r <= 1; r++) {
      size_t row = b + (size_t)((ptrdiff_t)r * g->ncx);
      flock_span s = {g->starts[row - 1], g->starts[row + 2], 0, 0};
      out[n++] = s;
    }
    return n;
  }
  for (int32_t ry = cy - 1; ry <= cy + 1; ry++) {
    int32_t row = ry;
    double sy = 0;
    if (row < 0 || row >= g->ncy) {
      if (g->mode != GRID_WRAP) continue;
      sy = row < 0 ? -w->def.height : w->def.height;
      row = row < 0 ? row + g->ncy : row - g->ncy;
    }
    int first = n;
    for (int32_t rx = cx - 1; rx <= cx + 1; rx++) {
      int32_t col = rx;
      double sx = 0;
      if (col < 0 || col >= g->ncx) {
        if (g->mode != GRID_WRAP) continue;
        sx = col < 0 ? -w->def.width : w->def.width;
        col = col < 0 ? col + g->ncx : col - g->ncx;
      }
      size_t b = (size_t)row * (size_t)g->ncx + (size_t)col;
      size_t from = g->starts[b], to = g->starts[b + 1];
      if (n > first && out[n - 1].to == from && out[n - 1].sx == sx) {
        out[n - 1].to = to; /* continues the previous cell */
      } else {
        flock_span s = {from, to, sx, sy};
        out[n++] = s;
      }
    }
  }
  return n;
}

/* flock_span_walk for separation alone (no filter): flock_take's
   separation on the same numbers in the same order, its sums held in
   locals (the common walk reads only positions, and most candidates lie
   beyond the radius). */
static size_t separation_walk(const steer_world *w, size_t i,
                              const flock_rules *q, const flock_span *spans,
                              int n, flock_sums *s) {
  const double *x = w->x, *y = w->y;
  double px = x[i], py = y[i], hi = q->sep_hi, lo = q->sep_lo;
  double sx = s->sep.x, sy = s->sep.y;
  size_t count = s->sep_n, candidates = 0;
  for (int k = 0; k < n; k++) {
    double shift_x = spans[k].sx, shift_y = spans[k].sy;
    for (size_t j = spans[k].from; j < spans[k].to; j++) {
      double dx = (x[j] - px) + shift_x, dy = (y[j] - py) + shift_y;
      double d2 = dx * dx + dy * dy;
      if (d2 <= hi && d2 > lo && j != i) {
        double inv = 1.0 / d2;
        sx -= dx * inv;
        sy -= dy * inv;
        count++;
      }
    }
    candidates += spans[k].to - spans[k].from;
  }
  s->sep.x = sx;
  s->sep.y = sy;
  s->sep_n = count;
  return candidates - 1; /* not itself */
}

size_t flock_span_walk(const steer_world *w, size_t i, const flock_rules *q,
                       const flock_span *spans, int n, flock_sums *s) {
  double px = w->x[i], py = w->y[i];
  size_t candidates = 0;
  if (q->filtered || w->ghosts) { /* hoisted: the common walk tests nothing */
    neighbor_filter view[3];
    flock_views(w, i, q, view);
    for (int k = 0; k < n; k++) {
      for (size_t j = spans[k].from; j < spans[k].to; j++) {
        if (j == i) continue;
        flock_take_filtered(q, view, s, (w->x[j] - px) + spans[k].sx,
                            (w->y[j] - py) + spans[k].sy, w->vx[j], w->vy[j],
                            w->group_bit[j]);
      }
      candidates += spans[k].to - spans[k].from;
    }
    return candidates - 1;
  }
  if (q->ali2 < 0 && q->coh2 < 0) return separation_walk(w, i, q, spans, n, s);
  for (int k = 0; k < n; k++) {
    for (size_t j = spans[k].from; j < spans[k].to; j++) {
      if (j == i) continue;
      flock_take(q, s, (w->x[j] - px) + spans[k].sx,
                 (w->y[j] - py) + spans[k].sy, w->vx[j], w->vy[j]);
    }
    candidates += spans[k].to - spans[k].from;
  }
  return candidates - 1; /* not itself */
}

static size_t gather_sorted(const steer_world *w, size_t i,
                            const flock_rules *q, flock_sums *s) {
  int32_t cx, cy;
  flock_span spans[9];
  grid_cell_of(&w->grid, w->x[i], w->y[i], &cx, &cy);
  return flock_span_walk(w, i, q, spans, flock_spans(w, cx, cy, spans), s);
}

int flock_fast_ok(const steer_world *w, const flock_rules *q) {
  const steer_grid *g = &w->grid;
  if (!g->sorted || (!g->dense && g->box_w <= 0)) return 0;
  if (q->reach * g->inv_x > 1 || q->reach * g->inv_y > 1) return 0;
  return g->mode != GRID_WRAP || (g->ncx >= 4 && g->ncy >= 4);
}

void flock_gather(const steer_world *w, size_t i, const flock_rules *q,
                  int fast, flock_sums *s, steer_stats *stats) {
  flock_sums zero = {{0, 0}, {0, 0}, {0, 0}, 0, 0, 0};
  *s = zero;
  size_t candidates = fast ? gather_sorted(w, i, q, s)
                           : gather_cursor(w, i, q, s);
  if (stats) {
    stats->candidates += candidates;
    stats->neighbors += s->sep_n + s->ali_n + s->coh_n;
  }
}

steer_vec2 flock_entry_alone(const steer_world *w, size_t i,
                             const steer_entry *e, steer_stats *stats) {
  flock_rules q;
  flock_sums s;
  steer_behavior b = e->behavior;
  flock_rules_init(&q, b == STEER_SEPARATION ? e->radius : -1,
                   b == STEER_ALIGNMENT ? e->radius : -1,
                   b == STEER_COHESION ? e->radius : -1);
  flock_rules_filter(&q, (int)(b - STEER_SEPARATION), e->groups, e->fov,
                     e->falloff);
  flock_gather(w, i, &q, flock_fast_ok(w, &q), &s, stats);
  return flock_force(w, i, e, &s);
}

steer_vec2 flock_force(const steer_world *w, size_t i, const steer_entry *e,
                       const flock_sums *s) {
  if (e->behavior == STEER_SEPARATION && e->falloff == STEER_FALLOFF_LINEAR)
    return flock_separation_linear(s, w->max_force[i]);
  return flock_rule_force(e->behavior, s, world_vel(w, i), w->max_speed[i]);
}

steer_vec2 flock_rule_alone(const steer_world *w, size_t i, steer_behavior b,
                            double radius, steer_stats *stats) {
  flock_rules q;
  flock_sums s;
  flock_rules_init(&q, b == STEER_SEPARATION ? radius : -1,
                   b == STEER_ALIGNMENT ? radius : -1,
                   b == STEER_COHESION ? radius : -1);
  flock_gather(w, i, &q, flock_fast_ok(w, &q), &s, stats);
  return flock_rule_force(b, &s, world_vel(w, i), w->max_speed[i]);
}

steer_vec2 steer_agent_separation(const steer_world *w, size_t i,
                                  double radius) {
  return flock_rule_alone(w, i, STEER_SEPARATION, radius, NULL);
}

steer_vec2 steer_agent_alignment(const steer_world *w, size_t i,
                                 double radius) {
  return flock_rule_alone(w, i, STEER_ALIGNMENT, radius, NULL);
}

steer_vec2 steer_agent_cohesion(const steer_world *w, size_t i,
                                double radius) {
  return flock_rule_alone(w, i, STEER_COHESION, radius, NULL);
}

steer_vec2 steer_agent_flock(const steer_world *w, size_t i,
                             const steer_entry *e) {
  if (e->behavior != STEER_SEPARATION && e->behavior != STEER_ALIGNMENT &&
      e->behavior != STEER_COHESION)
    return v2(0, 0);
  return flock_entry_alone(w, i, e, NULL);
}
