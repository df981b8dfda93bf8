// A uniform latitude/longitude grid, the plain native reference: 0.05-degree rows, columns about
// as wide as they are tall at the middle latitude; each cell lists (in one flat array) every fence
// whose lat/lng box reaches it, with its unit vector and squared chord, so a fix reads its cell's
// run and tests each entry. Fast, and its memory grows with the fences' area in cells.
//   latlng_grid --fences F --fixes X [--reps R]
#include "peer.hpp"

int main(int argc, char** argv) {
  peer::Options options = peer::parse(argc, argv, "latlng_grid --fences F --fixes X [--reps R]");
  constexpr double kCellDegrees = 0.05;
  double south0 = 0, west0 = 0, rowsPerDegree = 0, columnsPerDegree = 0;
  long rows = 0, columns = 0;
  std::vector<uint32_t> start;  // rows * columns + 1 offsets into the entries
  std::vector<double> ex, ey, ez, elimit;
  std::vector<uint32_t> eid;
  auto build = [&](const peer::Fences& f) {
    size_t n = f.size();
    std::vector<double> s(n), no(n), w(n), e(n);
    double lo = 1e9, hi = -1e9, we = 1e9, ea = -1e9;
    for (size_t k = 0; k < n; ++k) {
      peer::cap_box(f.lat[k], f.lon[k], f.radius[k], s[k], no[k], w[k], e[k]);
      lo = std::min(lo, s[k]); hi = std::max(hi, no[k]); we = std::min(we, w[k]); ea = std::max(ea, e[k]);
    }
    south0 = lo; west0 = we;
    rowsPerDegree = 1 / kCellDegrees;
    columnsPerDegree = std::cos((lo + hi) / 2 * peer::kRadiansPerDegree) / kCellDegrees;
    rows = (long)((hi - lo) * rowsPerDegree) + 1;
    columns = (long)((ea - we) * columnsPerDegree) + 1;
    std::vector<uint32_t> count(rows * columns + 1, 0);
    auto each_cell = [&](size_t k, auto visit) {
      long r0 = std::max(0L, (long)((s[k] - south0) * rowsPerDegree));
      long r1 = std::min(rows - 1, (long)((no[k] - south0) * rowsPerDegree));
      long c0 = std::max(0L, (long)((w[k] - west0) * columnsPerDegree));
      long c1 = std::min(columns - 1, (long)((e[k] - west0) * columnsPerDegree));
      for (long r = r0; r <= r1; ++r)
        for (long c = c0; c <= c1; ++c) visit(r * columns + c);
    };
    for (size_t k = 0; k < n; ++k) each_cell(k, [&](long cell) { count[cell]++; });
    start.assign(rows * columns + 1, 0);
    uint64_t total = 0;
    for (long c = 0; c < rows * columns; ++c) { start[c] = (uint32_t)total; total += count[c]; }
    start[rows * columns] = (uint32_t)total;
    ex.resize(total); ey.resize(total); ez.resize(total); elimit.resize(total); eid.resize(total);
    std::vector<uint32_t> next(start.begin(), start.end() - 1);
    for (size_t k = 0; k < n; ++k) {
      peer::Vec3 v = peer::unit_vector(f.lat[k], f.lon[k]);
      double limit = peer::chord2(f.radius[k]);
      each_cell(k, [&](long cell) {
        uint32_t i = next[cell]++;
        ex[i] = v.x; ey[i] = v.y; ez[i] = v.z; elimit[i] = limit; eid[i] = f.id[k];
      });
    }
  };
  auto query = [&](const peer::Fences&, const peer::Fixes& x, peer::Tally& t) {
    for (size_t q = 0; q < x.size(); ++q) {
      double r = (x.lat[q] - south0) * rowsPerDegree, c = (x.lon[q] - west0) * columnsPerDegree;
      if (!(r >= 0 && c >= 0) || r >= rows || c >= columns) continue;
      long cell = (long)r * columns + (long)c;
      uint32_t b = start[cell], e = start[cell + 1];
      if (b == e) continue;
      peer::Vec3 p = peer::unit_vector(x.lat[q], x.lon[q]);
      t.candidates += e - b;
      for (uint32_t i = b; i < e; ++i) {
        double dx = ex[i] - p.x, dy = ey[i] - p.y, dz = ez[i] - p.z;
        if (dx * dx + dy * dy + dz * dz <= elimit[i]) t.hit(q, eid[i]);
      }
    }
  };
  peer::run("latlng_grid", options, build, query);
  return 0;
}
