// doorway_rvo2.cc - runs one doorway scenario (written by bench/doorway.lua)
// through the RVO2 library and prints the metrics bench/doorway.lua prints
// for steer, on one line. Our own code; RVO2 is only linked.
//
// Input: "n npoly steps dt radius speed nradius maxn horizon ohorizon
// through_x wx wy samples", then n lines "x y gx gy", then npoly lines
// "k x1 y1 ... xk yk" (counter-clockwise), then the sample steps.
// An agent heads for the waypoint (wx, wy) until its centre passes
// through_x, then for its own goal (gx, gy): preferred velocity towards it
// at max speed, slowing within speed * dt (as steer's arrive does).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include "RVO.h"

int main(int argc, char **argv) {
  if (argc < 2) return 2;
  FILE *f = std::fopen(argv[1], "r");
  if (!f) return 2;
  int n, npoly, steps, maxn, nsamples;
  double dt, radius, speed, nradius, horizon, ohorizon, through_x, wx, wy;
  if (std::fscanf(f, "%d %d %d %lf %lf %lf %lf %d %lf %lf %lf %lf %lf %d", &n, &npoly, &steps,
                  &dt, &radius, &speed, &nradius, &maxn, &horizon, &ohorizon, &through_x, &wx,
                  &wy, &nsamples) != 14)
    return 2;
  std::vector<double> gx(n), gy(n);
  RVO::RVOSimulator sim;
  sim.setTimeStep((float)dt);
  sim.setAgentDefaults((float)nradius, (size_t)maxn, (float)horizon, (float)ohorizon,
                       (float)radius, (float)speed);
  for (int i = 0; i < n; i++) {
    double x, y;
    if (std::fscanf(f, "%lf %lf %lf %lf", &x, &y, &gx[i], &gy[i]) != 4) return 2;
    sim.addAgent(RVO::Vector2((float)x, (float)y));
  }
  std::vector<std::vector<RVO::Vector2>> polys;
  for (int k = 0; k < npoly; k++) {
    int m;
    if (std::fscanf(f, "%d", &m) != 1) return 2;
    std::vector<RVO::Vector2> poly;
    for (int q = 0; q < m; q++) {
      double px, py;
      if (std::fscanf(f, "%lf %lf", &px, &py) != 2) return 2;
      poly.push_back(RVO::Vector2((float)px, (float)py));
    }
    sim.addObstacle(poly);
    polys.push_back(poly);
  }
  sim.processObstacles();
  // the polygons' bounding boxes (the walls are axis-aligned rectangles):
  // how deep a body goes into a wall
  std::vector<double> bx0, by0, bx1, by1;
  for (size_t k = 0; k < polys.size(); k++) {
    double x0 = 1e300, y0 = 1e300, x1 = -1e300, y1 = -1e300;
    for (const auto &v : polys[k]) {
      x0 = std::fmin(x0, v.x()); y0 = std::fmin(y0, v.y());
      x1 = std::fmax(x1, v.x()); y1 = std::fmax(y1, v.y());
    }
    bx0.push_back(x0); by0.push_back(y0); bx1.push_back(x1); by1.push_back(y1);
  }
  // DOORWAY_PERTURB: RVO2's Blocks example's perturbation of the preferred
  // velocity (a random offset up to 1/20,000 of the speed) against deadlocks
  // of perfect symmetry; a fixed-seed LCG, so runs repeat
  const bool perturb = std::getenv("DOORWAY_PERTURB") != nullptr;
  unsigned long lcg = 12345;
  auto uniform = [&lcg]() {
    lcg = (lcg * 1103515245UL + 12345UL) % 4294967296UL;
    return double(lcg) / 4294967296.0;
  };
  std::vector<int> samples(nsamples);
  for (int k = 0; k < nsamples; k++)
    if (std::fscanf(f, "%d", &samples[k]) != 1) return 2;
  std::fclose(f);

  std::vector<char> through(n, 0);
  int count = 0, next_sample = 0;
  long t50 = -1, t90 = -1, overlap = 0;
  double max_pen = 0, wall_pen = 0;
  const double contact = 2 * radius, deep = 0.1 * contact;
  long deep_steps = 0;
  std::printf("through");
  for (int step = 1; step <= steps; step++) {
    for (int i = 0; i < n; i++) {
      RVO::Vector2 p = sim.getAgentPosition(i);
      double tx = through[i] ? gx[i] : wx, ty = through[i] ? gy[i] : wy;
      double dx = tx - p.x(), dy = ty - p.y(), d = std::sqrt(dx * dx + dy * dy);
      double s = d > 0 ? speed * std::fmin(1.0, d / (speed * dt)) / d : 0;
      double px = dx * s, py = dy * s;
      if (perturb) {
        double angle = uniform() * 6.283185307179586, dist = uniform() * 5e-5 * speed;
        px += dist * std::cos(angle);
        py += dist * std::sin(angle);
      }
      sim.setAgentPrefVelocity(i, RVO::Vector2((float)px, (float)py));
    }
    sim.doStep();
    std::vector<double> x(n), y(n);
    for (int i = 0; i < n; i++) {
      RVO::Vector2 p = sim.getAgentPosition(i);
      x[i] = p.x();
      y[i] = p.y();
      if (!through[i] && x[i] > through_x) { through[i] = 1; count++; }
      for (size_t k = 0; k < bx0.size(); k++) {
        double ox = std::fmax(bx0[k] - x[i], std::fmax(0.0, x[i] - bx1[k]));
        double oy = std::fmax(by0[k] - y[i], std::fmax(0.0, y[i] - by1[k]));
        double inside = std::fmin(std::fmin(x[i] - bx0[k], bx1[k] - x[i]),
                                  std::fmin(y[i] - by0[k], by1[k] - y[i]));
        double pen = inside > 0 ? radius + inside : radius - std::sqrt(ox * ox + oy * oy);
        if (pen > wall_pen) wall_pen = pen;
      }
    }
    if (t50 < 0 && 2 * count >= n) t50 = step;
    if (t90 < 0 && 10 * count >= 9 * n) t90 = step;
    for (int i = 0; i < n; i++)
      for (int j = i + 1; j < n; j++) {
        double dx = x[i] - x[j], dy = y[i] - y[j];
        if (std::fabs(dx) >= contact || std::fabs(dy) >= contact) continue;
        double pen = contact - std::sqrt(dx * dx + dy * dy);
        if (pen > 0) overlap++;
        if (pen > deep) deep_steps++;
        if (pen > max_pen) max_pen = pen;
      }
    if (next_sample < nsamples && samples[next_sample] == step) {
      std::printf(" %d", count);
      next_sample++;
    }
  }
  std::printf(" t50=%ld t90=%ld overlap=%ld deep=%ld max_pen=%.4f wall_pen=%.4f\n", t50, t90,
              overlap, deep_steps, max_pen, wall_pen);
  return 0;
}
