/* flocking.c - separation, alignment and cohesion over grid neighbors. */
#include "vec.h"
#include "world.h"

/* Sums over the neighbors j != i within `radius` (squared distance test). */
typedef struct flock_sums {
  steer_vec2 offset;   /* sum of offsets q - p */
  steer_vec2 velocity; /* sum of velocities */
  size_t count;
} flock_sums;

static flock_sums neighbor_sums(const steer_world *w, size_t i, double radius,
                                steer_stats *stats) {
  flock_sums s = {{0, 0}, {0, 0}, 0};
  size_t candidates = 0;
  steer_vec2 p = world_pos(w, i);
  double r2 = radius * radius;
  grid_cursor c;
  grid_cursor_init(&c, &w->grid, w->x, w->y, w->count, p.x, p.y, radius);
  for (int32_t j; (j = grid_cursor_next(&c)) >= 0;) {
    if ((size_t)j == i) continue;
    candidates++;
    steer_vec2 d = steer_world_offset(w, p, world_pos(w, (size_t)j));
    if (v2_len2(d) > r2) continue;
    s.offset = v2_add(s.offset, d);
    s.velocity = v2_add(s.velocity, world_vel(w, (size_t)j));
    s.count++;
  }
  if (stats) {
    stats->candidates += candidates;
    stats->neighbors += s.count;
  }
  return s;
}

steer_vec2 flock_separation(const steer_world *w, size_t i, double radius,
                            steer_stats *stats) {
  steer_vec2 p = world_pos(w, i), sum = v2(0, 0);
  double r2 = radius * radius;
  size_t count = 0, candidates = 0;
  grid_cursor c;
  grid_cursor_init(&c, &w->grid, w->x, w->y, w->count, p.x, p.y, radius);
  for (int32_t j; (j = grid_cursor_next(&c)) >= 0;) {
    if ((size_t)j == i) continue;
    candidates++;
    steer_vec2 d = steer_world_offset(w, p, world_pos(w, (size_t)j));
    double d2 = v2_len2(d);
    if (d2 > r2) continue;
    /* API.md's test is 1e-5 < d < radius on the distance itself: r*r can
       round up, so the squared test above only prefilters */
    double dist = sqrt(d2);
    if (!(dist < radius) || dist <= STEER_EPSILON) continue;
    /* normalize(p - q) / d */
    sum = v2_add(sum, v2_scale(d, -1.0 / (dist * dist)));
    count++;
  }
  if (stats) {
    stats->candidates += candidates;
    stats->neighbors += count;
  }
  return count ? v2_scale(sum, 1.0 / count) : sum;
}

steer_vec2 flock_alignment(const steer_world *w, size_t i, double radius,
                           steer_stats *stats) {
  flock_sums s = neighbor_sums(w, i, radius, stats);
  if (!s.count) return v2(0, 0);
  return v2_sub(v2_scale(s.velocity, 1.0 / s.count), world_vel(w, i));
}

steer_vec2 flock_cohesion(const steer_world *w, size_t i, double radius,
                          steer_stats *stats) {
  flock_sums s = neighbor_sums(w, i, radius, stats);
  if (!s.count) return v2(0, 0);
  steer_vec2 to_centre = v2_scale(s.offset, 1.0 / s.count);
  return v2_sub(v2_scale(v2_normalize(to_centre), w->max_speed[i]),
                world_vel(w, i));
}

steer_vec2 steer_agent_separation(const steer_world *w, size_t i,
                                  double radius) {
  return flock_separation(w, i, radius, NULL);
}

steer_vec2 steer_agent_alignment(const steer_world *w, size_t i,
                                 double radius) {
  return flock_alignment(w, i, radius, NULL);
}

steer_vec2 steer_agent_cohesion(const steer_world *w, size_t i,
                                double radius) {
  return flock_cohesion(w, i, radius, NULL);
}
