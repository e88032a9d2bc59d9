/* orca_lanes.h - orca_agent_line in SIMD lanes, one neighbor per lane: a
 * template included once per width (orca.c: two SSE2 lanes; orca_quad.c:
 * four AVX lanes), as crowd_lanes.h is for the flocking walk. The includer
 * defines ORCA_LINES (the function's name), ORCA_LINES_SCOPE (static or
 * nothing), LANES_ATTR (the functions' target attribute, or nothing),
 * LANES, VEC, the V_* operations on VEC, and V_STORE_LINES (the lanes'
 * points and directions into LANES orca_lines).
 *
 * Neighbors k .. k + LANES - 1 go through the same operations as
 * orca_agent_line, both ways (the cut-off circle and a leg) worked out and
 * the lane's own kept (no branch to mispredict; a division and a square
 * root serve every lane). Returns the lanes (bit q: neighbor k + q) that
 * need what only the scalar code does: an overlap, or a cut-off w too short
 * or long for sqrt; their lines are not written. */

static LANES_ATTR VEC V_PICK(VEC mask, VEC a, VEC b) {
  return V_OR(V_AND(mask, a), V_ANDNOT(mask, b));
}

ORCA_LINES_SCOPE LANES_ATTR int ORCA_LINES(const orca_neighbors *nb, size_t k,
                                           steer_vec2 vel, double horizon,
                                           orca_line *out) {
  const VEC zero = V_ZERO(), sign = V_SET1(-0.0);
  const int all_lanes = (1 << LANES) - 1;
  VEC px = V_LOAD(nb->px + k), py = V_LOAD(nb->py + k);
  VEC vx = V_LOAD(nb->vx + k), vy = V_LOAD(nb->vy + k);
  VEC radius = V_LOAD(nb->radius + k);
  VEC dist2 = V_ADD(V_MUL(px, px), V_MUL(py, py));
  VEC r2 = V_MUL(radius, radius);
  VEC inv_h = V_SET1(1 / horizon);
  VEC wx = V_SUB(vx, V_MUL(px, inv_h));
  VEC wy = V_SUB(vy, V_MUL(py, inv_h));
  VEC w2 = V_ADD(V_MUL(wx, wx), V_MUL(wy, wy));
  VEC along = V_ADD(V_MUL(wx, px), V_MUL(wy, py));
  VEC cut = V_AND(V_LT(along, zero), V_GT(V_MUL(along, along), V_MUL(r2, w2)));
  VEC measurable = V_AND(V_GT(w2, V_SET1(1e-290)), V_LT(w2, V_SET1(1e300)));
  VEC fine = V_AND(V_GT(dist2, r2),
                   V_OR(V_ANDNOT(cut, V_EQ(zero, zero)), measurable));
  int scalar = all_lanes & ~V_MASK(fine);
  if (scalar == all_lanes) return scalar;
  /* nearest the cut-off circle */
  VEC wl = V_SQRT(w2);
  VEC nx = V_DIV(wx, wl), ny = V_DIV(wy, wl);
  VEC scale = V_SUB(V_DIV(radius, V_SET1(horizon)), wl);
  VEC cux = V_MUL(nx, scale), cuy = V_MUL(ny, scale);
  /* nearest a leg */
  VEC leg = V_SQRT(V_SUB(dist2, r2));
  VEC left = V_GT(V_SUB(V_MUL(px, wy), V_MUL(py, wx)), zero);
  VEC xl = V_MUL(px, leg), yl = V_MUL(py, leg);
  VEC xr = V_MUL(px, radius), yr = V_MUL(py, radius);
  VEC dx = V_PICK(left, V_SUB(xl, yr), V_XOR(V_ADD(xl, yr), sign));
  VEC dy = V_PICK(left, V_ADD(xr, yl), V_SUB(xr, yl));
  VEC inv = V_DIV(V_SET1(1), dist2);
  dx = V_MUL(dx, inv);
  dy = V_MUL(dy, inv);
  VEC along_dir = V_ADD(V_MUL(vx, dx), V_MUL(vy, dy));
  VEC lux = V_SUB(V_MUL(dx, along_dir), vx);
  VEC luy = V_SUB(V_MUL(dy, along_dir), vy);
  /* each lane its own way */
  VEC share = V_LOAD(nb->share + k);
  VEC ux = V_PICK(cut, cux, lux), uy = V_PICK(cut, cuy, luy);
  VEC dirx = V_PICK(cut, ny, dx), diry = V_PICK(cut, V_XOR(nx, sign), dy);
  VEC pointx = V_ADD(V_SET1(vel.x), V_MUL(ux, share));
  VEC pointy = V_ADD(V_SET1(vel.y), V_MUL(uy, share));
  V_STORE_LINES(pointx, pointy, dirx, diry, out);
  return scalar;
}
