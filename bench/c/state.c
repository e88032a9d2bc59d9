/* state.c - reading and writing boids state files. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "state.h"

int state_read(const char *path, boids_state *s) {
  memset(s, 0, sizeof *s);
  FILE *f = fopen(path, "r");
  if (!f) {
    perror(path);
    return -1;
  }
  unsigned long n;
  if (fscanf(f, "boids %lu %lf", &n, &s->L) != 2) {
    fprintf(stderr, "%s: not a boids state file\n", path);
    fclose(f);
    return -1;
  }
  s->n = n;
  double **arrays[] = {&s->x, &s->y, &s->vx, &s->vy};
  for (int k = 0; k < 4; k++) *arrays[k] = malloc(n ? n * sizeof(double) : 1);
  if (!s->x || !s->y || !s->vx || !s->vy) {
    fprintf(stderr, "%s: out of memory\n", path);
    fclose(f);
    state_free(s);
    return -1;
  }
  for (size_t i = 0; i < n; i++) {
    if (fscanf(f, "%lf %lf %lf %lf", &s->x[i], &s->y[i], &s->vx[i],
               &s->vy[i]) != 4) {
      fprintf(stderr, "%s: truncated at agent %zu\n", path, i + 1);
      fclose(f);
      state_free(s);
      return -1;
    }
  }
  fclose(f);
  return 0;
}

int state_write(const char *path, size_t n, double L, const double *x,
                const double *y, const double *vx, const double *vy) {
  FILE *f = fopen(path, "w");
  if (!f) {
    perror(path);
    return -1;
  }
  fprintf(f, "boids %zu %.17g\n", n, L);
  for (size_t i = 0; i < n; i++)
    fprintf(f, "%.17g %.17g %.17g %.17g\n", x[i], y[i], vx[i], vy[i]);
  if (fclose(f) != 0) {
    perror(path);
    return -1;
  }
  return 0;
}

void state_free(boids_state *s) {
  free(s->x), free(s->y), free(s->vx), free(s->vy);
  memset(s, 0, sizeof *s);
}
