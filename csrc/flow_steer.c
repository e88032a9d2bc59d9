/* flow_steer.c - an agent's force along a flow field: one at a time
 * (flow_force), or two at a time in SSE2 lanes (flow_force_many), which
 * run flow_sample's and flow_force's common path operation for operation
 * and leave every rare branch to the scalar code. */
#include "navgrid.h"
#include "vec.h"
#include "pair_math.h"

steer_vec2 flow_force(const steer_flowfield *f, steer_vec2 p, steer_vec2 v,
                      double max_speed, double max_force,
                      double slowing_radius) {
  if (!f->reachable_any) return v2(0, 0);
  steer_vec2 dir;
  double dist;
  long cell;
  int kind = flow_sample(f, p, &dir, &dist, &cell);
  if (kind == 1 && dist == 0) { /* a goal cell: arrive at its goal */
    for (size_t q = 0; q < f->goal_count; q++)
      if (f->goal_cells[q] == cell)
        return steer_arrive(p, v, f->goals[q], max_speed, max_force,
                            slowing_radius);
  }
  double speed = max_speed;
  if (kind == 1 && slowing_radius > 0) {
    double d = dist * f->grid->cell_size;
    if (d < slowing_radius) speed = max_speed * (d / slowing_radius);
  }
  return v2_clamp(v2(dir.x * speed - v.x, dir.y * speed - v.y), max_force);
}

steer_vec2 steer_agent_flow(const steer_world *w, size_t i,
                            const steer_flowfield *f, double slowing_radius) {
  return flow_force(f, steer_agent_position(w, i), steer_agent_velocity(w, i),
                    steer_agent_get(w, i, STEER_MAX_SPEED),
                    steer_agent_get(w, i, STEER_MAX_FORCE), slowing_radius);
}

#if defined(__SSE2__)
/* A lane's cells (flow_blend_cells_of), when it is on a reachable cell
   that is not a goal. */
static int lane_cells_of(const steer_flowfield *f, int x, int y, double u,
                         double v, flow_blend_cells *c) {
  long at = (long)y * f->grid->width + x;
  if (!(f->cells[at].dist > 0)) return 0; /* a goal, blocked or unreachable */
  *c = flow_blend_cells_of(f, at, u, v);
  return 1;
}

/* The neighbor's dx, dy, dist of both lanes (0 where it does not join). */
static void lane_load(const flow_cell *a, const flow_cell *b, __m128d *dx,
                      __m128d *dy, __m128d *dist, __m128d *on) {
  *dx = _mm_set_pd(b ? b->dx : 0, a ? a->dx : 0);
  *dy = _mm_set_pd(b ? b->dy : 0, a ? a->dy : 0);
  *dist = _mm_set_pd(b ? b->dist : 0, a ? a->dist : 0);
  *on = _mm_cmpneq_pd(_mm_set_pd(b != NULL, a != NULL), _mm_setzero_pd());
}

/* Adds a neighbor with weight wn where it joins (FLOW_BLEND). */
static void lane_blend(const flow_cell *a, const flow_cell *b, __m128d wn,
                       __m128d *bx, __m128d *by, __m128d *bd, __m128d *bw) {
  __m128d dx, dy, dist, on;
  lane_load(a, b, &dx, &dy, &dist, &on);
  *bx = pair_select(on, _mm_add_pd(*bx, _mm_mul_pd(wn, dx)), *bx);
  *by = pair_select(on, _mm_add_pd(*by, _mm_mul_pd(wn, dy)), *by);
  *bd = pair_select(on, _mm_add_pd(*bd, _mm_mul_pd(wn, dist)), *bd);
  *bw = pair_select(on, _mm_add_pd(*bw, wn), *bw);
}

/* Agents k and k + 1 on the common path: inside the grid (not on its far
   edges, which the scalar code folds into the last column and row) on
   reachable non-goal cells, a blend neither cancelling out nor tiny, no clamp's rare
   branch. Returns 0, writing nothing, when either lane leaves it. */
static int pair_force(const steer_flowfield *f, const double *px,
                      const double *py, const double *vx, const double *vy,
                      const double *max_speed, const double *max_force,
                      double slowing_radius, steer_vec2 *out) {
  const steer_navgrid *g = f->grid;
  __m128d one = _mm_set1_pd(1), zero = _mm_setzero_pd();
  __m128d cs = _mm_set1_pd(g->cell_size);
  __m128d qx = _mm_div_pd(_mm_sub_pd(_mm_loadu_pd(px), _mm_set1_pd(g->origin.x)), cs);
  __m128d qy = _mm_div_pd(_mm_sub_pd(_mm_loadu_pd(py), _mm_set1_pd(g->origin.y)), cs);
  __m128d inside = _mm_and_pd(
      _mm_and_pd(_mm_cmpge_pd(qx, zero), _mm_cmpge_pd(qy, zero)),
      _mm_and_pd(_mm_cmplt_pd(qx, _mm_set1_pd(g->width)),
                 _mm_cmplt_pd(qy, _mm_set1_pd(g->height))));
  if (_mm_movemask_pd(inside) != 3) return 0;
  __m128i ix = _mm_cvttpd_epi32(qx), iy = _mm_cvttpd_epi32(qy);
  __m128d u = _mm_sub_pd(_mm_sub_pd(qx, _mm_cvtepi32_pd(ix)), _mm_set1_pd(0.5));
  __m128d v = _mm_sub_pd(_mm_sub_pd(qy, _mm_cvtepi32_pd(iy)), _mm_set1_pd(0.5));
  double us[2], vs[2];
  _mm_storeu_pd(us, u);
  _mm_storeu_pd(vs, v);
  flow_blend_cells c0, c1;
  if (!lane_cells_of(f, _mm_cvtsi128_si32(ix), _mm_cvtsi128_si32(iy), us[0],
                     vs[0], &c0) ||
      !lane_cells_of(f, _mm_cvtsi128_si32(_mm_shuffle_epi32(ix, 1)),
                     _mm_cvtsi128_si32(_mm_shuffle_epi32(iy, 1)), us[1],
                     vs[1], &c1))
    return 0;
  __m128d sign = _mm_set1_pd(-0.0);
  __m128d wx = _mm_andnot_pd(sign, u), wy = _mm_andnot_pd(sign, v);
  __m128d ox = _mm_sub_pd(one, wx), oy = _mm_sub_pd(one, wy);
  __m128d w0 = _mm_mul_pd(ox, oy);
  __m128d bx = _mm_mul_pd(w0, _mm_set_pd(c1.own->dx, c0.own->dx));
  __m128d by = _mm_mul_pd(w0, _mm_set_pd(c1.own->dy, c0.own->dy));
  __m128d bd = _mm_mul_pd(w0, _mm_set_pd(c1.own->dist, c0.own->dist));
  __m128d bw = w0;
  lane_blend(c0.side_x, c1.side_x, _mm_mul_pd(wx, oy), &bx, &by, &bd, &bw);
  lane_blend(c0.side_y, c1.side_y, _mm_mul_pd(ox, wy), &bx, &by, &bd, &bw);
  lane_blend(c0.diag, c1.diag, _mm_mul_pd(wx, wy), &bx, &by, &bd, &bw);
  /* a blend that cancels out takes the cell's own direction: rare */
  __m128d rare = _mm_setzero_pd(), l2;
  __m128d dirx = bx, diry = by;
  pair_normalize(&dirx, &diry, &l2, &rare);
  rare = _mm_or_pd(rare, _mm_cmple_pd(l2, _mm_set1_pd(1e-12)));
  __m128d dist = _mm_div_pd(bd, bw);
  rare = _mm_or_pd(rare, _mm_cmpeq_pd(dist, zero)); /* a goal */
  __m128d ms = _mm_loadu_pd(max_speed), speed = ms;
  if (slowing_radius > 0) {
    __m128d sr = _mm_set1_pd(slowing_radius);
    __m128d d = _mm_mul_pd(dist, cs);
    __m128d near = _mm_cmplt_pd(d, sr);
    if (_mm_movemask_pd(near))
      speed = pair_select(near, _mm_mul_pd(ms, _mm_div_pd(d, sr)), ms);
  }
  __m128d fx = _mm_sub_pd(_mm_mul_pd(dirx, speed), _mm_loadu_pd(vx));
  __m128d fy = _mm_sub_pd(_mm_mul_pd(diry, speed), _mm_loadu_pd(vy));
  pair_clamp(&fx, &fy, _mm_loadu_pd(max_force), &rare);
  if (_mm_movemask_pd(rare)) return 0;
  double ox_[2], oy_[2];
  _mm_storeu_pd(ox_, fx);
  _mm_storeu_pd(oy_, fy);
  out[0] = v2(ox_[0], oy_[0]);
  out[1] = v2(ox_[1], oy_[1]);
  return 1;
}
#endif

void flow_force_many(const steer_flowfield *f, int n, const double *px,
                     const double *py, const double *vx, const double *vy,
                     const double *max_speed, const double *max_force,
                     double slowing_radius, steer_vec2 *out) {
  int k = 0;
#if defined(__SSE2__)
  if (f->reachable_any)
    for (; k + 1 < n; k += 2)
      if (!pair_force(f, px + k, py + k, vx + k, vy + k, max_speed + k,
                      max_force + k, slowing_radius, out + k))
        for (int l = k; l < k + 2; l++)
          out[l] = flow_force(f, v2(px[l], py[l]), v2(vx[l], vy[l]),
                              max_speed[l], max_force[l], slowing_radius);
#endif
  for (; k < n; k++)
    out[k] = flow_force(f, v2(px[k], py[k]), v2(vx[k], vy[k]), max_speed[k],
                        max_force[k], slowing_radius);
}
