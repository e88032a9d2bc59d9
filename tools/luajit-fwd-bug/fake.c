/* The C side of repro.lua: a getter and a setter the FFI calls, as steer's
   fast path calls steer_box_get / steer_box_set. */
#include <stdint.h>
static double vals[8];
int fake_get(void *b, uint64_t id, int code, double *out) { (void)b; (void)id; *out = vals[code]; return 0; }
int fake_set(void *b, uint64_t id, int code, double v) { (void)b; (void)id; vals[code] = v; return 0; }
