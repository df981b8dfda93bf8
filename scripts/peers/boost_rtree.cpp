// Boost.Geometry's R-tree (R* split, 16 entries per node) over each fence's lat/lng box, in
// cartesian degrees; candidates from intersects(point), then the squared-chord test.
//   boost_rtree packed|inserted --fences F --fixes X [--reps R]
// packed: the bulk-loading constructor; inserted: one insert per fence.
#include "peer.hpp"

#include <boost/geometry.hpp>
#include <boost/geometry/index/rtree.hpp>
#include <boost/iterator/function_output_iterator.hpp>
#include <memory>

namespace bg = boost::geometry;
namespace bgi = boost::geometry::index;
using Point = bg::model::point<double, 2, bg::cs::cartesian>;
using Box = bg::model::box<Point>;
using Entry = std::pair<Box, uint32_t>;  // box, fence index
using Tree = bgi::rtree<Entry, bgi::rstar<16>>;

int main(int argc, char** argv) {
  const char* usage = "boost_rtree packed|inserted --fences F --fixes X [--reps R]";
  if (argc < 2) peer::fail(std::string("usage: ") + usage);
  std::string mode = argv[1];
  if (mode != "packed" && mode != "inserted") peer::fail(std::string("usage: ") + usage);
  peer::Options options = peer::parse(argc - 1, argv + 1, usage);
  std::unique_ptr<Tree> tree;
  std::vector<peer::Disc> discs;  // by fence index: centre, squared chord and id in one record
  auto build = [&](const peer::Fences& f) {
    std::vector<Entry> entries(f.size());
    for (size_t k = 0; k < f.size(); ++k) {
      double s, n, w, e;
      peer::cap_box(f.lat[k], f.lon[k], f.radius[k], s, n, w, e);
      entries[k] = Entry(Box(Point(w, s), Point(e, n)), (uint32_t)k);
      discs.push_back(peer::disc(f.lat[k], f.lon[k], f.radius[k], f.id[k]));
    }
    if (mode == "packed") {
      tree.reset(new Tree(entries.begin(), entries.end()));
    } else {
      tree.reset(new Tree());
      for (auto& e : entries) tree->insert(e);
    }
  };
  auto query = [&](const peer::Fences&, const peer::Fixes& x, peer::Tally& t) {
    const peer::Disc* d = discs.data();
    peer::Tally local;  // in registers, not written through t per candidate
    for (size_t q = 0; q < x.size(); ++q) {
      peer::Vec3 p = peer::unit_vector(x.lat[q], x.lon[q]);
      tree->query(bgi::intersects(Point(x.lon[q], x.lat[q])),
                  boost::make_function_output_iterator([&](const Entry& e) {
                    ++local.candidates;
                    const peer::Disc& c = d[e.second];
                    if (peer::inside(c, p)) local.hit(q, c.id);
                  }));
    }
    t = local;
  };
  peer::run("boost_" + mode, options, build, query);
  return 0;
}
