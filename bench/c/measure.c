/* measure.c - CPU and wall time, resident memory of this process (Linux). */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "measure.h"

double cpu_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

double wall_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int rss_reset_peak(void) {
  /* writing 5 to clear_refs resets VmHWM (Linux >= 4.0) */
  FILE *f = fopen("/proc/self/clear_refs", "w");
  if (!f) return -1;
  int ok = fputs("5", f) >= 0;
  return fclose(f) == 0 && ok ? 0 : -1;
}

long rss_kb(const char *field) {
  FILE *f = fopen("/proc/self/status", "r");
  if (!f) return -1;
  char line[256];
  long kb = -1;
  size_t len = strlen(field);
  while (fgets(line, sizeof line, f)) {
    if (strncmp(line, field, len) == 0 && line[len] == ':') {
      sscanf(line + len + 1, "%ld", &kb);
      break;
    }
  }
  fclose(f);
  return kb;
}
