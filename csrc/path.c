/* path.c - immutable, reference-counted polylines for path following. */
#include <string.h>
#include "alloc.h"
#include "path.h"

struct steer_path {
  size_t refs;
  size_t count;
  int loop;
  contain_index *region; /* built for contain entries (path_prepare_region) */
  steer_vec2 points[]; /* count of them */
};

steer_path *steer_path_create(const steer_vec2 *points, size_t n, int loop) {
  /* states keep waypoints in 32 bits (program.h) */
  if (n == 0 || n > UINT32_MAX ||
      n > (SIZE_MAX - sizeof(steer_path)) / sizeof(steer_vec2))
    return NULL;
  steer_path *path = steer_alloc(NULL, 0, sizeof *path + n * sizeof(steer_vec2));
  if (!path) return NULL;
  path->refs = 1;
  path->count = n;
  path->loop = loop != 0;
  path->region = NULL;
  memcpy(path->points, points, n * sizeof(steer_vec2));
  return path;
}

void steer_path_retain(steer_path *path) { path->refs++; }

void steer_path_release(steer_path *path) {
  if (path && --path->refs == 0) {
    contain_index_free(path->region);
    steer_alloc(path, sizeof *path + path->count * sizeof(steer_vec2), 0);
  }
}

void path_prepare_region(steer_path *path) {
  if (!path->region) path->region = contain_index_build(path->points, path->count);
}

const contain_index *path_region(const steer_path *path) { return path->region; }

size_t steer_path_count(const steer_path *path) { return path->count; }

const steer_vec2 *path_points(const steer_path *path) { return path->points; }

steer_vec2 steer_path_point(const steer_path *path, size_t i) {
  return path->points[i];
}

int steer_path_loops(const steer_path *path) { return path->loop; }
