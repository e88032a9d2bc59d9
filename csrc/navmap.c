/* navmap.c - reading the Moving AI benchmark map format into a grid. */
#include <stdio.h>
#include <string.h>
#include "navgrid.h"

typedef struct scanner {
  const char *s, *end;
} scanner;

/* The next line without its line ending; 0 at the end of the text. */
static int next_line(scanner *sc, const char **line, size_t *len) {
  if (sc->s >= sc->end) return 0;
  const char *nl = memchr(sc->s, '\n', (size_t)(sc->end - sc->s));
  const char *stop = nl ? nl : sc->end;
  *line = sc->s;
  *len = (size_t)(stop - sc->s);
  if (*len && (*line)[*len - 1] == '\r') (*len)--;
  sc->s = nl ? nl + 1 : sc->end;
  return 1;
}

/* "word N" with 1 <= N <= STEER_NAV_MAX_SIDE into *value. */
static int header_number(const char *line, size_t len, const char *word,
                         int *value) {
  size_t w = strlen(word);
  if (len <= w + 1 || memcmp(line, word, w) != 0 || line[w] != ' ') return 0;
  long v = 0;
  size_t k = w + 1;
  while (k < len && line[k] == ' ') k++;
  if (k == len) return 0;
  for (; k < len; k++) {
    if (line[k] < '0' || line[k] > '9') return 0;
    v = v * 10 + (line[k] - '0');
    if (v > STEER_NAV_MAX_SIDE) return 0;
  }
  if (v < 1) return 0;
  *value = (int)v;
  return 1;
}

/* The cost of a terrain character: 1 passable, 0 blocked, -1 unknown. */
static double terrain_cost(char c) {
  switch (c) {
  case '.': case 'G': case 'S': return 1;
  case '@': case 'O': case 'T': case 'W': return 0;
  default: return -1;
  }
}

steer_navgrid *steer_navgrid_from_map(const char *text, size_t n,
                                      double cell_size, steer_vec2 origin,
                                      const char **error) {
  scanner sc = {text, text + n};
  const char *line;
  size_t len;
  int width = 0, height = 0;
  const char *unread;
  if (!error) error = &unread; /* the caller wants no reason */
  *error = NULL;
  /* the only type the format has (Moving AI's maps are all octile) */
  if (!next_line(&sc, &line, &len) || len != 11 ||
      memcmp(line, "type octile", 11)) {
    *error = "the first line must be 'type octile'";
    return NULL;
  }
  if (!next_line(&sc, &line, &len) ||
      !header_number(line, len, "height", &height)) {
    *error = "the second line must be 'height H' (1 <= H <= 65536)";
    return NULL;
  }
  if (!next_line(&sc, &line, &len) ||
      !header_number(line, len, "width", &width)) {
    *error = "the third line must be 'width W' (1 <= W <= 65536)";
    return NULL;
  }
  if (!next_line(&sc, &line, &len) || len != 3 || memcmp(line, "map", 3)) {
    *error = "the fourth line must be 'map'";
    return NULL;
  }
  if ((size_t)width * (size_t)height > STEER_NAV_MAX_CELLS) {
    *error = "the map has more than 2^26 cells";
    return NULL;
  }
  steer_navgrid *g = steer_navgrid_create(width, height, cell_size, origin, NULL);
  if (!g) {
    *error = "not enough memory";
    return NULL;
  }
  static char message[96];
  for (int r = 0; r < height; r++) {
    if (!next_line(&sc, &line, &len) || len < (size_t)width) {
      snprintf(message, sizeof message, "map row %d is missing or shorter than %d",
               r, width);
      *error = message;
      break;
    }
    for (int c = 0; c < width; c++) {
      double cost = terrain_cost(line[c]);
      if (cost < 0) {
        snprintf(message, sizeof message,
                 "unknown terrain (byte %d) at column %d, row %d",
                 (unsigned char)line[c], c, r);
        *error = message;
        break;
      }
      g->cost[(size_t)r * width + c] = cost;
    }
    if (*error) break;
  }
  if (*error) {
    steer_navgrid_release(g);
    return NULL;
  }
  return g;
}
