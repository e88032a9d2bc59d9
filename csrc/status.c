/* status.c - what each steer_status says, worded once for every caller. */
#include "steer.h"

const char *steer_status_message(steer_status s) {
  switch (s) {
  case STEER_OK: return "ok";
  case STEER_ENOMEM: return "not enough memory";
  case STEER_EINVAL: return "invalid argument";
  default: return "unknown status";
  }
}
