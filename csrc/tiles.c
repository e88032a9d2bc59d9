/* tiles.c - the boundary of a tile map's solid tiles as merged wall
 * segments (geometry.h). */
#include "geometry.h"

static int solid_at(const unsigned char *solid, size_t w, size_t h, long c,
                    long r) {
  if (c < 0 || r < 0 || (size_t)c >= w || (size_t)r >= h) return 0;
  return solid[(size_t)r * w + (size_t)c] != 0;
}

/* Emits segment a-b as number *n (when it fits); none when rounding far
   from the origin made it a point (no wall has zero length). */
static void emit(steer_vec2 *out, size_t cap, size_t *n, steer_vec2 a,
                 steer_vec2 b) {
  if (a.x == b.x && a.y == b.y) return;
  if (out && *n < cap) {
    out[2 * *n] = a;
    out[2 * *n + 1] = b;
  }
  (*n)++;
}

/* Along each grid line, runs of unit edges with the solid tile on the same
   side become one segment; a run ends where the side or the edge ends. */
size_t geo_walls_from_tiles(const unsigned char *solid, size_t w, size_t h,
                            double cell, double ox, double oy,
                            steer_vec2 *out, size_t cap) {
  size_t n = 0;
  if (w == 0 || h == 0) return 0; /* no tiles: no walls, at once however long a side */
  /* horizontal lines y = oy + r * cell between rows r - 1 and r */
  for (long r = 0; r <= (long)h; r++) {
    double y = oy + (double)r * cell;
    int side = 0;
    long start = 0;
    for (long c = 0; c <= (long)w; c++) {
      int below = c < (long)w && solid_at(solid, w, h, c, r - 1);
      int above = c < (long)w && solid_at(solid, w, h, c, r);
      int s = below == above ? 0 : below ? 1 : 2;
      if (s == side) continue;
      double x0 = ox + (double)start * cell, x1 = ox + (double)c * cell;
      /* solid below (y up): run left to right keeps it on the right, so go
         right to left; solid above: left to right */
      if (side == 1) emit(out, cap, &n, v2(x1, y), v2(x0, y));
      if (side == 2) emit(out, cap, &n, v2(x0, y), v2(x1, y));
      side = s;
      start = c;
    }
  }
  /* vertical lines x = ox + c * cell between columns c - 1 and c */
  for (long c = 0; c <= (long)w; c++) {
    double x = ox + (double)c * cell;
    int side = 0;
    long start = 0;
    for (long r = 0; r <= (long)h; r++) {
      int left = r < (long)h && solid_at(solid, w, h, c - 1, r);
      int right = r < (long)h && solid_at(solid, w, h, c, r);
      int s = left == right ? 0 : left ? 1 : 2;
      if (s == side) continue;
      double y0 = oy + (double)start * cell, y1 = oy + (double)r * cell;
      /* solid on the left: upward keeps it on the left */
      if (side == 1) emit(out, cap, &n, v2(x, y0), v2(x, y1));
      if (side == 2) emit(out, cap, &n, v2(x, y1), v2(x, y0));
      side = s;
      start = r;
    }
  }
  return n;
}
