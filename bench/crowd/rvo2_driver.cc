// rvo2_driver.cc - runs one crowd scenario (bench/crowd/scenario format,
// written by crowd.lua) through the RVO2 library and prints the metrics of
// bench/crowd/README.md on one line. Our own code; RVO2 is only linked.
#include <ctime>
#include <cmath>
#include <cstdio>
#include <vector>
#include "RVO.h"

struct Metrics {
  long overlap = 0, deep = 0, steps = -1;
  double max_pen = 0, dv_sum = 0, path_ratio = 0, ms_per_step = 0;
  long dv_n = 0;
};

int main(int argc, char **argv) {
  if (argc < 2) return 2;
  FILE *f = std::fopen(argv[1], "r");
  if (!f) return 2;
  int n, nwalls, cap;
  double dt, radius, speed, nradius, horizon, ohorizon, slowing;
  int maxn;
  if (std::fscanf(f, "%d %d %d %lf %lf %lf %lf %d %lf %lf %lf", &n, &nwalls,
                  &cap, &dt, &radius, &speed, &nradius, &maxn, &horizon,
                  &ohorizon, &slowing) != 11)
    return 2;
  std::vector<double> x(n), y(n), gx(n), gy(n), len(n, 0), vx(n, 0), vy(n, 0);
  for (int i = 0; i < n; i++)
    if (std::fscanf(f, "%lf %lf %lf %lf", &x[i], &y[i], &gx[i], &gy[i]) != 4)
      return 2;
  // polygons: counter-clockwise vertex lists, one per line "k x1 y1 ..."
  std::vector<std::vector<RVO::Vector2>> polys;
  for (int k = 0; k < nwalls; k++) {
    int m;
    if (std::fscanf(f, "%d", &m) != 1) return 2;
    std::vector<RVO::Vector2> poly;
    for (int q = 0; q < m; q++) {
      double px, py;
      if (std::fscanf(f, "%lf %lf", &px, &py) != 2) return 2;
      poly.push_back(RVO::Vector2((float)px, (float)py));
    }
    polys.push_back(poly);
  }
  const std::vector<double> sx = x, sy = y; // the starts (x, y follow the run)
  // the same simulator twice: once for the metrics, once for the time
  auto build = [&](RVO::RVOSimulator &sim) {
    sim.setTimeStep((float)dt);
    sim.setAgentDefaults((float)nradius, (size_t)maxn, (float)horizon,
                         (float)ohorizon, (float)radius, (float)speed);
    for (int i = 0; i < n; i++) sim.addAgent(RVO::Vector2((float)sx[i], (float)sy[i]));
    for (const auto &poly : polys) sim.addObstacle(poly);
    sim.processObstacles();
  };
  auto prefer = [&](RVO::RVOSimulator &sim) { // towards the goals, slowing near them
    for (int i = 0; i < n; i++) {
      RVO::Vector2 p = sim.getAgentPosition(i);
      double dx = gx[i] - p.x(), dy = gy[i] - p.y(), d = std::sqrt(dx * dx + dy * dy);
      double s = d > 0 ? speed * std::fmin(1.0, d / slowing) / d : 0;
      sim.setAgentPrefVelocity(i, RVO::Vector2((float)(dx * s), (float)(dy * s)));
    }
  };
  RVO::RVOSimulator sim;
  build(sim);
  std::fclose(f);
  std::vector<double> straight(n);
  for (int i = 0; i < n; i++) straight[i] = std::hypot(gx[i] - x[i], gy[i] - y[i]);
  Metrics m;
  double clock = 0;
  double contact = 2 * radius;
  for (int step = 1; step <= cap; step++) {
    prefer(sim);
    sim.doStep();
    int arrived = 1;
    for (int i = 0; i < n; i++) {
      RVO::Vector2 p = sim.getAgentPosition(i), v = sim.getAgentVelocity(i);
      double ddx = v.x() - vx[i], ddy = v.y() - vy[i];
      m.dv_sum += std::sqrt(ddx * ddx + ddy * ddy);
      m.dv_n++;
      len[i] += std::sqrt((p.x() - x[i]) * (p.x() - x[i]) + (p.y() - y[i]) * (p.y() - y[i]));
      x[i] = p.x(); y[i] = p.y(); vx[i] = v.x(); vy[i] = v.y();
      if (std::hypot(gx[i] - x[i], gy[i] - y[i]) > 1) arrived = 0;
    }
    // overlaps (every pair; the bounding test first)
    for (int i = 0; i < n; i++)
      for (int j = i + 1; j < n; j++) {
        double dx = x[i] - x[j], dy = y[i] - y[j];
        if (std::fabs(dx) >= contact || std::fabs(dy) >= contact) continue;
        double pen = contact - std::sqrt(dx * dx + dy * dy);
        if (pen > 0) m.overlap++;
        if (pen > 0.1) m.deep++;
        if (pen > m.max_pen) m.max_pen = pen;
      }
    if (arrived) { m.steps = step; break; }
  }
  // the time: the same steps again, nothing between them (as crowd.lua
  // times steer's steps apart from its metrics); processor time, as
  // os.clock() measures steer's step: time spent waiting for a core on a
  // shared machine counts for neither. `clock` counts the preferred
  // velocities too, as steer's step works out its own (the program's
  // arrive entry); `step_clock` is doStep alone.
  double step_clock = 0;
  {
    RVO::RVOSimulator timed;
    build(timed);
    long steps = m.steps > 0 ? m.steps : cap;
    for (long step = 1; step <= steps; step++) {
      std::clock_t t0 = std::clock();
      prefer(timed);
      std::clock_t t1 = std::clock();
      timed.doStep();
      std::clock_t t2 = std::clock();
      clock += double(t2 - t0) / CLOCKS_PER_SEC;
      step_clock += double(t2 - t1) / CLOCKS_PER_SEC;
    }
  }
  double ratio = 0;
  for (int i = 0; i < n; i++) ratio += straight[i] > 0 ? len[i] / straight[i] : 1;
  m.path_ratio = ratio / n;
  long timed_steps = m.steps > 0 ? m.steps : cap;
  m.ms_per_step = clock * 1000 / timed_steps;
  return std::printf("overlap=%ld deep=%ld max_pen=%.4f steps=%ld dv=%.5f len=%.4f ms=%.4f ms_step=%.4f\n",
                     m.overlap, m.deep, m.max_pen, m.steps, m.dv_sum / m.dv_n,
                     m.path_ratio, m.ms_per_step,
                     step_clock * 1000 / timed_steps) < 0;
}
