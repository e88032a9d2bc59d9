/* measure.h - process CPU time and resident memory, as bench/run.lua
 * measures them for the Lua contestants. */
#ifndef BOIDS_MEASURE_H
#define BOIDS_MEASURE_H

/* CPU seconds used by this process. */
double cpu_seconds(void);
/* Seconds on a monotonic clock. */
double wall_seconds(void);
/* Resets the peak resident size (VmHWM) to the current one; 0 if it could. */
int rss_reset_peak(void);
/* "VmRSS" or "VmHWM" of /proc/self/status in kB, or -1. */
long rss_kb(const char *field);

#endif
