/* bench/level/raycast.c - world:raycast's C core against a brute-force
 * scan of every wall (the same per-wall test), on random walls in a square
 * level: prints microseconds per ray of each and their ratio, after
 * checking that both give the same hits. Usage: raycast WALLS SIDE */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "geometry.h"
#include "world.h"

static uint32_t seed = 4242;
static double rnd(void) {
  seed = seed * 1103515245u + 12345u;
  return seed / 4294967296.0;
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t); /* CPU time: the machine is shared */
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
  size_t walls = argc > 1 ? (size_t)atol(argv[1]) : 10000;
  double side = argc > 2 ? atof(argv[2]) : 400;
  steer_world_def def = steer_world_def_default();
  def.width = def.height = side;
  if (argc > 3) def.cell_size = atof(argv[3]);
  steer_world *w = steer_world_create(&def);
  for (size_t k = 0; k < walls; k++) {
    double x = rnd() * side, y = rnd() * side, a = rnd() * 6.283185307179586,
           l = 1 + rnd() * 5;
    steer_world_add_wall(w, v2(x, y), v2(x + cos(a) * l, y + sin(a) * l), NULL);
  }
  size_t rays = 100000;
  double *r = malloc(sizeof(double) * 4 * rays);
  for (size_t i = 0; i < 4 * rays; i++) r[i] = rnd() * side;
  steer_ray_hit hit;
  size_t hits = 0, differ = 0;
  double t0 = now();
  for (size_t i = 0; i < rays; i++)
    hits += (size_t)steer_world_raycast(w, v2(r[4 * i], r[4 * i + 1]),
                                        v2(r[4 * i + 2], r[4 * i + 3]),
                                        STEER_RAY_WALLS, 0, &hit);
  double indexed = (now() - t0) / (double)rays * 1e6;
  size_t brute_rays = walls >= 10000 ? rays / 50 : rays;
  const geometry *g = &w->geo;
  t0 = now();
  for (size_t i = 0; i < brute_rays; i++) {
    geo_ray ray = geometry_ray(g, v2(r[4 * i], r[4 * i + 1]),
                               v2(r[4 * i + 2], r[4 * i + 3]));
    geo_hit h = geo_hit_none();
    for (size_t k = 0; k < g->wall_count; k++)
      geo_ray_segment(&ray, g->walls[k].a, g->walls[k].b, k, &h);
    int got = steer_world_raycast(w, ray.s, v2_add(ray.s, ray.d),
                                  STEER_RAY_WALLS, 0, &hit);
    if (got != (h.kind != 0) || (got && hit.fraction != h.fraction)) differ++;
  }
  double brute = (now() - t0) / (double)brute_rays * 1e6 - indexed;
  printf("C core, %zu walls: indexed %.3f us/ray, brute-force scan %.3f us/ray, "
         "ratio %.4f (%zu%% hit, %zu differ)\n",
         walls, indexed, brute, indexed / brute, 100 * hits / rays, differ);
  steer_world_destroy(w);
  free(r);
  return differ != 0;
}
