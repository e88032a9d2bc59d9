/* turn_fields.h - issue 14's agent fields in the harness: values in their
 * domain for op_set, and which agents the step oracle cannot follow
 * (part of fuzz_core.c; turn_ops.h has the operations). */

static const double TURN_PI = 3.14159265358979323846;

/* An agent whose integration leaves the plain pipeline (a turn limit on
   its velocity, a minimum speed): the step oracle does not follow it. */
static int bends_velocity(const steer_world *w, size_t i) {
  return steer_agent_get(w, i, STEER_TURN_VELOCITY) != 0 ||
         steer_agent_get(w, i, STEER_MIN_SPEED) > 0;
}

static void check_angle(const steer_world *w, size_t i) {
  double a = steer_agent_get(w, i, STEER_ANGLE);
  CHECK(a > -TURN_PI && a <= TURN_PI, "angle %.17g outside (-pi, pi]", a);
  CHECK(isfinite(steer_agent_get(w, i, STEER_ANGULAR_VELOCITY)),
        "angular velocity not finite");
}

/* op_set for the body fields: values in their domain, read back as the
   core keeps them. */
static void set_body_field(reader *r, harness *h, size_t i, steer_field f) {
  double v;
  switch (f) {
  case STEER_GROUP: v = u8(r) % 32; break;
  case STEER_GHOST:
  case STEER_TURN_VELOCITY: v = u8(r) & 1; break;
  case STEER_ANGLE:
  case STEER_ANGULAR_VELOCITY: v = num(r); break;
  default: v = nonneg(r); break;
  }
  int group = (int)steer_agent_get(h->w, i, STEER_GROUP);
  if (steer_agent_set(h->w, i, f, v) != STEER_OK) return; /* ENOMEM */
  double back = steer_agent_get(h->w, i, f);
  if (f == STEER_ANGLE)
    CHECK(back > -TURN_PI && back <= TURN_PI && fabs(remainder(back - v, 2 * TURN_PI)) <= 1e-9 * fmax(1, fabs(v)),
          "angle set to %.17g reads %.17g", v, back);
  else
    CHECK(back == v, "field %d set to %.17g reads %.17g", (int)f, v, back);
  if (f == STEER_GHOST)
    CHECK(steer_agent_get(h->w, i, STEER_GROUP) == group, "ghost changed group");
}

