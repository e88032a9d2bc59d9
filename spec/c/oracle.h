/* oracle.h - the tally every C oracle of spec/c keeps: CHECK
 * counts a pass or a failure (printing the first few, with where and why),
 * and oracle_report prints the "N passed, N failed" line the specs read. */
#ifndef STEER_ORACLE_H
#define STEER_ORACLE_H

#include <stdio.h>

static int passed, failed;

#define CHECK(cond, ...)                            \
  do {                                              \
    if (cond) {                                     \
      passed++;                                     \
    } else {                                        \
      failed++;                                     \
      if (failed < 20) {                            \
        printf("FAIL %s:%d: ", __FILE__, __LINE__); \
        printf(__VA_ARGS__);                        \
        printf("\n");                               \
      }                                             \
    }                                               \
  } while (0)

/* The last line of the run; the process's exit status. */
static inline int oracle_report(void) {
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}

#endif
