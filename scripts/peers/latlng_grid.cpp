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
  // The hot loop reads the entries through local restrict pointers and counts hits without a branch
  // (each entry's id is written, the output cursor advances only on a hit), so the compiler keeps
  // the fix's vector in registers and the misses cost no mispredicted branch.
  std::vector<uint32_t> found;
  auto query = [&](const peer::Fences&, const peer::Fixes& x, peer::Tally& t) {
    const double* __restrict X = ex.data();
    const double* __restrict Y = ey.data();
    const double* __restrict Z = ez.data();
    const double* __restrict L = elimit.data();
    const uint32_t* __restrict I = eid.data();
    const uint32_t* __restrict S = start.data();
    found.resize(peer::max_run(start));
    uint32_t* __restrict out = found.data();
    const double* lat = x.lat.data();
    const double* lon = x.lon.data();
    const double south = south0, west = west0, perRow = rowsPerDegree, perColumn = columnsPerDegree;
    const long nr = rows, nc = columns;
    uint64_t hits = 0, checksum = 0, candidates = 0;
    for (size_t q = 0, n = x.size(); q < n; ++q) {
      double r = (lat[q] - south) * perRow, c = (lon[q] - west) * perColumn;
      if (!(r >= 0 && c >= 0) || r >= nr || c >= nc) continue;
      long cell = (long)r * nc + (long)c;
      uint32_t b = S[cell], e = S[cell + 1];
      if (b == e) continue;
      peer::Vec3 p = peer::unit_vector(lat[q], lon[q]);
      uint32_t k = 0;
      for (uint32_t i = b; i < e; ++i) {
        double dx = X[i] - p.x, dy = Y[i] - p.y, dz = Z[i] - p.z;
        out[k] = I[i];
        k += dx * dx + dy * dy + dz * dz <= L[i];
      }
      uint64_t ids = 0;
      for (uint32_t j = 0; j < k; ++j) ids += out[j];
      candidates += e - b;
      hits += k;
      checksum += k * (q * 1000003ull) + ids;
    }
    t.hits += hits; t.checksum += checksum; t.candidates += candidates;
  };
  peer::run("latlng_grid", options, build, query);
  return 0;
}
