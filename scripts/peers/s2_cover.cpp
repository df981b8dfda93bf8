// Google S2: each fence's S2RegionCoverer covering (at most 16 cells, levels 11-13) into a hash
// map from cell to its run in one flat array of fence records (centre, squared chord, id); a fix
// looks up its leaf cell's ancestors at levels 11-13, then the squared-chord test on each record.
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
  absl::flat_hash_map<uint64_t, std::pair<uint32_t, uint32_t>> cells;  // cell -> [begin, end)
  std::vector<peer::Disc> entries;  // grouped by cell
  auto build = [&](const peer::Fences& f) {
    S2RegionCoverer::Options o;
    o.set_max_cells(kMaxCells);
    o.set_min_level(kMinLevel);
    o.set_max_level(kMaxLevel);
    S2RegionCoverer coverer(o);
    std::vector<S2CellId> covering;
    std::vector<std::pair<uint64_t, uint32_t>> pairs;  // (cell, fence index)
    for (size_t k = 0; k < f.size(); ++k) {
      S2Point center = S2LatLng::FromDegrees(f.lat[k], f.lon[k]).ToPoint();
      coverer.GetCovering(S2Cap(center, S1Angle::Radians(f.radius[k] / peer::kEarthRadius)), &covering);
      for (S2CellId id : covering) pairs.emplace_back(id.id(), (uint32_t)k);
    }
    std::sort(pairs.begin(), pairs.end());
    entries.reserve(pairs.size());
    for (size_t i = 0; i < pairs.size(); ++i) {
      uint32_t k = pairs[i].second;
      if (i == 0 || pairs[i].first != pairs[i - 1].first) cells[pairs[i].first] = {(uint32_t)i, (uint32_t)i};
      cells[pairs[i].first].second = (uint32_t)i + 1;
      entries.push_back(peer::disc(f.lat[k], f.lon[k], f.radius[k], f.id[k]));
    }
  };
  auto query = [&](const peer::Fences&, const peer::Fixes& x, peer::Tally& t) {
    const peer::Disc* d = entries.data();
    peer::Tally local;  // in registers, not written through t per candidate
    for (size_t q = 0; q < x.size(); ++q) {
      S2Point s = S2LatLng::FromDegrees(x.lat[q], x.lon[q]).ToPoint();
      peer::Vec3 p{s.x(), s.y(), s.z()};
      S2CellId leaf(s);
      for (int level = kMinLevel; level <= kMaxLevel; ++level) {
        auto it = cells.find(leaf.parent(level).id());
        if (it == cells.end()) continue;
        local.candidates += it->second.second - it->second.first;
        for (uint32_t i = it->second.first; i < it->second.second; ++i)
          if (peer::inside(d[i], p)) local.hit(q, d[i].id);
      }
    }
    t = local;
  };
  peer::run("s2_cover", options, build, query);
  return 0;
}
