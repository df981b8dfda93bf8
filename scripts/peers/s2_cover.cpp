// Google S2: each fence's S2RegionCoverer covering (at most 16 cells, levels 11-13) into a hash
// map from cell to the fences it lists; a fix looks up its leaf cell's ancestors at levels 11-13,
// then the squared-chord test.
//   s2_cover --fences F --fixes X [--reps R]
#include "peer.hpp"

#include <absl/container/flat_hash_map.h>
#include <s2/s2cap.h>
#include <s2/s2cell_id.h>
#include <s2/s2latlng.h>
#include <s2/s2region_coverer.h>

int main(int argc, char** argv) {
  peer::Options options = peer::parse(argc, argv, "s2_cover --fences F --fixes X [--reps R]");
  constexpr int kMinLevel = 11, kMaxLevel = 13, kMaxCells = 16;
  absl::flat_hash_map<uint64_t, std::vector<uint32_t>> cells;
  std::vector<peer::Vec3> centers;
  std::vector<double> limits;
  auto build = [&](const peer::Fences& f) {
    S2RegionCoverer::Options o;
    o.set_max_cells(kMaxCells);
    o.set_min_level(kMinLevel);
    o.set_max_level(kMaxLevel);
    S2RegionCoverer coverer(o);
    std::vector<S2CellId> covering;
    for (size_t k = 0; k < f.size(); ++k) {
      S2Point center = S2LatLng::FromDegrees(f.lat[k], f.lon[k]).ToPoint();
      coverer.GetCovering(S2Cap(center, S1Angle::Radians(f.radius[k] / peer::kEarthRadius)), &covering);
      for (S2CellId id : covering) cells[id.id()].push_back((uint32_t)k);
      centers.push_back(peer::Vec3{center.x(), center.y(), center.z()});
      limits.push_back(peer::chord2(f.radius[k]));
    }
  };
  auto query = [&](const peer::Fences& f, const peer::Fixes& x, peer::Tally& t) {
    for (size_t q = 0; q < x.size(); ++q) {
      S2Point p = S2LatLng::FromDegrees(x.lat[q], x.lon[q]).ToPoint();
      S2CellId leaf(p);
      for (int level = kMinLevel; level <= kMaxLevel; ++level) {
        auto it = cells.find(leaf.parent(level).id());
        if (it == cells.end()) continue;
        for (uint32_t k : it->second) {
          ++t.candidates;
          const peer::Vec3& c = centers[k];
          double dx = c.x - p.x(), dy = c.y - p.y(), dz = c.z - p.z();
          if (dx * dx + dy * dy + dz * dz <= limits[k]) t.hit(q, f.id[k]);
        }
      }
    }
  };
  peer::run("s2_cover", options, build, query);
  return 0;
}
